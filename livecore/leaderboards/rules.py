"""Shared leaderboards: the rules of periods, aggregation, divisions, promotion and relegation
(docs/leaderboards.md). Pure: the records, stores and commands that run them come with the shared boards
themselves; an event's own boards are ``livecore.live_events.boards``.

- **Periods** are calendar-aligned in UTC: a ``daily`` period starts at 00:00, a ``weekly`` one on Monday
  at 00:00, a ``monthly`` one on the 1st at 00:00; an ``all_time`` board has one period that never ends.
  A period opened by hand (rollover-now) starts then and ends at the next regular boundary.
- **Aggregation**: how a new score combines with the player's entry of the period: ``sum`` adds it,
  ``best`` keeps the better of the two (the board's order says which), ``latest`` replaces it.
- **Divisions**: a player's first score of a period places them in the open division of their tier (its
  newest) while it has room (a division holds ``size`` players), else a new one opens; a player new to the
  board starts in the lowest tier. Ranks and rank rewards are per division.
- **Promotion and relegation** at the end of a period: a division of ``n`` players promotes
  ``min(promote, n // 2)`` of its best, then relegates ``min(relegate, what is left)`` of its worst.
  Nobody is promoted from the highest tier nor relegated from the lowest.
"""

from __future__ import annotations

import enum
from datetime import UTC, datetime, timedelta

import attrs

from livecore.games import Order
from livecore.ids import derived_id
from livecore.leaderboards.settings import Aggregation, Divisions, LeaderboardSettings, Period
from livecore.limits import BOARD_NUMBER, on_a_board, saturate
from livecore.live_events.attempts import better
from livecore.live_events.boards import Standing
from livecore.scope import Environment

# The id prefixes of the area's records, claimed in its declaration (``Area.id_prefixes``).
PERIOD_ID_PREFIX = "lbp"  # a shared leaderboard's period
DIVISION_ID_PREFIX = "div"


# Scores a studio submits: whole numbers within the bound of every number that reaches a board.
SCORE = BOARD_NUMBER
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # the time part of the all-time period's id


def period_start(period: Period, t: datetime) -> datetime | None:
    """The start of the regular period holding ``t``; None for ``all_time`` (it has no start)."""
    day = t.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if period is Period.DAILY:
        return day
    if period is Period.WEEKLY:
        return day - timedelta(days=day.weekday())
    if period is Period.MONTHLY:
        return day.replace(day=1)
    return None


def next_boundary(period: Period, t: datetime) -> datetime | None:
    """The first regular boundary after ``t``: where the period holding ``t`` ends; None for
    ``all_time``."""
    start = period_start(period, t)
    if start is None:
        return None
    if period is Period.DAILY:
        return start + timedelta(days=1)
    if period is Period.WEEKLY:
        return start + timedelta(days=7)
    return (
        start.replace(year=start.year + 1, month=1)
        if start.month == 12
        else start.replace(month=start.month + 1)
    )


def combine(aggregation: Aggregation, order: Order, current: float | None, new: float) -> float:
    """The player's entry after a new score."""
    if current is None or aggregation is Aggregation.LATEST:
        return new
    if aggregation is Aggregation.SUM:
        return saturate(current + new)
    return new if better(order, new, current) else current


def place(newest_members: int | None, size: int) -> bool:
    """Whether a newcomer joins its tier's newest division (the open one) rather than opening the next:
    while it has room. Divisions fill one after the other; a place a merge frees in an older one stays
    free, so placing reads one division, however many the tier has."""
    return newest_members is not None and newest_members < size


def moves(divisions: Divisions, tier: int, n: int) -> tuple[int, int]:
    """How many of a division of ``n`` players in ``tier`` (0 the lowest) go up and how many go down."""
    up = min(divisions.promote, n // 2) if tier < len(divisions.tiers) - 1 else 0
    down = min(divisions.relegate, n - up) if tier > 0 else 0
    return up, down


def tier_after(divisions: Divisions, tier: int, rank: int, n: int) -> int:
    """The tier a player of rank ``rank`` (1 the best) of a division of ``n`` in ``tier`` plays next."""
    up, down = moves(divisions, tier, n)
    if rank <= up:
        return tier + 1
    if rank > n - down:
        return tier - 1
    return tier


# --- records ----------------------------------------------------------------------------------------


class PeriodStatus(enum.StrEnum):
    OPEN = "open"  # takes scores
    FINALIZING = "finalizing"  # over: its divisions are being paid and moved, a batch at a time
    FINALIZED = "finalized"


@attrs.frozen
class BoardPeriod:
    """One period of a shared board in one environment, with the settings it opened with.
    ``finalized_through`` is how many of its divisions (in tier and number order) a rollover has paid and
    moved, so a rollover cut short resumes where it stopped and pays nothing twice."""

    id: str
    game_id: str
    env: Environment
    board_key: str
    starts_at: datetime | None  # None: the all-time period
    ends_at: datetime | None
    status: PeriodStatus
    settings: LeaderboardSettings
    finalized_through: int = 0
    finalized_at: datetime | None = None


@attrs.frozen
class Division:
    id: str
    period_id: str
    tier: int  # 0: the lowest
    number: int  # 0, 1, ... within the tier, in the order they opened
    members: int = 0


@attrs.frozen
class SharedEntry:
    """A player's entry in a period: its aggregated score, when that score was reached (equal scores:
    who reached it first ranks first) and its division, if the board has divisions."""

    period_id: str
    player_id: str
    score: float = attrs.field(validator=on_a_board)
    reached_at: datetime
    division_id: str | None = None


@attrs.frozen
class SharedPage:
    """A page of a shared board as read: the period, the division read (with divisions), its standings
    and the cursor of the next page."""

    period: BoardPeriod
    division: Division | None
    standings: list[Standing[SharedEntry]]
    next_cursor: str | None


@attrs.frozen
class PlayerTier:
    """The tier a player plays on one board with divisions, in one environment."""

    game_id: str
    env: Environment
    board_key: str
    tier: int


def period_id(game_id: str, env: Environment, key: str, starts_at: datetime | None) -> str:
    at = starts_at or EPOCH
    return derived_id(PERIOD_ID_PREFIX, at, game_id, env.value, key, at.isoformat())


def division_id(period: BoardPeriod, tier: int, number: int) -> str:
    return derived_id(
        DIVISION_ID_PREFIX,
        period.starts_at or datetime(1970, 1, 1, tzinfo=UTC),
        period.id,
        str(tier),
        str(number),
    )


def regular_period(
    game_id: str, env: Environment, settings: LeaderboardSettings, now: datetime
) -> BoardPeriod:
    """The regular period holding ``now``, as it opens."""
    start = period_start(settings.period, now)
    return BoardPeriod(
        id=period_id(game_id, env, settings.key, start),
        game_id=game_id,
        env=env,
        board_key=settings.key,
        starts_at=start,
        ends_at=next_boundary(settings.period, now),
        status=PeriodStatus.OPEN,
        settings=settings,
    )


def opened_now(
    game_id: str, env: Environment, settings: LeaderboardSettings, now: datetime, after: str
) -> BoardPeriod:
    """The period a rollover-now opens after the period ``after``: from now to the next regular boundary.
    Its id is derived from ``after`` too, so two rollovers at one instant (a manual clock) open two
    periods, never one id twice."""
    at_start = regular_period(game_id, env, settings, now)
    return attrs.evolve(
        at_start,
        id=derived_id(PERIOD_ID_PREFIX, now, game_id, env.value, settings.key, now.isoformat(), after),
        starts_at=now,
    )
