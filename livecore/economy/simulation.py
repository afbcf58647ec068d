"""The wallet and inventory actions of a simulated player (``sdk.wallet``, ``sdk.inventory``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from livecore.economy import api
from livecore.economy.commands import PlayerEconomyTx, client_spend, server_adjust
from livecore.economy.views import inventory_of, items_adjusted, wallet_adjusted, wallet_of
from livecore.games import ResourceType
from livecore.players.commands import get_player, load_game
from livecore.simulation.actions import Actions, ServerActions, body, external_id_of

if TYPE_CHECKING:
    from livecore.simulation.handle import Handle


class Wallet(Actions):
    def get(self) -> api.WalletResponse:
        """Every currency of the game with the player's balance."""
        return self._read(lambda tx, me: wallet_of(tx, load_game(tx, self._sim.scope), me))

    def balance(self, key: str) -> int:
        """The player's balance of currency ``key`` (0 when it holds none)."""
        return next((c.balance for c in self.get().currencies if c.key == key), 0)

    def debit(
        self, economy_key: str, amount: int, *, reason: str | None = None, source_ref_id: str | None = None
    ) -> api.WalletAdjustResponse:
        """Spend ``amount`` of currency ``economy_key`` (platform-managed games)."""
        scope = self._sim.scope
        return self._write(
            lambda tx, me: wallet_adjusted(
                client_spend(
                    tx,
                    self._sim.rt,
                    scope,
                    load_game(tx, scope),
                    me,
                    ResourceType.CURRENCY,
                    economy_key,
                    amount,
                    note=reason,
                    source_ref_id=source_ref_id,
                )
            )
        )


class Inventory(Actions):
    def get(self) -> api.InventoryResponse:
        """Every item of the game with the player's quantity, then the system items."""
        return self._read(lambda tx, me: inventory_of(tx, load_game(tx, self._sim.scope), me))

    def consume(
        self, item_key: str, quantity: int, *, reason: str | None = None, source_ref_id: str | None = None
    ) -> api.ItemAdjustResponse:
        """Use up ``quantity`` of item ``item_key`` (platform-managed games)."""
        scope = self._sim.scope
        return self._write(
            lambda tx, me: items_adjusted(
                client_spend(
                    tx,
                    self._sim.rt,
                    scope,
                    load_game(tx, scope),
                    me,
                    ResourceType.ITEM,
                    item_key,
                    quantity,
                    note=reason,
                    source_ref_id=source_ref_id,
                )
            )
        )


class ServerWallet(ServerActions):
    def credit(
        self,
        external_id: Handle | str,
        economy_key: str,
        amount: int,
        *,
        reason: str | None = None,
        source_ref_id: str | None = None,
    ) -> api.WalletAdjustResponse:
        """The studio's backend credits ``amount`` of currency ``economy_key`` (platform-managed games)."""
        return self._adjust(
            external_id, economy_key, amount, credit=True, reason=reason, source_ref_id=source_ref_id
        )

    def debit(
        self,
        external_id: Handle | str,
        economy_key: str,
        amount: int,
        *,
        reason: str | None = None,
        source_ref_id: str | None = None,
    ) -> api.WalletAdjustResponse:
        """The studio's backend debits ``amount`` of currency ``economy_key`` (platform-managed games)."""
        return self._adjust(
            external_id, economy_key, amount, credit=False, reason=reason, source_ref_id=source_ref_id
        )

    def _adjust(
        self,
        someone: Handle | str,
        key: str,
        amount: int,
        *,
        credit: bool,
        reason: str | None,
        source_ref_id: str | None,
    ) -> api.WalletAdjustResponse:
        sim = self._sim
        asked = body(api.AdjustWalletRequest, amount=amount, reason=reason, source_ref_id=source_ref_id)

        def op(tx: PlayerEconomyTx) -> api.WalletAdjustResponse:
            player = get_player(tx, sim.server_scope, external_id_of(someone) or "")
            return wallet_adjusted(
                server_adjust(
                    tx,
                    sim.rt,
                    sim.server_scope,
                    load_game(tx, sim.server_scope),
                    player,
                    ResourceType.CURRENCY,
                    key,
                    asked.amount,
                    credit=credit,
                    note=asked.reason,
                    source_ref_id=asked.source_ref_id,
                )
            )

        return self._run(op)
