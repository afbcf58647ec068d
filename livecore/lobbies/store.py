"""The lobbies port: lobbies by (game_id, lobby id) and their seats, players' and bots'."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from livecore.lobbies.rules import Lobby, Seat
from livecore.players.rules import Player
from livecore.scope import Environment


class LobbyStore(Protocol):
    def get(self, game_id: str, lobby_id: str) -> Lobby | None: ...

    def insert(self, lobby: Lobby) -> None: ...

    def update(self, lobby: Lobby) -> None: ...

    def oldest_forming(self, window_id: str, segment_key: str) -> Lobby | None:
        """The window's forming lobby of that segment created first (ties: the smaller id)."""
        ...

    def by_push_key(self, game_id: str, env: Environment, push_key: str) -> Lobby | None: ...

    def of_window(self, window_id: str) -> list[Lobby]:
        """The window's lobbies that are not closed, oldest first."""
        ...

    def due_to_fill(self, now: datetime, limit: int) -> list[Lobby]:
        """Forming lobbies (every game and environment) whose ``fill_by`` has come, the earliest first."""
        ...

    def next_fill_by(self) -> datetime | None:
        """The earliest ``fill_by`` of a forming lobby."""
        ...

    def add_seat(self, seat: Seat) -> None:
        """Seat a player or a bot. A player holds at most one seat per window: the store refuses a second
        (an integrity error of its own, as for any unique key)."""
        ...

    def seats(self, lobby_id: str) -> list[Seat]:
        """The lobby's seats in the order they were taken (by ``position``; ties, which only seats written
        without one have: by join time, then seat id)."""
        ...

    def seat_in_window(self, window_id: str, player_id: str) -> Seat | None: ...

    def seats_of(self, player_id: str, limit: int) -> list[Seat]:
        """The player's seats, the newest first."""
        ...

    def running_count(self, player_id: str) -> int:
        """How many forming or active lobbies the player sits in."""
        ...

    def delete_seat(self, lobby_id: str, seat_id: str) -> None: ...

    def reassign(self, from_id: str, to: Player) -> None:
        """Every seat of ``from_id`` becomes ``to``'s, its external id included: a merge, or an erasure
        (``to`` is then the same row under its placeholder). A merge keeps one seat per window: where
        ``to`` already holds a seat in the window, the source's is deleted and its lobby counts one
        participant fewer (``participant_count`` stays the number of its seats)."""
        ...


class HasLobbies(Protocol):
    """A transaction that reaches the lobbies port."""

    @property
    def lobbies(self) -> LobbyStore: ...
