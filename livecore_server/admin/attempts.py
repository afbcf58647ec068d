"""Operator actions on attempts (docs/operators.md#grants-and-attempts): the force-complete of an attempt
and the retry of its reward roll."""

from __future__ import annotations

from livecore.grants.api import GrantView
from livecore.live_events.api import AttemptView
from livecore.live_events.commands.live_events import force_complete, retry_reward_roll
from livecore.operators import api
from livecore_server.admin.audit import record
from livecore_server.http.endpoint import Binding, Call, bind
from livecore_server.storage.server_store import ServerTransaction


def complete(
    call: Call[api.ForceCompleteRequest, api.EnvQuery], tx: ServerTransaction
) -> api.AttemptResponse:
    assert call.operator is not None
    attempt_id = call.params["attemptId"]
    before = tx.attempts.get(call.scope.game_id, attempt_id)
    done = force_complete(
        tx,
        call.rt,
        call.scope,
        attempt_id,
        score=call.body.score,
        actor_member_id=call.operator.member_id,
        reason=call.body.reason,
    )
    record(
        tx,
        call,
        f"attempt:{attempt_id}",
        metadata={"reason": call.body.reason, "milestones": list(done.milestones)},
        before={"status": before.status.value, "score": before.score} if before else None,
        after={"status": done.status.value, "score": done.score},
    )
    return api.AttemptResponse(attempt=AttemptView.of(done, call.rt.clock.now()))


def retry_roll(call: Call[None, api.EnvQuery], tx: ServerTransaction) -> api.RetryRewardRollResponse:
    attempt_id = call.params["attemptId"]
    grants = retry_reward_roll(tx, call.rt, call.scope, attempt_id)
    record(
        tx,
        call,
        f"attempt:{attempt_id}",
        metadata={"grantCount": len(grants), "grantIds": [g.id for g in grants]},
    )
    now = call.rt.clock.now()
    return api.RetryRewardRollResponse(grants=[GrantView.of(g, now) for g in grants])


BINDINGS: list[Binding] = [
    bind(api.FORCE_COMPLETE, complete),
    bind(api.RETRY_REWARD_ROLL, retry_roll),
]
