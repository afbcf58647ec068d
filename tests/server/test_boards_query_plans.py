"""Every read of the windows, attempts and boards ports is an index look-up, on SQLite and on PostgreSQL:
each statement a port method runs is explained, on a game with several boards of a few dozen entries,
and its plan holds no full scan (SQLite's ``SCAN``, PostgreSQL's ``Seq Scan``) and no sort for an
order (the index gives it). A page is cut from the board's index in a subquery with a ``LIMIT`` before it
is joined to its players: SQLite materializes that cut and may scan and sort it, at most ``limit`` rows,
which is allowed; a scan of anything else is not. PostgreSQL explains with sequential scans and sorts
disabled, so that a small table's cheap scan does not hide a missing index: a plan that still has one had no
index to use."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.games import Game, GameSettings
from livecore.hashing import KeyedHasher
from livecore.live_events.boards import sort_key
from livecore.live_events.commands import live_events as cmd
from livecore.players.commands import first_contact
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore_server.registry import storage
from livecore_server.storage.records import settings_converter
from livecore_server.storage.sqlite import SqliteStore
from tests.core.events_machine import SETTINGS, T0
from tests.postgres_support import drop_store, new_store

SCOPE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
PLAYERS = 400
COUNTRIES = ("FR", "DE", "IT", "ES", "PT", "NL", "BE", "AT")  # a board of 50 entries each

SQLITE_SCAN = re.compile(r"\bSCAN (?!CONSTANT ROW)(?!.*VIRTUAL TABLE)(\w+)|TEMP B-TREE FOR ORDER BY")
POSTGRES_SCAN = re.compile(r"Seq Scan|Sort")
MATERIALIZED = re.compile(r"MATERIALIZE (\w+)")


def _without_limited_cuts(plan: str) -> str:
    """SQLite's plan less the scan and sort of a materialized ``LIMIT`` subquery (a page's cut)."""
    for name in MATERIALIZED.findall(plan):
        plan = plan.replace(f"SCAN {name}", "").replace("USE TEMP B-TREE FOR ORDER BY", "")
    return plan


def store_with_game(kind: str, settings: GameSettings) -> Iterator[Any]:
    """A fresh SQLite or PostgreSQL store holding the game ``gam_1`` with ``settings``."""
    game = Game(id="gam_1", studio_id="std_1", key="g", name="G", settings=settings)
    if kind == "sqlite":
        sqlite = SqliteStore(str(Path(tempfile.mkdtemp()) / "plans.db"), storage())
        sqlite.conn.execute("INSERT INTO studios (id, key, created_at) VALUES ('std_1', 's', 0)")
        sqlite.conn.execute(
            "INSERT INTO games (id, studio_id, key, name, settings, created_at, updated_at)"
            " VALUES ('gam_1', 'std_1', 'g', 'G', ?, 0, 0)",
            (orjson.dumps(settings_converter.unstructure(settings)).decode(),),
        )
        try:
            yield sqlite
        finally:
            sqlite.close()
        return
    pg = new_store()
    try:
        pg.put_game(game)
        yield pg
    finally:
        drop_store(pg)


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest) -> Iterator[Any]:
    yield from store_with_game(request.param, SETTINGS)


def _filled(store: Any) -> Runtime:
    """PLAYERS players, each with a sprint attempt with a time on the board of their country."""
    rt = Runtime(
        clock=ManualClock(T0 + timedelta(minutes=31)),
        rng=SeededRandomSource(4),
        hasher=KeyedHasher(b"q" * 32),
    )

    def fill(tx: Any) -> None:
        for n in range(PLAYERS):
            player = first_contact(tx, rt, SCOPE, f"p{n}")
            attempt = cmd.start(tx, rt, SCOPE, player, "sprint", {"country": COUNTRIES[n % len(COUNTRIES)]})
            cmd.record_progress(tx, rt, SCOPE, player, "sprint", attempt.id, {"time": 20 + n % 97})

    store.run(fill)
    if isinstance(store, SqliteStore):
        store.conn.execute("ANALYZE")
    else:
        store.run(lambda tx: tx.execute("ANALYZE"))
    return rt


def _plans(store: Any, reads: Callable[[Any], None]) -> list[tuple[str, str]]:
    """Each statement ``reads`` runs, with its plan."""
    seen: list[tuple[str, Sequence[Any]]] = []
    with store.transaction() as tx:
        read = tx.read

        def recorded(statement: str, params: Sequence[Any] = ()) -> Any:
            seen.append((statement, params))
            return read(statement, params)

        tx.read = recorded
        try:
            reads(tx)
        finally:
            tx.read = read
        if isinstance(store, SqliteStore):
            return [
                (s, " | ".join(str(r[3]) for r in read(f"EXPLAIN QUERY PLAN {s}", p).fetchall()))
                for s, p in seen
            ]
        tx.execute("SET LOCAL enable_seqscan = off")
        tx.execute("SET LOCAL enable_sort = off")
        return [(s, "\n".join(str(r[0]) for r in read(f"EXPLAIN {s}", p).fetchall())) for s, p in seen]


def test_every_read_of_windows_attempts_and_boards_is_an_index_look_up(store: Any) -> None:
    rt = _filled(store)
    now = rt.clock.now()

    def reads(tx: Any) -> None:
        player = tx.players.get(SCOPE.game_id, "p9")
        attempt = tx.attempts.recent(player.id, 10)[0]
        window = tx.windows.get(SCOPE.game_id, attempt.window_id)
        tx.windows.open_of(SCOPE.game_id, Environment.TEST, "sprint")
        tx.windows.due_to_close(now, 10)
        tx.attempts.get(SCOPE.game_id, attempt.id)
        tx.attempts.of_player_in_window(player.id, window.id)
        tx.attempts.in_progress_in_window(window.id, 10)
        tx.attempts.past_end(now, 10)
        tx.attempts.counts(player.id)
        board = tx.boards.get(SCOPE.game_id, attempt.board_id)
        tx.boards.of_window(window.id)
        entry = tx.boards.entry(board.id, player.id)
        tx.boards.entries_of(player.id)
        tx.boards.page(board, None, 50)
        tx.boards.page(board, sort_key(board.order, entry), 50)
        tx.boards.page_before(board, sort_key(board.order, entry), 25)
        tx.boards.count_ahead(board, sort_key(board.order, entry))
        tx.boards.size(board.id)
        tx.games.every()

    plans = _plans(store, reads)
    scan = SQLITE_SCAN if isinstance(store, SqliteStore) else POSTGRES_SCAN
    # The games' ids (every): a deployment's few games, read whole on purpose.
    checked = [(s, plan) for s, plan in plans if not s.startswith("SELECT id FROM games")]
    assert len(checked) >= 19
    for statement, plan in checked:
        assert not scan.search(_without_limited_cuts(plan)), f"{statement}\n{plan}"
