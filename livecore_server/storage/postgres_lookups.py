"""Look-ups that wait together for one worker thread, on PostgreSQL (docs/architecture.md, "Look-ups
together").

Most writes first look up their idempotency record outside their game's queue, so that a replay is
answered without queueing (``livecore_server.http.endpoint``). Each such look-up used to take a worker
thread and a connection of its own: a hand-off to the thread, a wake-up of the loop with the answer, and
the GIL handed back and forth for a statement of some 20 µs in PostgreSQL. Here the look-ups that arrive
while one worker runs look-ups wait for it, and it runs them all, one after another on one connection,
then answers them with one wake-up of the loop. Under load a look-up waits at most for the look-ups
ahead of it; alone, it runs at once, as before.

Each look-up's statements still run without a transaction around them (each reads what is committed
when it runs, as :meth:`PostgresStore.autocommit`), and one that raises answers its own error only.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import attrs

from livecore_server.storage.answers import Answer, answer_from_thread

if TYPE_CHECKING:
    from concurrent.futures import Executor
    from contextlib import AbstractContextManager

    import psycopg

from livecore_server.storage.postgres_transaction import PostgresTransaction, Shared


class _Store(Shared, Protocol):
    """What the look-ups need of their store (:class:`~livecore_server.storage.postgres.PostgresStore`)."""

    @property
    def executor(self) -> Executor: ...

    def connection(self) -> AbstractContextManager[psycopg.Connection[Any]]: ...


T = TypeVar("T")


@attrs.frozen
class _Lookup:
    fn: Callable[[PostgresTransaction], Any]
    future: asyncio.Future[Any]


class Lookups:
    """The look-ups of one store waiting for, or being run by, its look-up worker thread."""

    def __init__(self, store: _Store) -> None:
        self._store = store
        self._lock = threading.Lock()
        self._waiting: list[_Lookup] = []
        self._running = False  # a worker thread is running look-ups (it takes the waiting ones)

    async def run(self, fn: Callable[[PostgresTransaction], T]) -> T:
        lookup = _Lookup(fn, asyncio.get_running_loop().create_future())
        with self._lock:
            self._waiting.append(lookup)
            start = not self._running
            self._running = True
        if start:
            try:
                self._store.executor.submit(self._drain)
            except RuntimeError as exc:  # the executor is shut down: the store is closing
                self._stop(exc)
        result: T = await lookup.future
        return result

    def _drain(self) -> None:
        """Run the waiting look-ups until none waits (on a worker thread)."""
        batch: list[_Lookup] = []
        try:
            while True:
                with self._lock:
                    batch, self._waiting = self._waiting, []
                    if not batch:
                        self._running = False
                        return
                answer_from_thread(self._run(batch))
        except BaseException as exc:  # a bug or an interrupt: no look-up may wait for a drain that is gone
            answer_from_thread((lookup.future, None, exc) for lookup in batch)  # those answered keep theirs
            self._stop(exc)
            raise

    def _run(self, batch: list[_Lookup]) -> list[Answer]:
        answers: list[Answer] = []
        try:
            with self._store.connection() as conn:
                for lookup in batch:
                    try:
                        result = lookup.fn(PostgresTransaction(conn, self._store))  # type: ignore[abstract]
                        answers.append((lookup.future, result, None))
                    except Exception as exc:
                        answers.append((lookup.future, None, exc))
        except Exception as exc:  # no connection (the pool timed out or is closed): the rest fail with it
            answers += [(lookup.future, None, exc) for lookup in batch[len(answers) :]]
        return answers

    def _stop(self, error: BaseException) -> None:
        with self._lock:
            waiting, self._waiting = self._waiting, []
            self._running = False
        answer_from_thread((lookup.future, None, error) for lookup in waiting)
