"""Client wallet and inventory routes (player secret required)."""

from __future__ import annotations

from livecore.economy import api
from livecore.economy.commands import Change, client_spend
from livecore.economy.rules import SYSTEM_ITEMS, merged_parameters, system_item_amount
from livecore.games import ResourceType
from livecore.grants.commands import GrantsTx
from livecore.players.commands import load_game
from livecore.players.rules import Player
from livecore_server.http.endpoint import AnyCall, Binding, Call, bind


def _player(call: AnyCall) -> Player:
    assert call.player is not None  # player-scoped: authenticated before the handler runs
    return call.player


def wallet_view(call: AnyCall, tx: GrantsTx, player: Player) -> api.WalletResponse:
    game = load_game(tx, call.scope)
    holdings = tx.ledger.holdings(player.id)
    return api.WalletResponse(
        currencies=[
            api.CurrencyBalance(key=key, balance=holdings[key].amount if key in holdings else 0)
            for key, res in sorted(game.settings.resources.items())
            if res.type is ResourceType.CURRENCY
        ]
    )


def inventory_view(call: AnyCall, tx: GrantsTx, player: Player) -> api.InventoryResponse:
    game = load_game(tx, call.scope)
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


def get_wallet(call: Call[None, None], tx: GrantsTx) -> api.WalletResponse:
    return wallet_view(call, tx, _player(call))


def debit(call: Call[api.AdjustWalletRequest, None], tx: GrantsTx) -> api.WalletAdjustResponse:
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


def get_inventory(call: Call[None, None], tx: GrantsTx) -> api.InventoryResponse:
    return inventory_view(call, tx, _player(call))


def consume(call: Call[api.AdjustItemRequest, None], tx: GrantsTx) -> api.ItemAdjustResponse:
    reject_parameters(call.body)
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


def reject_parameters(body: api.AdjustItemRequest) -> None:
    from livecore.errors import invalid_request

    if body.parameters is not None:
        raise invalid_request("parameters can be set only when granting items.", {"parameters": "grant only"})


BINDINGS: list[Binding] = [
    bind(api.SDK_WALLET, get_wallet),
    bind(api.SDK_WALLET_DEBIT, debit),
    bind(api.SDK_INVENTORY, get_inventory),
    bind(api.SDK_INVENTORY_CONSUME, consume),
]
