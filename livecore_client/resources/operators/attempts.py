"""The operators' attempt calls: ``admin.live_events``, the force-complete of an attempt and the retry of
its reward roll; each method is its route's builder (:mod:`livecore.operators.calls`) sent over HTTP."""

from __future__ import annotations

from livecore.operators.calls import AdminLiveEventsCalls

from ..._client import AsyncResource, SyncResource, async_method, sync_method
from .surface import AdminSurface, AsyncAdminSurface

__all__ = ["AdminLiveEvents", "AsyncAdminLiveEvents"]


class AdminLiveEvents(SyncResource[AdminSurface], AdminLiveEventsCalls):
    """``admin.live_events``: the ``/admin/v1`` attempt calls."""

    force_complete_attempt = sync_method(AdminLiveEventsCalls._force_complete_attempt)
    retry_reward_roll = sync_method(AdminLiveEventsCalls._retry_reward_roll)


class AsyncAdminLiveEvents(AsyncResource[AsyncAdminSurface], AdminLiveEventsCalls):
    """The methods of :class:`AdminLiveEvents`, awaited."""

    force_complete_attempt = async_method(AdminLiveEventsCalls._force_complete_attempt)
    retry_reward_roll = async_method(AdminLiveEventsCalls._retry_reward_roll)
