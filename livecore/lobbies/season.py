"""The lobbies' part of a simulated season (docs/simulation.md#playing-a-season): a session plays an open
lobby event by its segment's ``lobbies`` chance. A player whose start is held while its lobby forms waits
for the lobby to start (``lobby.started``: filled by players, or by bots at its fill time) and plays then,
so the attempt it makes then is the play the chance is fitted from
(:func:`~livecore.live_events.season.fit_plays`). A player who finishes in the lower half of its lobby as
it closes (``lobby.closed``; its bots counted) has lost the match: a setback (:data:`LOST_MATCH`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from livecore.games import Order
from livecore.live_events.memory import LiveEventTables
from livecore.live_events.season import LiveEvents, fit_plays
from livecore.live_events.settings import EVENT_SETTINGS
from livecore.lobbies.api import LobbyForming
from livecore.lobbies.memory import LobbyTables
from livecore.lobbies.rules import Lobby, bot_reached
from livecore.lobbies.settings import LOBBY_SETTINGS, SUDDEN_DEATH_SETTINGS, TriggerType
from livecore.simulation.part import Driver, EventRate, Member, Play, Rate, SeasonPart

#: A session's chance to play each open lobby event.
LOBBIES = Rate("lobbies", 0.5, {"engaged": 0.6, "regular": 0.4, "casual": 0.2})
#: The setback of a player who finished in the lower half of its lobby (a lost match).
LOST_MATCH = "lost_match"


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
    """The players seated in each forming lobby, waiting for it to start, and those who played in each
    lobby started, until it closes."""

    reads = frozenset({"lobby.started", "lobby.closed"})

    def __init__(self, play: Play) -> None:
        self.play = play
        self.events = play.driver(LiveEvents)  # the live events play before the lobbies
        self.waiting: dict[str, list[tuple[Member, Any]]] = {}  # lobby id -> (member, event settings)
        self.playing: dict[str, list[Member]] = {}  # lobby id -> the members who played in it
        self.lobbies = play.store.tables_of(LobbyTables)
        self.entries = play.store.tables_of(LiveEventTables).board_entries

    def held(self, member: Member, event: Any, started: Any) -> bool:
        if not isinstance(started, LobbyForming):
            return False
        self.waiting.setdefault(started.lobby_id, []).append((member, event))
        return True

    def webhook(self, kind: str, payload: Any) -> None:
        if kind == "lobby.closed":
            self._closed(payload.lobby_id)
            return
        for member, event in self.waiting.pop(payload.lobby_id, ()):
            self.playing.setdefault(payload.lobby_id, []).append(member)
            self.play.later(self.events.attempt, member, event, 1)

    def _closed(self, lobby_id: str) -> None:
        """The lobby's session ended for each member who played in it (no start of theirs plays again in
        its window); each who finished in its lower half (or scored nothing) lost."""
        members = self.playing.pop(lobby_id, [])
        lobby = self.lobbies.lobbies.get(lobby_id)
        if not members or lobby is None or lobby.started_at is None or lobby.closed_at is None:
            return
        scores = self._scores(lobby, lobby.closed_at)
        event = self.play.settings.of(EVENT_SETTINGS).get(lobby.event_key)
        up = -1.0 if event is not None and event.order is Order.ASC else 1.0  # a better score is higher
        for member in members:
            if event is not None:
                self.events.ended(member, event, lobby.started_at)
            mine = scores.get(member.handle.id)
            if mine is None or sum(up * s > up * mine for s in scores.values()) >= len(scores) / 2:
                self.play.set_back(member, LOST_MATCH)

    def _scores(self, lobby: Lobby, closed_at: datetime) -> dict[str, float]:
        """Each seat's score as the lobby closed, by seat id (a player's id): its bots' lines at the close,
        its players' best entries (a player who scored nothing has none)."""
        found: dict[str, float] = {}
        for seat_id in self.lobbies.lobby_seats.get(lobby.id, ()):
            seat = self.lobbies.seats.get((lobby.id, seat_id))
            if seat is None:
                continue
            if seat.is_bot:
                found[seat_id] = bot_reached(seat, lobby, closed_at)[0]
            elif (entry := self.entries.get((lobby.board_id, seat_id))) is not None:
                found[seat_id] = entry.score
        return found


SEASON = SeasonPart(
    rates=(LOBBIES,),
    events=(EventRate(LOBBIES, _lobby_event, _hints, _closing),),
    driver=_Lobbies,
    fit=fit_plays(LOBBIES),
)
