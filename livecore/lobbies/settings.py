"""The lobbies area's settings: an event's ``[...lobby]`` table and its ``[[...sudden_death]]`` triggers
(docs/lobbies.md), read from the manifest by :data:`livecore.lobbies.manifest.LOBBY`; the event's settings
hold them as its parts (:class:`livecore.live_events.settings.EventSettings`, read with
``event.of(LOBBY_SETTINGS)``).
"""

from __future__ import annotations

import enum

import attrs

from livecore.games import SettingsKey


@attrs.frozen
class BotScore:
    """The range a bot's final score is drawn from, uniformly (whole numbers when both bounds are)."""

    min: float
    max: float


@attrs.frozen
class LobbySettings:
    """``[games.<game>.events.<key>.lobby]``: the event is played in lobbies of ``capacity`` seats; a forming
    lobby starts ``fill_seconds`` after its creation at the latest, bots first taking the empty seats when
    ``fill_bots`` (each with a final score drawn from ``bot_score``)."""

    capacity: int
    fill_seconds: int
    fill_bots: bool = False
    bot_score: BotScore | None = None


class TriggerType(enum.StrEnum):
    SCORE_REACHED = "score_reached"  # any participant's score reaches the threshold
    COMPLETED_COUNT = "completed_count"  # the lobby's completed attempts reach the threshold


class Resolution(enum.StrEnum):
    FREEZE = "freeze"  # still-active attempts take no more progress; their scores stand
    CLOSE = "close"  # the lobby closes and its board finalizes early


@attrs.frozen
class SuddenDeath:
    """One ``[[games.<game>.events.<key>.sudden_death]]`` trigger of a lobby event."""

    label: str
    type: TriggerType
    threshold: float
    resolution: Resolution


#: An event's lobby (None: not a lobby event) and its sudden-death triggers, parts of its settings.
LOBBY_SETTINGS: SettingsKey[LobbySettings | None] = SettingsKey("lobby", LobbySettings | None, None)
SUDDEN_DEATH_SETTINGS: SettingsKey[tuple[SuddenDeath, ...]] = SettingsKey(
    "sudden_death", tuple[SuddenDeath, ...], ()
)
