"""Server inventory and wallet routes (docs/reference/economy.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from livecore.economy import api
from livecore.economy.commands import Change, PlayerEconomyTx, server_adjust
from livecore.economy.views import items_adjusted, wallet_adjusted
from livecore.games import ResourceType
from livecore.players.commands import get_player, load_game
from livecore_server.http.endpoint import Binding, Call, bind


def _adjust(
    call: Call[api.AdjustItemRequest, None]
    | Call[api.SpendItemRequest, None]
    | Call[api.AdjustWalletRequest, None],
    tx: PlayerEconomyTx,
    kind: ResourceType,
    amount: int,
    *,
    credit: bool,
    parameters: dict[str, Any] | None = None,
) -> Change:
    """The server's credit or debit of the resource the path names, with the body's note and reference."""
    key = call.params["itemKey" if kind is ResourceType.ITEM else "economyKey"]
    return server_adjust(
        tx,
        call.rt,
        call.scope,
        load_game(tx, call.scope),
        get_player(tx, call.scope, call.external_id),
        kind,
        key,
        amount,
        credit=credit,
        note=call.body.reason,
        source_ref_id=call.body.source_ref_id,
        parameters=parameters,
    )


def grant_items(call: Call[api.AdjustItemRequest, None], tx: PlayerEconomyTx) -> api.ItemAdjustResponse:
    changed = _adjust(
        call, tx, ResourceType.ITEM, call.body.quantity, credit=True, parameters=call.body.parameters
    )
    return items_adjusted(changed)


def revoke_items(call: Call[api.SpendItemRequest, None], tx: PlayerEconomyTx) -> api.ItemAdjustResponse:
    return items_adjusted(_adjust(call, tx, ResourceType.ITEM, call.body.quantity, credit=False))


def _adjust_wallet(
    credit: bool,
) -> Callable[[Call[api.AdjustWalletRequest, None], PlayerEconomyTx], api.WalletAdjustResponse]:
    def handler(call: Call[api.AdjustWalletRequest, None], tx: PlayerEconomyTx) -> api.WalletAdjustResponse:
        return wallet_adjusted(_adjust(call, tx, ResourceType.CURRENCY, call.body.amount, credit=credit))

    return handler


BINDINGS: list[Binding] = [
    bind(api.SERVER_INVENTORY_GRANT, grant_items),
    bind(api.SERVER_INVENTORY_REVOKE, revoke_items),
    bind(api.SERVER_WALLET_CREDIT, _adjust_wallet(credit=True)),
    bind(api.SERVER_WALLET_DEBIT, _adjust_wallet(credit=False)),
]
