"""Clients for the studio-backend surface ``/server/v1``: :class:`ServerClient` and
:class:`AsyncServerClient`.

Use a ``server_integration`` key, and never ship it in a game client (SPEC 5 rule 1). Server routes need
no player secret; every state-changing one requires an idempotency key, which these clients always send.

Adding a route: one ``_name`` builder in :class:`_ServerCalls`, one line in each client.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import attrs

from livecore.api import routes

from . import models as m
from ._client import AsyncClient, SyncClient, async_method, sync_method
from ._transport import Call, new_idempotency_key
from .models import GiftHistoryDirection, GrantKind, GrantSourceKind, RewardEntry

__all__ = ["AsyncServerClient", "ServerClient"]


class _ServerCalls:
    """The ``/server/v1`` calls (and the public health probe), written once for both clients."""

    def _ping(self) -> Call[m.ServerPingResponse]:
        """Check connectivity and the key: which studio, game and environment it belongs to."""
        return Call(routes.PING, m.ServerPingResponse)

    def _set_identity(
        self, external_id: str, *, name: str, avatar: str | None = None, idempotency_key: str | None = None
    ) -> Call[m.IdentityResponse]:
        """Set a player's display identity from the studio backend."""
        return Call(
            routes.SERVER_SET_IDENTITY,
            m.IdentityResponse,
            path={"externalId": external_id},
            body=m.SetIdentityRequest(name=name, avatar=avatar),
            idempotency_key=idempotency_key,
        )

    def _advance_clock(self, seconds: float) -> Call[m.ClockAdvanceResponse]:
        """Move a manual-clock server forward and run the work that came due (test keys only).

        Not idempotent: a timeout or 5xx is raised rather than retried, since a resend could advance
        the clock twice.
        """
        return Call(routes.CLOCK_ADVANCE, m.ClockAdvanceResponse, body=m.ClockAdvanceRequest(seconds=seconds))

    # --- Grants -----------------------------------------------------------------------------------

    def _create_grant(
        self,
        external_id: str,
        entries: Sequence[RewardEntry],
        *,
        kind: GrantKind = GrantKind.REWARD,
        expires_at: datetime | None = None,
        source_kind: GrantSourceKind = GrantSourceKind.API,
        source_ref_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.GrantResponse]:
        """Create a pending grant of ``entries`` for the player (created on first contact).

        Derive ``idempotency_key`` from your own reward id (``f"season-reward:{player}:{season}"``): a
        repeated create with the same key and body answers the original grant instead of a second one.
        Without one, a random key is made once per call and reused by its retries. The player receives
        the grant through ``pending_grants``/``claim_grant``, or your backend credits it and calls
        :meth:`ack_grant`.
        """
        # The body field is required by the model, so the key is made here, once, before any retry.
        key = new_idempotency_key() if idempotency_key is None else idempotency_key
        return Call(
            routes.SERVER_CREATE_GRANT,
            m.GrantResponse,
            path={"externalId": external_id},
            body=m.CreateGrantRequest(
                idempotency_key=key,
                entries=list(entries),
                kind=kind,
                expires_at=expires_at,
                source_kind=source_kind,
                source_ref_id=source_ref_id,
                metadata=None if metadata is None else dict(metadata),
            ),
            idempotency_key=key,
        )

    def _ack_grant(
        self, external_id: str, grant_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.GrantResponse]:
        """Mark a grant claimed by your backend (``acked_by="server_api"``) after crediting it yourself.

        Idempotent: acking a grant that is already claimed answers it as it is.
        """
        return Call(
            routes.SERVER_ACK_GRANT,
            m.GrantResponse,
            path={"externalId": external_id, "grantId": grant_id},
            idempotency_key=idempotency_key,
        )

    # --- Inventory and wallet -----------------------------------------------------------------------

    def _grant_item(
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
            routes.SERVER_INVENTORY_GRANT,
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

    def _revoke_item(
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
            routes.SERVER_INVENTORY_REVOKE,
            m.ItemAdjustResponse,
            path={"externalId": external_id, "itemKey": item_key},
            body=m.AdjustItemRequest(quantity=quantity, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
        )

    def _credit_wallet(
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
            routes.SERVER_WALLET_CREDIT,
            m.WalletAdjustResponse,
            path={"externalId": external_id, "economyKey": economy_key},
            body=m.AdjustWalletRequest(amount=amount, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
        )

    def _debit_wallet(
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
            routes.SERVER_WALLET_DEBIT,
            m.WalletAdjustResponse,
            path={"externalId": external_id, "economyKey": economy_key},
            body=m.AdjustWalletRequest(amount=amount, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
        )

    # --- Friends (read-only) -------------------------------------------------------------------------

    def _friends(self, external_id: str) -> Call[m.FriendsResponse]:
        """A player's friends with presence (``online``, ``last_active_at``, ``status``)."""
        return Call(routes.SERVER_FRIENDS, m.FriendsResponse, path={"externalId": external_id})

    def _friend_requests(self, external_id: str) -> Call[m.RequestsResponse]:
        """A player's pending friend requests, ``incoming`` and ``outgoing``."""
        return Call(routes.SERVER_FRIEND_REQUESTS, m.RequestsResponse, path={"externalId": external_id})

    def _blocks(self, external_id: str) -> Call[m.BlocksResponse]:
        """The players a player blocked."""
        return Call(routes.SERVER_BLOCKS, m.BlocksResponse, path={"externalId": external_id})

    # --- Gifts (read-only) ---------------------------------------------------------------------------

    def _player_gifts(
        self,
        external_id: str,
        *,
        direction: GiftHistoryDirection | str = GiftHistoryDirection.RECEIVED,
        limit: int | None = None,
    ) -> Call[m.ServerGiftsResponse]:
        """A player's gift history, newest first: the gifts they received (``direction="received"``,
        the default) or sent (``"sent"``), each with its counterparty's identity and the delivering
        grant's status (``grant_status``). ``limit`` defaults to 50 and must be from 1 to 200 (else
        :class:`~livecore_client.errors.InvalidRequestError`).

        Raises :class:`~livecore_client.errors.GiftingDisabledError` when the game has never enabled
        gifting and :class:`~livecore_client.errors.PlayerNotFoundError` for an unknown player;
        ``ValueError`` (before any request) for a ``direction`` other than the two.
        """
        query = m.ServerGiftsQuery(direction=GiftHistoryDirection(direction))
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(routes.SERVER_GIFTS, m.ServerGiftsResponse, path={"externalId": external_id}, query=query)

    def _health(self) -> Call[m.HealthResponse]:
        """The public liveness probe (``/admin/v1/health``); sent without the API key."""
        return Call(routes.HEALTH, m.HealthResponse)


class ServerClient(SyncClient, _ServerCalls):
    """Blocking client for ``/server/v1``. ``timeout`` applies only to the HTTP client it creates itself."""

    ping = sync_method(_ServerCalls._ping)
    set_identity = sync_method(_ServerCalls._set_identity)
    advance_clock = sync_method(_ServerCalls._advance_clock)
    create_grant = sync_method(_ServerCalls._create_grant)
    ack_grant = sync_method(_ServerCalls._ack_grant)
    grant_item = sync_method(_ServerCalls._grant_item)
    revoke_item = sync_method(_ServerCalls._revoke_item)
    credit_wallet = sync_method(_ServerCalls._credit_wallet)
    debit_wallet = sync_method(_ServerCalls._debit_wallet)
    friends = sync_method(_ServerCalls._friends)
    friend_requests = sync_method(_ServerCalls._friend_requests)
    blocks = sync_method(_ServerCalls._blocks)
    player_gifts = sync_method(_ServerCalls._player_gifts)
    health = sync_method(_ServerCalls._health)


class AsyncServerClient(AsyncClient, _ServerCalls):
    """Asyncio client for ``/server/v1``; the same methods as :class:`ServerClient`, awaited."""

    ping = async_method(_ServerCalls._ping)
    set_identity = async_method(_ServerCalls._set_identity)
    advance_clock = async_method(_ServerCalls._advance_clock)
    create_grant = async_method(_ServerCalls._create_grant)
    ack_grant = async_method(_ServerCalls._ack_grant)
    grant_item = async_method(_ServerCalls._grant_item)
    revoke_item = async_method(_ServerCalls._revoke_item)
    credit_wallet = async_method(_ServerCalls._credit_wallet)
    debit_wallet = async_method(_ServerCalls._debit_wallet)
    friends = async_method(_ServerCalls._friends)
    friend_requests = async_method(_ServerCalls._friend_requests)
    blocks = async_method(_ServerCalls._blocks)
    player_gifts = async_method(_ServerCalls._player_gifts)
    health = async_method(_ServerCalls._health)
