"""Operator actions on grants (docs/operators.md#grants-and-attempts): the manual grant and the
force-claim of a stuck grant (the attempts' actions: :mod:`livecore_server.admin.attempts`)."""

from __future__ import annotations

from typing import Any

from livecore.clock import format_ts
from livecore.errors import LivecoreError
from livecore.grants.api import GrantSourceKind, GrantView
from livecore.grants.commands import create_grant, settle
from livecore.grants.errors import GRANT_NOT_FOUND
from livecore.grants.rules import Grant, GrantTrigger
from livecore.limits import FREE_TEXT
from livecore.operators import api
from livecore.players.rules import Player
from livecore_server.admin.audit import record
from livecore_server.admin.players import target
from livecore_server.http.endpoint import Binding, Call, bind
from livecore_server.storage.server_store import ServerTransaction


def _grant_state(grant: Grant) -> dict[str, Any]:
    return {
        "status": grant.status.value,
        "claimedAt": format_ts(grant.claimed_at) if grant.claimed_at else None,
        "ackedBy": grant.acked_by.value if grant.acked_by else None,
    }


def manual_grant(
    call: Call[api.ManualGrantRequest, api.EnvQuery], tx: ServerTransaction
) -> api.AdminGrantResponse:
    body = call.body
    FREE_TEXT.check_optional(body.reason, "reason")
    grant = create_grant(
        tx,
        call.rt,
        call.scope,
        body.external_player_id,
        kind=body.kind,
        entries=[e.to_entry(f"entries[{i}].parameters") for i, e in enumerate(body.entries)],
        expires_at=body.expires_at,
        source_kind=GrantSourceKind.ADMIN.value,
        source_ref_id=call.operator.member_id if call.operator else None,
        metadata=body.metadata,
    )
    record(
        tx,
        call,
        target(grant.external_player_id),
        metadata={"grantId": grant.id, "kind": grant.kind.value, "reason": body.reason},
        after=_grant_state(grant),
    )
    return api.AdminGrantResponse(grant=GrantView.of(grant, call.rt.clock.now()))


def _player_of(tx: ServerTransaction, grant: Grant) -> Player:
    player = tx.players.by_id(grant.player_id)
    assert player is not None  # a grant's player row is never deleted (erasure anonymizes it)
    return player


def force_claim(
    call: Call[api.ReasonRequest | None, api.EnvQuery], tx: ServerTransaction
) -> api.AdminGrantResponse:
    grant_id = call.params["grantId"]
    FREE_TEXT.check_optional(call.body.reason if call.body else None, "reason")
    grant = tx.grants.get(call.scope.game_id, grant_id)
    player = _player_of(tx, grant) if grant is not None else None
    if grant is None or player is None or player.env is not call.scope.env:
        raise LivecoreError(GRANT_NOT_FOUND, "Grant not found.", {"grantId": grant_id})
    claimed = settle(tx, call.rt, call.scope, player, grant_id, GrantTrigger.FORCE_CLAIM)
    record(
        tx,
        call,
        f"grant:{grant_id}",
        metadata={"externalPlayerId": player.external_id, "reason": call.body.reason if call.body else None},
        before=_grant_state(grant),
        after=_grant_state(claimed),
    )
    return api.AdminGrantResponse(grant=GrantView.of(claimed, call.rt.clock.now()))


BINDINGS: list[Binding] = [
    bind(api.MANUAL_GRANT, manual_grant),
    bind(api.FORCE_CLAIM, force_claim),
]
