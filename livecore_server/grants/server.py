"""Server grant routes (docs/reference/grants.md): create a grant, acknowledge one."""

from __future__ import annotations

from livecore.commands.reads import Reads
from livecore.grants.api import (
    SERVER_ACK_GRANT,
    SERVER_CREATE_GRANT,
    CreateGrantRequest,
    GrantResponse,
    GrantView,
)
from livecore.grants.commands import GrantsTx, create_grant, settle
from livecore.grants.rules import GrantTrigger
from livecore.players.commands import get_player
from livecore_server.http.endpoint import Binding, Call, bind, path_player


def create_reads(call: Call[CreateGrantRequest, None], tx: GrantsTx) -> Reads:
    return path_player(call)


def create(call: Call[CreateGrantRequest, None], tx: GrantsTx) -> GrantResponse:
    grant = create_grant(
        tx,
        call.rt,
        call.scope,
        call.external_id,
        kind=call.body.kind,
        entries=[e.to_entry(f"entries[{i}].parameters") for i, e in enumerate(call.body.entries)],
        expires_at=call.body.expires_at,
        source_kind=call.body.source_kind.value,
        source_ref_id=call.body.source_ref_id,
        metadata=call.body.metadata,
    )
    return GrantResponse(grant=GrantView.of(grant))


def ack(call: Call[None, None], tx: GrantsTx) -> GrantResponse:
    player = get_player(tx, call.scope, call.external_id)
    grant = settle(tx, call.rt, call.scope, player, call.params["grantId"], GrantTrigger.ACK)
    return GrantResponse(grant=GrantView.of(grant))


BINDINGS: list[Binding] = [
    bind(SERVER_CREATE_GRANT, create, reads=create_reads),
    bind(SERVER_ACK_GRANT, ack),
]
