"""The wallet and the inventory: ``sdk.wallet``, ``sdk.inventory``, ``server.wallet``,
``server.inventory``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from livecore.api.call import Call
from livecore.economy.api import (
    SDK_INVENTORY,
    SDK_INVENTORY_CONSUME,
    SDK_WALLET,
    SDK_WALLET_DEBIT,
    SERVER_INVENTORY_GRANT,
    SERVER_INVENTORY_REVOKE,
    SERVER_WALLET_CREDIT,
    SERVER_WALLET_DEBIT,
)

from .. import models as m
from .._client import AsyncClient, AsyncResource, SyncClient, SyncResource, async_method, sync_method
from .._surfaces import AsyncSdkSurface, SdkSurface
from ._base import SdkCalls, ServerCalls

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


class _WalletCalls(SdkCalls):
    """The ``/sdk/v1`` wallet calls."""

    def _get(self, external_id: str, *, player_secret: str | None = None) -> Call[m.WalletResponse]:
        """The player's balance of every currency the game declares (0 when never earned)."""
        return Call(
            SDK_WALLET,
            m.WalletResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret),
        )

    def _debit(
        self,
        external_id: str,
        economy_key: str,
        amount: int,
        *,
        reason: str | None = None,
        source_ref_id: str | None = None,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.WalletAdjustResponse]:
        """Spend ``amount`` of currency ``economy_key`` (platform-managed games only).

        Raises :class:`~livecore_client.errors.InsufficientBalanceError` when the balance is lower (nothing
        is taken) and :class:`~livecore_client.errors.StudioManagedEconomyError` in a studio-managed game.
        """
        return Call(
            SDK_WALLET_DEBIT,
            m.WalletAdjustResponse,
            path={"externalId": external_id, "economyKey": economy_key},
            body=m.AdjustWalletRequest(amount=amount, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class Wallet(SyncResource[SdkSurface], _WalletCalls):
    """``sdk.wallet``: the ``/sdk/v1`` wallet calls."""

    get = sync_method(_WalletCalls._get)
    debit = sync_method(_WalletCalls._debit)


class AsyncWallet(AsyncResource[AsyncSdkSurface], _WalletCalls):
    """The methods of :class:`Wallet`, awaited."""

    get = async_method(_WalletCalls._get)
    debit = async_method(_WalletCalls._debit)


class _InventoryCalls(SdkCalls):
    """The ``/sdk/v1`` inventory calls."""

    def _get(self, external_id: str, *, player_secret: str | None = None) -> Call[m.InventoryResponse]:
        """The player's items with their parameters, plus the read-only system items ``sessions`` and
        ``login_streak`` (``system=True``)."""
        return Call(
            SDK_INVENTORY,
            m.InventoryResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret),
        )

    def _consume(
        self,
        external_id: str,
        item_key: str,
        quantity: int,
        *,
        reason: str | None = None,
        source_ref_id: str | None = None,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.ItemAdjustResponse]:
        """Use up ``quantity`` of item ``item_key`` (platform-managed games only).

        Raises :class:`~livecore_client.errors.InsufficientQuantityError` when the player holds fewer
        (nothing is taken).
        """
        return Call(
            SDK_INVENTORY_CONSUME,
            m.ItemAdjustResponse,
            path={"externalId": external_id, "itemKey": item_key},
            body=m.SpendItemRequest(quantity=quantity, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class Inventory(SyncResource[SdkSurface], _InventoryCalls):
    """``sdk.inventory``: the ``/sdk/v1`` inventory calls."""

    get = sync_method(_InventoryCalls._get)
    consume = sync_method(_InventoryCalls._consume)


class AsyncInventory(AsyncResource[AsyncSdkSurface], _InventoryCalls):
    """The methods of :class:`Inventory`, awaited."""

    get = async_method(_InventoryCalls._get)
    consume = async_method(_InventoryCalls._consume)


class _ServerInventoryCalls(ServerCalls):
    """The ``/server/v1`` inventory calls."""

    def _grant(
        self,
        external_id: str,
        item_key: str,
        quantity: int,
        *,
        reason: str | None = None,
        source_ref_id: str | None = None,
        parameters: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.ItemAdjustResponse]:
        """Add ``quantity`` of item ``item_key``; ``parameters`` override the catalog's, key by key."""
        return Call(
            SERVER_INVENTORY_GRANT,
            m.ItemAdjustResponse,
            path={"externalId": external_id, "itemKey": item_key},
            body=m.AdjustItemRequest(
                quantity=quantity,
                reason=reason,
                source_ref_id=source_ref_id,
                parameters=None if parameters is None else dict(parameters),
            ),
            idempotency_key=idempotency_key,
        )

    def _revoke(
        self,
        external_id: str,
        item_key: str,
        quantity: int,
        *,
        reason: str | None = None,
        source_ref_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.ItemAdjustResponse]:
        """Remove ``quantity`` of item ``item_key``; raises
        :class:`~livecore_client.errors.InsufficientQuantityError` when the player holds fewer."""
        return Call(
            SERVER_INVENTORY_REVOKE,
            m.ItemAdjustResponse,
            path={"externalId": external_id, "itemKey": item_key},
            body=m.SpendItemRequest(quantity=quantity, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
        )


class ServerInventory(SyncResource[SyncClient], _ServerInventoryCalls):
    """``server.inventory``: the ``/server/v1`` inventory calls."""

    grant = sync_method(_ServerInventoryCalls._grant)
    revoke = sync_method(_ServerInventoryCalls._revoke)


class AsyncServerInventory(AsyncResource[AsyncClient], _ServerInventoryCalls):
    """The methods of :class:`ServerInventory`, awaited."""

    grant = async_method(_ServerInventoryCalls._grant)
    revoke = async_method(_ServerInventoryCalls._revoke)


class _ServerWalletCalls(ServerCalls):
    """The ``/server/v1`` wallet calls."""

    def _credit(
        self,
        external_id: str,
        economy_key: str,
        amount: int,
        *,
        reason: str | None = None,
        source_ref_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.WalletAdjustResponse]:
        """Mint ``amount`` of currency ``economy_key`` (only the server API can credit)."""
        return Call(
            SERVER_WALLET_CREDIT,
            m.WalletAdjustResponse,
            path={"externalId": external_id, "economyKey": economy_key},
            body=m.AdjustWalletRequest(amount=amount, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
        )

    def _debit(
        self,
        external_id: str,
        economy_key: str,
        amount: int,
        *,
        reason: str | None = None,
        source_ref_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.WalletAdjustResponse]:
        """Take ``amount`` of currency ``economy_key``; raises
        :class:`~livecore_client.errors.InsufficientBalanceError` when the balance is lower."""
        return Call(
            SERVER_WALLET_DEBIT,
            m.WalletAdjustResponse,
            path={"externalId": external_id, "economyKey": economy_key},
            body=m.AdjustWalletRequest(amount=amount, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
        )


class ServerWallet(SyncResource[SyncClient], _ServerWalletCalls):
    """``server.wallet``: the ``/server/v1`` wallet calls."""

    credit = sync_method(_ServerWalletCalls._credit)
    debit = sync_method(_ServerWalletCalls._debit)


class AsyncServerWallet(AsyncResource[AsyncClient], _ServerWalletCalls):
    """The methods of :class:`ServerWallet`, awaited."""

    credit = async_method(_ServerWalletCalls._credit)
    debit = async_method(_ServerWalletCalls._debit)
