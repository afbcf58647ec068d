"""The store port: what commands need from storage, as a ``typing.Protocol``.

Commands run inside one :class:`Transaction`; everything they write, including the events they emit,
commits together or not at all. ``livecore.memory`` implements the port in memory (simulation and
tests); ``livecore_server.storage`` implements it on SQLite (and PostgreSQL), so the same command code
runs embedded and in the server.

Records go in and out whole (frozen attrs values); a store never applies a rule of its own.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import date
from typing import Protocol

from livecore.events import DomainEvent
from livecore.games import Game
from livecore.idempotency import StoredResponse
from livecore.players import Player


class Transaction(Protocol):
    # Games
    def get_game(self, game_id: str) -> Game | None: ...

    # Players: (game_id, external_id) is unique across both environments.
    def get_player(self, game_id: str, external_id: str) -> Player | None: ...
    def insert_player(self, player: Player) -> None: ...
    def update_player(self, player: Player) -> None: ...
    def reset_missed_streaks(self, last_day_before: date) -> int:
        """Set ``streak`` to 0 for every player whose streak day is before the given day."""
        ...

    # Outbox: events commit with the change that caused them.
    def emit(self, event: DomainEvent) -> None: ...

    # Idempotency records, keyed by (scope, key).
    def get_idempotent(self, scope: str, key: str) -> StoredResponse | None: ...
    def put_idempotent(self, stored: StoredResponse) -> None: ...


class Store(Protocol):
    def transaction(self) -> AbstractContextManager[Transaction]: ...
