"""Client grant routes (player secret required): pending grants, claim."""

from __future__ import annotations

from livecore.grants.api import (
    SDK_CLAIM_GRANT,
    SDK_PENDING_GRANTS,
    GrantListResponse,
    GrantResponse,
    GrantView,
)
from livecore.grants.commands import GrantsTx, settle
from livecore.grants.rules import PENDING_LIMIT, GrantTrigger
from livecore_server.http.endpoint import Binding, Call, bind, player_of


def pending_grants(call: Call[None, None], tx: GrantsTx) -> GrantListResponse:
    grants = tx.grants.pending(player_of(call).id, call.rt.clock.now(), PENDING_LIMIT)
    return GrantListResponse(grants=[GrantView.of(g) for g in grants])


def claim_grant(call: Call[None, None], tx: GrantsTx) -> GrantResponse:
    grant = settle(tx, call.rt, call.scope, player_of(call), call.params["grantId"], GrantTrigger.CLAIM)
    return GrantResponse(grant=GrantView.of(grant))


BINDINGS: list[Binding] = [bind(SDK_PENDING_GRANTS, pending_grants), bind(SDK_CLAIM_GRANT, claim_grant)]
