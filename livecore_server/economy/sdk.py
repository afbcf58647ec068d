"""Client wallet and inventory routes (player secret required)."""

from __future__ import annotations

from livecore.economy import api
from livecore.economy.commands import PlayerEconomyTx, client_spend
from livecore.economy.views import inventory_of, items_adjusted, wallet_adjusted, wallet_of
from livecore.games import ResourceType
from livecore.players.commands import load_game
from livecore.players.rules import Player
from livecore_server.http.endpoint import AnyCall, Binding, Call, bind


def _player(call: AnyCall) -> Player:
    assert call.player is not None  # player-scoped: authenticated before the handler runs
    return call.player


def wallet_view(call: AnyCall, tx: PlayerEconomyTx, player: Player) -> api.WalletResponse:
    return wallet_of(tx, load_game(tx, call.scope), player)


def inventory_view(call: AnyCall, tx: PlayerEconomyTx, player: Player) -> api.InventoryResponse:
    return inventory_of(tx, load_game(tx, call.scope), player)


def get_wallet(call: Call[None, None], tx: PlayerEconomyTx) -> api.WalletResponse:
    return wallet_view(call, tx, _player(call))


def debit(call: Call[api.AdjustWalletRequest, None], tx: PlayerEconomyTx) -> api.WalletAdjustResponse:
    game = load_game(tx, call.scope)
    c = client_spend(
        tx,
        call.rt,
        call.scope,
        game,
        _player(call),
        ResourceType.CURRENCY,
        call.params["economyKey"],
        call.body.amount,
        note=call.body.reason,
        source_ref_id=call.body.source_ref_id,
    )
    return wallet_adjusted(c)


def get_inventory(call: Call[None, None], tx: PlayerEconomyTx) -> api.InventoryResponse:
    return inventory_view(call, tx, _player(call))


def consume(call: Call[api.SpendItemRequest, None], tx: PlayerEconomyTx) -> api.ItemAdjustResponse:
    game = load_game(tx, call.scope)
    c = client_spend(
        tx,
        call.rt,
        call.scope,
        game,
        _player(call),
        ResourceType.ITEM,
        call.params["itemKey"],
        call.body.quantity,
        note=call.body.reason,
        source_ref_id=call.body.source_ref_id,
    )
    return items_adjusted(c)


BINDINGS: list[Binding] = [
    bind(api.SDK_WALLET, get_wallet),
    bind(api.SDK_WALLET_DEBIT, debit),
    bind(api.SDK_INVENTORY, get_inventory),
    bind(api.SDK_INVENTORY_CONSUME, consume),
]
