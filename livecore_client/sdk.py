"""Clients for the game-client surface ``/sdk/v1``: :class:`SdkClient` and :class:`AsyncSdkClient`.

The ``client_sdk`` key identifies the game, not the player; player-scoped routes also need that player's
secret (docs/reference/conventions.md#surfaces-and-credentials), taken per call or from the client's
``player_secret``. Every write carries an idempotency key, so the built-in retries never apply it twice.

Adding a route: one ``_name`` builder in :class:`_SdkCalls`, one line in each client. The only
hand-written pair is ``stream_event_leaderboard`` (an iterator of events cannot be one builder): it
prepares the builder's call and reads the stream through :mod:`livecore_client._stream`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

import attrs
import httpx

from livecore.api.convert import ABSENT, Absent
from livecore.api.route import Route
from livecore.crates.api import SDK_OPEN_CRATE
from livecore.economy.api import SDK_INVENTORY, SDK_INVENTORY_CONSUME, SDK_WALLET, SDK_WALLET_DEBIT
from livecore.errors import ErrorCode
from livecore.friends.api import (
    FRIEND_ACCEPT,
    FRIEND_BLOCK,
    FRIEND_BLOCKS,
    FRIEND_CANCEL,
    FRIEND_CODE,
    FRIEND_DECLINE,
    FRIEND_REMOVE,
    FRIEND_REQUESTS,
    FRIEND_SEND_REQUEST,
    FRIEND_UNBLOCK,
    FRIENDS_LIST,
    FRIENDS_SEARCH,
    FRIENDS_SUGGESTIONS,
    PRESENCE_HEARTBEAT,
)
from livecore.gifts.api import GIFT_CATALOG, GIFT_CLAIM, GIFT_INBOX, GIFT_SEND, GIFT_SENT
from livecore.grants.api import SDK_CLAIM_GRANT, SDK_PENDING_GRANTS
from livecore.guilds import api as guilds
from livecore.guilds.rules import DEFAULT_PAGE_LIMIT, JoinType
from livecore.leaderboards.api import SDK_LEADERBOARD
from livecore.live_events.api import SDK_BOARD, SDK_BOARD_STREAM, SDK_EVENTS, SDK_PROGRESS, SDK_START
from livecore.lobbies.api import SDK_LOBBY
from livecore.players.api import REGISTER, SDK_SET_IDENTITY
from livecore.purchases.api import SDK_TRACK_PURCHASE
from livecore.teams.api import SDK_ACCEPT, SDK_INVITE, SDK_MY_TEAM

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
from ._guilds import profile_edit
from ._stream import StreamEvent, iter_stream_async, iter_stream_sync
from ._transport import Call, RetryPolicy, build_headers
from .models import ResourceType

__all__ = ["AsyncSdkClient", "SdkClient"]

_T = TypeVar("_T")


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
            REGISTER,
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
            SDK_SET_IDENTITY,
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

    def _inventory(self, external_id: str, *, player_secret: str | None = None) -> Call[m.InventoryResponse]:
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
            body=m.AdjustItemRequest(quantity=quantity, reason=reason, source_ref_id=source_ref_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _pending_grants(
        self, external_id: str, *, player_secret: str | None = None
    ) -> Call[m.GrantListResponse]:
        """The grants waiting for this player to claim, oldest first."""
        return Call(
            SDK_PENDING_GRANTS,
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
        The grant that delivers a gift is claimed under the gift's rule instead:
        :class:`~livecore_client.errors.GiftAlreadyClaimedError` and
        :class:`~livecore_client.errors.GiftExpiredError` (410). A crate grant is opened, not claimed:
        :class:`~livecore_client.errors.CrateMustBeOpenedError` (use :meth:`open_crate`).
        """
        return Call(
            SDK_CLAIM_GRANT,
            m.GrantResponse,
            path={"externalId": external_id, "grantId": grant_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _open_crate(
        self,
        external_id: str,
        grant_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.OpenCrateResponse]:
        """Open a pending crate grant: its table is drawn, and the answer holds the crate grant (now
        ``claimed``) and the contents grant, created and claimed at once (its entries are what was drawn).

        Pass ``idempotency_key`` so that a retry answers the same contents instead of an error. Raises
        :class:`~livecore_client.errors.GrantNotFoundError` for another player's or an unknown grant,
        :class:`~livecore_client.errors.NotACrateError` for a reward grant,
        :class:`~livecore_client.errors.GrantAlreadyClaimedError` for a crate opened before,
        :class:`~livecore_client.errors.GrantExpiredError` past its ``expires_at``,
        :class:`~livecore_client.errors.ResourceNotFoundError` when its crate was removed from the manifest,
        and :class:`~livecore_client.errors.PlayerBannedError` for a banned player.
        """
        return Call(
            SDK_OPEN_CRATE,
            m.OpenCrateResponse,
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
            FRIEND_CODE,
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
            FRIENDS_SEARCH,
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
            FRIEND_SEND_REQUEST,
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
            FRIEND_REQUESTS,
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
            FRIEND_ACCEPT,
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
            FRIEND_DECLINE,
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
            FRIEND_CANCEL,
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
            FRIENDS_LIST,
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
            FRIEND_REMOVE,
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
            FRIENDS_SUGGESTIONS,
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
            FRIEND_BLOCK,
            m.BlockResponse,
            path={"externalId": external_id},
            body=_target(friend_code, external_player_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _blocks(self, external_id: str, *, player_secret: str | None = None) -> Call[m.BlocksResponse]:
        """The players this player blocked."""
        return Call(
            FRIEND_BLOCKS,
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
            FRIEND_UNBLOCK,
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
            PRESENCE_HEARTBEAT,
            m.PresenceResponse,
            path={"externalId": external_id},
            body=m.HeartbeatRequest(status=status),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    # --- Gifts --------------------------------------------------------------------------------------

    def _send_gift(
        self,
        external_id: str,
        *,
        type: ResourceType | str,
        resource_key: str,
        amount: int,
        external_player_id: str | None = None,
        friend_code: str | None = None,
        message: str | None = None,
        player_secret: str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.GiftResponse]:
        """Send a friend ``amount`` of resource ``resource_key`` (``type`` ``"item"`` or ``"currency"``,
        XP included), by ``external_player_id`` or by ``friend_code`` (exactly one), with an optional
        ``message`` of up to 200 characters. The gift comes back ``pending`` (201); the friend claims it
        later with :meth:`claim_gift` (or by claiming its ``grant_id`` as a pending grant), and only
        then is it credited. The gift catalog says what may be sent and how much.

        The idempotency key (made once per call unless given, sent in the body's ``idempotencyKey``)
        makes a resend answer the original gift (200) instead of failing the cooldown; the same key with
        a different gift raises :class:`~livecore_client.errors.IdempotencyConflictError`.

        Refusals, checked in this order:
        :class:`~livecore_client.errors.GiftingDisabledError`,
        :class:`~livecore_client.errors.GiftNotFriendsError` (not an accepted friend, or yourself),
        :class:`~livecore_client.errors.GiftNotAllowedError` (not giftable),
        :class:`~livecore_client.errors.GiftAmountInvalidError` (below 1 or above the resource's cap),
        :class:`~livecore_client.errors.GiftCooldownError` (this friend was gifted too recently; see its
        ``cooldown_until``), :class:`~livecore_client.errors.GiftLimitReachedError` (the daily send
        limit) and :class:`~livecore_client.errors.GiftInsufficientBalanceError` (a gift that costs
        the sender). An unknown target raises :class:`~livecore_client.errors.PlayerNotFoundError` or
        :class:`~livecore_client.errors.FriendCodeInvalidError`; ``ValueError`` (before any request)
        when both or neither target is given, or ``type`` is not a resource type.
        """
        target = _target(friend_code, external_player_id)
        return Call(
            GIFT_SEND,
            m.GiftResponse,
            path={"externalId": external_id},
            body=m.SendGiftRequest(
                type=ResourceType(type),
                resource_key=resource_key,
                amount=amount,
                external_player_id=target.external_player_id,
                friend_code=target.friend_code,
                message=message,
            ),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _claim_gift(
        self,
        external_id: str,
        gift_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.GiftResponse]:
        """Claim a gift this player received: its contents are credited now and the gift comes back
        ``claimed`` with ``claimed_at`` set (its delivering grant is claimed with it).

        Raises :class:`~livecore_client.errors.GiftNotFoundError` for a gift that is not this
        player's to claim (unknown, or one they sent),
        :class:`~livecore_client.errors.GiftAlreadyClaimedError` for a gift claimed before (here or
        through its grant) and :class:`~livecore_client.errors.GiftExpiredError` (410) past its
        ``expires_at``.
        """
        return Call(
            GIFT_CLAIM,
            m.GiftResponse,
            path={"externalId": external_id, "giftId": gift_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _gift_catalog(
        self, external_id: str, *, player_secret: str | None = None
    ) -> Call[m.GiftCatalogResponse]:
        """What this player can gift: whether gifting is ``enabled``, the per-friend ``cooldown_seconds``,
        the ``daily_send_limit`` (``None``: unlimited) and how many gifts they sent today (UTC,
        ``sent_today``), and the giftable ``resources`` (each with its ``max_amount`` per gift and
        whether it ``costs_sender``). Empty while gifting is off."""
        return Call(
            GIFT_CATALOG,
            m.GiftCatalogResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret),
        )

    def _gift_inbox(
        self,
        external_id: str,
        *,
        pending: bool = False,
        limit: int | None = None,
        player_secret: str | None = None,
    ) -> Call[list[m.GiftView]]:
        """The gifts this player received, newest first (``direction="incoming"``, ``player`` is the
        sender). ``pending=True`` keeps only those still claimable (pending and not expired). ``limit``
        defaults to 100 and is clamped to 1..200 by the service."""
        return Call(
            GIFT_INBOX,
            _GIFTS,
            path={"externalId": external_id},
            query=_gift_list_query(pending, limit),
            player_secret=self._secret(player_secret),
        )

    def _sent_gifts(
        self,
        external_id: str,
        *,
        pending: bool = False,
        limit: int | None = None,
        player_secret: str | None = None,
    ) -> Call[list[m.GiftView]]:
        """The gifts this player sent, newest first (``direction="outgoing"``, ``player`` is the
        recipient). ``pending=True`` keeps only those not yet claimed nor expired. ``limit`` defaults
        to 100 and is clamped to 1..200 by the service."""
        return Call(
            GIFT_SENT,
            _GIFTS,
            path={"externalId": external_id},
            query=_gift_list_query(pending, limit),
            player_secret=self._secret(player_secret),
        )

    # --- Purchases ----------------------------------------------------------------------------------

    def _track_purchase(
        self,
        external_id: str,
        *,
        transaction_id: str,
        store: str,
        product_id: str,
        product_type: str,
        amount_minor: int,
        currency: str,
        purchased_at: datetime | None = None,
        metadata: Mapping[str, Any] | None = None,
        player_secret: str | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.TrackPurchaseResponse]:
        """Report a store purchase from the game: ``amount_minor`` charged in ``currency``'s minor unit
        (cents), normalised by the service to US cents. It is stored ``unverified`` (only the studio
        backend can report a verified one); ``purchased_at`` defaults to now. Answers the stored
        ``purchase`` and the player's lifetime spend after it.

        Idempotent on ``transaction_id``: reporting it again (after a crash, on the next launch)
        answers the stored purchase; the same id with a different purchase raises
        :class:`~livecore_client.errors.IdempotencyConflictError`. Raises
        :class:`~livecore_client.errors.UnknownCurrencyError` when the game has no exchange rate for
        ``currency`` and :class:`~livecore_client.errors.PlayerBannedError` for a banned player.
        """
        return Call(
            SDK_TRACK_PURCHASE,
            m.TrackPurchaseResponse,
            path={"externalId": external_id},
            body=m.TrackPurchaseRequest(
                transaction_id=transaction_id,
                store=store,
                product_id=product_id,
                product_type=product_type,
                amount_minor=amount_minor,
                currency=currency,
                purchased_at=purchased_at,
                metadata=None if metadata is None else dict(metadata),
            ),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    # --- Live events --------------------------------------------------------------------------------

    def _events(
        self, external_id: str, *, with_attempts: bool = True, player_secret: str | None = None
    ) -> Call[m.EventListResponse]:
        """The game's events, in key order: each with its ``state`` (``open`` while a window is open,
        then ``window`` is it; ``scheduled`` while another is due; else ``ended``),
        ``next_window_starts_at``, ``entry_cost``, ``max_attempts`` and ``target``.

        With the player's secret (the call's, else the client's) each event also carries the player's
        ``attempts`` in its open window. ``with_attempts=False`` sends the client key alone, as does a
        client without a secret; ``attempts`` is then ``None``. A wrong secret raises
        :class:`~livecore_client.errors.PlayerSecretInvalidError`.
        """
        return Call(
            SDK_EVENTS,
            m.EventListResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret) if with_attempts else None,
        )

    def _start_attempt(
        self,
        external_id: str,
        event_key: str,
        *,
        player_context: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.AttemptResponse | m.LobbyForming]:
        """Start an attempt in the event's open window, paying its entry cost in the same step; the
        attempt comes back ``in_progress`` (201) with its ``leaderboard_id`` and ``ends_at``.
        ``player_context`` (at most 4 KiB as JSON) picks the board of a segmented event: each segment
        key's value, a string (``country`` falls back to the player's resolved country).

        On a lobby event the player is seated first (docs/lobbies.md#starting-on-a-lobby-event): while
        its lobby forms the answer is a :class:`~livecore_client.models.LobbyForming` (202
        ``lobby_forming``: its ``lobby_id``, ``participant_count``, ``capacity`` and ``fill_by``), and
        nothing is charged; start again once the lobby is active to get the attempt on the lobby's
        board. Any other event always answers an :class:`~livecore_client.models.AttemptResponse`.

        Refusals, checked in this order (nothing is charged or written):
        :class:`~livecore_client.errors.PlayerBannedError`,
        :class:`~livecore_client.errors.EventNotFoundError`,
        :class:`~livecore_client.errors.EventNotOpenError` (also a lobby closed early: its
        ``details["lobbyId"]``),
        :class:`~livecore_client.errors.AttemptInProgressError` (its ``attempt_id``),
        :class:`~livecore_client.errors.MaxAttemptsReachedError` and
        :class:`~livecore_client.errors.InsufficientEntryCostError`.
        """
        return Call(
            SDK_START,
            m.AttemptResponse,
            path={"externalId": external_id, "eventKey": event_key},
            body=None
            if player_context is None
            else m.StartAttemptRequest(player_context=dict(player_context)),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
            accepted=(ErrorCode.LOBBY_FORMING, m.LobbyForming),
        )

    def _report_progress(
        self,
        external_id: str,
        event_key: str,
        attempt_id: str,
        metrics: Mapping[str, float],
        *,
        complete: bool = False,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.ProgressResponse]:
        """Report an attempt's ``metrics``: each value is the metric's current total (set, not added);
        metrics not named keep their values. The event's score metric moves the attempt's ``score``
        (its best value) and the board; crossing milestones creates one pending grant each
        (``milestones_granted``); reaching the event's ``target``, or ``complete=True``, completes the
        attempt.

        Refusals, in this order (nothing is applied):
        :class:`~livecore_client.errors.PlayerBannedError`,
        :class:`~livecore_client.errors.AttemptNotFoundError` (also another player's attempt),
        :class:`~livecore_client.errors.InvalidRequestError` (a metric the event does not take, or a
        value that is not a finite number),
        :class:`~livecore_client.errors.AttemptNotInProgressError` (completed, expired, or past its
        ``ends_at``) and :class:`~livecore_client.errors.AntiCheatRejectedError` (its ``validator``).
        """
        return Call(
            SDK_PROGRESS,
            m.ProgressResponse,
            path={"externalId": external_id, "eventKey": event_key, "attemptId": attempt_id},
            body=m.ProgressRequest(metrics=dict(metrics), complete=complete),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _event_leaderboard(
        self,
        leaderboard_id: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        around: str | None = None,
    ) -> Call[m.BoardResponse]:
        """A page of an event leaderboard (the client key alone): the ``leaderboard`` (``status``
        ``open`` or ``finalized``, ``closes_at``) and its ``entries``, ranked 1, 2, 3, ... with no rank
        shared. ``limit`` (default 50, 1 to 200) entries from the top, or after ``cursor`` (a page's
        ``next_cursor``, ``None`` on the last page), or ``around`` an external player id: at most
        ``limit`` consecutive entries holding that player, centred on it as far as the board allows
        (the top when the player has no entry). ``ValueError`` (before any request) for both
        ``cursor`` and ``around``; :class:`~livecore_client.errors.LeaderboardNotFoundError` for an
        unknown board.
        """
        if cursor is not None and around is not None:
            raise ValueError("pass cursor or around, not both")
        query = m.BoardQuery(cursor=cursor, around=around)
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(SDK_BOARD, m.BoardResponse, path={"leaderboardId": leaderboard_id}, query=query)

    def _lobby(self, lobby_id: str) -> Call[m.LobbyResponse]:
        """A lobby (the client key alone): its ``status`` (``forming``, ``active``, ``closed``),
        ``capacity``, ``participant_count`` (bots included) and ``bot_count``, its ``participants`` in
        the order the seats were taken (a bot's ``external_player_id`` is ``None``), ``fill_by``,
        ``started_at``, ``ends_at``, ``closed_at``, ``promotion_reason``, the ``leaderboard_id`` of its
        own board and a push's ``metadata``. Raises :class:`~livecore_client.errors.LobbyNotFoundError`
        for a lobby of another game or environment, or an unknown id.
        """
        return Call(SDK_LOBBY, m.LobbyResponse, path={"lobbyId": lobby_id})

    # --- Teams and partners ------------------------------------------------------------------------

    def _my_team(
        self, external_id: str, event_key: str, *, player_secret: str | None = None
    ) -> Call[m.MyTeamResponse]:
        """The player's team in the event's window open now (``team`` ``None`` when it sits on none, or
        no window is open): its ``score``, ``goal``, ``completed``, and its seated ``members`` in rank
        order, each with its ``contribution`` (its best attempt score in the window) and ``rank`` (ties
        rank the earlier seated first, then by external id). Raises
        :class:`~livecore_client.errors.EventNotFoundError` for an unknown event and
        :class:`~livecore_client.errors.InvalidRequestError` for an event without teams.
        """
        return Call(
            SDK_MY_TEAM,
            m.MyTeamResponse,
            path={"externalId": external_id, "eventKey": event_key},
            player_secret=self._secret(player_secret),
        )

    def _invite_partner(
        self,
        external_id: str,
        event_key: str,
        external_player_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.InviteResponse]:
        """Invite a friend to pair up in the event's open window (an event whose teams form by
        ``partner``): the invite (201) expires 24 hours after it is sent; the friend accepts it with
        :meth:`accept_partner_invite`.

        Refusals, in this order (nothing is written):
        :class:`~livecore_client.errors.EventNotFoundError`,
        :class:`~livecore_client.errors.InvalidRequestError` (an event without partner teams),
        :class:`~livecore_client.errors.EventNotOpenError`,
        :class:`~livecore_client.errors.PlayerNotFoundError` (an unknown friend),
        :class:`~livecore_client.errors.InvalidRequestError` (yourself),
        :class:`~livecore_client.errors.GiftNotFriendsError` (403 ``not_friends``),
        :class:`~livecore_client.errors.AlreadyOnTeamError` (either of you on a team of the window) and
        :class:`~livecore_client.errors.InvitePendingError` (an invite between you, either way).
        """
        return Call(
            SDK_INVITE,
            m.InviteResponse,
            path={"externalId": external_id, "eventKey": event_key},
            body=m.InviteRequest(external_player_id=external_player_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _accept_partner_invite(
        self,
        external_id: str,
        event_key: str,
        invite_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.TeamResponse]:
        """Accept a partner invite made to this player: the two form a team of the window (its ``key``
        is the invite's id), answered with its two members.

        Refusals, in this order: :class:`~livecore_client.errors.InviteNotFoundError` (unknown, or made
        to another player), :class:`~livecore_client.errors.AlreadyOnTeamError` (accepted already),
        :class:`~livecore_client.errors.InviteExpiredError` and
        :class:`~livecore_client.errors.AlreadyOnTeamError` (either player on a team of the window).
        """
        return Call(
            SDK_ACCEPT,
            m.TeamResponse,
            path={"externalId": external_id, "eventKey": event_key, "inviteId": invite_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    # --- Guilds ------------------------------------------------------------------------------------

    def _create_guild(
        self,
        external_id: str,
        name: str,
        join_type: JoinType | str,
        *,
        description: str | None = None,
        badge: str | None = None,
        country: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.GuildResponse]:
        """Found a guild (201) led by the player: ``join_type`` ``"open"`` (anyone joins at once) or
        ``"request"`` (the leader and co-leaders accept each join request); ``country`` an ISO 3166-1
        alpha-2 code, ``metadata`` free-form (at most 4 KiB as JSON). A platform-managed game debits its
        ``create_cost``. Answers the guild with its one member.

        Refusals, in this order (nothing is written):
        :class:`~livecore_client.errors.GuildsDisabledError`,
        :class:`~livecore_client.errors.InvalidRequestError` (a bad field: a name not 3 to 24
        characters, ...), :class:`~livecore_client.errors.GuildNameRejectedError` (the game's name
        filter), :class:`~livecore_client.errors.AlreadyInGuildError`,
        :class:`~livecore_client.errors.GuildNameTakenError` and
        :class:`~livecore_client.errors.InsufficientBalanceError` (short of the cost). ``ValueError``
        (before any request) for a ``join_type`` that is not one.
        """
        return Call(
            guilds.SDK_CREATE,
            m.GuildResponse,
            path={"externalId": external_id},
            body=m.CreateGuildRequest(
                name=name,
                join_type=JoinType(join_type),
                description=description,
                badge=badge,
                country=country,
                metadata=None if metadata is None else dict(metadata),
            ),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _search_guilds(
        self, q: str | None = None, *, limit: int = DEFAULT_PAGE_LIMIT, offset: int = 0
    ) -> Call[m.GuildSearchResponse]:
        """Guilds not disbanded whose name holds ``q`` (compared by fold: NFKC, case, white space; every
        guild without it), newest first, a page of ``limit`` (1 to 100) from ``offset``: ``guilds``
        without their members. The client key alone. Raises
        :class:`~livecore_client.errors.GuildsDisabledError` and
        :class:`~livecore_client.errors.InvalidRequestError` (a limit or offset out of range).
        """
        return Call(
            guilds.SDK_SEARCH,
            m.GuildSearchResponse,
            query=m.GuildSearchQuery(q=q, limit=limit, offset=offset),
        )

    def _guild(self, guild_id: str) -> Call[m.GuildResponse]:
        """A guild with its members in joining order (each member's display ``name``, ``avatar``,
        ``role`` and ``joined_at``); a disbanded guild stays readable (``disbanded_at`` set, no
        members). The client key alone. Raises :class:`~livecore_client.errors.GuildNotFoundError`.
        """
        return Call(guilds.SDK_READ, m.GuildResponse, path={"guildId": guild_id})

    def _my_guild(self, external_id: str, *, player_secret: str | None = None) -> Call[m.OwnGuildResponse]:
        """The player's guild with its members, and the player's ``role`` in it; ``guild`` and ``role``
        are ``None`` when it is in none."""
        return Call(
            guilds.SDK_MINE,
            m.OwnGuildResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret),
        )

    def _join_guild(
        self,
        external_id: str,
        guild_id: str,
        *,
        message: str | None = None,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.GuildJoined | m.GuildJoinPending]:
        """Join a guild. An open guild seats the player at once: a
        :class:`~livecore_client.models.GuildJoined` (200: the ``guild`` with its members and the
        player's ``role``). A request-only guild records a join request for its leader and co-leaders,
        with ``message`` (at most 200 characters; an open guild ignores it): a
        :class:`~livecore_client.models.GuildJoinPending` (201: the pending ``request``). Joining any
        guild cancels the player's other pending requests.

        Refusals, in this order: :class:`~livecore_client.errors.GuildNotFoundError`,
        :class:`~livecore_client.errors.GuildDisbandedError`,
        :class:`~livecore_client.errors.AlreadyInGuildError`,
        :class:`~livecore_client.errors.GuildFullError` and
        :class:`~livecore_client.errors.JoinRequestPendingError` (a request to this guild pending
        already).
        """
        return Call(
            guilds.SDK_JOIN,
            m.GuildJoined,
            path={"externalId": external_id, "guildId": guild_id},
            body=None if message is None else m.JoinGuildRequest(message=message),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
            variant=(201, m.GuildJoinPending),
        )

    def _cancel_guild_join_request(
        self,
        external_id: str,
        guild_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.CancelledResponse]:
        """Withdraw the player's pending request to join the guild (``cancelled=True``). Raises
        :class:`~livecore_client.errors.GuildNotFoundError` and
        :class:`~livecore_client.errors.JoinRequestNotFoundError` when none is pending.
        """
        return Call(
            guilds.SDK_CANCEL_JOIN_REQUEST,
            m.CancelledResponse,
            path={"externalId": external_id, "guildId": guild_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _leave_guild(
        self, external_id: str, *, idempotency_key: str | None = None, player_secret: str | None = None
    ) -> Call[m.LeftResponse]:
        """Leave the player's guild (``left=True``): a leader hands the leadership to the co-leader who
        joined first, else the member who joined first; the last member's going disbands the guild; the
        player's open help request closes. Raises :class:`~livecore_client.errors.NotInGuildError`.
        """
        return Call(
            guilds.SDK_LEAVE,
            m.LeftResponse,
            path={"externalId": external_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _edit_guild(
        self,
        external_id: str,
        *,
        name: str | Absent = ABSENT,
        description: str | Absent | None = ABSENT,
        badge: str | Absent | None = ABSENT,
        country: str | Absent | None = ABSENT,
        join_type: JoinType | str | Absent = ABSENT,
        metadata: Mapping[str, Any] | Absent | None = ABSENT,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.GuildResponse]:
        """Edit the profile of the player's guild (its leader and co-leaders): only the fields given
        change; a field left out (``ABSENT``) is not sent and stays as it is, while ``None`` clears
        ``description``, ``badge``, ``country`` or ``metadata``. Answers the guild with its members.

        Refusals: :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (a member),
        :class:`~livecore_client.errors.InvalidRequestError` (a bad field),
        :class:`~livecore_client.errors.GuildNameRejectedError` (the name filter) and
        :class:`~livecore_client.errors.GuildNameTakenError`. ``ValueError`` (before any request) for a
        ``join_type`` that is not one.
        """
        return Call(
            guilds.SDK_EDIT,
            m.GuildResponse,
            path={"externalId": external_id},
            body=profile_edit(
                m.EditGuildRequest,
                name=name,
                description=description,
                badge=badge,
                country=country,
                join_type=join_type,
                metadata=metadata,
            ),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _guild_join_requests(
        self, external_id: str, *, player_secret: str | None = None
    ) -> Call[m.JoinRequestsResponse]:
        """The pending requests to join the player's guild, oldest first (its leader and co-leaders).
        Raises :class:`~livecore_client.errors.NotInGuildError` and
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (a member).
        """
        return Call(
            guilds.SDK_JOIN_REQUESTS,
            m.JoinRequestsResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret),
        )

    def _accept_guild_join_request(
        self,
        external_id: str,
        request_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.AcceptedResponse]:
        """Accept a pending request to join the player's guild (its leader and co-leaders): the requester
        joins it (``accepted=True``). Refusals, in this order:
        :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError`,
        :class:`~livecore_client.errors.JoinRequestNotFoundError` (not pending, or to another guild),
        :class:`~livecore_client.errors.AlreadyInGuildError` (the requester joined a guild meanwhile)
        and :class:`~livecore_client.errors.GuildFullError`.
        """
        return self._answer_join_request(
            guilds.SDK_ACCEPT, m.AcceptedResponse, external_id, request_id, idempotency_key, player_secret
        )

    def _decline_guild_join_request(
        self,
        external_id: str,
        request_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.DeclinedResponse]:
        """Decline a pending request to join the player's guild (its leader and co-leaders;
        ``declined=True``). Raises :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError` and
        :class:`~livecore_client.errors.JoinRequestNotFoundError`.
        """
        return self._answer_join_request(
            guilds.SDK_DECLINE, m.DeclinedResponse, external_id, request_id, idempotency_key, player_secret
        )

    def _answer_join_request(
        self,
        route: Route,
        response: type[_T],
        external_id: str,
        request_id: str,
        idempotency_key: str | None,
        player_secret: str | None,
    ) -> Call[_T]:
        return Call(
            route,
            response,
            path={"externalId": external_id, "requestId": request_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _kick_guild_member(
        self,
        external_id: str,
        member_external_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.GuildResponse]:
        """Kick a member out of the player's guild (the leader kicks co-leaders and members, a co-leader
        members only); answers the guild with its members. Refusals, in this order:
        :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (a member),
        :class:`~livecore_client.errors.InvalidRequestError` (oneself),
        :class:`~livecore_client.errors.GuildMemberNotFoundError` and
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (a co-leader kicking a co-leader or
        the leader).
        """
        return self._member_action(
            guilds.SDK_KICK, external_id, member_external_id, idempotency_key, player_secret
        )

    def _promote_guild_member(
        self,
        external_id: str,
        member_external_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.GuildResponse]:
        """Promote a member of the player's guild to co-leader (the leader); answers the guild with its
        members. Refusals, in this order: :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (not the leader),
        :class:`~livecore_client.errors.InvalidRequestError` (oneself),
        :class:`~livecore_client.errors.GuildMemberNotFoundError` and
        :class:`~livecore_client.errors.InvalidRequestError` (a co-leader already).
        """
        return self._member_action(
            guilds.SDK_PROMOTE, external_id, member_external_id, idempotency_key, player_secret
        )

    def _demote_guild_member(
        self,
        external_id: str,
        member_external_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.GuildResponse]:
        """Demote a co-leader of the player's guild to member (the leader); answers the guild with its
        members. Refusals, in this order: :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (not the leader),
        :class:`~livecore_client.errors.InvalidRequestError` (oneself),
        :class:`~livecore_client.errors.GuildMemberNotFoundError` and
        :class:`~livecore_client.errors.InvalidRequestError` (a member already).
        """
        return self._member_action(
            guilds.SDK_DEMOTE, external_id, member_external_id, idempotency_key, player_secret
        )

    def _member_action(
        self,
        route: Route,
        external_id: str,
        member_external_id: str,
        idempotency_key: str | None,
        player_secret: str | None,
    ) -> Call[m.GuildResponse]:
        return Call(
            route,
            m.GuildResponse,
            path={"externalId": external_id, "memberExternalId": member_external_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _transfer_guild_leadership(
        self,
        external_id: str,
        member_external_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.GuildResponse]:
        """Hand the leadership of the player's guild (the leader) to another member, who leads it from
        now; the old leader becomes co-leader. Answers the guild with its members. Refusals, in this
        order: :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.GuildPermissionDeniedError` (not the leader),
        :class:`~livecore_client.errors.InvalidRequestError` (oneself) and
        :class:`~livecore_client.errors.GuildMemberNotFoundError`.
        """
        return Call(
            guilds.SDK_TRANSFER,
            m.GuildResponse,
            path={"externalId": external_id},
            body=m.TransferRequest(external_player_id=member_external_id),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _ask_guild_help(
        self,
        external_id: str,
        *,
        type: ResourceType | str,
        resource_key: str,
        amount: int,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.HelpRequestResponse]:
        """Ask the player's guild for ``amount`` (1 to the game's ``help.max_amount``) of one of its
        ``help.resources`` (``type`` ``"currency"`` or ``"item"``): the request (201) is ``open`` until
        it is filled, expires (``expires_at``) or its player leaves the guild.

        Refusals: :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.InvalidRequestError` (no help in the game, a resource not
        offered, an amount out of range), :class:`~livecore_client.errors.HelpRequestOpenError` (the
        player's own request open still: its ``request_id``) and
        :class:`~livecore_client.errors.HelpCooldownError` (asked too recently: ``retry_at``).
        ``ValueError`` (before any request) when ``type`` is not a resource type.
        """
        return Call(
            guilds.SDK_ASK_HELP,
            m.HelpRequestResponse,
            path={"externalId": external_id},
            body=m.AskHelpRequest(type=ResourceType(type), resource_key=resource_key, amount=amount),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _guild_help_requests(
        self, external_id: str, *, player_secret: str | None = None
    ) -> Call[m.HelpRequestsResponse]:
        """The open help requests of the player's guild, newest first, each with what was ``donated``
        so far. Raises :class:`~livecore_client.errors.NotInGuildError`.
        """
        return Call(
            guilds.SDK_HELP_REQUESTS,
            m.HelpRequestsResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret),
        )

    def _donate_guild_help(
        self,
        external_id: str,
        request_id: str,
        amount: int,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[m.DonationResponse]:
        """Donate ``amount`` (1 to what the request still lacks) to another member's open help request,
        in one step: a platform-managed game debits the donor; the requester gets a pending grant of the
        amount (``grant_id``) and the donor a pending grant of the game's ``help.donor_reward``
        (``reward_grant_id``, ``None`` without one). Answers the ``donation`` and the request after it.

        Refusals, in this order: :class:`~livecore_client.errors.NotInGuildError`,
        :class:`~livecore_client.errors.HelpRequestNotFoundError` (none in the player's guild),
        :class:`~livecore_client.errors.InvalidRequestError` (the player's own request),
        :class:`~livecore_client.errors.HelpRequestClosedError` (filled, expired or closed),
        :class:`~livecore_client.errors.InvalidRequestError` (an amount out of range) and
        :class:`~livecore_client.errors.InsufficientBalanceError`.
        """
        return Call(
            guilds.SDK_DONATE,
            m.DonationResponse,
            path={"externalId": external_id, "requestId": request_id},
            body=m.DonateRequest(amount=amount),
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    # --- Shared leaderboards -----------------------------------------------------------------------

    def _leaderboard(
        self,
        leaderboard_key: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        around: str | None = None,
        division: str | None = None,
        period: str | None = None,
        previous: bool = False,
    ) -> Call[m.LeaderboardResponse]:
        """A page of a shared leaderboard (the client key alone): the ``leaderboard`` (its ``period`` kind,
        the ``period_id`` read with its ``period_starts_at`` and ``period_ends_at``, and the
        ``division`` shown, ``None`` on a board without divisions) and its ``entries``, ranked 1, 2, 3,
        ... within the division. ``limit`` (default 50, 1 to 200) entries from the top, or after
        ``cursor`` (a page's ``next_cursor``, ``None`` on the last page), or ``around`` an external
        player id (centred on that player's entry as far as the board allows).

        The current period by default; ``period`` (a period id, as in ``period_id`` or the
        ``leaderboard.period_finalized`` webhook) or ``previous=True`` (the latest finalized period)
        read a past one. On a board with divisions the page shows ``around``'s player's division, else
        ``division`` (a division id), else the first division of the highest tier.

        ``ValueError`` (before any request) for both ``cursor`` and ``around``, or both ``period`` and
        ``previous``. :class:`~livecore_client.errors.LeaderboardNotFoundError` for an unknown board,
        :class:`~livecore_client.errors.PlayerNotFoundError` for an unknown ``around`` player, and
        :class:`~livecore_client.errors.InvalidRequestError` for an unknown period or division, a
        ``division`` on a board without divisions, ``previous`` before any period finished, or a
        forged or stale cursor.
        """
        if cursor is not None and around is not None:
            raise ValueError("pass cursor or around, not both")
        if period is not None and previous:
            raise ValueError("pass period or previous, not both")
        query = m.LeaderboardQuery(
            cursor=cursor, around=around, division=division, period=period, previous=previous
        )
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(
            SDK_LEADERBOARD, m.LeaderboardResponse, path={"leaderboardKey": leaderboard_key}, query=query
        )

    def _stream_call(self, leaderboard_id: str) -> Call[None]:
        return Call(SDK_BOARD_STREAM, type(None), path={"leaderboardId": leaderboard_id})


# Calls compare response types by identity, so the list calls name the routes' own list[...] types.
_SEARCH_HITS: type[list[m.SearchHit]] = FRIENDS_SEARCH.response
_GIFTS: type[list[m.GiftView]] = GIFT_INBOX.response


def _keys(progression: Sequence[str] | None) -> list[str] | None:
    """The ``progression`` economy keys as sent (a single string is one key); ``None`` or empty: none."""
    if progression is None:
        return None
    keys = [progression] if isinstance(progression, str) else list(progression)
    return keys or None


def _progression_query(progression: Sequence[str] | None) -> m.ProgressionQuery | None:
    keys = _keys(progression)
    return None if keys is None else m.ProgressionQuery(progression=keys)


def _gift_list_query(pending: bool, limit: int | None) -> m.GiftListQuery:
    query = m.GiftListQuery(pending=pending)
    return query if limit is None else attrs.evolve(query, limit=limit)


def _target(friend_code: str | None, external_player_id: str | None) -> m.FriendTarget:
    """docs/reference/friends-and-presence.md: exactly one of the two; checked here so a wrong call never
    reaches the network."""
    if (friend_code is None) == (external_player_id is None):
        raise ValueError("pass exactly one of friend_code and external_player_id")
    return m.FriendTarget(friend_code=friend_code, external_player_id=external_player_id)


class SdkClient(SyncClient, _SdkCalls):
    """Blocking client for ``/sdk/v1``. ``timeout`` applies only to the HTTP client it creates itself.
    ``platform`` and ``app_version`` (the game's platform key, ``"ios"``, and build, ``"1.4.2"``) are
    reported on every request, and the service keeps the last of each on the player."""

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        player_secret: str | None = None,
        platform: str | None = None,
        app_version: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.Client | None = None,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        # Checked before the HTTP client is made: a refused value leaves nothing to close.
        headers = build_headers(platform, app_version)
        super().__init__(
            api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            http_client=http_client,
            retry_policy=retry_policy,
        )
        self.player_secret = player_secret
        self._headers = headers

    register = sync_method(_SdkCalls._register)
    set_identity = sync_method(_SdkCalls._set_identity)
    wallet = sync_method(_SdkCalls._wallet)
    debit = sync_method(_SdkCalls._debit)
    inventory = sync_method(_SdkCalls._inventory)
    consume = sync_method(_SdkCalls._consume)
    pending_grants = sync_method(_SdkCalls._pending_grants)
    claim_grant = sync_method(_SdkCalls._claim_grant)
    open_crate = sync_method(_SdkCalls._open_crate)
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
    send_gift = sync_method(_SdkCalls._send_gift)
    claim_gift = sync_method(_SdkCalls._claim_gift)
    gift_catalog = sync_method(_SdkCalls._gift_catalog)
    gift_inbox = sync_method(_SdkCalls._gift_inbox)
    sent_gifts = sync_method(_SdkCalls._sent_gifts)
    track_purchase = sync_method(_SdkCalls._track_purchase)
    events = sync_method(_SdkCalls._events)
    start_attempt = sync_method(_SdkCalls._start_attempt)
    report_progress = sync_method(_SdkCalls._report_progress)
    event_leaderboard = sync_method(_SdkCalls._event_leaderboard)
    lobby = sync_method(_SdkCalls._lobby)
    my_team = sync_method(_SdkCalls._my_team)
    invite_partner = sync_method(_SdkCalls._invite_partner)
    accept_partner_invite = sync_method(_SdkCalls._accept_partner_invite)
    create_guild = sync_method(_SdkCalls._create_guild)
    search_guilds = sync_method(_SdkCalls._search_guilds)
    guild = sync_method(_SdkCalls._guild)
    my_guild = sync_method(_SdkCalls._my_guild)
    join_guild = sync_method(_SdkCalls._join_guild)
    cancel_guild_join_request = sync_method(_SdkCalls._cancel_guild_join_request)
    leave_guild = sync_method(_SdkCalls._leave_guild)
    edit_guild = sync_method(_SdkCalls._edit_guild)
    guild_join_requests = sync_method(_SdkCalls._guild_join_requests)
    accept_guild_join_request = sync_method(_SdkCalls._accept_guild_join_request)
    decline_guild_join_request = sync_method(_SdkCalls._decline_guild_join_request)
    kick_guild_member = sync_method(_SdkCalls._kick_guild_member)
    promote_guild_member = sync_method(_SdkCalls._promote_guild_member)
    demote_guild_member = sync_method(_SdkCalls._demote_guild_member)
    transfer_guild_leadership = sync_method(_SdkCalls._transfer_guild_leadership)
    ask_guild_help = sync_method(_SdkCalls._ask_guild_help)
    guild_help_requests = sync_method(_SdkCalls._guild_help_requests)
    donate_guild_help = sync_method(_SdkCalls._donate_guild_help)
    leaderboard = sync_method(_SdkCalls._leaderboard)

    def stream_event_leaderboard(self, leaderboard_id: str) -> Iterator[StreamEvent]:
        """The board's live stream (the client key alone): ``StreamReady`` first (the
        board's ``version`` and its top 50 ``entries``), then a ``StreamScoreUpdate`` per change of
        the board (the changed ``entry`` with its rank now, and the new ``version``), and
        ``StreamClosed`` when the board is finalized, which ends the iteration. Post progress only
        after ``ready``. Heartbeats are skipped; a connection lost before ``closed`` raises
        :class:`~livecore_client.errors.APIConnectionError` (open the stream again: the new ``ready``
        carries the board as it is then). Leaving the loop early closes the connection once the
        iterator is closed or collected (``contextlib.closing``)."""
        call = self._prepare(self._stream_call(leaderboard_id))
        return iter_stream_sync(self._http, self.base_url, call, self._retry)


class AsyncSdkClient(AsyncClient, _SdkCalls):
    """Asyncio client for ``/sdk/v1``; the same methods as :class:`SdkClient`, awaited."""

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        player_secret: str | None = None,
        platform: str | None = None,
        app_version: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.AsyncClient | None = None,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        # Checked before the HTTP client is made: a refused value leaves nothing to close.
        headers = build_headers(platform, app_version)
        super().__init__(
            api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            http_client=http_client,
            retry_policy=retry_policy,
        )
        self.player_secret = player_secret
        self._headers = headers

    register = async_method(_SdkCalls._register)
    set_identity = async_method(_SdkCalls._set_identity)
    wallet = async_method(_SdkCalls._wallet)
    debit = async_method(_SdkCalls._debit)
    inventory = async_method(_SdkCalls._inventory)
    consume = async_method(_SdkCalls._consume)
    pending_grants = async_method(_SdkCalls._pending_grants)
    claim_grant = async_method(_SdkCalls._claim_grant)
    open_crate = async_method(_SdkCalls._open_crate)
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
    send_gift = async_method(_SdkCalls._send_gift)
    claim_gift = async_method(_SdkCalls._claim_gift)
    gift_catalog = async_method(_SdkCalls._gift_catalog)
    gift_inbox = async_method(_SdkCalls._gift_inbox)
    sent_gifts = async_method(_SdkCalls._sent_gifts)
    track_purchase = async_method(_SdkCalls._track_purchase)
    events = async_method(_SdkCalls._events)
    start_attempt = async_method(_SdkCalls._start_attempt)
    report_progress = async_method(_SdkCalls._report_progress)
    event_leaderboard = async_method(_SdkCalls._event_leaderboard)
    lobby = async_method(_SdkCalls._lobby)
    my_team = async_method(_SdkCalls._my_team)
    invite_partner = async_method(_SdkCalls._invite_partner)
    accept_partner_invite = async_method(_SdkCalls._accept_partner_invite)
    create_guild = async_method(_SdkCalls._create_guild)
    search_guilds = async_method(_SdkCalls._search_guilds)
    guild = async_method(_SdkCalls._guild)
    my_guild = async_method(_SdkCalls._my_guild)
    join_guild = async_method(_SdkCalls._join_guild)
    cancel_guild_join_request = async_method(_SdkCalls._cancel_guild_join_request)
    leave_guild = async_method(_SdkCalls._leave_guild)
    edit_guild = async_method(_SdkCalls._edit_guild)
    guild_join_requests = async_method(_SdkCalls._guild_join_requests)
    accept_guild_join_request = async_method(_SdkCalls._accept_guild_join_request)
    decline_guild_join_request = async_method(_SdkCalls._decline_guild_join_request)
    kick_guild_member = async_method(_SdkCalls._kick_guild_member)
    promote_guild_member = async_method(_SdkCalls._promote_guild_member)
    demote_guild_member = async_method(_SdkCalls._demote_guild_member)
    transfer_guild_leadership = async_method(_SdkCalls._transfer_guild_leadership)
    ask_guild_help = async_method(_SdkCalls._ask_guild_help)
    guild_help_requests = async_method(_SdkCalls._guild_help_requests)
    donate_guild_help = async_method(_SdkCalls._donate_guild_help)
    leaderboard = async_method(_SdkCalls._leaderboard)

    def stream_event_leaderboard(self, leaderboard_id: str) -> AsyncIterator[StreamEvent]:
        """The board's live stream (the client key alone): ``StreamReady`` first (the
        board's ``version`` and its top 50 ``entries``), then a ``StreamScoreUpdate`` per change of
        the board (the changed ``entry`` with its rank now, and the new ``version``), and
        ``StreamClosed`` when the board is finalized, which ends the iteration. Post progress only
        after ``ready``. Heartbeats are skipped; a connection lost before ``closed`` raises
        :class:`~livecore_client.errors.APIConnectionError` (open the stream again: the new ``ready``
        carries the board as it is then). Leaving the loop early closes the connection once the
        iterator is closed or collected (``contextlib.aclosing``); ``async for``."""
        call = self._prepare(self._stream_call(leaderboard_id))
        return iter_stream_async(self._http, self.base_url, call, self._retry)
