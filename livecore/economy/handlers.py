"""The wallet and inventory routes' handlers: the player's (its wallet and inventory, spending a currency
or using up an item, in platform-managed games) and the studio's (crediting and debiting a currency,
granting and revoking items), and the operators' edit of a player's item attributes
(:mod:`livecore.economy.admin`). docs/reference/economy.md."""

from __future__ import annotations

from typing import Any

from livecore.api.admin import AdminRequest, Audited, EnvQuery, player_target
from livecore.api.request import AnyRequest, Handler, Request
from livecore.api.route import Route
from livecore.commands.reads import Reads
from livecore.economy import admin, api
from livecore.economy.commands import (
    Change,
    PlayerEconomyTx,
    client_spend,
    edit_item_attributes,
    server_adjust,
)
from livecore.economy.reads import HoldingReads
from livecore.economy.rules import merged_parameters
from livecore.economy.views import inventory_of, items_adjusted, wallet_adjusted, wallet_of
from livecore.games import ResourceType
from livecore.players.actor import player_of
from livecore.players.commands import get_player, load_game
from livecore.players.rules import Player


def wallet_view(request: AnyRequest, tx: PlayerEconomyTx, player: Player) -> api.WalletResponse:
    return wallet_of(tx, load_game(tx, request.scope), player)


def inventory_view(request: AnyRequest, tx: PlayerEconomyTx, player: Player) -> api.InventoryResponse:
    return inventory_of(tx, load_game(tx, request.scope), player)


def get_wallet(request: Request[None, None], tx: PlayerEconomyTx) -> api.WalletResponse:
    return wallet_view(request, tx, player_of(request))


def debit(request: Request[api.AdjustWalletRequest, None], tx: PlayerEconomyTx) -> api.WalletAdjustResponse:
    game = load_game(tx, request.scope)
    c = client_spend(
        tx,
        request.rt,
        request.scope,
        game,
        player_of(request),
        ResourceType.CURRENCY,
        request.params["economyKey"],
        request.body.amount,
        note=request.body.reason,
        source_ref_id=request.body.source_ref_id,
    )
    return wallet_adjusted(c)


def get_inventory(request: Request[None, None], tx: PlayerEconomyTx) -> api.InventoryResponse:
    return inventory_view(request, tx, player_of(request))


def consume(request: Request[api.SpendItemRequest, None], tx: PlayerEconomyTx) -> api.ItemAdjustResponse:
    game = load_game(tx, request.scope)
    c = client_spend(
        tx,
        request.rt,
        request.scope,
        game,
        player_of(request),
        ResourceType.ITEM,
        request.params["itemKey"],
        request.body.quantity,
        note=request.body.reason,
        source_ref_id=request.body.source_ref_id,
    )
    return items_adjusted(c)


def _adjust(
    request: Request[api.AdjustItemRequest | api.SpendItemRequest | api.AdjustWalletRequest, None],
    tx: PlayerEconomyTx,
    kind: ResourceType,
    amount: int,
    *,
    credit: bool,
    parameters: dict[str, Any] | None = None,
) -> Change:
    """The server's credit or debit of the resource the path names, with the body's note and reference."""
    key = request.params["itemKey" if kind is ResourceType.ITEM else "economyKey"]
    return server_adjust(
        tx,
        request.rt,
        request.scope,
        load_game(tx, request.scope),
        get_player(tx, request.scope, request.external_id),
        kind,
        key,
        amount,
        credit=credit,
        note=request.body.reason,
        source_ref_id=request.body.source_ref_id,
        parameters=parameters,
    )


def grant_items(request: Request[api.AdjustItemRequest, None], tx: PlayerEconomyTx) -> api.ItemAdjustResponse:
    body = request.body
    changed = _adjust(request, tx, ResourceType.ITEM, body.quantity, credit=True, parameters=body.parameters)
    return items_adjusted(changed)


def revoke_items(request: Request[api.SpendItemRequest, None], tx: PlayerEconomyTx) -> api.ItemAdjustResponse:
    return items_adjusted(_adjust(request, tx, ResourceType.ITEM, request.body.quantity, credit=False))


def credit_wallet(
    request: Request[api.AdjustWalletRequest, None], tx: PlayerEconomyTx
) -> api.WalletAdjustResponse:
    return wallet_adjusted(_adjust(request, tx, ResourceType.CURRENCY, request.body.amount, credit=True))


def debit_wallet(
    request: Request[api.AdjustWalletRequest, None], tx: PlayerEconomyTx
) -> api.WalletAdjustResponse:
    return wallet_adjusted(_adjust(request, tx, ResourceType.CURRENCY, request.body.amount, credit=False))


def _holding_reads(request: AnyRequest, tx: PlayerEconomyTx, param: str) -> Reads:
    """The holding the write changes: of the player its path names, of the resource its path names (when
    the game declares it: another is refused before anything is read)."""
    game = tx.games.get(request.scope.game_id)
    key = request.params[param]
    if game is None or key not in game.settings.resources:
        return Reads()
    return Reads(areas=(HoldingReads((game.id, request.external_id), key),))


def wallet_reads(request: Request[api.AdjustWalletRequest, None], tx: PlayerEconomyTx) -> Reads:
    return _holding_reads(request, tx, "economyKey")


def item_spend_reads(request: Request[api.SpendItemRequest, None], tx: PlayerEconomyTx) -> Reads:
    return _holding_reads(request, tx, "itemKey")


def item_grant_reads(request: Request[api.AdjustItemRequest, None], tx: PlayerEconomyTx) -> Reads:
    return _holding_reads(request, tx, "itemKey")


def admin_edit_item_attributes(
    request: AdminRequest[admin.EditItemAttributesRequest, EnvQuery], tx: PlayerEconomyTx
) -> Audited[api.ItemAdjustResponse]:
    player = get_player(tx, request.scope, request.external_id)
    game = load_game(tx, request.scope)
    key = request.params["itemKey"]
    body = request.body
    before = tx.ledger.holding(player.id, key)
    done = edit_item_attributes(
        tx, request.rt, request.scope, game, player, key, body.attributes, note=body.reason
    )
    return Audited(
        items_adjusted(done),
        player_target(player.external_id),
        metadata={"itemKey": key, "entryId": done.entry.id, "reason": body.reason},
        before={"attributes": merged_parameters(done.resource, before.parameters)},
        after={"attributes": done.parameters()},
    )


HANDLERS: dict[Route, Handler] = {
    api.SDK_WALLET: get_wallet,
    api.SDK_WALLET_DEBIT: debit,
    api.SDK_INVENTORY: get_inventory,
    api.SDK_INVENTORY_CONSUME: consume,
    api.SERVER_INVENTORY_GRANT: grant_items,
    api.SERVER_INVENTORY_REVOKE: revoke_items,
    api.SERVER_WALLET_CREDIT: credit_wallet,
    api.SERVER_WALLET_DEBIT: debit_wallet,
    admin.EDIT_ITEM_ATTRIBUTES: admin_edit_item_attributes,
}
