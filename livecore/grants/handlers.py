"""The grant routes' handlers: the player's (its pending grants, a claim) and the studio's (a grant
created for a player, one acknowledged), and the operators' manual grant and force-claim
(:mod:`livecore.grants.admin`). docs/reference/grants.md."""

from __future__ import annotations

from typing import Any

from livecore.api.admin import AdminRequest, Audited, EnvQuery, member_of, player_target
from livecore.api.request import Handler, Request
from livecore.api.route import Route
from livecore.clock import format_ts
from livecore.errors import LivecoreError
from livecore.grants import admin
from livecore.grants.api import (
    SDK_CLAIM_GRANT,
    SDK_PENDING_GRANTS,
    SERVER_ACK_GRANT,
    SERVER_CREATE_GRANT,
    CreateGrantRequest,
    GrantListResponse,
    GrantResponse,
    GrantSourceKind,
    GrantView,
)
from livecore.grants.commands import GrantsTx, claim, create_grant, settle
from livecore.grants.errors import GRANT_NOT_FOUND
from livecore.grants.rules import PENDING_LIMIT, Grant, GrantTrigger
from livecore.limits import FREE_TEXT
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


# --- the operators' actions on grants (livecore.grants.admin) ----------------------------------------------


def grant_state(grant: Grant) -> dict[str, Any]:
    """A grant's state, as an operator's audit entry records it before and after."""
    return {
        "status": grant.status.value,
        "claimedAt": format_ts(grant.claimed_at) if grant.claimed_at else None,
        "ackedBy": grant.acked_by.value if grant.acked_by else None,
    }


def manual_grant(
    request: AdminRequest[admin.ManualGrantRequest, EnvQuery], tx: GrantsTx
) -> Audited[admin.AdminGrantResponse]:
    body = request.body
    FREE_TEXT.check_optional(body.reason, "reason")
    grant = create_grant(
        tx,
        request.rt,
        request.scope,
        body.external_player_id,
        kind=body.kind,
        entries=[e.to_entry(f"entries[{i}].parameters") for i, e in enumerate(body.entries)],
        expires_at=body.expires_at,
        source_kind=GrantSourceKind.ADMIN.value,
        source_ref_id=member_of(request).member_id,
        metadata=body.metadata,
    )
    return Audited(
        admin.AdminGrantResponse(grant=GrantView.of(grant, request.rt.clock.now())),
        player_target(grant.external_player_id),
        metadata={"grantId": grant.id, "kind": grant.kind.value, "reason": body.reason},
        after=grant_state(grant),
    )


def force_claim(
    request: AdminRequest[admin.ReasonRequest | None, EnvQuery], tx: GrantsTx
) -> Audited[admin.AdminGrantResponse]:
    grant_id = request.params["grantId"]
    reason = request.body.reason if request.body else None
    FREE_TEXT.check_optional(reason, "reason")
    grant = tx.grants.get(request.scope.game_id, grant_id)
    # A grant's player row is never deleted (erasure anonymizes it).
    player = tx.players.by_id(grant.player_id) if grant is not None else None
    if grant is None or player is None or player.env is not request.scope.env:
        raise LivecoreError(GRANT_NOT_FOUND, "Grant not found.", {"grantId": grant_id})
    claimed = settle(tx, request.rt, request.scope, player, grant_id, GrantTrigger.FORCE_CLAIM)
    return Audited(
        admin.AdminGrantResponse(grant=GrantView.of(claimed, request.rt.clock.now())),
        f"grant:{grant_id}",
        metadata={"externalPlayerId": player.external_id, "reason": reason},
        before=grant_state(grant),
        after=grant_state(claimed),
    )


HANDLERS: dict[Route, Handler] = {
    SDK_PENDING_GRANTS: pending_grants,
    SDK_CLAIM_GRANT: claim_grant,
    SERVER_CREATE_GRANT: create,
    SERVER_ACK_GRANT: ack,
    admin.MANUAL_GRANT: manual_grant,
    admin.FORCE_CLAIM: force_claim,
}
