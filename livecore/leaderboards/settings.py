"""Shared leaderboards' settings: ``[games.<key>.leaderboards.<key>]`` (docs/leaderboards.md), read from the
manifest by :data:`livecore.leaderboards.manifest.LEADERBOARDS`, held in a game's settings under
:data:`LEADERBOARD_SETTINGS` by board key.
"""

from __future__ import annotations

import enum

import attrs

from livecore.games import Order, RankBand, SettingsKey


class Period(enum.StrEnum):
    ALL_TIME = "all_time"
    DAILY = "daily"
    WEEKLY = "weekly"
    MONTHLY = "monthly"


class Aggregation(enum.StrEnum):
    SUM = "sum"
    BEST = "best"
    LATEST = "latest"


@attrs.frozen
class Divisions:
    """``tiers`` from the lowest to the highest."""

    size: int
    tiers: tuple[str, ...]
    promote: int
    relegate: int


@attrs.frozen
class LeaderboardSettings:
    """One ``[games.<game>.leaderboards.<key>]`` of the manifest (docs/leaderboards.md): a shared board that
    lives across events, in periods. A period keeps the settings it opened with."""

    key: str
    name: str
    order: Order = Order.DESC
    period: Period = Period.ALL_TIME
    aggregation: Aggregation = Aggregation.SUM
    divisions: Divisions | None = None
    rank_rewards: tuple[RankBand, ...] = ()


LEADERBOARD_SETTINGS: SettingsKey[dict[str, LeaderboardSettings]] = SettingsKey(
    "leaderboards", dict[str, LeaderboardSettings], {}
)
