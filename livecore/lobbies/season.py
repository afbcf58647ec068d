"""The lobbies' part of a simulated season (docs/simulation.md#playing-a-season): a session plays an open
lobby event by its segment's ``lobbies`` chance. A player whose start is held while its lobby forms waits
for the lobby to start (``lobby.started``: filled by players, or by bots at its fill time) and plays then,
so the attempt it makes then is the play the chance is fitted from
(:func:`~livecore.live_events.season.fit_plays`)."""

from __future__ import annotations

from typing import Any

from livecore.live_events.season import LiveEvents, fit_plays
from livecore.lobbies.api import LobbyForming
from livecore.lobbies.settings import LOBBY_SETTINGS, SUDDEN_DEATH_SETTINGS, TriggerType
from livecore.simulation.part import Driver, EventRate, Member, Play, Rate, SeasonPart

#: A session's chance to play each open lobby event.
LOBBIES = Rate("lobbies", 0.5, {"engaged": 0.6, "regular": 0.4, "casual": 0.2})


def _lobby_event(event: Any) -> bool:
    return event.of(LOBBY_SETTINGS) is not None


def _hints(event: Any) -> list[float]:
    """Its bots' best score and its sudden deaths' scores."""
    found = [t.threshold for t in event.of(SUDDEN_DEATH_SETTINGS) if t.type is TriggerType.SCORE_REACHED]
    lobby = event.of(LOBBY_SETTINGS)
    if lobby.bot_score is not None:
        found.append(lobby.bot_score.max)
    return found


def _closing(event: Any) -> float:
    """A lobby starts its fill time after its first start at the latest: one held in a window's last
    fill time waits for a lobby the window's close ends first, and is not played."""
    return float(event.of(LOBBY_SETTINGS).fill_seconds)


class _Lobbies(Driver):
    """The players seated in each forming lobby, waiting for it to start."""

    reads = frozenset({"lobby.started"})

    def __init__(self, play: Play) -> None:
        self.play = play
        self.attempt = play.driver(LiveEvents).attempt  # the live events play before the lobbies
        self.waiting: dict[str, list[tuple[Member, Any]]] = {}  # lobby id -> (member, event settings)

    def held(self, member: Member, event: Any, started: Any) -> bool:
        if not isinstance(started, LobbyForming):
            return False
        self.waiting.setdefault(started.lobby_id, []).append((member, event))
        return True

    def webhook(self, kind: str, payload: Any) -> None:
        for member, event in self.waiting.pop(payload.lobby_id, ()):
            self.play.later(self.attempt, member, event, 1)


SEASON = SeasonPart(
    rates=(LOBBIES,),
    events=(EventRate(LOBBIES, _lobby_event, _hints, _closing),),
    driver=_Lobbies,
    fit=fit_plays(LOBBIES),
)
