"""Group commit for a game's write queue on PostgreSQL (docs/architecture.md, "Concurrency").

A game's writes run one at a time across every process (``PostgresStore.transaction(queue=...)``, a
session advisory lock). Handing that lock from one request's transaction to the next costs about as much
as the write itself: the next holder's thread has to wake up and win the GIL before its first statement
goes out. So the writes of one queue that wait in one process run together, one after another, in one
transaction on one worker thread, after reading ahead, in one round trip, what they declared they would
read (:mod:`.postgres_prefetch`): each in a SAVEPOINT of its own, so one that raises (a rule refused it,
a constraint failed) rolls back alone and answers its own error, and the group commits once. Every answer
waits for that COMMIT, so nothing is acknowledged before it is durable; a COMMIT that fails fails every
write of the group. A serialization failure (rare under the queue: only writers outside it race) runs the
whole group again from the start, as a single write's transaction would be.

While a group commits, the next one already waits in PostgreSQL for the queue's lock
(:meth:`QueueGroups._start_next`), so that the queue is not idle between two groups.

This is what the SQLite store does with its commit groups, with the same guarantees; the order of the
writes of a group is the order they arrived in.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import attrs
import psycopg

from livecore.commands.reads import Reads, union
from livecore_server.storage.answers import answer_from_thread

log = logging.getLogger("livecore_server.storage")

if TYPE_CHECKING:
    from concurrent.futures import Executor
    from contextlib import AbstractContextManager

    from livecore_server.storage.postgres_transaction import PostgresTransaction


class _Store(Protocol):
    """What the groups need of their store (:class:`~livecore_server.storage.postgres.PostgresStore`)."""

    @property
    def executor(self) -> Executor: ...

    attempts: int

    def transaction(self, *, queue: str | None = None) -> AbstractContextManager[PostgresTransaction]: ...


T = TypeVar("T")

# At most this many writes in one transaction: each is a subtransaction, and PostgreSQL keeps the ids of
# 64 per backend in shared memory before other sessions' visibility checks get slower.
MAX_GROUP = 32


@attrs.define
class _Write:
    fn: Callable[[PostgresTransaction], Any]
    future: asyncio.Future[tuple[Any, bool]]
    reads: Callable[[PostgresTransaction], Reads] | None  # what fn will read (postgres_prefetch)


@attrs.frozen
class _Refused:
    """A write of the group that raised: rolled back to its savepoint, its error answered to it alone."""

    error: Exception


@attrs.define
class _Queue:
    waiting: list[_Write] = attrs.Factory(list)  # for the next group
    # Worker threads writing the queue's groups: one, or two while the next group waits behind the COMMIT
    # of the one before (QueueGroups._start_next).
    drains: int = 0


class QueueGroups:
    """The writes of each queue waiting in this process, and the groups of each queue being written."""

    def __init__(self, store: _Store, retryable: tuple[type[Exception], ...]) -> None:
        self._store = store
        self._retryable = retryable
        self._lock = threading.Lock()
        self._queues: dict[str, _Queue] = {}  # a queue is here while a worker thread writes its groups

    async def run(
        self,
        fn: Callable[[PostgresTransaction], T],
        queue: str,
        reads: Callable[[PostgresTransaction], Reads] | None = None,
    ) -> tuple[T, bool]:
        """Run ``fn`` in the next group of ``queue``: its result, and whether its group emitted events.
        ``reads`` declares what ``fn`` will read: the group reads it ahead with its other writes'."""
        loop = asyncio.get_running_loop()
        write = _Write(fn, loop.create_future(), reads)
        with self._lock:
            q = self._queues.setdefault(queue, _Queue())
            q.waiting.append(write)
            start = q.drains == 0
            if start:
                q.drains = 1
        if start:
            try:
                # submit, not run_in_executor: nobody awaits the drain itself (it answers every write),
                # and its future would wake the loop once more when it ends.
                self._store.executor.submit(self._drain, queue)
            except BaseException as exc:  # the executor is shut down: the store is closing
                self._give_up(queue, exc)
        # shield: a request that goes away does not take its write out of a group already running.
        answer: tuple[T, bool] = await asyncio.shield(write.future)
        return answer

    def _drain(self, queue: str) -> None:
        """Write the groups of ``queue`` until none waits, or until another drain writes the next one
        (on a worker thread)."""
        group: list[_Write] = []
        try:
            while True:
                with self._lock:
                    q = self._queues[queue]
                    if not q.waiting or (group and q.drains > 1):
                        q.drains -= 1
                        if q.drains == 0:
                            del self._queues[queue]
                        return
                    group, q.waiting[:] = q.waiting[:MAX_GROUP], q.waiting[MAX_GROUP:]
                self._write_group(queue, group)
        except BaseException as exc:
            # Whatever went wrong here, no write may wait for a drain that is gone: answer them all
            # (those of the group already answered keep their answer).
            _answer_all(group, exc)
            self._give_up(queue, exc)
            if not isinstance(exc, Exception):
                raise
            log.exception("writing a commit group of %s failed", queue)

    def _start_next(self, queue: str) -> None:
        """Start writing the next group of ``queue`` while this one commits: its lock, BEGIN and reads
        ahead wait in PostgreSQL behind this group's COMMIT (the queue's lock, given back in the same
        round trip), instead of setting out only once the COMMIT has come back, so that the queue is
        never idle between two groups (docs/architecture.md, "The next group sets out behind the
        COMMIT")."""
        with self._lock:
            q = self._queues.get(queue)
            if q is None or not q.waiting or q.drains > 1:
                return
            q.drains += 1
        try:
            self._store.executor.submit(self._drain, queue)
        except RuntimeError:  # the store is closing: this drain takes the waiting writes after its group
            with self._lock:
                q.drains -= 1

    def _give_up(self, queue: str, error: BaseException) -> None:
        with self._lock:
            q = self._queues.get(queue)
            if q is None:
                return
            waiting, q.waiting = q.waiting, []
            q.drains -= 1
            if q.drains == 0:
                del self._queues[queue]
        _answer_all(waiting, error)

    def _write_group(self, queue: str, group: list[_Write]) -> None:
        store = self._store
        # First without waiting for each write's answers: a group then costs its prefetch's round trip
        # and its COMMIT's, whatever its size, and its inserts go out together (postgres_batches).
        # Should a statement fail, nothing says whose it was (it surfaces later, at the latest at the
        # COMMIT): the group runs again with each write waiting for its own answers, so that the failure
        # is its writer's alone.
        careful = False
        attempt = 0
        while True:
            try:
                with store.transaction(queue=queue) as tx:
                    # Carefully, each write's inserts go out as they come, inside its own savepoint.
                    tx.hold_writes(not careful)
                    declared = [_declared(write, tx) for write in group if write.reads is not None]
                    if declared:
                        tx.prefetch(union(declared))
                    outcomes = [_one(tx, write.fn, self._retryable, careful) for write in group]
                    self._start_next(queue)
                emitted = tx.emitted
            except self._retryable as exc:
                attempt += 1
                if attempt < store.attempts:
                    # Jittered backoff, so two losers of the same race do not meet again.
                    time.sleep(random.uniform(0.5, 1.5) * 0.001 * 2 ** (attempt - 1))
                    continue
                _answer_all(group, exc)
            except psycopg.Error as exc:
                if not careful:
                    careful = True
                    continue
                _answer_all(group, exc)  # the COMMIT or the connection: nothing of the group was applied
            except Exception as exc:
                _answer_all(group, exc)
            except BaseException as exc:
                _answer_all(group, exc)
                raise
            else:
                answer_from_thread(
                    (write.future, None, outcome.error)
                    if isinstance(outcome, _Refused)
                    else (write.future, (outcome, emitted), None)
                    for write, outcome in zip(group, outcomes, strict=True)
                )
            return


def _declared(write: _Write, tx: PostgresTransaction) -> Reads:
    """What a write declared it will read. A declaration that fails is a bug of its route's: the write
    then reads as it runs, and the others of the group are not affected (a database error is the
    group's, as any of its statements' is)."""
    assert write.reads is not None
    try:
        return write.reads(tx)
    except psycopg.Error:
        raise
    except Exception:
        log.exception("declaring the reads of a write failed; it reads as it runs")
        return Reads()


def _one(
    tx: PostgresTransaction,
    fn: Callable[[PostgresTransaction], Any],
    retryable: tuple[type[Exception], ...],
    careful: bool,
) -> Any:
    """One write of a group, in a savepoint: its result, or :class:`_Refused` when it raised (its
    statements rolled back). A serialization failure is the group's, not its own: it goes up. So does,
    unless ``careful``, a database error, which may be an earlier write's."""
    tx.savepoint()
    try:
        result = fn(tx)
        # careful: waits for the write's own unread statements, so that an error among them is its own,
        # not the next write's.
        tx.release_savepoint(wait=careful)
    except retryable:
        raise
    except Exception as exc:
        if isinstance(exc, psycopg.Error) and not careful:
            raise  # perhaps an earlier write's: the group runs again, carefully
        tx.rollback_to_savepoint(wait=careful)
        return _Refused(exc)
    return result


def _answer_all(group: list[_Write], error: BaseException) -> None:
    answer_from_thread((write.future, None, error) for write in group)
