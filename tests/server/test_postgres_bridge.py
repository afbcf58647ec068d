"""The PostgreSQL store's transactions on the event loop (livecore_server.storage.postgres_bridge): they run
on the loop's thread, the loop serves others while one waits for the database, no more of them run than
there are connections, a cancelled one gives its connection's locks back, and the same connections still
block their thread outside the loop (the CLI)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

import psycopg
import pytest

from livecore_server.storage.postgres import PostgresStore
from livecore_server.storage.postgres_bridge import await_only, run_bridged
from tests.postgres_support import scratch_store
from tests.waiting import until

POOL = 2
EVERY_CONNECTION = POOL + 1  # the pool's: one more than the loop runs at once
GATE = 81_081  # the advisory lock a test's transactions wait for


@pytest.fixture
def store() -> Iterator[PostgresStore]:
    with scratch_store("CREATE TABLE t (k TEXT PRIMARY KEY, v INT NOT NULL)", pool_size=POOL) as s:
        yield s


def _read(key: str) -> Any:
    def fn(tx: Any) -> Any:
        row = tx.execute("SELECT v FROM t WHERE k = ?", (key,)).fetchone()
        return None if row is None else row[0]

    return fn


def _backend(tx: Any) -> tuple[int, int]:
    return tx.execute("SELECT pg_backend_pid()").fetchone()[0], threading.get_ident()


async def test_transactions_run_on_the_loops_thread(store: PostgresStore) -> None:
    loop_thread = threading.get_ident()
    for run in (
        store.read(_backend),
        store.run_async(_backend),
        store.lookup(_backend),
        store.autocommit(_backend),
    ):
        _, thread = await run
        assert thread == loop_thread


async def test_the_loop_serves_others_while_a_transaction_waits_for_the_database(
    store: PostgresStore,
) -> None:
    async def key_held() -> None:
        await store.run_async(lambda tx: tx.execute("SELECT pg_advisory_xact_lock(7), pg_sleep(0.3)"))

    # The sleep holds the database's answer; meanwhile the loop answers a read on the other connection.
    slow = asyncio.create_task(key_held())
    await until(lambda: _sleepers(store) > 0, "the first transaction sleeping in PostgreSQL")
    assert await store.read(_read("a")) is None
    assert not slow.done()
    await slow


async def test_more_transactions_than_connections_wait_for_one_on_the_loop(store: PostgresStore) -> None:
    async def put(i: int) -> None:
        await store.run_async(lambda tx: tx.execute("INSERT INTO t (k, v) VALUES (?, ?)", (f"k{i}", i)))

    await asyncio.wait_for(asyncio.gather(*(put(i) for i in range(10 * POOL))), 30)
    count = await store.read(lambda tx: tx.execute("SELECT count(*) FROM t").fetchone()[0])
    assert count == 10 * POOL


async def test_a_transaction_cancelled_while_it_waits_gives_its_locks_back(store: PostgresStore) -> None:
    held = asyncio.create_task(
        store.run_async(lambda tx: tx.execute("SELECT pg_advisory_xact_lock(11), pg_sleep(30)"))
    )
    await until(lambda: _lock_held(store, 11), "the advisory lock taken")
    held.cancel()
    with pytest.raises(asyncio.CancelledError):
        await held
    # Its connection was closed, so its transaction ended: the lock is free at once, not in 30 s.
    got = await asyncio.wait_for(
        store.run_async(lambda tx: tx.execute("SELECT pg_try_advisory_xact_lock(11)").fetchone()[0]), 10
    )
    assert got is True


def _lock_held(store: PostgresStore, key: int) -> bool:
    with psycopg.connect(store.dsn, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = %s AND granted", (key,)
        ).fetchone()
    return row is not None and row[0] > 0


@contextlib.asynccontextmanager
async def _every_connection_held(store: PostgresStore) -> AsyncIterator[None]:
    """Every connection of the pool held by a thread (as when PostgreSQL accepts none) until the block
    ends."""
    held, release = threading.Event(), threading.Event()

    def hold_every_connection() -> None:
        with contextlib.ExitStack() as stack:
            for _ in range(EVERY_CONNECTION):
                stack.enter_context(store.connection())
            held.set()
            release.wait(30)

    holder = asyncio.create_task(asyncio.to_thread(hold_every_connection))
    await until(held.is_set, "the pool's connections held")
    try:
        yield
    finally:
        release.set()
        await holder


async def test_the_loop_serves_on_while_a_transaction_waits_for_a_connection(store: PostgresStore) -> None:
    # A transaction of the loop waits for a connection, and the loop goes on meanwhile.
    async with _every_connection_held(store):
        waiting = asyncio.create_task(store.read(_read("a")))
        # The loop runs other work while the read waits: this wait's polling is such work.
        await until(lambda: _waiting_for_a_connection(store), "the read waiting for a connection")
        assert not waiting.done()
    assert await asyncio.wait_for(waiting, 10) is None


async def test_a_transaction_gone_while_it_waits_for_a_connection_leaves_it_in_the_pool(
    store: PostgresStore,
) -> None:
    async with _every_connection_held(store):
        gone = asyncio.create_task(store.read(_read("a")))
        await until(lambda: _waiting_for_a_connection(store), "the read waiting for a connection")
        gone.cancel()
        with pytest.raises(asyncio.CancelledError):
            await gone
    # The connection the cancelled request's thread was handed went back: the pool serves POOL at once.
    reads = [store.read(lambda tx: tx.execute("SELECT pg_sleep(0.2)").fetchone()) for _ in range(POOL)]
    await asyncio.wait_for(asyncio.gather(*reads), 10)


async def test_a_synchronous_run_on_the_loops_thread_finds_a_connection(store: PostgresStore) -> None:
    # The loop's transactions hold every connection they may, and wait for PostgreSQL: a synchronous
    # run on the loop's thread (it holds the loop up) still gets one, instead of waiting for theirs.
    gate = f"SELECT pg_advisory_xact_lock_shared({GATE})"
    with psycopg.connect(store.dsn, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s)", (GATE,))
        waiting = [
            asyncio.create_task(store.read(lambda tx: tx.execute(gate).fetchone())) for _ in range(POOL)
        ]
        await until(
            lambda: _sessions(store, "active", gate) == POOL, "every transaction of the loop in PostgreSQL"
        )
        assert store.run(_read("a"), write=False) is None
        holder.execute("SELECT pg_advisory_unlock(%s)", (GATE,))
    await asyncio.gather(*waiting)


async def test_a_synchronous_write_on_the_loops_thread_is_refused(store: PostgresStore) -> None:
    # Its waits would stop the loop, and with it a paused transaction holding a lock it waits for.
    released = asyncio.Event()

    def hold(tx: Any) -> None:
        tx.execute("INSERT INTO t (k, v) VALUES ('a', 1)")
        tx.execute("SELECT 'holding-a'").fetchone()
        await_only(released.wait())

    holding = asyncio.create_task(store.run_async(hold))
    await until(lambda: _holders(store) == 1, "the write holding its row, paused on the loop")
    with pytest.raises(RuntimeError, match="run_async"):
        store.run(lambda tx: tx.execute("INSERT INTO t (k, v) VALUES ('a', 2)"))
    with pytest.raises(RuntimeError, match="run_async"), store.transaction(write=False, queue="g1"):
        pass
    released.set()
    await holding
    # On a thread of its own it waits for PostgreSQL as the CLI does, while the loop goes on.
    await asyncio.to_thread(store.run, lambda tx: tx.execute("UPDATE t SET v = 2 WHERE k = 'a'"))
    assert store.run(_read("a"), write=False) == 2


def _sessions(store: PostgresStore, state: str, query: str) -> int:
    """How many other sessions are in ``state`` with a statement containing ``query``."""
    with psycopg.connect(store.dsn, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE state = %s AND query LIKE %s"
            " AND pid <> pg_backend_pid()",
            (state, f"%{query}%"),
        ).fetchone()
    return 0 if row is None else int(row[0])


def _waiting_for_a_connection(store: PostgresStore) -> bool:
    return int(store._pool.get_stats().get("requests_waiting", 0)) > 0


def _holders(store: PostgresStore) -> int:
    return _sessions(store, "idle in transaction", "holding-a")


def _sleepers(store: PostgresStore) -> int:
    return _sessions(store, "active", "pg_sleep(0.3)")


async def test_a_failed_statement_raises_in_its_own_request_only(store: PostgresStore) -> None:
    await store.run_async(lambda tx: tx.execute("INSERT INTO t (k, v) VALUES ('a', 1)"))
    outcomes = await asyncio.gather(
        store.lookup(_read("a")),
        store.lookup(lambda tx: tx.execute("SELECT 1 / 0").fetchone()),
        store.lookup(_read("a")),
        return_exceptions=True,
    )
    assert outcomes[0] == outcomes[2] == 1
    assert isinstance(outcomes[1], psycopg.errors.DivisionByZero)


async def test_lookups_read_what_is_committed_when_they_run(store: PostgresStore) -> None:
    assert await store.lookup(_read("b")) is None
    await store.run_async(lambda tx: tx.execute("INSERT INTO t (k, v) VALUES ('b', 7)"))
    assert await store.lookup(_read("b")) == 7


async def test_outside_the_loop_the_connections_block_their_thread(store: PostgresStore) -> None:
    # The CLI's way: store.run on a thread of its own, beside the loop's transactions.
    await asyncio.to_thread(store.run, lambda tx: tx.execute("INSERT INTO t (k, v) VALUES ('c', 3)"))
    assert await store.read(_read("c")) == 3


async def test_a_closed_store_refuses_work(store: PostgresStore) -> None:
    store.close()
    with pytest.raises(RuntimeError, match="closed"):
        await store.lookup(_read("a"))


async def test_await_only_needs_a_bridged_caller() -> None:
    pause = asyncio.sleep(0)
    with pytest.raises(RuntimeError, match="outside run_bridged"):
        await_only(pause)
    await pause  # refused, not dropped: the caller still holds it

    def sums(a: int, b: int) -> int:
        await_only(asyncio.sleep(0))
        return a + b

    assert await run_bridged(sums, 2, 3) == 5


async def test_an_error_awaited_for_bridged_code_is_raised_in_it() -> None:
    async def fails() -> None:
        raise KeyError("from the loop")

    def catches() -> str:
        try:
            await_only(fails())
        except KeyError as exc:
            return f"caught {exc.args[0]}"
        return "not raised"

    assert await run_bridged(catches) == "caught from the loop"
