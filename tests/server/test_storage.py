"""Storage: SQLite migrations, events committed with their write (both stores), and no "database is
locked" on SQLite under concurrent load."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from livecore_server.registry import storage
from livecore_server.storage.sqlite import SqliteStore, migrate
from tests.conftest import World


def test_migrations_apply_once(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "m.db"), storage())
    names = [r[0] for r in store.conn.execute("SELECT name FROM _migrations ORDER BY rowid")]
    assert names == [name for name, _ in storage().history.sqlite]
    assert migrate(store.conn, storage().history.sqlite) == []
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.close()


async def test_concurrent_requests_with_an_outside_writer_never_see_locked(world: World) -> None:
    """Requests run while another connection (as `livecore-server apply` would) writes in a loop."""
    if world.on_postgres:
        pytest.skip("SQLite's file lock and busy timeout; PostgreSQL has neither")
    store = world.services.store
    assert isinstance(store, SqliteStore)
    stop = threading.Event()
    errors: list[BaseException] = []

    def outside_writer() -> None:
        conn = sqlite3.connect(store.path, timeout=5, isolation_level=None)
        try:
            while not stop.is_set():
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("UPDATE games SET updated_at = updated_at + 1")
                conn.execute("COMMIT")
                # A second process writes now and then (apply, an operator tool), not in a busy loop
                # that would starve every other writer of the file.
                stop.wait(0.002)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            conn.close()

    thread = threading.Thread(target=outside_writer)
    thread.start()
    try:
        results = await asyncio.gather(
            *(world.call("POST", f"/sdk/v1/players/p{i}/register", key="test-client") for i in range(60))
        )
    finally:
        stop.set()
        # Joined off the loop: a commit group the server opened meanwhile (the webhook fan-out of these
        # events) commits on the loop, and the writer may be waiting for exactly that lock.
        await asyncio.to_thread(thread.join)
    assert errors == []
    assert [r[0] for r in results] == [201] * 60
    assert world.event_kinds().count("player.registered") == 60


async def test_write_and_events_commit_together(world: World) -> None:
    await world.register("alice")
    rows = world.rows("SELECT kind FROM outbox ORDER BY seq")
    assert [r[0] for r in rows] == ["player.registered", "player.secret_set"]
    assert world.rows("SELECT count(*) FROM players") == [(1,)]


async def test_a_read_is_not_starved_by_a_chain_of_writes_each_awaited_before_the_next(
    tmp_path: Path,
) -> None:
    """A rollover's steps are writes one after another, each opening a commit group as the last one
    commits; a read waiting for a group still runs between two of them."""
    store = SqliteStore(str(tmp_path / "chain.db"), storage())
    store.conn.execute("CREATE TABLE steps (n INTEGER)")
    steps = 200
    started = asyncio.Event()

    def step(_tx: object) -> None:
        store.conn.execute("INSERT INTO steps VALUES (1)")
        started.set()

    async def chain() -> None:
        for _ in range(steps):
            await store.run_async(step)

    try:
        writing = asyncio.create_task(chain())
        await started.wait()
        for _ in range(10):  # to a turn of the loop in which the chain's next group is open
            if store._group is not None:
                break
            await asyncio.sleep(0)
        assert store._group is not None
        seen = await store.read(lambda _tx: store.conn.execute("SELECT COUNT(*) FROM steps").fetchone()[0])
        assert not writing.done()
        await writing
        assert 0 < seen < steps
    finally:
        store.close()


async def test_a_synchronous_run_from_another_thread_joins_the_loops_commit_group(tmp_path: Path) -> None:
    """Tests and tools run synchronous store code off the loop (PostgreSQL requires it); on SQLite the
    connection and its open commit group are the loop's, so the transaction is handed to the loop."""
    store = SqliteStore(str(tmp_path / "handed.db"), storage())
    store.conn.execute("CREATE TABLE steps (n INTEGER)")
    threads: set[int] = set()

    def step(n: int) -> Callable[[object], None]:
        def run(_tx: object) -> None:
            threads.add(threading.get_ident())
            store.conn.execute("INSERT INTO steps VALUES (?)", (n,))

        return run

    try:
        writes = [asyncio.create_task(store.run_async(step(n))) for n in range(3)]
        await asyncio.sleep(0)
        assert store._group is not None  # open on the loop while the other thread's write comes
        await asyncio.to_thread(store.run, step(3))
        await asyncio.gather(*writes)
        assert threads == {threading.get_ident()}
        rows = await store.read(lambda _tx: store.conn.execute("SELECT n FROM steps ORDER BY n").fetchall())
        assert [n for (n,) in rows] == [0, 1, 2, 3]
    finally:
        store.close()
