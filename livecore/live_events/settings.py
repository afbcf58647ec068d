"""Live events' settings: ``[games.<key>.events.<key>]`` (docs/events.md#the-manifest), read from the
manifest by :data:`livecore.live_events.manifest.EVENTS`, held in a game's settings under
:data:`EVENT_SETTINGS` by event key. An event played in lobbies or in teams holds their settings too, as
its parts: the areas that build on live events declare their part's key (a :class:`SettingsKey`) and its
manifest table (a :class:`livecore.section.Section` ``within="events"``), and read it with
:meth:`EventSettings.of`.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any, TypeVar, cast

import attrs

from livecore.games import Entry, Milestone, Order, RankBand, SettingsKey
from livecore.parts import by_key

T = TypeVar("T")


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
    #: The parts other areas hold in the event (its lobby, its teams), by their key; a part at its default
    #: is left out, so an event declaring one as its default is the same event as one leaving it out.
    parts: dict[SettingsKey[Any], Any] = attrs.field(factory=dict, converter=by_key, hash=False)

    def of(self, key: SettingsKey[T]) -> T:
        """The part ``key`` names, or its default when the event has none."""
        return cast(T, self.parts.get(key, key.default))

    def holds(self, name: str) -> bool:
        """Whether the event holds a part under the key named ``name``: for what only asks whether an event
        is played in lobbies or in teams (the wire's ``lobby``, a report's kind) without the area's key."""
        return any(key.name == name for key in self.parts)

    def metrics(self) -> frozenset[str]:
        """The metric names a progress write may carry: the score's and those the checks read."""
        return frozenset((self.score_metric, *(c.metric for c in self.anti_cheat)))


EVENT_SETTINGS: SettingsKey[dict[str, EventSettings]] = SettingsKey("events", dict[str, EventSettings], {})
