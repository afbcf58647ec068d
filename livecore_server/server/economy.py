"""Server grant, inventory and wallet routes (SPEC 4.3)."""

from __future__ import annotations

from collections.abc import Callable

from livecore.api import economy as api
from livecore.api.grants import (
    SERVER_ACK_GRANT,
    SERVER_CREATE_GRANT,
    CreateGrantRequest,
    GrantResponse,
    GrantView,
)
from livecore.commands.economy import server_adjust
from livecore.commands.grants import create_grant, settle
from livecore.commands.players import get_player, load_game
from livecore.games import ResourceType
from livecore.grants import GrantTrigger
from livecore_server.http.endpoint import Binding, Call, bind
from livecore_server.sdk.economy import items_adjusted, reject_parameters, wallet_adjusted
from livecore_server.storage.sqlport import SqlTransaction


def create(call: Call, tx: SqlTransaction) -> GrantResponse:
    body: CreateGrantRequest = call.body
    grant = create_grant(
        tx,
        call.rt,
        call.scope,
        call.external_id,
        kind=body.kind,
        entries=[e.to_entry() for e in body.entries],
        expires_at=body.expires_at,
        source_kind=body.source_kind.value,
        source_ref_id=body.source_ref_id,
        metadata=body.metadata,
    )
    return GrantResponse(grant=GrantView.of(grant))


def ack(call: Call, tx: SqlTransaction) -> GrantResponse:
    player = get_player(tx, call.scope, call.external_id)
    grant = settle(tx, call.rt, call.scope, player, call.params["grantId"], GrantTrigger.ACK)
    return GrantResponse(grant=GrantView.of(grant))


def _adjust_items(credit: bool) -> Callable[[Call, SqlTransaction], api.ItemAdjustResponse]:
    def handler(call: Call, tx: SqlTransaction) -> api.ItemAdjustResponse:
        body: api.AdjustItemRequest = call.body
        if not credit:
            reject_parameters(body)
        c = server_adjust(
            tx,
            call.rt,
            call.scope,
            load_game(tx, call.scope),
            get_player(tx, call.scope, call.external_id),
            ResourceType.ITEM,
            call.params["itemKey"],
            body.quantity,
            credit=credit,
            note=body.reason,
            source_ref_id=body.source_ref_id,
            parameters=body.parameters,
        )
        return items_adjusted(c)

    return handler


def _adjust_wallet(credit: bool) -> Callable[[Call, SqlTransaction], api.WalletAdjustResponse]:
    def handler(call: Call, tx: SqlTransaction) -> api.WalletAdjustResponse:
        body: api.AdjustWalletRequest = call.body
        c = server_adjust(
            tx,
            call.rt,
            call.scope,
            load_game(tx, call.scope),
            get_player(tx, call.scope, call.external_id),
            ResourceType.CURRENCY,
            call.params["economyKey"],
            body.amount,
            credit=credit,
            note=body.reason,
            source_ref_id=body.source_ref_id,
        )
        return wallet_adjusted(c)

    return handler


BINDINGS: list[Binding] = [
    bind(SERVER_CREATE_GRANT, create),
    bind(SERVER_ACK_GRANT, ack),
    bind(api.SERVER_INVENTORY_GRANT, _adjust_items(credit=True)),
    bind(api.SERVER_INVENTORY_REVOKE, _adjust_items(credit=False)),
    bind(api.SERVER_WALLET_CREDIT, _adjust_wallet(credit=True)),
    bind(api.SERVER_WALLET_DEBIT, _adjust_wallet(credit=False)),
]
