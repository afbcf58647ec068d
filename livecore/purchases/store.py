"""The purchases port. Purchases, by (game_id, env, transaction id); spend in US cents."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from livecore.players.rules import Player
from livecore.purchases.rules import PlayerSpend, Purchase, RevenueSummary, Spender, ValidationStatus
from livecore.scope import Environment


class PurchaseStore(Protocol):
    def get(self, game_id: str, env: Environment, transaction_id: str) -> Purchase | None: ...

    def insert(self, purchase: Purchase) -> None: ...

    def set_validation(self, purchase_id: str, status: ValidationStatus) -> None: ...

    def page(self, player_id: str, before: tuple[datetime, str] | None, limit: int) -> list[Purchase]:
        """Newest first (by ``purchasedAt``, then id), strictly after the ``before`` keyset position."""
        ...

    def player_spend(self, player_id: str, now: datetime, windows: tuple[int, ...]) -> PlayerSpend: ...

    def spenders(
        self,
        game_id: str,
        env: Environment,
        min_amount_minor: int,
        since: datetime | None,
        limit: int,
        offset: int,
    ) -> list[Spender]:
        """Players of the game at or above the threshold, highest first; debug accounts left out."""
        ...

    def revenue(self, game_id: str, env: Environment, start: datetime, end: datetime) -> RevenueSummary:
        """Purchases made from ``start`` to ``end`` (both included); debug accounts left out."""
        ...

    def reassign(self, from_id: str, to: Player) -> None:
        """Every purchase of ``from_id`` becomes ``to``'s (a merge)."""
        ...


class HasPurchases(Protocol):
    """A transaction that reaches the purchases port."""

    @property
    def purchases(self) -> PurchaseStore: ...
