"""Client wallet, inventory and grant routes (player secret required)."""

from __future__ import annotations

from livecore.api import models as m
from livecore.api import routes
from livecore.commands.economy import Change, client_spend
from livecore.commands.grants import settle
from livecore.commands.players import load_game
from livecore.economy import SYSTEM_ITEMS, merged_parameters, system_item_amount
from livecore.games import ResourceType
from livecore.grants import GrantTrigger
from livecore.players import Player
from livecore_server.http.endpoint import Binding, Call, bind
from livecore_server.storage.server_store import ServerTransaction

PENDING_LIMIT = 200


def _player(call: Call) -> Player:
    assert call.player is not None  # player-scoped: authenticated before the handler runs
    return call.player


def wallet_view(call: Call, tx: ServerTransaction, player: Player) -> m.WalletResponse:
    game = load_game(tx, call.scope)
    holdings = tx.ledger.holdings(player.id)
    return m.WalletResponse(
        currencies=[
            m.CurrencyBalance(key=key, balance=holdings[key].amount if key in holdings else 0)
            for key, res in sorted(game.settings.resources.items())
            if res.type is ResourceType.CURRENCY
        ]
    )


def inventory_view(call: Call, tx: ServerTransaction, player: Player) -> m.InventoryResponse:
    game = load_game(tx, call.scope)
    holdings = tx.ledger.holdings(player.id)
    items = [
        m.ItemHolding(
            key=key,
            quantity=holdings[key].amount if key in holdings else 0,
            parameters=merged_parameters(res, holdings[key].parameters if key in holdings else {}),
        )
        for key, res in sorted(game.settings.resources.items())
        if res.type is ResourceType.ITEM
    ]
    items += [
        m.ItemHolding(key=key, quantity=system_item_amount(key, player.activity), parameters={}, system=True)
        for key in SYSTEM_ITEMS
    ]
    return m.InventoryResponse(items=items)


def wallet_adjusted(c: Change) -> m.WalletAdjustResponse:
    return m.WalletAdjustResponse(
        key=c.resource.key, balance=c.holding.amount, delta=c.entry.delta, entry_id=c.entry.id
    )


def items_adjusted(c: Change) -> m.ItemAdjustResponse:
    return m.ItemAdjustResponse(
        key=c.resource.key,
        quantity=c.holding.amount,
        delta=c.entry.delta,
        parameters=c.parameters(),
        entry_id=c.entry.id,
    )


def get_wallet(call: Call, tx: ServerTransaction) -> m.WalletResponse:
    return wallet_view(call, tx, _player(call))


def debit(call: Call, tx: ServerTransaction) -> m.WalletAdjustResponse:
    body: m.AdjustWalletRequest = call.body
    game = load_game(tx, call.scope)
    c = client_spend(
        tx,
        call.rt,
        call.scope,
        game,
        _player(call),
        ResourceType.CURRENCY,
        call.params["economyKey"],
        body.amount,
        note=body.reason,
        source_ref_id=body.source_ref_id,
    )
    return wallet_adjusted(c)


def get_inventory(call: Call, tx: ServerTransaction) -> m.InventoryResponse:
    return inventory_view(call, tx, _player(call))


def consume(call: Call, tx: ServerTransaction) -> m.ItemAdjustResponse:
    body: m.AdjustItemRequest = call.body
    reject_parameters(body)
    game = load_game(tx, call.scope)
    c = client_spend(
        tx,
        call.rt,
        call.scope,
        game,
        _player(call),
        ResourceType.ITEM,
        call.params["itemKey"],
        body.quantity,
        note=body.reason,
        source_ref_id=body.source_ref_id,
    )
    return items_adjusted(c)


def reject_parameters(body: m.AdjustItemRequest) -> None:
    from livecore.errors import invalid_request

    if body.parameters is not None:
        raise invalid_request("parameters can be set only when granting items.", {"parameters": "grant only"})


def pending_grants(call: Call, tx: ServerTransaction) -> m.GrantListResponse:
    grants = tx.grants.pending(_player(call).id, call.rt.clock.now(), PENDING_LIMIT)
    return m.GrantListResponse(grants=[m.GrantView.of(g) for g in grants])


def claim_grant(call: Call, tx: ServerTransaction) -> m.GrantResponse:
    grant = settle(tx, call.rt, call.scope, _player(call), call.params["grantId"], GrantTrigger.CLAIM)
    return m.GrantResponse(grant=m.GrantView.of(grant))


BINDINGS: list[Binding] = [
    bind(routes.SDK_WALLET, get_wallet),
    bind(routes.SDK_WALLET_DEBIT, debit),
    bind(routes.SDK_INVENTORY, get_inventory),
    bind(routes.SDK_INVENTORY_CONSUME, consume),
    bind(routes.SDK_PENDING_GRANTS, pending_grants),
    bind(routes.SDK_CLAIM_GRANT, claim_grant),
]
