"""Players: registration and identity (``sdk.players``, and ``server.players``'s identity call, beside
which the server clients put the player tools' calls, :mod:`livecore_client.resources.player_tools`);
each method is its route's builder (:mod:`livecore.players.calls`) sent over HTTP. The operators' player
edits (``admin.players``) are the operators' (:mod:`livecore_client.resources.operators.players`)."""

from __future__ import annotations

from livecore.players.calls import PlayersCalls, ServerPlayersCalls

from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface

__all__ = ["AsyncPlayers", "AsyncServerPlayers", "Players", "ServerPlayers"]


class Players(SyncResource[SdkSurface], PlayersCalls):
    """``sdk.players``: the ``/sdk/v1`` player calls."""

    register = sync_method(PlayersCalls._register)
    set_identity = sync_method(PlayersCalls._set_identity)


class AsyncPlayers(AsyncResource[AsyncSdkSurface], PlayersCalls):
    """The methods of :class:`Players`, awaited."""

    register = async_method(PlayersCalls._register)
    set_identity = async_method(PlayersCalls._set_identity)


class ServerPlayers(SyncResource[SyncClient], ServerPlayersCalls):
    """The players area's part of ``server.players``: a player's identity."""

    set_identity = sync_method(ServerPlayersCalls._set_identity)


class AsyncServerPlayers(AsyncResource[AsyncClient], ServerPlayersCalls):
    """The methods of :class:`ServerPlayers`, awaited."""

    set_identity = async_method(ServerPlayersCalls._set_identity)
