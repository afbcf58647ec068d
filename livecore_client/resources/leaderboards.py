"""Shared leaderboards: ``sdk.leaderboards``, ``server.leaderboards``; each method is its route's builder
(:mod:`livecore.leaderboards.calls`) sent over HTTP."""

from __future__ import annotations

from livecore.leaderboards.calls import LeaderboardsCalls, ServerLeaderboardsCalls

from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface

__all__ = ["AsyncLeaderboards", "AsyncServerLeaderboards", "Leaderboards", "ServerLeaderboards"]


class Leaderboards(SyncResource[SdkSurface], LeaderboardsCalls):
    """``sdk.leaderboards``: the ``/sdk/v1`` shared leaderboard call."""

    get = sync_method(LeaderboardsCalls._get)


class AsyncLeaderboards(AsyncResource[AsyncSdkSurface], LeaderboardsCalls):
    """The methods of :class:`Leaderboards`, awaited."""

    get = async_method(LeaderboardsCalls._get)


class ServerLeaderboards(SyncResource[SyncClient], ServerLeaderboardsCalls):
    """``server.leaderboards``: the ``/server/v1`` shared leaderboard calls."""

    submit_score = sync_method(ServerLeaderboardsCalls._submit_score)
    rollover_now = sync_method(ServerLeaderboardsCalls._rollover_now)


class AsyncServerLeaderboards(AsyncResource[AsyncClient], ServerLeaderboardsCalls):
    """The methods of :class:`ServerLeaderboards`, awaited."""

    submit_score = async_method(ServerLeaderboardsCalls._submit_score)
    rollover_now = async_method(ServerLeaderboardsCalls._rollover_now)
