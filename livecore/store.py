"""The store port: what commands need from storage, as a ``typing.Protocol``.

Commands run inside one :class:`Transaction`; everything they write, including the events they emit,
commits together or not at all. ``livecore.memory`` implements the port in memory (simulation and
tests); ``livecore_server.storage`` implements it on SQLite (and PostgreSQL), so the same command code
runs embedded and in the server.

Records go in and out whole (frozen attrs values); a store never applies a rule of its own.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import date, datetime
from typing import Protocol

from livecore.economy import Holding, LedgerEntry
from livecore.events import DomainEvent
from livecore.games import Game
from livecore.grants import Grant
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

    # Ledger: append-only entries; the holding (balance and item parameters) moves with each entry.
    def get_holding(self, player_id: str, key: str) -> Holding: ...
    def get_holdings(self, player_id: str) -> dict[str, Holding]: ...
    def append_ledger(self, entry: LedgerEntry, holding: Holding) -> None: ...
    def ledger(self, player_id: str, key: str | None = None) -> list[LedgerEntry]: ...

    # Grants, by (game_id, grant id).
    def insert_grant(self, grant: Grant) -> None: ...
    def get_grant(self, game_id: str, grant_id: str) -> Grant | None: ...
    def update_grant(self, grant: Grant) -> None: ...
    def pending_grants(self, player_id: str, now: datetime, limit: int) -> list[Grant]:
        """Pending grants of a player not yet past their expiry, oldest first."""
        ...

    def grants_past_expiry(self, now: datetime, limit: int) -> list[Grant]:
        """Pending grants whose expiry has passed (for the sweep), oldest expiry first."""
        ...

    # Outbox: events commit with the change that caused them.
    def emit(self, event: DomainEvent) -> None: ...

    # Idempotency records, keyed by (scope, key).
    def get_idempotent(self, scope: str, key: str) -> StoredResponse | None: ...
    def put_idempotent(self, stored: StoredResponse) -> None: ...


class Store(Protocol):
    def transaction(self) -> AbstractContextManager[Transaction]: ...
