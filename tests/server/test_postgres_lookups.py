"""Look-ups on PostgreSQL (livecore_server.storage.postgres_lookups): those that arrive while a worker
thread runs look-ups wait for it and run together on one connection, each answering its own result or
error; and answers from worker threads wake each loop once (livecore_server.storage.answers)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

import psycopg
import pytest

from livecore_server.storage.answers import answer_from_thread
from livecore_server.storage.postgres import PostgresStore
from tests.postgres_support import scratch_store
from tests.waiting import until


@pytest.fixture
def store() -> Iterator[PostgresStore]:
    with scratch_store("CREATE TABLE t (k TEXT PRIMARY KEY, v INT NOT NULL)") as s:
        yield s


def _where(value: Any) -> Any:
    """A look-up answering ``value`` with the backend and the thread it ran on."""

    def fn(tx: Any) -> tuple[Any, int, int]:
        pid = tx.execute("SELECT pg_backend_pid()").fetchone()[0]
        return value, pid, threading.get_ident()

    return fn


@contextlib.asynccontextmanager
async def _lookup_worker_held(store: PostgresStore) -> AsyncIterator[None]:
    """A first look-up holds the store's look-up worker until the block ends (the look-ups started
    inside wait for it together)."""
    started, release = threading.Event(), threading.Event()

    def holder(tx: Any) -> str:
        started.set()
        release.wait(10)
        return "holder"

    first = asyncio.create_task(store.lookup(holder))
    assert await asyncio.to_thread(started.wait, 10)
    try:
        yield
    finally:
        release.set()
        assert await first == "holder"


async def _waiting(store: PostgresStore, count: int) -> None:
    """Until ``count`` look-ups wait for the look-up worker."""
    lookups = store._lookups
    await until(
        lambda: len(lookups._waiting) == count, lambda: f"{len(lookups._waiting)} of {count} look-ups waiting"
    )


async def _behind_a_running_lookup(store: PostgresStore, fns: list[Any]) -> list[Any]:
    """Start ``fns`` as look-ups while a first look-up holds the look-up worker; their outcomes."""
    async with _lookup_worker_held(store):
        rest = [asyncio.create_task(store.lookup(fn)) for fn in fns]
        await _waiting(store, len(fns))
    return await asyncio.gather(*rest, return_exceptions=True)


async def test_lookups_that_arrive_while_one_runs_run_together_on_one_connection(
    store: PostgresStore,
) -> None:
    outcomes = await _behind_a_running_lookup(store, [_where(i) for i in range(6)])
    assert [value for value, _, _ in outcomes] == list(range(6))  # each its own answer, in order
    assert len({pid for _, pid, _ in outcomes}) == 1  # one connection
    assert len({thread for _, _, thread in outcomes}) == 1  # one hop to one worker thread


async def test_a_lookup_that_raises_answers_its_own_error_only(store: PostgresStore) -> None:
    await store.run_async(lambda tx: tx.execute("INSERT INTO t (k, v) VALUES ('a', 1)"))

    def broken(tx: Any) -> Any:
        return tx.execute("SELECT 1 / 0").fetchone()

    def read(tx: Any) -> Any:
        row = tx.execute("SELECT v FROM t WHERE k = 'a'").fetchone()
        return None if row is None else row[0]

    outcomes = await _behind_a_running_lookup(store, [read, broken, read, _bug, read])
    assert outcomes[0] == outcomes[2] == outcomes[4] == 1  # the same connection goes on after an error
    assert isinstance(outcomes[1], psycopg.errors.DivisionByZero)
    assert isinstance(outcomes[3], LookupError)


def _bug(tx: Any) -> Any:
    raise LookupError("a look-up's own bug")


async def test_lookups_read_what_is_committed_when_they_run(store: PostgresStore) -> None:
    def read(tx: Any) -> Any:
        row = tx.execute("SELECT v FROM t WHERE k = 'b'").fetchone()
        return None if row is None else row[0]

    assert await store.lookup(read) is None
    await store.run_async(lambda tx: tx.execute("INSERT INTO t (k, v) VALUES ('b', 7)"))
    assert await store.lookup(read) == 7


async def test_a_lookup_that_went_away_leaves_the_others_answered(store: PostgresStore) -> None:
    async with _lookup_worker_held(store):
        gone = asyncio.create_task(store.lookup(_where("gone")))
        kept = asyncio.create_task(store.lookup(_where("kept")))
        await _waiting(store, 2)
        gone.cancel()
    assert (await kept)[0] == "kept"
    with pytest.raises(asyncio.CancelledError):
        await gone
    assert (await store.lookup(_where("after")))[0] == "after"  # the worker is free for the next


async def test_a_lookup_on_a_closed_store_fails(store: PostgresStore) -> None:
    store.close()
    with pytest.raises(RuntimeError, match="closed"):
        await store.lookup(_where(1))


def test_answers_from_a_worker_thread_wake_each_loop_once() -> None:
    loop = asyncio.new_event_loop()
    wakeups = 0
    original = loop.call_soon_threadsafe

    def counting(*args: Any, **kwargs: Any) -> Any:
        nonlocal wakeups
        wakeups += 1
        return original(*args, **kwargs)

    loop.call_soon_threadsafe = counting  # type: ignore[method-assign]
    try:
        futures = [loop.create_future() for _ in range(5)]
        futures[3].cancel()  # a request that went away: skipped, not an error
        error = ValueError("refused")
        answers = [(f, i, None) for i, f in enumerate(futures)]
        answers[1] = (futures[1], None, error)
        worker = threading.Thread(target=answer_from_thread, args=(answers,))
        worker.start()
        worker.join()
        loop.run_until_complete(asyncio.wait(futures))
        assert wakeups == 1
        assert [futures[i].result() for i in (0, 2, 4)] == [0, 2, 4]
        assert futures[1].exception() is error
        assert futures[3].cancelled()
    finally:
        loop.close()
