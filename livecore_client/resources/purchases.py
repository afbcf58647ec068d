"""Purchases and spend: ``sdk.purchases``, ``server.purchases``; each method is its route's builder
(:mod:`livecore.purchases.calls`) sent over HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

from livecore.purchases.api import PurchaseView
from livecore.purchases.calls import PurchasesCalls, ServerPurchasesCalls, every_purchase

from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface

__all__ = ["AsyncPurchases", "AsyncServerPurchases", "Purchases", "ServerPurchases"]


class Purchases(SyncResource[SdkSurface], PurchasesCalls):
    """``sdk.purchases``: the ``/sdk/v1`` purchase call."""

    track = sync_method(PurchasesCalls._track)


class AsyncPurchases(AsyncResource[AsyncSdkSurface], PurchasesCalls):
    """The methods of :class:`Purchases`, awaited."""

    track = async_method(PurchasesCalls._track)


class ServerPurchases(SyncResource[SyncClient], ServerPurchasesCalls):
    """``server.purchases``: the ``/server/v1`` purchase and spend calls."""

    track = sync_method(ServerPurchasesCalls._track)
    list = sync_method(ServerPurchasesCalls._list)

    def iter(self, external_id: str, *, page_size: int | None = None) -> Iterator[PurchaseView]:
        """Every purchase of a player, newest first, fetching pages of ``page_size`` (default 50) as
        the iteration reaches them by following ``next_cursor``."""
        yield from every_purchase(lambda cursor: self.list(external_id, limit=page_size, cursor=cursor))

    player_spend = sync_method(ServerPurchasesCalls._player_spend)
    spend_players = sync_method(ServerPurchasesCalls._spend_players)
    revenue_summary = sync_method(ServerPurchasesCalls._revenue_summary)


class AsyncServerPurchases(AsyncResource[AsyncClient], ServerPurchasesCalls):
    """The methods of :class:`ServerPurchases`, awaited."""

    track = async_method(ServerPurchasesCalls._track)
    list = async_method(ServerPurchasesCalls._list)

    async def iter(self, external_id: str, *, page_size: int | None = None) -> AsyncIterator[PurchaseView]:
        """Every purchase of a player, newest first, fetching pages of ``page_size`` (default 50) as
        the iteration reaches them by following ``next_cursor`` (``async for``)."""
        cursor: str | None = None
        while True:
            page = await self.list(external_id, limit=page_size, cursor=cursor)
            for purchase in page.purchases:
                yield purchase
            # A cursor handed back unchanged would repeat this page for ever: stop instead.
            if page.next_cursor is None or page.next_cursor == cursor:
                return
            cursor = page.next_cursor

    player_spend = async_method(ServerPurchasesCalls._player_spend)
    spend_players = async_method(ServerPurchasesCalls._spend_players)
    revenue_summary = async_method(ServerPurchasesCalls._revenue_summary)
