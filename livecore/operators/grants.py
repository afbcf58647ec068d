"""Operator actions on grants and attempts (docs/operators.md#grants-and-attempts): the manual grant, the
force-claim of a stuck grant, the force-complete of an attempt and the retry of its reward roll."""

from __future__ import annotations

from typing import Any

from livecore.clock import format_ts
from livecore.errors import LivecoreError
from livecore.grants.api import GrantSourceKind, GrantView
from livecore.grants.commands import create_grant, settle
from livecore.grants.errors import GRANT_NOT_FOUND
from livecore.grants.rules import Grant, GrantTrigger
from livecore.limits import FREE_TEXT
from livecore.live_events.api import AttemptView
from livecore.live_events.commands.live_events import force_complete, retry_reward_roll
from livecore.operators import api
from livecore.operators.audit import player_target, record
from livecore.operators.request import OperatorRequest, operator_of
from livecore.operators.store import OperatorsTx
from livecore.players.rules import Player


def _grant_state(grant: Grant) -> dict[str, Any]:
    return {
        "status": grant.status.value,
        "claimedAt": format_ts(grant.claimed_at) if grant.claimed_at else None,
        "ackedBy": grant.acked_by.value if grant.acked_by else None,
    }


def manual_grant(
    request: OperatorRequest[api.ManualGrantRequest, api.EnvQuery], tx: OperatorsTx
) -> api.AdminGrantResponse:
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
        source_ref_id=operator_of(request).member_id,
        metadata=body.metadata,
    )
    record(
        tx,
        request,
        player_target(grant.external_player_id),
        metadata={"grantId": grant.id, "kind": grant.kind.value, "reason": body.reason},
        after=_grant_state(grant),
    )
    return api.AdminGrantResponse(grant=GrantView.of(grant, request.rt.clock.now()))


def _player_of(tx: OperatorsTx, grant: Grant) -> Player:
    player = tx.players.by_id(grant.player_id)
    assert player is not None  # a grant's player row is never deleted (erasure anonymizes it)
    return player


def force_claim(
    request: OperatorRequest[api.ReasonRequest | None, api.EnvQuery], tx: OperatorsTx
) -> api.AdminGrantResponse:
    grant_id = request.params["grantId"]
    reason = request.body.reason if request.body else None
    FREE_TEXT.check_optional(reason, "reason")
    grant = tx.grants.get(request.scope.game_id, grant_id)
    player = _player_of(tx, grant) if grant is not None else None
    if grant is None or player is None or player.env is not request.scope.env:
        raise LivecoreError(GRANT_NOT_FOUND, "Grant not found.", {"grantId": grant_id})
    claimed = settle(tx, request.rt, request.scope, player, grant_id, GrantTrigger.FORCE_CLAIM)
    record(
        tx,
        request,
        f"grant:{grant_id}",
        metadata={"externalPlayerId": player.external_id, "reason": reason},
        before=_grant_state(grant),
        after=_grant_state(claimed),
    )
    return api.AdminGrantResponse(grant=GrantView.of(claimed, request.rt.clock.now()))


def complete(
    request: OperatorRequest[api.ForceCompleteRequest, api.EnvQuery], tx: OperatorsTx
) -> api.AttemptResponse:
    attempt_id = request.params["attemptId"]
    before = tx.attempts.get(request.scope.game_id, attempt_id)
    done = force_complete(
        tx,
        request.rt,
        request.scope,
        attempt_id,
        score=request.body.score,
        actor_member_id=operator_of(request).member_id,
        reason=request.body.reason,
    )
    record(
        tx,
        request,
        f"attempt:{attempt_id}",
        metadata={"reason": request.body.reason, "milestones": list(done.milestones)},
        before={"status": before.status.value, "score": before.score} if before else None,
        after={"status": done.status.value, "score": done.score},
    )
    return api.AttemptResponse(attempt=AttemptView.of(done, request.rt.clock.now()))


def retry_roll(request: OperatorRequest[None, api.EnvQuery], tx: OperatorsTx) -> api.RetryRewardRollResponse:
    attempt_id = request.params["attemptId"]
    grants = retry_reward_roll(tx, request.rt, request.scope, attempt_id)
    record(
        tx,
        request,
        f"attempt:{attempt_id}",
        metadata={"grantCount": len(grants), "grantIds": [g.id for g in grants]},
    )
    now = request.rt.clock.now()
    return api.RetryRewardRollResponse(grants=[GrantView.of(g, now) for g in grants])
