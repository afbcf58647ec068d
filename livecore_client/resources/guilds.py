"""Guilds: the player's side in ``sdk.guilds``, the studio's in ``server.guilds``; each method is its
route's builder (:mod:`livecore.guilds.calls`) sent over HTTP."""

from __future__ import annotations

from livecore.guilds.calls import GuildsCalls, ServerGuildsCalls

from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface

__all__ = ["AsyncGuilds", "AsyncServerGuilds", "Guilds", "ServerGuilds"]


class Guilds(SyncResource[SdkSurface], GuildsCalls):
    """``sdk.guilds``: the ``/sdk/v1`` guild calls."""

    create = sync_method(GuildsCalls._create)
    search = sync_method(GuildsCalls._search)
    get = sync_method(GuildsCalls._get)
    mine = sync_method(GuildsCalls._mine)
    join = sync_method(GuildsCalls._join)
    cancel_join_request = sync_method(GuildsCalls._cancel_join_request)
    leave = sync_method(GuildsCalls._leave)
    edit = sync_method(GuildsCalls._edit)
    join_requests = sync_method(GuildsCalls._join_requests)
    accept_join_request = sync_method(GuildsCalls._accept_join_request)
    decline_join_request = sync_method(GuildsCalls._decline_join_request)
    kick = sync_method(GuildsCalls._kick)
    promote = sync_method(GuildsCalls._promote)
    demote = sync_method(GuildsCalls._demote)
    transfer_leadership = sync_method(GuildsCalls._transfer_leadership)
    ask_help = sync_method(GuildsCalls._ask_help)
    help_requests = sync_method(GuildsCalls._help_requests)
    donate_help = sync_method(GuildsCalls._donate_help)


class AsyncGuilds(AsyncResource[AsyncSdkSurface], GuildsCalls):
    """The methods of :class:`Guilds`, awaited."""

    create = async_method(GuildsCalls._create)
    search = async_method(GuildsCalls._search)
    get = async_method(GuildsCalls._get)
    mine = async_method(GuildsCalls._mine)
    join = async_method(GuildsCalls._join)
    cancel_join_request = async_method(GuildsCalls._cancel_join_request)
    leave = async_method(GuildsCalls._leave)
    edit = async_method(GuildsCalls._edit)
    join_requests = async_method(GuildsCalls._join_requests)
    accept_join_request = async_method(GuildsCalls._accept_join_request)
    decline_join_request = async_method(GuildsCalls._decline_join_request)
    kick = async_method(GuildsCalls._kick)
    promote = async_method(GuildsCalls._promote)
    demote = async_method(GuildsCalls._demote)
    transfer_leadership = async_method(GuildsCalls._transfer_leadership)
    ask_help = async_method(GuildsCalls._ask_help)
    help_requests = async_method(GuildsCalls._help_requests)
    donate_help = async_method(GuildsCalls._donate_help)


class ServerGuilds(SyncResource[SyncClient], ServerGuildsCalls):
    """``server.guilds``: the ``/server/v1`` guild calls."""

    list = sync_method(ServerGuildsCalls._list)
    get = sync_method(ServerGuildsCalls._get)
    edit = sync_method(ServerGuildsCalls._edit)
    of_player = sync_method(ServerGuildsCalls._of_player)
    remove_member = sync_method(ServerGuildsCalls._remove_member)
    hand_over = sync_method(ServerGuildsCalls._hand_over)
    disband = sync_method(ServerGuildsCalls._disband)


class AsyncServerGuilds(AsyncResource[AsyncClient], ServerGuildsCalls):
    """The methods of :class:`ServerGuilds`, awaited."""

    list = async_method(ServerGuildsCalls._list)
    get = async_method(ServerGuildsCalls._get)
    edit = async_method(ServerGuildsCalls._edit)
    of_player = async_method(ServerGuildsCalls._of_player)
    remove_member = async_method(ServerGuildsCalls._remove_member)
    hand_over = async_method(ServerGuildsCalls._hand_over)
    disband = async_method(ServerGuildsCalls._disband)
