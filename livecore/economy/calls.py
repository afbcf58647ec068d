"""The wallet and inventory routes' calls, as the typed clients send them (``sdk.wallet``,
``sdk.inventory``, ``server.wallet``, ``server.inventory``) and a simulation runs them (``ada.wallet``,
``sim.server.wallet``): one builder per route (:mod:`livecore.api.call`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from livecore.api.call import Call, SdkCalls, ServerCalls
from livecore.economy import api


class WalletCalls(SdkCalls):
    """The ``/sdk/v1`` wallet calls."""

    def _get(self, external_id: str, *, player_secret: str | None = None) -> Call[api.WalletResponse]:
        """The player's balance of every currency the game declares (0 when never earned)."""
        return Call(
            api.SDK_WALLET,
            api.WalletResponse,
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
    ) -> Call[api.WalletAdjustResponse]:
        """Spend ``amount`` of currency ``economy_key`` (platform-managed games only).

        Raises :class:`~livecore_client.errors.InsufficientBalanceError` when the balance is lower (nothing
        is taken) and :class:`~livecore_client.errors.StudioManagedEconomyError` in a studio-managed game.
        """
        return Call(
            api.SDK_WALLET_DEBIT,
            api.WalletAdjustResponse,
            path={"externalId": external_id, "economyKey": economy_key},
            body=api.AdjustWalletRequest(amount=amount, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class InventoryCalls(SdkCalls):
    """The ``/sdk/v1`` inventory calls."""

    def _get(self, external_id: str, *, player_secret: str | None = None) -> Call[api.InventoryResponse]:
        """The player's items with their parameters, plus the read-only system items ``sessions`` and
        ``login_streak`` (``system=True``)."""
        return Call(
            api.SDK_INVENTORY,
            api.InventoryResponse,
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
    ) -> Call[api.ItemAdjustResponse]:
        """Use up ``quantity`` of item ``item_key`` (platform-managed games only).

        Raises :class:`~livecore_client.errors.InsufficientQuantityError` when the player holds fewer
        (nothing is taken).
        """
        return Call(
            api.SDK_INVENTORY_CONSUME,
            api.ItemAdjustResponse,
            path={"externalId": external_id, "itemKey": item_key},
            body=api.SpendItemRequest(quantity=quantity, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class ServerInventoryCalls(ServerCalls):
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
    ) -> Call[api.ItemAdjustResponse]:
        """Add ``quantity`` of item ``item_key``; ``parameters`` override the catalog's, key by key."""
        return Call(
            api.SERVER_INVENTORY_GRANT,
            api.ItemAdjustResponse,
            path={"externalId": external_id, "itemKey": item_key},
            body=api.AdjustItemRequest(
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
    ) -> Call[api.ItemAdjustResponse]:
        """Remove ``quantity`` of item ``item_key``; raises
        :class:`~livecore_client.errors.InsufficientQuantityError` when the player holds fewer."""
        return Call(
            api.SERVER_INVENTORY_REVOKE,
            api.ItemAdjustResponse,
            path={"externalId": external_id, "itemKey": item_key},
            body=api.SpendItemRequest(quantity=quantity, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
        )


class ServerWalletCalls(ServerCalls):
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
    ) -> Call[api.WalletAdjustResponse]:
        """Mint ``amount`` of currency ``economy_key`` (only the server API can credit)."""
        return Call(
            api.SERVER_WALLET_CREDIT,
            api.WalletAdjustResponse,
            path={"externalId": external_id, "economyKey": economy_key},
            body=api.AdjustWalletRequest(amount=amount, reason=reason, source_ref_id=source_ref_id),
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
    ) -> Call[api.WalletAdjustResponse]:
        """Take ``amount`` of currency ``economy_key``; raises
        :class:`~livecore_client.errors.InsufficientBalanceError` when the balance is lower."""
        return Call(
            api.SERVER_WALLET_DEBIT,
            api.WalletAdjustResponse,
            path={"externalId": external_id, "economyKey": economy_key},
            body=api.AdjustWalletRequest(amount=amount, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
        )
