"""The grant routes' handlers: the player's (its pending grants, a claim) and the studio's (a grant
created for a player, one acknowledged). docs/reference/grants.md."""

from __future__ import annotations

from livecore.api.request import Handler, Request
from livecore.api.route import Route
from livecore.grants.api import (
    SDK_CLAIM_GRANT,
    SDK_PENDING_GRANTS,
    SERVER_ACK_GRANT,
    SERVER_CREATE_GRANT,
    CreateGrantRequest,
    GrantListResponse,
    GrantResponse,
    GrantView,
)
from livecore.grants.commands import GrantsTx, claim, create_grant, settle
from livecore.grants.rules import PENDING_LIMIT, GrantTrigger
from livecore.players.actor import player_of
from livecore.players.commands import get_player


def pending_grants(request: Request[None, None], tx: GrantsTx) -> GrantListResponse:
    grants = tx.grants.pending(player_of(request).id, request.rt.clock.now(), PENDING_LIMIT)
    return GrantListResponse(grants=[GrantView.of(g) for g in grants])


def claim_grant(request: Request[None, None], tx: GrantsTx) -> GrantResponse:
    grant_id = request.params["grantId"]
    grant = claim(tx, request.rt, request.scope, player_of(request), grant_id)
    return GrantResponse(grant=GrantView.of(grant))


def create(request: Request[CreateGrantRequest, None], tx: GrantsTx) -> GrantResponse:
    body = request.body
    grant = create_grant(
        tx,
        request.rt,
        request.scope,
        request.external_id,
        kind=body.kind,
        entries=[e.to_entry(f"entries[{i}].parameters") for i, e in enumerate(body.entries)],
        expires_at=body.expires_at,
        source_kind=body.source_kind.value,
        source_ref_id=body.source_ref_id,
        metadata=body.metadata,
    )
    return GrantResponse(grant=GrantView.of(grant))


def ack(request: Request[None, None], tx: GrantsTx) -> GrantResponse:
    player = get_player(tx, request.scope, request.external_id)
    grant = settle(tx, request.rt, request.scope, player, request.params["grantId"], GrantTrigger.ACK)
    return GrantResponse(grant=GrantView.of(grant))


HANDLERS: dict[Route, Handler] = {
    SDK_PENDING_GRANTS: pending_grants,
    SDK_CLAIM_GRANT: claim_grant,
    SERVER_CREATE_GRANT: create,
    SERVER_ACK_GRANT: ack,
}
