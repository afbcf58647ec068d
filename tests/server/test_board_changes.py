"""Board changes reach the store's board listeners (``on_board_changed``) once they commit, and never when
they roll back: on SQLite after the COMMIT of the transaction or of its commit group, on PostgreSQL
through NOTIFY on the connection that ``watch`` listens on, from this process or another."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.economy.commands import change
from livecore.economy.rules import Reason, resource
from livecore.games import Game
from livecore.hashing import KeyedHasher
from livecore.live_events.commands import live_events as cmd
from livecore.players.commands import first_contact, load_game
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore_server.registry import storage
from livecore_server.storage.postgres import PostgresStore
from livecore_server.storage.postgres_transaction import board_change, board_change_payload
from livecore_server.storage.records import settings_converter
from livecore_server.storage.sqlite import SqliteStore
from tests.core.events_machine import SETTINGS, T0
from tests.postgres_support import drop_store, new_store
from tests.waiting import until

SCOPE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
GAME = Game(id="gam_1", studio_id="std_1", key="g", name="G", settings=SETTINGS)
Change = tuple[str, int, str | None]


class Failed(Exception):
    pass


@contextlib.contextmanager
def sqlite_store() -> Iterator[SqliteStore]:
    store = SqliteStore(str(Path(tempfile.mkdtemp()) / "boards.db"), storage())
    store.conn.execute("INSERT INTO studios (id, key, created_at) VALUES ('std_1', 's', 0)")
    store.conn.execute(
        "INSERT INTO games (id, studio_id, key, name, settings, created_at, updated_at)"
        " VALUES ('gam_1', 'std_1', 'g', 'G', ?, 0, 0)",
        (orjson.dumps(settings_converter.unstructure(SETTINGS)).decode(),),
    )
    try:
        yield store
    finally:
        store.close()


def runtime() -> Runtime:
    return Runtime(
        clock=ManualClock(T0 + timedelta(minutes=1)), rng=SeededRandomSource(3), hasher=KeyedHasher(b"b" * 32)
    )


def scored(rt: Runtime, name: str, points: int, *, fail: bool = False) -> Callable[[Any], Change]:
    """A write that starts an attempt of ``name`` at the race and scores ``points`` (then raises, with
    ``fail``): the board change it makes."""

    def write(tx: Any) -> Change:
        player = tx.players.get(SCOPE.game_id, name) or first_contact(tx, rt, SCOPE, name)
        attempt = cmd.start(tx, rt, SCOPE, player, "race", None)
        done, _ = cmd.record_progress(tx, rt, SCOPE, player, "race", attempt.id, {"points": points})
        board = tx.boards.get(SCOPE.game_id, done.board_id)
        if fail:
            raise Failed
        return (board.id, board.version, player.id)

    return write


def credited(rt: Runtime, *names: str) -> Callable[[Any], None]:
    """Players with the coins the race's entry costs."""

    def write(tx: Any) -> None:
        game = load_game(tx, SCOPE)
        for name in names:
            player = first_contact(tx, rt, SCOPE, name)
            change(tx, rt, SCOPE, game, player, resource(game, "coins"), 100, Reason.SERVER_CREDIT)

    return write


def test_the_payload_names_the_board_its_version_and_the_player() -> None:
    assert board_change(board_change_payload("lb_1", 7, "plr_1")) == ("lb_1", 7, "plr_1")
    assert board_change(board_change_payload("lb_1", 8, None)) == ("lb_1", 8, None)


# --- SQLite -------------------------------------------------------------------------------------------


def test_sqlite_tells_a_committed_change_after_the_commit_and_never_a_rolled_back_one() -> None:
    rt = runtime()
    with sqlite_store() as store:
        heard: list[Change] = []
        store.on_board_changed(lambda *change: heard.append(change))
        store.run(credited(rt, "alice", "bob"))
        with store.transaction() as tx:
            alice = scored(rt, "alice", 30)(tx)
            assert heard == []  # not before the COMMIT
        assert heard == [alice]
        with pytest.raises(Failed):
            store.run(scored(rt, "bob", 40, fail=True))
        assert heard == [alice]
        # The board's own change (finalized at the window's close): no player.
        rt.clock.advance(3_600)  # type: ignore[attr-defined]

        def close(tx: Any) -> None:
            for window in cmd.due_windows(tx, rt, 10):
                cmd.close_window(tx, rt, window.id, window.game_id)

        store.run(close)
        assert heard == [alice, (alice[0], alice[1] + 1, None)]


async def test_sqlite_tells_a_commit_groups_changes_after_its_commit_without_its_failed_writes() -> None:
    rt = runtime()
    with sqlite_store() as store:
        heard: list[Change] = []
        store.on_board_changed(lambda *change: heard.append(change))
        await store.run_async(credited(rt, "alice", "bob", "carol"))
        writes = [
            asyncio.ensure_future(store.run_async(scored(rt, "alice", 30))),
            asyncio.ensure_future(store.run_async(scored(rt, "bob", 40, fail=True))),
            asyncio.ensure_future(store.run_async(scored(rt, "carol", 50))),
        ]
        results = await asyncio.gather(*writes, return_exceptions=True)
        assert isinstance(results[1], Failed)
        assert heard == [results[0], results[2]]


# --- PostgreSQL ---------------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def listening(store: PostgresStore, heard: list[Change]) -> AsyncIterator[None]:
    """``heard`` gets every board change ``store`` hears while the block runs."""
    up = asyncio.Event()
    store.on_board_changed(lambda *change: heard.append(change))
    task = asyncio.create_task(store.watch(lambda _: None, lambda ok: up.set() if ok else up.clear()))
    try:
        await asyncio.wait_for(up.wait(), 10)
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


@pytest.fixture
def pg_pair() -> Iterator[tuple[PostgresStore, PostgresStore]]:
    """Two stores on one schema, as two server processes."""
    here = new_store()
    there = None
    try:
        here.put_game(GAME)
        there = PostgresStore(here.dsn, schema=here.schema, areas=storage())
        yield here, there
    finally:
        if there is not None:
            there.close()
        drop_store(here)


async def test_postgres_tells_every_process_a_committed_change_and_no_process_a_rolled_back_one(
    pg_pair: tuple[PostgresStore, PostgresStore],
) -> None:
    here, there = pg_pair
    rt = runtime()
    heard_here: list[Change] = []
    heard_there: list[Change] = []
    async with listening(here, heard_here), listening(there, heard_there):
        await here.run_async(credited(rt, "alice", "bob"))
        with pytest.raises(Failed):
            await there.run_async(scored(rt, "bob", 40, fail=True))
        alice = await there.run_async(scored(rt, "alice", 30))
        # Notifications arrive in commit order: once the committed one is heard, the rolled-back one
        # would have been heard before it.
        await until(lambda: heard_here and heard_there, "the change, in both processes")
        assert heard_here == heard_there == [alice]


async def test_postgres_tells_a_commit_groups_changes_without_its_failed_writes(
    pg_pair: tuple[PostgresStore, PostgresStore],
) -> None:
    here, there = pg_pair
    rt = runtime()
    heard: list[Change] = []
    async with listening(there, heard):
        await here.run_async(credited(rt, "alice", "bob", "carol"))
        queue = f"game:{SCOPE.game_id}"
        results = await asyncio.gather(
            here.run_async(scored(rt, "alice", 30), queue=queue),
            here.run_async(scored(rt, "bob", 40, fail=True), queue=queue),
            here.run_async(scored(rt, "carol", 50), queue=queue),
            return_exceptions=True,
        )
        assert isinstance(results[1], Failed)
        await until(lambda: len(heard) >= 2, "both committed changes")
        # A last change, heard after anything the group sent.
        last = await here.run_async(scored(rt, "bob", 60))
        await until(lambda: last in heard, "the last change")
        assert sorted(heard, key=lambda c: c[1]) == [results[0], results[2], last]
