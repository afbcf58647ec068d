"""The server surface's probes and the test clock: ``server.system``; each method is its route's builder
(:mod:`livecore.system.calls`) sent over HTTP."""

from __future__ import annotations

from livecore.system.calls import ADVANCE_SECONDS_PER_DAY, ServerSystemCalls

from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method

__all__ = ["ADVANCE_SECONDS_PER_DAY", "AsyncServerSystem", "ServerSystem"]


class ServerSystem(SyncResource[SyncClient], ServerSystemCalls):
    """``server.system``: the ``/server/v1`` probe and clock calls."""

    ping = sync_method(ServerSystemCalls._ping)
    health = sync_method(ServerSystemCalls._health)
    advance_clock = sync_method(ServerSystemCalls._advance_clock)


class AsyncServerSystem(AsyncResource[AsyncClient], ServerSystemCalls):
    """The methods of :class:`ServerSystem`, awaited."""

    ping = async_method(ServerSystemCalls._ping)
    health = async_method(ServerSystemCalls._health)
    advance_clock = async_method(ServerSystemCalls._advance_clock)
