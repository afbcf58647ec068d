"""Clients for the game-client surface ``/sdk/v1``: :class:`SdkClient` and :class:`AsyncSdkClient`.

The ``client_sdk`` key identifies the game, not the player; player-scoped routes also need that player's
secret (SPEC 5), taken per call or from the client's ``player_secret``. Every write carries an
idempotency key, so the built-in retries never apply it twice.

Adding a route: one ``_name`` builder in :class:`_SdkCalls`, one line in each client.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import httpx

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

    def _wallet(self, external_id: str, *, player_secret: str | None = None) -> Call[m.WalletResponse]:
        """The player's balance of every currency the game declares (0 when never earned)."""
        return Call(
            routes.SDK_WALLET,
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
            routes.SDK_WALLET_DEBIT,
            m.WalletAdjustResponse,
            path={"externalId": external_id, "economyKey": economy_key},
            body=m.AdjustWalletRequest(amount=amount, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _inventory(self, external_id: str, *, player_secret: str | None = None) -> Call[m.InventoryResponse]:
        """The player's items with their parameters, plus the read-only system items ``sessions`` and
        ``login_streak`` (``system=True``)."""
        return Call(
            routes.SDK_INVENTORY,
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
            routes.SDK_INVENTORY_CONSUME,
            m.ItemAdjustResponse,
            path={"externalId": external_id, "itemKey": item_key},
            body=m.AdjustItemRequest(quantity=quantity, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _pending_grants(
        self, external_id: str, *, player_secret: str | None = None
    ) -> Call[m.GrantListResponse]:
        """The grants waiting for this player to claim, oldest first."""
        return Call(
            routes.SDK_PENDING_GRANTS,
            m.GrantListResponse,
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
    ) -> Call[m.GrantResponse]:
        """Claim a pending grant: its entries are credited now and the grant comes back ``claimed``.

        Raises :class:`~livecore_client.errors.GrantAlreadyClaimedError` for a grant claimed before (by
        another call, a server ack or an operator), :class:`~livecore_client.errors.GrantExpiredError`
        past its ``expires_at`` and :class:`~livecore_client.errors.GrantNotFoundError` for an unknown id.
        """
        return Call(
            routes.SDK_CLAIM_GRANT,
            m.GrantResponse,
            path={"externalId": external_id, "grantId": grant_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    # --- Friends and presence -----------------------------------------------------------------------

    def _friend_code(
        self,
        external_id: str,
        *,
        progression: Sequence[str] | None = None,
        player_secret: str | None = None,
    ) -> Call[m.FriendCodeResponse]:
        """The player's own friend code (6 characters, made on first use, kept for life) and display
        identity; ``progression`` adds the player's own balances of those economy keys."""
        return Call(
            routes.FRIEND_CODE,
            m.FriendCodeResponse,
            path={"externalId": external_id},
            query=_progression_query(progression),
            player_secret=self._secret(player_secret),
        )

    def _search_players(
        self,
        external_id: str,
        q: str,
        *,
        limit: int | None = None,
        progression: Sequence[str] | None = None,
        player_secret: str | None = None,
    ) -> Call[list[m.SearchHit]]:
        """Players of this game and environment whose display name matches ``q`` (1 to 32 characters),
        each with its ``relationship`` to the caller; blocked players are left out. ``limit`` defaults
        to 20 and is clamped to 1..50 by the service."""
        query = m.SearchQuery(q=q, progression=_keys(progression))
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(
            routes.FRIENDS_SEARCH,
            _SEARCH_HITS,
            path={"externalId": external_id},
            query=query,
            player_secret=self._secret(player_secret),
        )

    def _send_friend_request(
        self,
        external_id: str,
        *,
        friend_code: str | None = None,
        external_player_id: str | None = None,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.SendRequestResponse]:
        """Ask a player to be friends, by ``friend_code`` or by ``external_player_id`` (exactly one).

        Answers ``status="pending"`` with the new ``request``, or, when that player had already asked the
        caller, ``status="accepted"`` with the new ``friend`` row. Raises
        :class:`~livecore_client.errors.CannotFriendSelfError`,
        :class:`~livecore_client.errors.AlreadyFriendsError`,
        :class:`~livecore_client.errors.FriendCodeInvalidError`,
        :class:`~livecore_client.errors.PlayerBlockedError` or
        :class:`~livecore_client.errors.FriendLimitReachedError`; ``ValueError`` (before any request)
        when both or neither target is given.
        """
        return Call(
            routes.FRIEND_SEND_REQUEST,
            m.SendRequestResponse,
            path={"externalId": external_id},
            body=_target(friend_code, external_player_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _friend_requests(
        self,
        external_id: str,
        *,
        progression: Sequence[str] | None = None,
        player_secret: str | None = None,
    ) -> Call[m.RequestsResponse]:
        """The player's pending friend requests: ``incoming`` (to accept or decline) and ``outgoing``
        (to cancel)."""
        return Call(
            routes.FRIEND_REQUESTS,
            m.RequestsResponse,
            path={"externalId": external_id},
            query=_progression_query(progression),
            player_secret=self._secret(player_secret),
        )

    def _accept_friend_request(
        self,
        external_id: str,
        request_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.FriendResponse]:
        """Accept an incoming request; answers the new ``friend`` row. Raises
        :class:`~livecore_client.errors.FriendRequestNotFoundError` for a request that is not
        incoming to this player and :class:`~livecore_client.errors.FriendLimitReachedError`."""
        return Call(
            routes.FRIEND_ACCEPT,
            m.FriendResponse,
            path={"externalId": external_id, "requestId": request_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _decline_friend_request(
        self,
        external_id: str,
        request_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.RequestDone]:
        """Decline an incoming request (``status="declined"``); raises
        :class:`~livecore_client.errors.FriendRequestNotFoundError` when it is not incoming to this
        player."""
        return Call(
            routes.FRIEND_DECLINE,
            m.RequestDone,
            path={"externalId": external_id, "requestId": request_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _cancel_friend_request(
        self,
        external_id: str,
        request_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.RequestDone]:
        """Cancel a request this player sent (``status="cancelled"``); raises
        :class:`~livecore_client.errors.FriendRequestNotFoundError` when it is not outgoing from this
        player."""
        return Call(
            routes.FRIEND_CANCEL,
            m.RequestDone,
            path={"externalId": external_id, "requestId": request_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _friends(
        self,
        external_id: str,
        *,
        progression: Sequence[str] | None = None,
        player_secret: str | None = None,
    ) -> Call[m.FriendsResponse]:
        """The player's friends with presence (``online``, ``last_active_at``, ``status``), gift
        cooldowns, and each friend's balances of the ``progression`` economy keys when given."""
        return Call(
            routes.FRIENDS_LIST,
            m.FriendsResponse,
            path={"externalId": external_id},
            query=_progression_query(progression),
            player_secret=self._secret(player_secret),
        )

    def _remove_friend(
        self,
        external_id: str,
        friend_external_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.RemovedResponse]:
        """End a friendship (for both players); raises :class:`~livecore_client.errors.NotFriendsError`
        when the two are not friends."""
        return Call(
            routes.FRIEND_REMOVE,
            m.RemovedResponse,
            path={"externalId": external_id, "friendExternalId": friend_external_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _friend_suggestions(
        self,
        external_id: str,
        *,
        limit: int | None = None,
        progression: Sequence[str] | None = None,
        player_secret: str | None = None,
    ) -> Call[m.SuggestionsResponse]:
        """A fresh random sample of recently active players the caller has no tie with (no friendship,
        request or block either way). ``limit`` defaults to 5 and is clamped to 1..25 by the service."""
        query = m.SuggestionsQuery(progression=_keys(progression))
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(
            routes.FRIENDS_SUGGESTIONS,
            m.SuggestionsResponse,
            path={"externalId": external_id},
            query=query,
            player_secret=self._secret(player_secret),
        )

    def _block_player(
        self,
        external_id: str,
        *,
        friend_code: str | None = None,
        external_player_id: str | None = None,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.BlockResponse]:
        """Block a player, by ``friend_code`` or by ``external_player_id`` (exactly one): ends a
        friendship and pending requests either way, and hides each from the other's search and
        suggestions. Blocking again answers the existing block."""
        return Call(
            routes.FRIEND_BLOCK,
            m.BlockResponse,
            path={"externalId": external_id},
            body=_target(friend_code, external_player_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _blocks(self, external_id: str, *, player_secret: str | None = None) -> Call[m.BlocksResponse]:
        """The players this player blocked."""
        return Call(
            routes.FRIEND_BLOCKS,
            m.BlocksResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret),
        )

    def _unblock_player(
        self,
        external_id: str,
        blocked_external_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.UnblockedResponse]:
        """Lift this player's block of ``blocked_external_id``; raises
        :class:`~livecore_client.errors.NotBlockedError` when there is none."""
        return Call(
            routes.FRIEND_UNBLOCK,
            m.UnblockedResponse,
            path={"externalId": external_id, "externalPlayerId": blocked_external_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _heartbeat(
        self,
        external_id: str,
        status: str | None = None,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.PresenceResponse]:
        """Mark the player online (send about every 30 s; presence lapses 90 s after the last one) with
        an optional ``status`` label of up to 64 characters. ``None`` clears the label; the player
        stays online."""
        return Call(
            routes.PRESENCE_HEARTBEAT,
            m.PresenceResponse,
            path={"externalId": external_id},
            body=m.HeartbeatRequest(status=status),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


# Calls compare response types by identity, so the search call names the route's own list[SearchHit].
_SEARCH_HITS: type[list[m.SearchHit]] = routes.FRIENDS_SEARCH.response


def _keys(progression: Sequence[str] | None) -> list[str] | None:
    """The ``progression`` economy keys as sent (a single string is one key); ``None`` or empty: none."""
    if progression is None:
        return None
    keys = [progression] if isinstance(progression, str) else list(progression)
    return keys or None


def _progression_query(progression: Sequence[str] | None) -> m.ProgressionQuery | None:
    keys = _keys(progression)
    return None if keys is None else m.ProgressionQuery(progression=keys)


def _target(friend_code: str | None, external_player_id: str | None) -> m.FriendTarget:
    """DECISIONS 2: exactly one of the two; checked here so a wrong call never reaches the network."""
    if (friend_code is None) == (external_player_id is None):
        raise ValueError("pass exactly one of friend_code and external_player_id")
    return m.FriendTarget(friend_code=friend_code, external_player_id=external_player_id)


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
    friend_code = sync_method(_SdkCalls._friend_code)
    search_players = sync_method(_SdkCalls._search_players)
    send_friend_request = sync_method(_SdkCalls._send_friend_request)
    friend_requests = sync_method(_SdkCalls._friend_requests)
    accept_friend_request = sync_method(_SdkCalls._accept_friend_request)
    decline_friend_request = sync_method(_SdkCalls._decline_friend_request)
    cancel_friend_request = sync_method(_SdkCalls._cancel_friend_request)
    friends = sync_method(_SdkCalls._friends)
    remove_friend = sync_method(_SdkCalls._remove_friend)
    friend_suggestions = sync_method(_SdkCalls._friend_suggestions)
    block_player = sync_method(_SdkCalls._block_player)
    blocks = sync_method(_SdkCalls._blocks)
    unblock_player = sync_method(_SdkCalls._unblock_player)
    heartbeat = sync_method(_SdkCalls._heartbeat)


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
    friend_code = async_method(_SdkCalls._friend_code)
    search_players = async_method(_SdkCalls._search_players)
    send_friend_request = async_method(_SdkCalls._send_friend_request)
    friend_requests = async_method(_SdkCalls._friend_requests)
    accept_friend_request = async_method(_SdkCalls._accept_friend_request)
    decline_friend_request = async_method(_SdkCalls._decline_friend_request)
    cancel_friend_request = async_method(_SdkCalls._cancel_friend_request)
    friends = async_method(_SdkCalls._friends)
    remove_friend = async_method(_SdkCalls._remove_friend)
    friend_suggestions = async_method(_SdkCalls._friend_suggestions)
    block_player = async_method(_SdkCalls._block_player)
    blocks = async_method(_SdkCalls._blocks)
    unblock_player = async_method(_SdkCalls._unblock_player)
    heartbeat = async_method(_SdkCalls._heartbeat)
