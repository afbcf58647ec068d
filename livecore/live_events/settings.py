"""Live events' settings: ``[games.<key>.events.<key>]`` (docs/events.md#the-manifest), read from the
manifest by :data:`livecore.live_events.manifest.EVENTS`, held in a game's settings under
:data:`EVENT_SETTINGS` by event key. An event played in lobbies or in teams holds their settings too.
"""

from __future__ import annotations

import enum
from datetime import datetime

import attrs

from livecore.games import Entry, Milestone, Order, RankBand, SettingsKey
from livecore.lobbies.settings import LobbySettings, SuddenDeath
from livecore.teams.settings import TeamSettings


class CheckKind(enum.StrEnum):
    MAX_RATE = "max_rate"  # the metric's increase per second of attempt time
    MAX_VALUE = "max_value"


class Verdict(enum.StrEnum):
    REJECT = "reject"  # 422, nothing applied, no webhook
    FLAG = "flag"  # applied, the attempt is flagged, event.attempt_flagged


@attrs.frozen
class AntiCheat:
    key: str
    kind: CheckKind
    metric: str
    limit: float
    verdict: Verdict


@attrs.frozen
class EventSettings:
    """One ``[games.<game>.events.<key>]`` of the manifest (docs/events.md#the-manifest): its schedule, its
    attempts' rules, its board and its rewards. A window keeps the settings it opened with."""

    key: str
    name: str
    starts_at: datetime
    window_seconds: int
    attempt_seconds: int
    score_metric: str
    repeat_every_seconds: int | None = None
    max_attempts: int | None = None
    order: Order = Order.DESC
    target: float | None = None
    segments: tuple[str, ...] = ()
    entry_cost: tuple[Entry, ...] = ()
    completion_rewards: tuple[Entry, ...] = ()
    feeds: tuple[str, ...] = ()
    milestones: tuple[Milestone, ...] = ()
    rank_rewards: tuple[RankBand, ...] = ()
    anti_cheat: tuple[AntiCheat, ...] = ()
    lobby: LobbySettings | None = None
    sudden_death: tuple[SuddenDeath, ...] = ()
    teams: TeamSettings | None = None

    def metrics(self) -> frozenset[str]:
        """The metric names a progress write may carry: the score's and those the checks read."""
        return frozenset((self.score_metric, *(c.metric for c in self.anti_cheat)))


EVENT_SETTINGS: SettingsKey[dict[str, EventSettings]] = SettingsKey("events", dict[str, EventSettings], {})
