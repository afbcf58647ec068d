"""Ranks against a brute-force count, on every store: the memory store, SQLite and PostgreSQL (rank pages,
livecore_server/live_events/sql/rank_pages.py) must give each entry as many entries ahead as a sort of the
whole list does, through ties, scores getting better and worse, removals (a merge moves an entry away)
and divisions, with pages small enough that they are cut and folded all along."""

from __future__ import annotations

import random
from typing import Any

import pytest

from livecore.leaderboards import commands as leaderboards_cmd
from livecore.live_events.boards import sort_key
from livecore.live_events.commands import boards as boards_cmd
from livecore.live_events.commands import live_events
from livecore.players.commands import first_contact
from livecore.scope import Environment
from livecore_server.leaderboards.sql import PAGES as SHARED_PAGES
from livecore_server.live_events.sql import rank_pages
from livecore_server.live_events.sql.boards import PAGES as BOARD_PAGES
from livecore_server.storage.schema import POSTGRES, SQLITE
from tests.postgres_support import require_postgres
from tests.server import test_postgres_store as on_every_store
from tests.server.test_postgres_store import Twin, _progress, _start, _submit

# The stores side by side, with a game of live events (events) or of shared boards (leagues).
twin, events, leagues = on_every_store.twin, on_every_store.events, on_every_store.leagues

PLAYERS = [f"p{i:02d}" for i in range(24)]


@pytest.fixture(autouse=True)
def small_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages of a few entries: two dozen players cut and fold them over and over."""
    require_postgres()
    monkeypatch.setattr(rank_pages, "SPLIT_ABOVE", 6)
    monkeypatch.setattr(rank_pages, "FOLD_BELOW", 2)


def _pages_agree(twin: Twin, pages: rank_pages.RankPages, list_id: str) -> int:
    """Each page of the SQL stores counts the entries from its start to the next page's; how many pages
    the list has."""
    for store in (twin.sqlite, twin.pg):
        with store.transaction(write=False) as tx:
            starts = tx.read(
                f"SELECT rank_key, reached_at, player_id, entries FROM {pages.pages} WHERE list_id = ?"
                " ORDER BY rank_key, reached_at, player_id",
                (list_id,),
            ).fetchall()
            keys = tx.read(
                f"SELECT rank_key, reached_at, player_id FROM {pages.entries} WHERE {pages.list_column} = ?"
                " ORDER BY rank_key, reached_at, player_id",
                (list_id,),
            ).fetchall()
        assert starts[0][:3] == rank_pages.FIRST
        bounds = [tuple(s[:3]) for s in starts[1:]]
        for i, start in enumerate(starts):
            end = bounds[i] if i < len(bounds) else None
            held = [k for k in keys if tuple(k) >= tuple(start[:3]) and (end is None or tuple(k) < end)]
            assert start[3] == len(held), (store, starts)
    return len(starts)


def _board_ranks_agree(twin: Twin, board_id: str) -> int:
    board = twin.read(lambda tx: tx.boards.get(twin.scope.game_id, board_id))
    ordered = twin.read(lambda tx: tx.boards.page(board, None, 1_000))
    brute = sorted(ordered, key=lambda row: sort_key(board.order, row[0]))
    assert ordered == brute
    assert twin.read(lambda tx: tx.boards.size(board.id)) == len(brute)
    for i, (entry, _) in enumerate(brute):
        key = sort_key(board.order, entry)
        assert twin.read(lambda tx, key=key: tx.boards.count_ahead(board, key)) == i
    if brute:
        who = brute[len(brute) // 2][1].external_id
        page = twin.do(
            lambda tx, rt: boards_cmd.read_board(tx, rt, twin.scope, board.id, limit=5, around=who)
        )
        first = page.standings[0]
        assert first.rank == 1 + next(i for i, (e, _) in enumerate(brute) if e == first.entry)
    return _pages_agree(twin, BOARD_PAGES, board.id)


def test_event_board_ranks_agree_with_a_brute_force_count(events: Twin) -> None:
    """The sprint (lower times first, the best attempt kept): ties of score and of time, better and worse
    scores (a force-complete replacing the best attempt's), another attempt, and merges moving an entry
    onto another player's."""
    twin, rng = events, random.Random(45)
    for name in PLAYERS:
        twin.do(lambda tx, rt, name=name: first_contact(tx, rt, twin.scope, name).id)
    attempts = {name: _start(twin, name, "sprint") for name in PLAYERS}
    board_id = attempts[PLAYERS[0]].board_id
    merged: set[str] = set()
    for step in range(120):
        name = rng.choice([p for p in PLAYERS if p not in merged])
        roll = rng.random()
        if roll < 0.7:
            _progress(twin, name, attempts[name], {"time": rng.randint(11, 16)})
        elif roll < 0.9:
            worse = rng.randint(30, 40)
            twin.do(
                lambda tx, rt, a=attempts[name], worse=worse: live_events.force_complete(
                    tx, rt, twin.scope, a.id, score=worse, actor_member_id="mem_1", reason=None
                )
            )
            attempts[name] = _start(twin, name, "sprint")
        elif len(merged) < 6:
            into = rng.choice([p for p in PLAYERS if p not in merged and p != name])
            twin.do(
                lambda tx, _rt, name=name, into=into: boards_cmd.merge_entries(
                    tx, twin.player(tx, name).id, twin.player(tx, into)
                )
            )
            merged.add(name)
        if rng.random() < 0.5:
            twin.advance(1)
        if step % 4 == 0:
            _board_ranks_agree(twin, board_id)
    assert _board_ranks_agree(twin, board_id) >= 3


def _period_ranks_agree(twin: Twin, key: str) -> int:
    period = twin.read(lambda tx: tx.leaderboards.open_period(twin.scope.game_id, Environment.TEST, key))
    ordered = twin.read(lambda tx: tx.leaderboards.page(period, None, None, 1_000))
    brute = sorted(ordered, key=lambda row: sort_key(period.settings.order, row[0]))
    assert ordered == brute
    assert twin.read(lambda tx: tx.leaderboards.size(period.id, None)) == len(brute)
    for i, (entry, _) in enumerate(brute):
        key_ = sort_key(period.settings.order, entry)
        assert twin.read(lambda tx, k=key_: tx.leaderboards.count_ahead(period, None, k)) == i
        division = entry.division_id
        if division is not None:
            mates = [e for e, _ in brute if e.division_id == division]
            ahead = twin.read(lambda tx, k=key_, d=division: tx.leaderboards.count_ahead(period, d, k))
            assert ahead == mates.index(entry)
    if brute and period.settings.divisions is None:
        who = brute[len(brute) // 2][1].external_id
        page = twin.do(lambda tx, rt: leaderboards_cmd.read(tx, rt, twin.scope, key, limit=5, around=who))
        first = page.standings[0]
        assert first.rank == 1 + next(i for i, (e, _) in enumerate(brute) if e == first.entry)
    return _pages_agree(twin, SHARED_PAGES, period.id)


def test_shared_board_ranks_agree_with_a_brute_force_count(leagues: Twin) -> None:
    """Sums going up and down (xp), the best kept (time), the latest in divisions (league), ties of
    score and of time, and merges moving entries onto other players'."""
    twin, rng = leagues, random.Random(46)
    for name in PLAYERS:
        twin.do(lambda tx, rt, name=name: first_contact(tx, rt, twin.scope, name).id)
    merged: set[str] = set()
    for step in range(150):
        name = rng.choice([p for p in PLAYERS if p not in merged])
        roll = rng.random()
        if roll < 0.9:
            key = rng.choice(("xp", "time", "league"))
            _submit(twin, key, name, rng.randint(-3, 3) if key == "xp" else rng.randint(1, 6))
        elif len(merged) < 6:
            into = rng.choice([p for p in PLAYERS if p not in merged and p != name])

            def merge(tx: Any, _rt: Any, name: str = name, into: str = into) -> None:
                leaderboards_cmd.merge_entries(tx, twin.player(tx, name).id, twin.player(tx, into))

            twin.do(merge)
            merged.add(name)
        if rng.random() < 0.5:
            twin.advance(1)
        if step % 5 == 0:
            for key in ("xp", "time", "league"):
                if twin.read(
                    lambda tx, k=key: tx.leaderboards.open_period(twin.scope.game_id, Environment.TEST, k)
                ):
                    _period_ranks_agree(twin, key)
    for key in ("xp", "time", "league"):
        assert _period_ranks_agree(twin, key) >= 3


def test_the_migration_pages_the_lists_already_entered(
    leagues: Twin, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The migrations' step (rank_pages.paged) pages every list from its entries alone, on both dialects;
    the pages it makes then move with the entries as any others."""
    twin, rng = leagues, random.Random(47)
    for name in PLAYERS:
        twin.do(lambda tx, rt, name=name: first_contact(tx, rt, twin.scope, name).id)
        _submit(twin, "xp", name, rng.randint(0, 9))
    monkeypatch.setattr(rank_pages, "PAGE", 4)
    with twin.sqlite.transaction() as tx:
        tx.execute("DELETE FROM shared_pages", ())
        tx.execute(rank_pages.paged(SHARED_PAGES, SQLITE), ())
    with twin.pg.connection() as conn:
        conn.execute("DELETE FROM shared_pages")
        conn.execute(rank_pages.paged(SHARED_PAGES, POSTGRES))
    assert _period_ranks_agree(twin, "xp") == 6  # 24 entries, 4 a page
    for name in rng.sample(PLAYERS, 12):
        _submit(twin, "xp", name, rng.randint(-9, 9))
    _period_ranks_agree(twin, "xp")
