"""The live events' admin routes (docs/operators.md#grants-and-attempts): an operator completes an attempt
in progress, and retries a finished attempt's reward roll."""

from __future__ import annotations

import attrs

from livecore.api.admin import AreaAction, EnvQuery, game_admin_route
from livecore.grants.api import GrantView
from livecore.limits import BOARD_NUMBER, FREE_TEXT, limited
from livecore.live_events.api import AttemptView
from livecore.live_events.errors import (
    ATTEMPT_IN_PROGRESS,
    ATTEMPT_NOT_FOUND,
    ATTEMPT_NOT_IN_PROGRESS,
    REWARDS_ALREADY_GRANTED,
)
from livecore.roles import Role

_SUPPORT = frozenset({Role.GAME_ADMIN, Role.GAME_DEBUGGER})
FORCE_COMPLETE_ACTION = AreaAction("attempt.force_complete", _SUPPORT)
RETRY_REWARD_ROLL_ACTION = AreaAction("grant.retry_reward_roll", _SUPPORT)


@attrs.frozen
class ForceCompleteRequest:
    reason: str = attrs.field(metadata=limited(FREE_TEXT))
    score: float | None = attrs.field(default=None, metadata=limited(BOARD_NUMBER))


@attrs.frozen
class AttemptResponse:
    attempt: AttemptView


@attrs.frozen
class RetryRewardRollResponse:
    grants: list[GrantView]


FORCE_COMPLETE = game_admin_route(
    "admin.attempts.force_complete",
    "POST",
    "/attempts/{attemptId}/force-complete",
    "Complete an attempt in progress, its score optionally replaced; the board follows, no rewards rolled.",
    AttemptResponse,
    FORCE_COMPLETE_ACTION,
    request=ForceCompleteRequest,
    query=EnvQuery,
    errors=(ATTEMPT_NOT_FOUND, ATTEMPT_NOT_IN_PROGRESS),
)
RETRY_REWARD_ROLL = game_admin_route(
    "admin.attempts.retry_reward_roll",
    "POST",
    "/attempts/{attemptId}/retry-reward-roll",
    "Grant a completed attempt's milestone and completion rewards; 409 when grants are already linked.",
    RetryRewardRollResponse,
    RETRY_REWARD_ROLL_ACTION,
    query=EnvQuery,
    errors=(ATTEMPT_NOT_FOUND, ATTEMPT_IN_PROGRESS, REWARDS_ALREADY_GRANTED),
)

ROUTES = (FORCE_COMPLETE, RETRY_REWARD_ROLL)
