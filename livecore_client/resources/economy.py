"""The wallet and the inventory: ``sdk.wallet``, ``sdk.inventory``, ``server.wallet``,
``server.inventory``; each method is its route's builder (:mod:`livecore.economy.calls`) sent over HTTP."""

from __future__ import annotations

from livecore.economy.calls import InventoryCalls, ServerInventoryCalls, ServerWalletCalls, WalletCalls

from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface

__all__ = [
    "AsyncInventory",
    "AsyncServerInventory",
    "AsyncServerWallet",
    "AsyncWallet",
    "Inventory",
    "ServerInventory",
    "ServerWallet",
    "Wallet",
]


class Wallet(SyncResource[SdkSurface], WalletCalls):
    """``sdk.wallet``: the ``/sdk/v1`` wallet calls."""

    get = sync_method(WalletCalls._get)
    debit = sync_method(WalletCalls._debit)


class AsyncWallet(AsyncResource[AsyncSdkSurface], WalletCalls):
    """The methods of :class:`Wallet`, awaited."""

    get = async_method(WalletCalls._get)
    debit = async_method(WalletCalls._debit)


class Inventory(SyncResource[SdkSurface], InventoryCalls):
    """``sdk.inventory``: the ``/sdk/v1`` inventory calls."""

    get = sync_method(InventoryCalls._get)
    consume = sync_method(InventoryCalls._consume)


class AsyncInventory(AsyncResource[AsyncSdkSurface], InventoryCalls):
    """The methods of :class:`Inventory`, awaited."""

    get = async_method(InventoryCalls._get)
    consume = async_method(InventoryCalls._consume)


class ServerInventory(SyncResource[SyncClient], ServerInventoryCalls):
    """``server.inventory``: the ``/server/v1`` inventory calls."""

    grant = sync_method(ServerInventoryCalls._grant)
    revoke = sync_method(ServerInventoryCalls._revoke)


class AsyncServerInventory(AsyncResource[AsyncClient], ServerInventoryCalls):
    """The methods of :class:`ServerInventory`, awaited."""

    grant = async_method(ServerInventoryCalls._grant)
    revoke = async_method(ServerInventoryCalls._revoke)


class ServerWallet(SyncResource[SyncClient], ServerWalletCalls):
    """``server.wallet``: the ``/server/v1`` wallet calls."""

    credit = sync_method(ServerWalletCalls._credit)
    debit = sync_method(ServerWalletCalls._debit)


class AsyncServerWallet(AsyncResource[AsyncClient], ServerWalletCalls):
    """The methods of :class:`ServerWallet`, awaited."""

    credit = async_method(ServerWalletCalls._credit)
    debit = async_method(ServerWalletCalls._debit)
