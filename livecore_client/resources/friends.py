"""Friends, friend requests, blocks and presence: ``sdk.friends``, ``sdk.presence``, and the
read-only ``server.friends``; each method is its route's builder (:mod:`livecore.friends.calls`) sent over
HTTP."""

from __future__ import annotations

from livecore.friends.calls import FriendsCalls, PresenceCalls, ServerFriendsCalls

from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface

__all__ = ["AsyncFriends", "AsyncPresence", "AsyncServerFriends", "Friends", "Presence", "ServerFriends"]


class Friends(SyncResource[SdkSurface], FriendsCalls):
    """``sdk.friends``: the ``/sdk/v1`` friends calls."""

    code = sync_method(FriendsCalls._code)
    search = sync_method(FriendsCalls._search)
    send_request = sync_method(FriendsCalls._send_request)
    requests = sync_method(FriendsCalls._requests)
    accept_request = sync_method(FriendsCalls._accept_request)
    decline_request = sync_method(FriendsCalls._decline_request)
    cancel_request = sync_method(FriendsCalls._cancel_request)
    list = sync_method(FriendsCalls._list)
    remove = sync_method(FriendsCalls._remove)
    suggestions = sync_method(FriendsCalls._suggestions)
    block = sync_method(FriendsCalls._block)
    blocks = sync_method(FriendsCalls._blocks)
    unblock = sync_method(FriendsCalls._unblock)


class AsyncFriends(AsyncResource[AsyncSdkSurface], FriendsCalls):
    """The methods of :class:`Friends`, awaited."""

    code = async_method(FriendsCalls._code)
    search = async_method(FriendsCalls._search)
    send_request = async_method(FriendsCalls._send_request)
    requests = async_method(FriendsCalls._requests)
    accept_request = async_method(FriendsCalls._accept_request)
    decline_request = async_method(FriendsCalls._decline_request)
    cancel_request = async_method(FriendsCalls._cancel_request)
    list = async_method(FriendsCalls._list)
    remove = async_method(FriendsCalls._remove)
    suggestions = async_method(FriendsCalls._suggestions)
    block = async_method(FriendsCalls._block)
    blocks = async_method(FriendsCalls._blocks)
    unblock = async_method(FriendsCalls._unblock)


class Presence(SyncResource[SdkSurface], PresenceCalls):
    """``sdk.presence``: the ``/sdk/v1`` presence call."""

    heartbeat = sync_method(PresenceCalls._heartbeat)


class AsyncPresence(AsyncResource[AsyncSdkSurface], PresenceCalls):
    """The methods of :class:`Presence`, awaited."""

    heartbeat = async_method(PresenceCalls._heartbeat)


class ServerFriends(SyncResource[SyncClient], ServerFriendsCalls):
    """``server.friends``: the ``/server/v1`` friends calls."""

    list = sync_method(ServerFriendsCalls._list)
    requests = sync_method(ServerFriendsCalls._requests)
    blocks = sync_method(ServerFriendsCalls._blocks)


class AsyncServerFriends(AsyncResource[AsyncClient], ServerFriendsCalls):
    """The methods of :class:`ServerFriends`, awaited."""

    list = async_method(ServerFriendsCalls._list)
    requests = async_method(ServerFriendsCalls._requests)
    blocks = async_method(ServerFriendsCalls._blocks)
