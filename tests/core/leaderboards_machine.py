"""A hypothesis state machine over shared leaderboards against a model, for any store.

Rules: scores submitted by the studio (boards that sum, keep the best or the latest; higher or lower is
better; with and without divisions; an all-time board), the manual clock across period boundaries, one
rollover step of a due period (a small batch of divisions, so a rollover spans several steps with scores
and reads in between), a step cut short (its transaction fails after the step: nothing of it stays),
rollover-now, and reads (``limit``, ``cursor``, ``around``, a named division, ``previous``).

Invariants: each player's entry of a period is the model's aggregation of their scores (its time moves
only when its score changes); every period's entries, in board order, are the model's; ``periods_due``
is the model's; divisions hold at most ``size`` players and their member counts are their entries;
tiers move by ``livecore.leaderboards.rules.tier_after``; rank rewards are paid once per (period, division,
rank in a band) to the player holding the rank, however many steps the rollover took;
``leaderboard.period_finalized`` is emitted once per finalized period.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import attrs
import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.errors import LivecoreError
from livecore.games import Entry, GameSettings, Order, RankBand, Resource, ResourceType
from livecore.hashing import KeyedHasher
from livecore.leaderboards import commands as lb
from livecore.leaderboards.rules import BoardPeriod, division_id, opened_now, regular_period, tier_after
from livecore.leaderboards.settings import (
    LEADERBOARD_SETTINGS,
    Aggregation,
    Divisions,
    LeaderboardSettings,
    Period,
)
from livecore.live_events.boards import paid_ranks
from livecore.players.commands import first_contact
from livecore.rand import SeededRandomSource
from livecore.scope import Scope

T0 = datetime(2026, 3, 2, 22, 0, tzinfo=UTC)  # two hours before a day's end
PLAYERS = ("a", "b", "c", "d", "e", "f", "g")
BATCH = 2  # divisions per rollover step: a league's rollover takes several


def _coins(n: int) -> tuple[Entry, ...]:
    return (Entry(ResourceType.CURRENCY, "coins", n),)


BOARDS = {
    "xp": LeaderboardSettings(
        key="xp",
        name="XP",
        period=Period.DAILY,
        rank_rewards=(RankBand(1, 1, _coins(10)), RankBand(2, 3, _coins(5))),
    ),
    "time": LeaderboardSettings(
        key="time",
        name="Time",
        order=Order.ASC,
        period=Period.DAILY,
        aggregation=Aggregation.BEST,
        rank_rewards=(RankBand(1, 2, _coins(3)),),
    ),
    "league": LeaderboardSettings(
        key="league",
        name="League",
        period=Period.DAILY,
        aggregation=Aggregation.LATEST,
        divisions=Divisions(size=2, tiers=("bronze", "silver", "gold"), promote=1, relegate=1),
        rank_rewards=(RankBand(1, 1, _coins(7)),),
    ),
    "cup": LeaderboardSettings(
        key="cup",
        name="Cup",
        order=Order.ASC,
        period=Period.WEEKLY,
        aggregation=Aggregation.SUM,
        divisions=Divisions(size=3, tiers=("low", "high"), promote=1, relegate=2),
        rank_rewards=(RankBand(1, 2, _coins(2)),),
    ),
    "ever": LeaderboardSettings(key="ever", name="Ever", aggregation=Aggregation.BEST),
}
SETTINGS = GameSettings(
    resources={"coins": Resource("coins", ResourceType.CURRENCY)}, sections={LEADERBOARD_SETTINGS: BOARDS}
)

StoreFactory = Callable[[], tuple[Any, Scope]]  # a store with a game configured as SETTINGS


def outbox_of(store: Any) -> list[Any]:
    from tests.core.events_machine import outbox_of as events_outbox

    return events_outbox(store)


@attrs.define
class MPeriod:
    record: BoardPeriod  # as it opened
    ends_at: datetime | None
    status: str = "open"
    through: int = 0

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def key(self) -> str:
        return self.record.board_key

    @property
    def starts_at(self) -> datetime | None:
        return self.record.starts_at


@attrs.define
class MEntry:
    score: float
    reached_at: datetime
    division: str | None


class Interrupted(Exception):
    """A rollover step's transaction failing after the step (a crash, a lost connection)."""


def make_machine(factory: StoreFactory) -> type[RuleBasedStateMachine]:
    class LeaderboardsMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.store, self.scope = factory()
            self.clock = ManualClock(T0)
            self.rt = Runtime(clock=self.clock, rng=SeededRandomSource(7), hasher=KeyedHasher(b"l" * 32))
            self.ids: dict[str, str] = {}
            with self.store.transaction() as tx:
                for p in PLAYERS:
                    self.ids[p] = first_contact(tx, self.rt, self.scope, p).id
            self.external = {pid: p for p, pid in self.ids.items()}
            self.periods: dict[str, MPeriod] = {}
            self.entries: dict[tuple[str, str], MEntry] = {}  # (period id, player id)
            self.divisions: dict[str, tuple[str, int, int]] = {}  # id -> (period id, tier, number)
            self.tiers: dict[tuple[str, str], int] = {}  # (board key, player id)
            self.paid: Counter[tuple[str, str | None, int, str]] = Counter()  # period, division, rank, player
            self.finalized: Counter[str] = Counter()

        # --- the model --------------------------------------------------------------------------
        def now(self) -> datetime:
            return self.clock.now()

        def open_of(self, key: str) -> MPeriod | None:
            found = [p for p in self.periods.values() if p.key == key and p.status == "open"]
            return max(found, key=lambda p: (p.starts_at is not None, p.starts_at, p.id), default=None)

        def taking(self, key: str) -> MPeriod:
            """The period a score goes to now, opened (or ended) as the rules say."""
            open_ = self.open_of(key)
            if open_ is not None and (open_.ends_at is None or self.now() < open_.ends_at):
                return open_
            if open_ is not None:
                open_.status = "finalizing"
            regular = regular_period(self.scope.game_id, self.scope.env, BOARDS[key], self.now())
            if regular.id not in self.periods:
                self.periods[regular.id] = MPeriod(regular, regular.ends_at)
            return self.periods[regular.id]

        def ordered(self, period_id: str, division: str | None = None) -> list[tuple[str, MEntry]]:
            period = self.periods.get(period_id)
            if period is None:  # a period read before its first score: not opened yet
                return []
            sign = -1 if BOARDS[period.key].order is Order.DESC else 1
            mine = [
                (pid, e)
                for (p, pid), e in self.entries.items()
                if p == period_id and (division is None or e.division == division)
            ]
            return sorted(mine, key=lambda pe: (sign * pe[1].score, pe[1].reached_at, pe[0]))

        def members(self, division: str) -> int:
            return sum(1 for e in self.entries.values() if e.division == division)

        def period_divisions(self, period_id: str) -> list[str]:
            mine = [(t, n, d) for d, (p, t, n) in self.divisions.items() if p == period_id]
            return [d for _, _, d in sorted(mine)]

        def place(self, period: MPeriod, pid: str) -> str | None:
            settings = BOARDS[period.key]
            if settings.divisions is None:
                return None
            tier = self.tiers.setdefault((period.key, pid), 0)
            mine = sorted((n, d) for d, (p, t, n) in self.divisions.items() if p == period.id and t == tier)
            # The open division is the tier's newest, while it has room.
            if mine and self.members(mine[-1][1]) < settings.divisions.size:
                return mine[-1][1]
            new = division_id(period.record, tier, len(mine))
            self.divisions[new] = (period.id, tier, len(mine))
            return new

        def due(self) -> list[MPeriod]:
            now = self.now()
            found = [
                p
                for p in self.periods.values()
                if p.status == "finalizing"
                or (p.status == "open" and p.ends_at is not None and p.ends_at <= now)
            ]
            return sorted(found, key=lambda p: (p.ends_at or now, p.id))

        def step(self, period: MPeriod) -> bool:
            """The model of one rollover step of ``period``; True once it is finalized."""
            settings = BOARDS[period.key]
            period.status = "finalizing"
            if settings.divisions is not None:
                todo = self.period_divisions(period.id)[period.through : period.through + BATCH]
                for d in todo:
                    ranked = self.ordered(period.id, d)
                    tier = self.divisions[d][1]
                    for rank, (pid, _) in enumerate(ranked, 1):
                        self.pay(period, d, rank, pid)
                        self.tiers[period.key, pid] = tier_after(settings.divisions, tier, rank, len(ranked))
                period.through += len(todo)
                if len(todo) == BATCH:
                    return False
            else:
                for rank, (pid, _) in enumerate(
                    self.ordered(period.id)[: paid_ranks(settings.rank_rewards)], 1
                ):
                    self.pay(period, None, rank, pid)
            period.status = "finalized"
            self.finalized[period.id] += 1
            return True

        def pay(self, period: MPeriod, division: str | None, rank: int, pid: str) -> None:
            if any(b.first <= rank <= b.last for b in BOARDS[period.key].rank_rewards):
                self.paid[period.id, division, rank, pid] += 1

        def write(self, fn: Callable[[Any], Any]) -> Any:
            with self.store.transaction() as tx:
                return fn(tx)

        # --- rules ------------------------------------------------------------------------------
        @rule(
            key=st.sampled_from(sorted(BOARDS)),
            who=st.sampled_from(PLAYERS),
            score=st.integers(-20, 60),
        )
        def submit(self, key: str, who: str, score: int) -> None:
            period, entry, _ = self.write(lambda tx: lb.submit(tx, self.rt, self.scope, key, who, score))
            expected = self.taking(key)
            assert period.id == expected.id
            pid = self.ids[who]
            settings = BOARDS[key]
            current = self.entries.get((period.id, pid))
            if current is None:
                self.entries[period.id, pid] = MEntry(score, self.now(), self.place(expected, pid))
            else:
                if settings.aggregation is Aggregation.SUM:
                    new = current.score + score
                elif settings.aggregation is Aggregation.LATEST:
                    new = score
                elif settings.order is Order.DESC:
                    new = max(current.score, score)
                else:
                    new = min(current.score, score)
                if new != current.score:
                    current.score, current.reached_at = new, self.now()
            mine = self.entries[period.id, pid]
            assert (entry.score, entry.reached_at, entry.division_id) == (
                mine.score,
                mine.reached_at,
                mine.division,
            )

        @rule(
            key=st.sampled_from(("league", "cup", "xp")),
            scores=st.lists(st.integers(-20, 60), min_size=len(PLAYERS), max_size=len(PLAYERS)),
        )
        def everyone_scores(self, key: str, scores: list[int]) -> None:
            """Every player at once: several divisions fill, so a rollover takes several steps."""
            for who, score in zip(PLAYERS, scores, strict=True):
                self.submit(key, who, score)

        @rule(minutes=st.sampled_from((1, 20, 45, 90, 240, 60 * 24, 60 * 24 * 7)))
        def advance(self, minutes: int) -> None:
            self.clock.advance(minutes * 60)

        @precondition(lambda self: bool(self.due()))
        @rule()
        def rollover_step(self) -> None:
            def step(tx: Any) -> tuple[str, bool]:
                due = lb.periods_due(tx, self.rt, 10)
                return due[0].id, lb.rollover_step(tx, self.rt, self.scope.game_id, due[0].id, BATCH)

            pid, done = self.write(step)
            first = self.due()[0]
            assert pid == first.id
            assert done == self.step(first)

        @precondition(lambda self: bool(self.due()))
        @rule()
        def interrupted_step(self) -> None:
            def step(tx: Any) -> None:
                due = lb.periods_due(tx, self.rt, 1)
                lb.rollover_step(tx, self.rt, self.scope.game_id, due[0].id, BATCH)
                raise Interrupted

            try:
                self.write(step)
            except Interrupted:
                pass
            else:
                raise AssertionError("the step's transaction was to fail")

        @rule(key=st.sampled_from(sorted(BOARDS)))
        def rollover_now(self, key: str) -> None:
            ended = self.write(lambda tx: lb.rollover_now(tx, self.rt, self.scope, key))
            settings = BOARDS[key]
            open_ = self.open_of(key)
            if settings.period is Period.ALL_TIME or open_ is None or not self.ordered(open_.id):
                assert ended is None
                return
            assert ended == open_.id
            if open_.ends_at is not None and open_.ends_at <= self.now():
                open_.status = "finalizing"  # over already: it keeps its end, the next score opens
                return
            open_.status, open_.ends_at = "finalizing", self.now()
            opened = opened_now(self.scope.game_id, self.scope.env, settings, self.now(), open_.id)
            self.periods[opened.id] = MPeriod(opened, opened.ends_at)

        @rule(
            key=st.sampled_from(sorted(BOARDS)),
            limit=st.integers(1, 3),
            around=st.none() | st.sampled_from(PLAYERS),
            previous=st.booleans(),
            named=st.booleans(),
        )
        def read(self, key: str, limit: int, around: str | None, previous: bool, named: bool) -> None:
            settings = BOARDS[key]
            period = self.period_to_read(key, previous)
            if period is None:
                with self.store.transaction() as tx, pytest.raises(LivecoreError) as refused:
                    lb.read(tx, self.rt, self.scope, key, limit=limit, previous=True)
                assert refused.value.code.value == "invalid_request"
                return
            pid = self.ids[around] if around is not None else None
            mine = self.entries.get((period, pid)) if pid is not None else None
            division: str | None = None
            if settings.divisions is not None:
                if mine is not None:
                    division = mine.division
                else:
                    tops = [(t, n, d) for d, (p, t, n) in self.divisions.items() if p == period]
                    division = min(tops, key=lambda t: (-t[0], t[1]))[2] if tops else None
                if named and self.period_divisions(period):
                    division = self.period_divisions(period)[-1]
                    if mine is not None and mine.division != division:
                        mine = None  # around a player of another division: the page starts at the top
            expected = (
                [pid_ for pid_, _ in self.ordered(period, division)]
                if (settings.divisions is None or division is not None)
                else []
            )
            kw: dict[str, Any] = {"limit": limit, "previous": previous}
            if named and division is not None:
                kw["division"] = division
            with self.store.transaction() as tx:
                page = lb.read(tx, self.rt, self.scope, key, around=around, **kw)
                assert page.period.id == period
                assert (page.division.id if page.division else None) == division
                rows = [(s.rank, s.player.id) for s in page.standings]
                if mine is not None:
                    at = expected.index(pid)  # type: ignore[arg-type]
                    assert pid in [r[1] for r in rows]
                    start = rows[0][0] - 1
                    assert rows == [(start + i + 1, p) for i, p in enumerate(expected[start : start + limit])]
                    assert len(rows) == min(limit, len(expected)) and start <= at
                    return
                # From the top, then cursor after cursor to the end.
                seen = rows
                while page.next_cursor is not None:
                    page = lb.read(tx, self.rt, self.scope, key, cursor=page.next_cursor, **kw)
                    seen += [(s.rank, s.player.id) for s in page.standings]
                assert seen == [(i + 1, p) for i, p in enumerate(expected)]

        def period_to_read(self, key: str, previous: bool) -> str | None:
            if previous:
                done = [p for p in self.periods.values() if p.key == key and p.status == "finalized"]
                last = max(done, key=lambda p: (p.starts_at is not None, p.starts_at, p.id), default=None)
                return None if last is None else last.id
            open_ = self.open_of(key)
            if open_ is not None and (open_.ends_at is None or self.now() < open_.ends_at):
                return open_.id
            return regular_period(self.scope.game_id, self.scope.env, BOARDS[key], self.now()).id

        # --- invariants -------------------------------------------------------------------------
        @invariant()
        def entries_and_periods_are_the_models(self) -> None:
            with self.store.transaction() as tx:
                for period in self.periods.values():
                    stored = tx.leaderboards.period(self.scope.game_id, period.id)
                    assert (stored.status.value, stored.ends_at, stored.finalized_through) == (
                        period.status,
                        period.ends_at,
                        period.through,
                    ), period
                    rows = tx.leaderboards.page(stored, None, None, 100)
                    assert [(e.player_id, e.score, e.reached_at, e.division_id) for e, _ in rows] == [
                        (pid, e.score, e.reached_at, e.division) for pid, e in self.ordered(period.id)
                    ]
                    assert tx.leaderboards.size(period.id, None) == len(rows)
                due = tx.leaderboards.periods_due(self.now(), 100)
                assert [p.id for p in due] == [p.id for p in self.due()]

        @invariant()
        def divisions_never_exceed_their_size(self) -> None:
            with self.store.transaction() as tx:
                for period in self.periods.values():
                    divisions = BOARDS[period.key].divisions
                    if divisions is None:
                        continue
                    stored = tx.leaderboards.divisions_from(period.id, 0, 100)
                    assert [d.id for d in stored] == self.period_divisions(period.id)
                    for d in stored:
                        assert d.members == self.members(d.id) == tx.leaderboards.size(period.id, d.id)
                        assert 0 < d.members <= divisions.size

        @invariant()
        def tiers_are_the_models(self) -> None:
            with self.store.transaction() as tx:
                for key in BOARDS:
                    for pid in self.ids.values():
                        assert tx.leaderboards.tier(self.scope.game_id, self.scope.env, key, pid) == (
                            self.tiers.get((key, pid))
                        )

        @invariant()
        def rank_rewards_are_paid_once(self) -> None:
            paid: Counter[tuple[str, str | None, int, str]] = Counter()
            with self.store.transaction() as tx:
                for pid in self.ids.values():
                    for grant in tx.grants.recent(pid, 1_000):
                        assert grant.source_kind == lb.RANK_SOURCE_KIND
                        meta = grant.metadata
                        paid[grant.source_ref_id, meta["divisionId"], meta["rank"], grant.player_id] += 1
            assert paid == self.paid

        @invariant()
        def each_finalized_period_is_announced_once(self) -> None:
            announced = Counter(
                e.data["periodId"] for e in outbox_of(self.store) if e.kind == "leaderboard.period_finalized"
            )
            assert announced == self.finalized

    return LeaderboardsMachine
