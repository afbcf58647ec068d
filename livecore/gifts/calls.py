"""The gift routes' calls, as the typed clients send them (``sdk.gifts``, ``server.gifts``) and a
simulation runs them (``ada.gifts``): one builder per route (:mod:`livecore.api.call`)."""

from __future__ import annotations

import attrs

from livecore.api.call import Call, SdkCalls, ServerCalls
from livecore.friends.calls import friend_target
from livecore.games import ResourceType
from livecore.gifts import api

_GIFTS: type[list[api.GiftView]] = api.GIFT_INBOX.response


def _gift_list_query(pending: bool, limit: int | None) -> api.GiftListQuery:
    query = api.GiftListQuery(pending=pending)
    return query if limit is None else attrs.evolve(query, limit=limit)


class GiftsCalls(SdkCalls):
    """The ``/sdk/v1`` gift calls."""

    def _send(
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
    ) -> Call[api.GiftResponse]:
        """Send a friend ``amount`` of resource ``resource_key`` (``type`` ``"item"`` or ``"currency"``,
        XP included), by ``external_player_id`` or by ``friend_code`` (exactly one), with an optional
        ``message`` of up to 200 characters. The gift comes back ``pending`` (201); the friend claims it
        later with :meth:`claim` (or by claiming its ``grant_id`` as a pending grant), and only
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
        target = friend_target(friend_code, external_player_id)
        return Call(
            api.GIFT_SEND,
            api.GiftResponse,
            path={"externalId": external_id},
            body=api.SendGiftRequest(
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

    def _claim(
        self,
        external_id: str,
        gift_id: str,
        *,
        idempotency_key: str | None = None,
        player_secret: str | None = None,
    ) -> Call[api.GiftResponse]:
        """Claim a gift this player received: its contents are credited now and the gift comes back
        ``claimed`` with ``claimed_at`` set (its delivering grant is claimed with it).

        Raises :class:`~livecore_client.errors.GiftNotFoundError` for a gift that is not this
        player's to claim (unknown, or one they sent),
        :class:`~livecore_client.errors.GiftAlreadyClaimedError` for a gift claimed before (here or
        through its grant) and :class:`~livecore_client.errors.GiftExpiredError` (410) past its
        ``expires_at``.
        """
        return Call(
            api.GIFT_CLAIM,
            api.GiftResponse,
            path={"externalId": external_id, "giftId": gift_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )

    def _catalog(
        self, external_id: str, *, player_secret: str | None = None
    ) -> Call[api.GiftCatalogResponse]:
        """What this player can gift: whether gifting is ``enabled``, the per-friend ``cooldown_seconds``,
        the ``daily_send_limit`` (``None``: unlimited) and how many gifts they sent today (UTC,
        ``sent_today``), and the giftable ``resources`` (each with its ``max_amount`` per gift and
        whether it ``costs_sender``). Empty while gifting is off."""
        return Call(
            api.GIFT_CATALOG,
            api.GiftCatalogResponse,
            path={"externalId": external_id},
            player_secret=self._secret(player_secret),
        )

    def _inbox(
        self,
        external_id: str,
        *,
        pending: bool = False,
        limit: int | None = None,
        player_secret: str | None = None,
    ) -> Call[list[api.GiftView]]:
        """The gifts this player received, newest first (``direction="incoming"``, ``player`` is the
        sender). ``pending=True`` keeps only those still claimable (pending and not expired). ``limit``
        defaults to 100 and is clamped to 1..200 by the service."""
        return Call(
            api.GIFT_INBOX,
            _GIFTS,
            path={"externalId": external_id},
            query=_gift_list_query(pending, limit),
            player_secret=self._secret(player_secret),
        )

    def _sent(
        self,
        external_id: str,
        *,
        pending: bool = False,
        limit: int | None = None,
        player_secret: str | None = None,
    ) -> Call[list[api.GiftView]]:
        """The gifts this player sent, newest first (``direction="outgoing"``, ``player`` is the
        recipient). ``pending=True`` keeps only those not yet claimed nor expired. ``limit`` defaults
        to 100 and is clamped to 1..200 by the service."""
        return Call(
            api.GIFT_SENT,
            _GIFTS,
            path={"externalId": external_id},
            query=_gift_list_query(pending, limit),
            player_secret=self._secret(player_secret),
        )


class ServerGiftsCalls(ServerCalls):
    """The ``/server/v1`` gift call (read-only)."""

    def _list(
        self,
        external_id: str,
        *,
        direction: api.GiftHistoryDirection | str = api.GiftHistoryDirection.RECEIVED,
        limit: int | None = None,
    ) -> Call[api.ServerGiftsResponse]:
        """A player's gift history, newest first: the gifts they received (``direction="received"``,
        the default) or sent (``"sent"``), each with its counterparty's identity and the delivering
        grant's status (``grant_status``). ``limit`` defaults to 50 and must be from 1 to 200 (else
        :class:`~livecore_client.errors.InvalidRequestError`).

        Raises :class:`~livecore_client.errors.GiftingDisabledError` when the game has never enabled
        gifting and :class:`~livecore_client.errors.PlayerNotFoundError` for an unknown player;
        ``ValueError`` (before any request) for a ``direction`` other than the two.
        """
        query = api.ServerGiftsQuery(direction=api.GiftHistoryDirection(direction))
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(api.SERVER_GIFTS, api.ServerGiftsResponse, path={"externalId": external_id}, query=query)
