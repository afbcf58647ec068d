"""Importing players, wallets and inventories from another backend: ``server.migration``; each method is
its route's builder (:mod:`livecore.player_tools.calls`, the player tools' migration calls) sent over
HTTP."""

from __future__ import annotations

from livecore.player_tools.calls import ServerMigrationCalls

from ..._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method

__all__ = ["AsyncServerMigration", "ServerMigration"]


class ServerMigration(SyncResource[SyncClient], ServerMigrationCalls):
    """``server.migration``: the ``/server/v1`` migration calls."""

    players = sync_method(ServerMigrationCalls._players)
    wallet = sync_method(ServerMigrationCalls._wallet)
    inventory = sync_method(ServerMigrationCalls._inventory)


class AsyncServerMigration(AsyncResource[AsyncClient], ServerMigrationCalls):
    """The methods of :class:`ServerMigration`, awaited."""

    players = async_method(ServerMigrationCalls._players)
    wallet = async_method(ServerMigrationCalls._wallet)
    inventory = async_method(ServerMigrationCalls._inventory)
