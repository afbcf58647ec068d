"""Clients for the game-client surface ``/sdk/v1``: :class:`SdkClient` and :class:`AsyncSdkClient`.

The ``client_sdk`` key identifies the game, not the player; player-scoped routes also need that player's
secret (SPEC 5), taken per call or from the client's ``player_secret``. Every write carries an
idempotency key, so the built-in retries never apply it twice.

Adding a route: one ``_name`` builder in :class:`_SdkCalls`, one line in each client.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

# The economy and grant models, until livecore_client.models re-exports them (the very same classes).
from livecore.api import models as wire
from livecore.api import routes

from . import models as m
from ._client import (
    DEFAULT_BASE_URL,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    AsyncClient,
    SyncClient,
    async_method,
    sync_method,
)
from ._transport import Call, RetryPolicy

__all__ = ["AsyncSdkClient", "SdkClient"]


class _SdkCalls:
    """The ``/sdk/v1`` calls, written once for both clients."""

    player_secret: str | None

    def _register(
        self,
        external_id: str,
        *,
        force: bool = False,
        player_context: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.RegisterResponse]:
        """Register ``external_id`` and mint its player secret, returned once in ``player_secret``.

        ``force=True`` rotates the secret of an already registered player (test keys only); without it
        a second registration raises :class:`~livecore_client.errors.PlayerAlreadyRegisteredError`.
        ``player_context={"country": "FR"}`` overrides the geo-resolved country.
        """
        return Call(
            routes.REGISTER,
            m.RegisterResponse,
            path={"externalId": external_id},
            # Sent only when set: the default needs no query string and a live key must never see force.
            query=m.RegisterQuery(force=True) if force else None,
            body=None if player_context is None else m.RegisterRequest(player_context=dict(player_context)),
            idempotency_key=idempotency_key,
        )

    def _set_identity(
        self,
        external_id: str,
        *,
        name: str,
        avatar: str | None = None,
        player_secret: str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.IdentityResponse]:
        """Set the player's own display identity; ``player_secret`` defaults to the client's."""
        return Call(
            routes.SDK_SET_IDENTITY,
            m.IdentityResponse,
            path={"externalId": external_id},
            body=m.SetIdentityRequest(name=name, avatar=avatar),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _secret(self, player_secret: str | None) -> str | None:
        """The call's own secret, else the client's."""
        return player_secret if player_secret is not None else self.player_secret

    # --- Economy and grants -----------------------------------------------------------------------

    def _wallet(self, external_id: str, *, player_secret: str | None = None) -> Call[wire.WalletResponse]:
        """The player's balance of every currency the game declares (0 when never earned)."""
        return Call(
            routes.SDK_WALLET,
            wire.WalletResponse,
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
    ) -> Call[wire.WalletAdjustResponse]:
        """Spend ``amount`` of currency ``economy_key`` (platform-managed games only).

        Raises :class:`~livecore_client.errors.InsufficientBalanceError` when the balance is lower (nothing
        is taken) and :class:`~livecore_client.errors.StudioManagedEconomyError` in a studio-managed game.
        """
        return Call(
            routes.SDK_WALLET_DEBIT,
            wire.WalletAdjustResponse,
            path={"externalId": external_id, "economyKey": economy_key},
            body=wire.AdjustWalletRequest(amount=amount, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _inventory(
        self, external_id: str, *, player_secret: str | None = None
    ) -> Call[wire.InventoryResponse]:
        """The player's items with their parameters, plus the read-only system items ``sessions`` and
        ``login_streak`` (``system=True``)."""
        return Call(
            routes.SDK_INVENTORY,
            wire.InventoryResponse,
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
    ) -> Call[wire.ItemAdjustResponse]:
        """Use up ``quantity`` of item ``item_key`` (platform-managed games only).

        Raises :class:`~livecore_client.errors.InsufficientQuantityError` when the player holds fewer
        (nothing is taken).
        """
        return Call(
            routes.SDK_INVENTORY_CONSUME,
            wire.ItemAdjustResponse,
            path={"externalId": external_id, "itemKey": item_key},
            body=wire.AdjustItemRequest(quantity=quantity, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _pending_grants(
        self, external_id: str, *, player_secret: str | None = None
    ) -> Call[wire.GrantListResponse]:
        """The grants waiting for this player to claim, oldest first."""
        return Call(
            routes.SDK_PENDING_GRANTS,
            wire.GrantListResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret),
        )

    def _claim_grant(
        self,
        external_id: str,
        grant_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[wire.GrantResponse]:
        """Claim a pending grant: its entries are credited now and the grant comes back ``claimed``.

        Raises :class:`~livecore_client.errors.GrantAlreadyClaimedError` for a grant claimed before (by
        another call, a server ack or an operator), :class:`~livecore_client.errors.GrantExpiredError`
        past its ``expires_at`` and :class:`~livecore_client.errors.GrantNotFoundError` for an unknown id.
        """
        return Call(
            routes.SDK_CLAIM_GRANT,
            wire.GrantResponse,
            path={"externalId": external_id, "grantId": grant_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class SdkClient(SyncClient, _SdkCalls):
    """Blocking client for ``/sdk/v1``. ``timeout`` applies only to the HTTP client it creates itself."""

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        player_secret: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.Client | None = None,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        super().__init__(
            api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            http_client=http_client,
            retry_policy=retry_policy,
        )
        self.player_secret = player_secret

    register = sync_method(_SdkCalls._register)
    set_identity = sync_method(_SdkCalls._set_identity)
    wallet = sync_method(_SdkCalls._wallet)
    debit = sync_method(_SdkCalls._debit)
    inventory = sync_method(_SdkCalls._inventory)
    consume = sync_method(_SdkCalls._consume)
    pending_grants = sync_method(_SdkCalls._pending_grants)
    claim_grant = sync_method(_SdkCalls._claim_grant)


class AsyncSdkClient(AsyncClient, _SdkCalls):
    """Asyncio client for ``/sdk/v1``; the same methods as :class:`SdkClient`, awaited."""

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        player_secret: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.AsyncClient | None = None,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        super().__init__(
            api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            http_client=http_client,
            retry_policy=retry_policy,
        )
        self.player_secret = player_secret

    register = async_method(_SdkCalls._register)
    set_identity = async_method(_SdkCalls._set_identity)
    wallet = async_method(_SdkCalls._wallet)
    debit = async_method(_SdkCalls._debit)
    inventory = async_method(_SdkCalls._inventory)
    consume = async_method(_SdkCalls._consume)
    pending_grants = async_method(_SdkCalls._pending_grants)
    claim_grant = async_method(_SdkCalls._claim_grant)
