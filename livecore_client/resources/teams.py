"""Teams and partners: ``sdk.teams``, ``server.teams``; each method is its route's builder
(:mod:`livecore.teams.calls`) sent over HTTP."""

from __future__ import annotations

from livecore.teams.calls import ServerTeamsCalls, TeamsCalls

from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface

__all__ = ["AsyncServerTeams", "AsyncTeams", "ServerTeams", "Teams"]


class Teams(SyncResource[SdkSurface], TeamsCalls):
    """``sdk.teams``: the ``/sdk/v1`` team calls."""

    mine = sync_method(TeamsCalls._mine)
    invite_partner = sync_method(TeamsCalls._invite_partner)
    accept_invite = sync_method(TeamsCalls._accept_invite)


class AsyncTeams(AsyncResource[AsyncSdkSurface], TeamsCalls):
    """The methods of :class:`Teams`, awaited."""

    mine = async_method(TeamsCalls._mine)
    invite_partner = async_method(TeamsCalls._invite_partner)
    accept_invite = async_method(TeamsCalls._accept_invite)


class ServerTeams(SyncResource[SyncClient], ServerTeamsCalls):
    """``server.teams``: the ``/server/v1`` team calls."""

    put_roster = sync_method(ServerTeamsCalls._put_roster)
    get = sync_method(ServerTeamsCalls._get)


class AsyncServerTeams(AsyncResource[AsyncClient], ServerTeamsCalls):
    """The methods of :class:`ServerTeams`, awaited."""

    put_roster = async_method(ServerTeamsCalls._put_roster)
    get = async_method(ServerTeamsCalls._get)
