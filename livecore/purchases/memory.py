"""The purchases port in memory."""

from __future__ import annotations

from datetime import datetime

import attrs

from livecore.memory.journal import AreaPort
from livecore.players.memory import PlayerTables
from livecore.players.rules import Player
from livecore.purchases.rules import (
    PlayerSpend,
    Purchase,
    RevenueSummary,
    Spender,
    ValidationStatus,
    player_spend,
    spenders,
    summarize,
)
from livecore.purchases.store import PurchaseStore
from livecore.scope import Environment


@attrs.define
class PurchaseTables:
    """The purchases area's table in memory."""

    purchases: dict[tuple[str, str, str], Purchase] = attrs.field(factory=dict)  # (game, env, transaction)


class MemoryPurchases(AreaPort[PurchaseTables]):
    __slots__ = ()
    TABLES = PurchaseTables

    def get(self, game_id: str, env: Environment, transaction_id: str) -> Purchase | None:
        return self._t.purchases.get((game_id, env.value, transaction_id))

    def insert(self, purchase: Purchase) -> None:
        self._tx.put(
            self._t.purchases, (purchase.game_id, purchase.env.value, purchase.transaction_id), purchase
        )

    def set_validation(self, purchase_id: str, status: ValidationStatus) -> None:
        for key, p in list(self._t.purchases.items()):
            if p.id == purchase_id:
                self._tx.put(self._t.purchases, key, attrs.evolve(p, validation_status=status))

    def page(self, player_id: str, before: tuple[datetime, str] | None, limit: int) -> list[Purchase]:
        rows = sorted(self._purchases_of(player_id), key=lambda p: (p.purchased_at, p.id), reverse=True)
        if before is not None:
            rows = [p for p in rows if (p.purchased_at, p.id) < before]
        return rows[:limit]

    def player_spend(self, player_id: str, now: datetime, windows: tuple[int, ...]) -> PlayerSpend:
        return player_spend(self._purchases_of(player_id), now, windows)

    def spenders(
        self,
        game_id: str,
        env: Environment,
        min_amount_minor: int,
        since: datetime | None,
        limit: int,
        offset: int,
    ) -> list[Spender]:
        found = spenders(self._revenue_rows(game_id, env), min_amount_minor, since)
        return found[offset : offset + limit]

    def revenue(self, game_id: str, env: Environment, start: datetime, end: datetime) -> RevenueSummary:
        return summarize(self._revenue_rows(game_id, env), start, end)

    def reassign(self, from_id: str, to: Player) -> None:
        for pkey, p in list(self._t.purchases.items()):
            if p.player_id == from_id:
                self._tx.put(
                    self._t.purchases,
                    pkey,
                    attrs.evolve(p, player_id=to.id, external_player_id=to.external_id),
                )

    def _purchases_of(self, player_id: str) -> list[Purchase]:
        return [p for p in self._t.purchases.values() if p.player_id == player_id]

    def _revenue_rows(self, game_id: str, env: Environment) -> list[Purchase]:
        counted = {
            p.id
            for p in self._s.tables_of(PlayerTables).players.values()
            if p.game_id == game_id and p.env is env and p.debug is None
        }
        return [p for p in self._t.purchases.values() if p.player_id in counted]


def _implements_the_port(port: MemoryPurchases) -> PurchaseStore:
    return port  # mypy checks the class against the area's port here
