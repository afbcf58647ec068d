"""The player tools on ``server.players``: a player's profile, bans, the debug flag, merge, erasure and
export, which the server clients put beside the players area's own server call
(:mod:`livecore_client.resources.players`, composed in :mod:`livecore_client.server`); each method is its
route's builder (:mod:`livecore.player_tools.calls`) sent over HTTP. The migration calls are
:mod:`livecore_client.resources.player_tools.migration`."""

from __future__ import annotations

from livecore.player_tools.calls import PlayerToolsCalls

from ..._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method

__all__ = ["AsyncServerPlayerTools", "ServerPlayerTools"]


class ServerPlayerTools(SyncResource[SyncClient], PlayerToolsCalls):
    """The player tools' part of ``server.players``."""

    profile = sync_method(PlayerToolsCalls._profile)
    ban = sync_method(PlayerToolsCalls._ban)
    unban = sync_method(PlayerToolsCalls._unban)
    flag_debug = sync_method(PlayerToolsCalls._flag_debug)
    unflag_debug = sync_method(PlayerToolsCalls._unflag_debug)
    merge = sync_method(PlayerToolsCalls._merge)
    delete = sync_method(PlayerToolsCalls._delete)
    export = sync_method(PlayerToolsCalls._export)


class AsyncServerPlayerTools(AsyncResource[AsyncClient], PlayerToolsCalls):
    """The methods of :class:`ServerPlayerTools`, awaited."""

    profile = async_method(PlayerToolsCalls._profile)
    ban = async_method(PlayerToolsCalls._ban)
    unban = async_method(PlayerToolsCalls._unban)
    flag_debug = async_method(PlayerToolsCalls._flag_debug)
    unflag_debug = async_method(PlayerToolsCalls._unflag_debug)
    merge = async_method(PlayerToolsCalls._merge)
    delete = async_method(PlayerToolsCalls._delete)
    export = async_method(PlayerToolsCalls._export)
