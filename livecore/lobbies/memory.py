"""The lobbies port in memory."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

import attrs

from livecore.lobbies.rules import Lobby, LobbyStatus, Seat
from livecore.lobbies.store import LobbyStore
from livecore.memory.journal import AreaPort
from livecore.players.rules import Player
from livecore.scope import Environment


@attrs.define
class LobbyTables:
    """The lobbies area's tables in memory."""

    lobbies: dict[str, Lobby] = attrs.field(factory=dict)
    seats: dict[tuple[str, str], Seat] = attrs.field(factory=dict)  # (lobby id, seat id)
    window_seats: dict[tuple[str, str], str] = attrs.field(factory=dict)  # (window id, seat id) -> lobby id
    # Each lobby's seat ids in the order they were added, and the ids of the lobbies forming: what a
    # start, a read and the scheduler look up, among a season's every lobby.
    lobby_seats: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    forming: dict[str, None] = attrs.field(factory=dict)
    window_lobbies: dict[str, tuple[str, ...]] = attrs.field(factory=dict)  # window id -> its lobbies' ids

    def forget_seats(self, lobby_ids: Iterable[str]) -> None:
        """Drop the seats of those lobbies, whose window is over: a long simulated season does
        (``livecore-server simulate``). No rule reads them again; a player's history of lobbies then
        holds the others."""
        for lobby_id in lobby_ids:
            for seat_id in self.lobby_seats.pop(lobby_id, ()):
                seat = self.seats.pop((lobby_id, seat_id), None)
                if seat is not None:
                    self.window_seats.pop((seat.window_id, seat_id), None)


class MemoryLobbies(AreaPort[LobbyTables]):
    __slots__ = ()
    TABLES = LobbyTables

    def get(self, game_id: str, lobby_id: str) -> Lobby | None:
        lobby = self._t.lobbies.get(lobby_id)
        return lobby if lobby is not None and lobby.game_id == game_id else None

    def insert(self, lobby: Lobby) -> None:
        self._tx.put(self._t.lobbies, lobby.id, lobby)
        self._forming(lobby)
        held = self._t.window_lobbies.get(lobby.window_id, ())
        self._tx.put(self._t.window_lobbies, lobby.window_id, (*held, lobby.id))

    def update(self, lobby: Lobby) -> None:
        self._tx.put(self._t.lobbies, lobby.id, lobby)
        self._forming(lobby)

    def _forming(self, lobby: Lobby) -> None:
        if lobby.status is LobbyStatus.FORMING:
            if lobby.id not in self._t.forming:
                self._tx.put(self._t.forming, lobby.id, None)
        else:
            self._tx.drop(self._t.forming, lobby.id)

    def oldest_forming(self, window_id: str, segment_key: str) -> Lobby | None:
        lobbies = self._t.lobbies
        forming = [
            lobby
            for lobby in (lobbies[i] for i in self._t.forming)
            if (lobby.window_id, lobby.segment_key) == (window_id, segment_key)
        ]
        return min(forming, key=lambda lobby: (lobby.created_at, lobby.id), default=None)

    def by_push_key(self, game_id: str, env: Environment, push_key: str) -> Lobby | None:
        return next(
            (
                lobby
                for lobby in self._t.lobbies.values()
                if (lobby.game_id, lobby.env, lobby.push_key) == (game_id, env, push_key)
            ),
            None,
        )

    def of_window(self, window_id: str) -> list[Lobby]:
        lobbies = self._t.lobbies
        found = [
            lobby
            for lobby in (lobbies[i] for i in self._t.window_lobbies.get(window_id, ()))
            if lobby.status is not LobbyStatus.CLOSED
        ]
        return sorted(found, key=lambda lobby: (lobby.created_at, lobby.id))

    def _filling(self) -> list[Lobby]:
        lobbies = self._t.lobbies
        forming = [lobby for lobby in (lobbies[i] for i in self._t.forming) if lobby.fill_by is not None]
        return sorted(forming, key=lambda lobby: (lobby.fill_by, lobby.id))

    def due_to_fill(self, now: datetime, limit: int) -> list[Lobby]:
        due = [lobby for lobby in self._filling() if lobby.fill_by is not None and lobby.fill_by <= now]
        return due[:limit]

    def next_fill_by(self) -> datetime | None:
        filling = self._filling()
        return filling[0].fill_by if filling else None

    def add_seat(self, seat: Seat) -> None:
        # The SQL stores' unique (window_id, seat_id), which also covers their key (lobby_id, seat_id):
        # a lobby belongs to one window.
        held = (seat.window_id, seat.seat_id)
        if held in self._t.window_seats:
            raise KeyError(f"seat {seat.seat_id!r} is taken in window {seat.window_id!r}")
        self._tx.put(self._t.window_seats, held, seat.lobby_id)
        self._tx.put(self._t.seats, (seat.lobby_id, seat.seat_id), seat)
        taken = self._t.lobby_seats.get(seat.lobby_id, ())
        if seat.seat_id not in taken:
            self._tx.put(self._t.lobby_seats, seat.lobby_id, (*taken, seat.seat_id))

    def seats(self, lobby_id: str) -> list[Seat]:
        seats = self._t.seats
        mine = [s for i in self._t.lobby_seats.get(lobby_id, ()) if (s := seats.get((lobby_id, i)))]
        return sorted(mine, key=lambda s: (s.position, s.joined_at, s.seat_id))

    def seat_in_window(self, window_id: str, player_id: str) -> Seat | None:
        lobby_id = self._t.window_seats.get((window_id, player_id))
        return None if lobby_id is None else self._t.seats[(lobby_id, player_id)]

    def seats_of(self, player_id: str, limit: int) -> list[Seat]:
        mine = [s for s in self._t.seats.values() if s.seat_id == player_id]
        return sorted(mine, key=lambda s: (s.joined_at, s.lobby_id), reverse=True)[:limit]

    def running_count(self, player_id: str) -> int:
        return sum(
            1
            for s in self._t.seats.values()
            if s.seat_id == player_id and self._t.lobbies[s.lobby_id].status is not LobbyStatus.CLOSED
        )

    def delete_seat(self, lobby_id: str, seat_id: str) -> None:
        seat = self._t.seats.get((lobby_id, seat_id))
        if seat is not None:
            self._tx.drop(self._t.window_seats, (seat.window_id, seat_id))
            self._tx.drop(self._t.seats, (lobby_id, seat_id))
            taken = self._t.lobby_seats.get(lobby_id, ())
            self._tx.put(self._t.lobby_seats, lobby_id, tuple(i for i in taken if i != seat_id))

    def reassign(self, from_id: str, to: Player) -> None:
        for seat in [s for s in self._t.seats.values() if s.seat_id == from_id]:
            self.delete_seat(seat.lobby_id, from_id)
            if to.id != from_id and (seat.window_id, to.id) in self._t.window_seats:
                lobby = self._t.lobbies[seat.lobby_id]
                self.update(attrs.evolve(lobby, participant_count=lobby.participant_count - 1))
            else:
                self.add_seat(attrs.evolve(seat, seat_id=to.id, external_player_id=to.external_id))


def _implements_the_port(port: MemoryLobbies) -> LobbyStore:
    return port  # mypy checks the class against the area's port here
