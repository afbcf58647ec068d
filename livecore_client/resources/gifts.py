"""Gifts between friends: ``sdk.gifts``, and a player's gift history in ``server.gifts``; each method is
its route's builder (:mod:`livecore.gifts.calls`) sent over HTTP."""

from __future__ import annotations

from livecore.gifts.calls import GiftsCalls, ServerGiftsCalls

from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface

__all__ = ["AsyncGifts", "AsyncServerGifts", "Gifts", "ServerGifts"]


class Gifts(SyncResource[SdkSurface], GiftsCalls):
    """``sdk.gifts``: the ``/sdk/v1`` gift calls."""

    send = sync_method(GiftsCalls._send)
    claim = sync_method(GiftsCalls._claim)
    catalog = sync_method(GiftsCalls._catalog)
    inbox = sync_method(GiftsCalls._inbox)
    sent = sync_method(GiftsCalls._sent)


class AsyncGifts(AsyncResource[AsyncSdkSurface], GiftsCalls):
    """The methods of :class:`Gifts`, awaited."""

    send = async_method(GiftsCalls._send)
    claim = async_method(GiftsCalls._claim)
    catalog = async_method(GiftsCalls._catalog)
    inbox = async_method(GiftsCalls._inbox)
    sent = async_method(GiftsCalls._sent)


class ServerGifts(SyncResource[SyncClient], ServerGiftsCalls):
    """``server.gifts``: the ``/server/v1`` gift call."""

    list = sync_method(ServerGiftsCalls._list)


class AsyncServerGifts(AsyncResource[AsyncClient], ServerGiftsCalls):
    """The methods of :class:`ServerGifts`, awaited."""

    list = async_method(ServerGiftsCalls._list)
