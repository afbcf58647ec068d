"""The wallet and inventory as the API answers them, built from the ledger: the server's routes and an
embedded simulation answer the same models from the same rows."""

from __future__ import annotations

from livecore.economy import api
from livecore.economy.commands import Change, EconomyTx
from livecore.economy.rules import SYSTEM_ITEMS, merged_parameters, system_item_amount
from livecore.games import Game, ResourceType
from livecore.players.rules import Player


def wallet_of(tx: EconomyTx, game: Game, player: Player) -> api.WalletResponse:
    """Every currency the game declares, in key order, with the player's balance (0 when it holds none)."""
    holdings = tx.ledger.holdings(player.id)
    return api.WalletResponse(
        currencies=[
            api.CurrencyBalance(key=key, balance=holdings[key].amount if key in holdings else 0)
            for key, res in sorted(game.settings.resources.items())
            if res.type is ResourceType.CURRENCY
        ]
    )


def inventory_of(tx: EconomyTx, game: Game, player: Player) -> api.InventoryResponse:
    """Every item the game declares, in key order, then the system items derived from activity."""
    holdings = tx.ledger.holdings(player.id)
    items = [
        api.ItemHolding(
            key=key,
            quantity=holdings[key].amount if key in holdings else 0,
            parameters=merged_parameters(res, holdings[key].parameters if key in holdings else {}),
        )
        for key, res in sorted(game.settings.resources.items())
        if res.type is ResourceType.ITEM
    ]
    items += [
        api.ItemHolding(
            key=key, quantity=system_item_amount(key, player.activity), parameters={}, system=True
        )
        for key in SYSTEM_ITEMS
    ]
    return api.InventoryResponse(items=items)


def wallet_adjusted(c: Change) -> api.WalletAdjustResponse:
    return api.WalletAdjustResponse(
        key=c.resource.key, balance=c.holding.amount, delta=c.entry.delta, entry_id=c.entry.id
    )


def items_adjusted(c: Change) -> api.ItemAdjustResponse:
    return api.ItemAdjustResponse(
        key=c.resource.key,
        quantity=c.holding.amount,
        delta=c.entry.delta,
        parameters=c.parameters(),
        entry_id=c.entry.id,
    )
