"""The shared leaderboard commands on the in-memory store: scores, reads, divisions, feeds and rollovers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import attrs
import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.errors import INVALID_REQUEST, PERMISSION_DENIED, LivecoreError
from livecore.games import Entry, Game, GameSettings, RankBand, Resource, ResourceType, Studio
from livecore.grants.memory import GrantTables
from livecore.hashing import KeyedHasher
from livecore.leaderboards import commands as lb
from livecore.leaderboards.memory import LeaderboardTables
from livecore.leaderboards.rules import PeriodStatus
from livecore.leaderboards.settings import (
    LEADERBOARD_SETTINGS,
    Aggregation,
    Divisions,
    LeaderboardSettings,
    Period,
)
from livecore.live_events.commands import live_events as ev
from livecore.live_events.errors import LEADERBOARD_NOT_FOUND
from livecore.live_events.settings import EVENT_SETTINGS, EventSettings
from livecore.memory import MemoryStore
from livecore.players.commands import register
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope

MONDAY = datetime(2026, 11, 30, 9, tzinfo=UTC)
COINS = Entry(ResourceType.CURRENCY, "coins", 10)
WEEKLY = LeaderboardSettings(
    key="weekly-xp", name="Weekly XP", period=Period.WEEKLY, rank_rewards=(RankBand(1, 1, (COINS,)),)
)
LEAGUE = LeaderboardSettings(
    key="league",
    name="League",
    period=Period.WEEKLY,
    aggregation=Aggregation.BEST,
    divisions=Divisions(size=4, tiers=("bronze", "silver"), promote=1, relegate=1),
    rank_rewards=(RankBand(1, 1, (COINS,)),),
)
TRIAL = EventSettings(
    key="trial",
    name="Trial",
    starts_at=MONDAY,
    window_seconds=3600,
    attempt_seconds=600,
    score_metric="score",
    feeds=("weekly-xp",),
)
TEST = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)


class World:
    def __init__(self) -> None:
        self.store = MemoryStore()
        settings = GameSettings(
            resources={"coins": Resource("coins", ResourceType.CURRENCY)},
            sections={
                EVENT_SETTINGS: {"trial": TRIAL},
                LEADERBOARD_SETTINGS: {"weekly-xp": WEEKLY, "league": LEAGUE},
            },
        )
        self.store.add_game(Studio("std_1", "s"), Game("gam_1", "std_1", "g", "G", settings=settings))
        self.clock = ManualClock(MONDAY)
        self.rt = Runtime(self.clock, SeededRandomSource(3), KeyedHasher(b"k" * 32))

    def run(self, fn, *args, **kw):
        with self.store.transaction() as tx:
            return fn(tx, self.rt, *args, **kw)

    def score(self, key: str, who: str, score: int):
        return self.run(lb.submit, TEST, key, who, score)

    def page(self, key: str, **kw) -> list[tuple[int, str, float]]:
        page = self.run(lb.read, TEST, key, **kw)
        return [(s.rank, s.player.external_id, s.entry.score) for s in page.standings]

    def roll(self) -> None:
        """The scheduler's rollovers of whatever is due, a step at a time."""
        for period in self.run(lb.periods_due, 10):
            while not self.run(lb.rollover_step, period.game_id, period.id, 1):
                pass


@pytest.fixture
def world() -> World:
    return World()


def test_scores_sum_in_the_period_and_a_new_week_starts_empty(world):
    world.score("weekly-xp", "ada", 10)
    world.score("weekly-xp", "ada", 5)
    world.score("weekly-xp", "bo", 12)
    assert world.page("weekly-xp") == [(1, "ada", 15), (2, "bo", 12)]
    world.clock.set(MONDAY + timedelta(days=7))
    assert world.page("weekly-xp") == []
    assert world.page("weekly-xp", previous=False) == []
    world.roll()
    assert world.page("weekly-xp", previous=True) == [(1, "ada", 15), (2, "bo", 12)]


def test_a_rollover_pays_each_rank_band_once_and_announces_the_period(world):
    world.score("weekly-xp", "ada", 10)
    world.clock.set(MONDAY + timedelta(days=7))
    world.roll()
    world.roll()
    rank_grants = [
        g for g in world.store.tables_of(GrantTables).grants.values() if g.source_kind == "leaderboard_rank"
    ]
    assert [g.external_player_id for g in rank_grants] == ["ada"]
    finalized = [e for e in world.store.outbox if e.kind == "leaderboard.period_finalized"]
    assert len(finalized) == 1 and finalized[0].data["entryCount"] == 1


def test_divisions_fill_in_turn_and_rank_their_own_players(world):
    for i, name in enumerate(["a", "b", "c", "d", "e", "f"]):
        world.score("league", name, 10 * (i + 1))
    first = world.run(lb.read, TEST, "league", around="a")
    second = world.run(lb.read, TEST, "league", around="f")
    assert [s.player.external_id for s in first.standings] == ["d", "c", "b", "a"]
    assert [s.player.external_id for s in second.standings] == ["f", "e"]
    assert first.division.tier == second.division.tier == 0 and first.division.id != second.division.id


def test_the_best_of_each_division_is_promoted_and_plays_higher_next_period(world):
    for i, name in enumerate(["a", "b", "c", "d"]):
        world.score("league", name, 10 * (i + 1))
    world.clock.set(MONDAY + timedelta(days=7))
    world.roll()
    world.score("league", "d", 1)
    world.score("league", "a", 1)
    assert world.run(lb.read, TEST, "league", around="d").division.tier == 1
    assert world.run(lb.read, TEST, "league", around="a").division.tier == 0
    # Each division's rank 1 earned the band's reward.
    assert [g.external_player_id for g in world.store.tables_of(GrantTables).grants.values()] == ["d"]


def test_an_event_attempt_feeds_its_score_once_when_it_finishes(world):
    with world.store.transaction() as tx:
        ada = register(tx, world.rt, TEST, "ada").player
    attempt = world.run(ev.start, TEST, ada, "trial", None)
    world.run(ev.record_progress, TEST, ada, "trial", attempt.id, {"score": 30})
    assert world.page("weekly-xp") == []  # not before it finishes
    world.clock.set(MONDAY + timedelta(minutes=10))
    world.run(ev.expire_attempts, TEST.game_id)
    world.run(ev.expire_attempts, TEST.game_id)
    assert world.page("weekly-xp") == [(1, "ada", 30)]


def test_rollover_now_ends_the_period_now_and_the_next_runs_to_the_boundary(world):
    assert world.run(lb.rollover_now, TEST, "weekly-xp") is None  # no entries: nothing changes
    world.score("weekly-xp", "ada", 10)
    world.clock.set(MONDAY + timedelta(hours=1))
    ended = world.run(lb.rollover_now, TEST, "weekly-xp")
    assert ended is not None
    world.roll()
    assert world.store.tables_of(LeaderboardTables).periods[ended].status is PeriodStatus.FINALIZED
    current = world.run(lb.read, TEST, "weekly-xp").period
    assert (current.starts_at, current.ends_at) == (
        MONDAY + timedelta(hours=1),
        datetime(2026, 12, 7, tzinfo=UTC),
    )
    world.score("weekly-xp", "bo", 3)
    assert world.page("weekly-xp") == [(1, "bo", 3)]


def test_submissions_are_whole_numbers_of_a_known_board(world):
    with pytest.raises(LivecoreError) as exc:
        world.score("nope", "ada", 1)
    assert exc.value.code is LEADERBOARD_NOT_FOUND
    with pytest.raises(LivecoreError) as exc:
        world.score("weekly-xp", "ada", 2**53)
    assert exc.value.code is INVALID_REQUEST


def test_a_live_key_cannot_roll_over_now(world):
    with pytest.raises(LivecoreError) as exc:
        world.run(lb.rollover_now, attrs.evolve(TEST, env=Environment.LIVE), "weekly-xp")
    assert exc.value.code is PERMISSION_DENIED


def test_two_rollovers_now_at_one_instant_finalize_two_periods(world):
    world.score("weekly-xp", "ada", 10)
    first = world.run(lb.rollover_now, TEST, "weekly-xp")
    world.score("weekly-xp", "bo", 5)
    second = world.run(lb.rollover_now, TEST, "weekly-xp")  # the clock has not moved
    assert first is not None and second is not None and first != second
    world.roll()
    assert (
        world.store.tables_of(LeaderboardTables).periods[first].status
        is world.store.tables_of(LeaderboardTables).periods[second].status
        is PeriodStatus.FINALIZED
    )
    assert world.page("weekly-xp", period=first) == [(1, "ada", 10)]
    assert world.page("weekly-xp", previous=True) == [(1, "bo", 5)]
    assert world.run(lb.read, TEST, "weekly-xp").period.status is PeriodStatus.OPEN


def test_rollover_now_of_a_period_past_its_end_keeps_its_end(world):
    world.score("weekly-xp", "ada", 10)
    world.clock.set(MONDAY + timedelta(days=8))  # the scheduler has not run
    ended = world.run(lb.rollover_now, TEST, "weekly-xp")
    assert ended is not None
    world.roll()
    past = world.store.tables_of(LeaderboardTables).periods[ended]
    assert (past.status, past.ends_at) == (PeriodStatus.FINALIZED, datetime(2026, 12, 7, tzinfo=UTC))
    world.score("weekly-xp", "bo", 3)
    current = world.run(lb.read, TEST, "weekly-xp").period
    assert (current.starts_at, current.ends_at) == (
        datetime(2026, 12, 7, tzinfo=UTC),
        datetime(2026, 12, 14, tzinfo=UTC),
    )
