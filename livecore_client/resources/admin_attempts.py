"""The operators' attempt calls: ``admin.live_events``, the force-complete of an attempt and the retry of
its reward roll (routes of ``livecore.operators.api``)."""

from __future__ import annotations

from livecore.api.call import Call
from livecore.operators import api

from .. import models as m
from .._client import AsyncResource, SyncResource, async_method, sync_method
from .._surfaces import AdminSurface, AsyncAdminSurface
from ..models import Environment
from ._base import AdminCalls, env_of

__all__ = ["AdminLiveEvents", "AsyncAdminLiveEvents"]


class _AdminLiveEventsCalls(AdminCalls):
    """The ``/admin/v1`` attempt calls."""

    def _force_complete_attempt(
        self,
        game: str,
        attempt_id: str,
        *,
        reason: str,
        score: float | None = None,
        env: Environment | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.AdminAttemptResponse]:
        """Complete an attempt in progress, its score replaced by ``score`` when given; no rewards are
        rolled. Raises :class:`~livecore_client.errors.AttemptNotFoundError` and
        :class:`~livecore_client.errors.AttemptNotInProgressError`."""
        return Call(
            api.FORCE_COMPLETE,
            m.AdminAttemptResponse,
            path=self._at(game, attemptId=attempt_id),
            query=m.EnvQuery(env=env_of(env)),
            body=m.ForceCompleteRequest(reason=reason, score=score),
            idempotency_key=idempotency_key,
        )

    def _retry_reward_roll(
        self,
        game: str,
        attempt_id: str,
        *,
        env: Environment | str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.RetryRewardRollResponse]:
        """Grant a completed attempt's milestone and completion rewards. Raises
        :class:`~livecore_client.errors.RewardsAlreadyGrantedError` when it has them already and
        :class:`~livecore_client.errors.AttemptInProgressError`."""
        return Call(
            api.RETRY_REWARD_ROLL,
            m.RetryRewardRollResponse,
            path=self._at(game, attemptId=attempt_id),
            query=m.EnvQuery(env=env_of(env)),
            idempotency_key=idempotency_key,
        )


class AdminLiveEvents(SyncResource[AdminSurface], _AdminLiveEventsCalls):
    """``admin.live_events``: the ``/admin/v1`` attempt calls."""

    force_complete_attempt = sync_method(_AdminLiveEventsCalls._force_complete_attempt)
    retry_reward_roll = sync_method(_AdminLiveEventsCalls._retry_reward_roll)


class AsyncAdminLiveEvents(AsyncResource[AsyncAdminSurface], _AdminLiveEventsCalls):
    """The methods of :class:`AdminLiveEvents`, awaited."""

    force_complete_attempt = async_method(_AdminLiveEventsCalls._force_complete_attempt)
    retry_reward_roll = async_method(_AdminLiveEventsCalls._retry_reward_roll)
