"""Every read of the shared leaderboards port is an index look-up, on SQLite and on PostgreSQL, as
tests/server/test_boards_query_plans.py checks for event boards (and with its helpers): no full scan, no
sort but a page's bounded cut, on a game whose boards hold a few hundred entries and divisions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.hashing import KeyedHasher
from livecore.leaderboards import commands as lb
from livecore.live_events.boards import sort_key
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore_server.storage.sqlite import SqliteStore
from tests.core.leaderboards_machine import SETTINGS, T0
from tests.server.test_boards_query_plans import (
    POSTGRES_SCAN,
    SQLITE_SCAN,
    _plans,
    _without_limited_cuts,
    store_with_game,
)

SCOPE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
PLAYERS = 300


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest) -> Iterator[Any]:
    yield from store_with_game(request.param, SETTINGS)


def _filled(store: Any) -> Runtime:
    """Two days of scores on every board (the first day's periods finalized), the second day's due."""
    rt = Runtime(clock=ManualClock(T0), rng=SeededRandomSource(4), hasher=KeyedHasher(b"q" * 32))

    def day(tx: Any) -> None:
        for n in range(PLAYERS):
            for key in ("xp", "time", "league", "cup", "ever"):
                lb.submit(tx, rt, SCOPE, key, f"p{n}", n % 97)

    def roll(tx: Any) -> None:
        for period in lb.periods_due(tx, rt, 100):
            while not lb.rollover_step(tx, rt, SCOPE.game_id, period.id):
                pass

    store.run(day)
    rt.clock.advance(86_400)
    store.run(roll)
    store.run(day)
    rt.clock.advance(86_400)
    if isinstance(store, SqliteStore):
        store.conn.execute("ANALYZE")
    else:
        store.run(lambda tx: tx.execute("ANALYZE"))
    return rt


def test_every_read_of_shared_leaderboards_is_an_index_look_up(store: Any) -> None:
    rt = _filled(store)
    now = rt.clock.now()

    def reads(tx: Any) -> None:
        player = tx.players.get(SCOPE.game_id, "p9")
        ports = tx.leaderboards
        for key in ("xp", "league"):
            period = ports.open_period(SCOPE.game_id, Environment.TEST, key)
            ports.period(SCOPE.game_id, period.id)
            ports.latest_finalized(SCOPE.game_id, Environment.TEST, key)
            entry = ports.entry(period.id, player.id)
            at = sort_key(period.settings.order, entry)
            for division in (None, entry.division_id):
                ports.page(period, division, None, 50)
                ports.page(period, division, at, 50)
                ports.page_before(period, division, at, 25)
                ports.count_ahead(period, division, at)
                ports.size(period.id, division)
        ports.periods_due(now, 10)
        ports.open_period(SCOPE.game_id, Environment.TEST, "ever")  # the all-time period: no start
        ports.division(period.id, entry.division_id)
        ports.newest_division(period.id, 0)
        ports.divisions_from(period.id, 10, 5)
        ports.top_division(period.id)
        ports.entries_of(player.id)
        ports.tier(SCOPE.game_id, Environment.TEST, "league", player.id)
        ports.tiers_of(player.id)

    plans = _plans(store, reads)
    scan = SQLITE_SCAN if isinstance(store, SqliteStore) else POSTGRES_SCAN
    checked = [(s, plan) for s, plan in plans if "FROM players" not in s or "shared_entries" in s]
    assert len(checked) >= 35
    for statement, plan in checked:
        assert not scan.search(_without_limited_cuts(plan)), f"{statement}\n{plan}"
