"""Lobbies: ``sdk.lobbies``, ``server.lobbies``; each method is its route's builder
(:mod:`livecore.lobbies.calls`) sent over HTTP."""

from __future__ import annotations

from livecore.lobbies.calls import LobbiesCalls, ServerLobbiesCalls

from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface

__all__ = ["AsyncLobbies", "AsyncServerLobbies", "Lobbies", "ServerLobbies"]


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
