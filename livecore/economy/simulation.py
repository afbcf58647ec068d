"""The wallet and inventory actions of a simulation, each its client method's builder
(:mod:`livecore.economy.calls`) run in memory (:mod:`livecore.simulation.calls`): a player's
(``ada.wallet``, ``ada.inventory``, as ``sdk.wallet`` and ``sdk.inventory`` without the external id) and
the studio's (``sim.server.wallet``)."""

from __future__ import annotations

from livecore.economy.calls import InventoryCalls, ServerWalletCalls, WalletCalls
from livecore.simulation.calls import Actions, ServerActions, player_method, server_method


class Wallet(Actions, WalletCalls):
    """``player.wallet``: the player's currencies."""

    get = player_method(WalletCalls._get)
    debit = player_method(WalletCalls._debit)

    def balance(self, key: str) -> int:
        """The player's balance of currency ``key`` (0 when it holds none)."""
        return next((c.balance for c in self.get().currencies if c.key == key), 0)


class Inventory(Actions, InventoryCalls):
    """``player.inventory``: the player's items."""

    get = player_method(InventoryCalls._get)
    consume = player_method(InventoryCalls._consume)


class ServerWallet(ServerActions, ServerWalletCalls):
    """``sim.server.wallet``: the studio's credits and debits."""

    credit = server_method(ServerWalletCalls._credit)
    debit = server_method(ServerWalletCalls._debit)
