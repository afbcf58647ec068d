"""Lobbies: ``sdk.lobbies``, ``server.lobbies``, and the live events' start, which seats a lobby event's
player first: the lobbies add it to the events' resource, and the SDK clients compose ``sdk.live_events``
of :class:`LobbyStart` and the events' own (:mod:`livecore_client.sdk`); each method is its route's
builder (:mod:`livecore.lobbies.calls`) sent over HTTP."""

from __future__ import annotations

from livecore.lobbies.calls import LobbiesCalls, ServerLobbiesCalls, StartingCalls

from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface

__all__ = ["AsyncLobbies", "AsyncLobbyStart", "AsyncServerLobbies", "Lobbies", "LobbyStart", "ServerLobbies"]


class LobbyStart(SyncResource[SdkSurface], StartingCalls):
    """The lobbies' part of ``sdk.live_events``: the start, which seats the player in a lobby first on a
    lobby event (:class:`~livecore.lobbies.calls.StartingCalls`)."""

    start_attempt = sync_method(StartingCalls._start_attempt)


class AsyncLobbyStart(AsyncResource[AsyncSdkSurface], StartingCalls):
    """The methods of :class:`LobbyStart`, awaited."""

    start_attempt = async_method(StartingCalls._start_attempt)


class Lobbies(SyncResource[SdkSurface], LobbiesCalls):
    """``sdk.lobbies``: the ``/sdk/v1`` lobby call."""

    get = sync_method(LobbiesCalls._get)


class AsyncLobbies(AsyncResource[AsyncSdkSurface], LobbiesCalls):
    """The methods of :class:`Lobbies`, awaited."""

    get = async_method(LobbiesCalls._get)


class ServerLobbies(SyncResource[SyncClient], ServerLobbiesCalls):
    """``server.lobbies``: the ``/server/v1`` lobby calls."""

    push = sync_method(ServerLobbiesCalls._push)
    get = sync_method(ServerLobbiesCalls._get)


class AsyncServerLobbies(AsyncResource[AsyncClient], ServerLobbiesCalls):
    """The methods of :class:`ServerLobbies`, awaited."""

    push = async_method(ServerLobbiesCalls._push)
    get = async_method(ServerLobbiesCalls._get)
