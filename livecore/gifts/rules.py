"""Gifting between friends (docs/reference/gifts.md).

A gift is a pending grant to a friend, with the record of who sent what. States: a sent gift is
``pending``; claiming it (or claiming its delivering grant through the pending-grants flow, or a server
ack or operator force-claim of that grant) makes it ``claimed`` and credits the contents to the
recipient then. A gift past ``expiresAt`` stays ``pending`` on the wire (the contract has only two statuses);
claiming it is 410 ``gift_expired`` and its grant is swept to ``expired``.

Send refusals, checked in this order (the first that applies answers):

1. the game has not enabled gifting: 403 ``gifting_disabled``;
2. the target is not an accepted friend (yourself, a stranger, a pending request, a block): 403
   ``not_friends``;
3. the resource is not giftable (unknown key, wrong type, not on the allowlist, a system item), or it
   costs the sender in a studio-managed game: 403 ``gift_not_allowed``;
4. the amount is below 1 or above the resource's ``max_per_gift``: 400 ``gift_amount_invalid``;
5. the sender gifted this friend less than ``cooldown_seconds`` ago: 409 ``gift_cooldown``, the message
   and ``details.cooldownUntil`` carry the exact time;
6. the sender already sent ``daily_send_limit`` gifts this UTC day: 409 ``gift_limit_reached``;
7. the gift costs the sender and the sender holds less than the amount: 409 ``gift_insufficient_balance``.

A send carrying an ``idempotencyKey`` the sender used before answers the original gift before any of these
checks (docs/reference/gifts.md#sending: never a cooldown error); the same key with a different gift is 409
``idempotency_conflict``.
"""

from __future__ import annotations

import enum
from datetime import UTC, datetime, timedelta

import attrs

from livecore.clock import format_ts
from livecore.economy.rules import SYSTEM_ITEMS, is_platform_managed
from livecore.errors import IDEMPOTENCY_CONFLICT, LivecoreError
from livecore.friends.errors import NOT_FRIENDS
from livecore.games import Game, Resource, ResourceType
from livecore.gifts.errors import (
    GIFT_ALREADY_CLAIMED,
    GIFT_AMOUNT_INVALID,
    GIFT_COOLDOWN,
    GIFT_EXPIRED,
    GIFT_INSUFFICIENT_BALANCE,
    GIFT_LIMIT_REACHED,
    GIFT_NOT_ALLOWED,
    GIFTING_DISABLED,
)
from livecore.gifts.settings import GIFT_RESOURCE, GIFTING_SETTINGS, GiftingSettings, GiftResource
from livecore.grants.rules import GrantStatus
from livecore.limits import MAX_AMOUNT, Text
from livecore.players.rules import PlayerCard

MESSAGE = Text(max_length=200)  # docs/reference/gifts.md
GIFT_SOURCE_KIND = "gift"  # the delivering grant's ``sourceKind``; its ``sourceRefId`` is the gift id


class GiftStatus(enum.StrEnum):
    PENDING = "pending"
    CLAIMED = "claimed"


@attrs.frozen
class Gift:
    id: str
    grant_id: str
    game_id: str
    sender_id: str
    sender_external_id: str
    recipient_id: str
    recipient_external_id: str
    type: ResourceType
    resource_key: str
    amount: int
    message: str | None
    status: GiftStatus
    sent_at: datetime
    expires_at: datetime | None
    claimed_at: datetime | None = None
    deducted_from_sender: bool = False
    idempotency_key: str | None = None


@attrs.frozen
class SendRequest:
    """What the sender asked for (the target is resolved to a player before the checks)."""

    type: ResourceType
    resource_key: str
    amount: int
    message: str | None = None
    idempotency_key: str | None = None


@attrs.frozen
class SentGifts:
    """A sender's gifts of one resource over a period, as a population is fitted from them: how many, and
    their amounts summed."""

    gifts: int
    amount: int


@attrs.frozen
class SenderStats:
    """The sender's recent gifts, as the cooldown and the daily limit need them."""

    last_to_recipient: datetime | None  # the latest gift to this friend inside the cooldown window
    sent_today: int  # gifts sent since the start of the current UTC day


def day_start(now: datetime) -> datetime:
    """The start of ``now``'s UTC day: the daily send limit counts from here."""
    return now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def cooldown_window_start(settings: GiftingSettings, now: datetime) -> datetime:
    """Gifts sent after this instant still hold their friend on cooldown."""
    return now - timedelta(seconds=settings.cooldown_seconds)


def stats_window(settings: GiftingSettings, now: datetime) -> tuple[datetime, datetime | None]:
    """What a send reads of the sender's gifts (:class:`SenderStats`): the start of the cooldown window,
    and of the day counted against the daily limit (None when there is no limit: nothing to count)."""
    counted = day_start(now) if settings.daily_send_limit is not None else None
    return cooldown_window_start(settings, now), counted


def cooldown_until(last_sent: datetime | None, settings: GiftingSettings, now: datetime) -> datetime | None:
    """When the sender may gift this friend again, or None when they may now."""
    if last_sent is None:
        return None
    until = last_sent + timedelta(seconds=settings.cooldown_seconds)
    return until if until > now else None


def expiry(settings: GiftingSettings, sent_at: datetime) -> datetime | None:
    seconds = settings.claim_expiry_seconds
    return None if seconds is None else sent_at + timedelta(seconds=seconds)


def sendable(game: Game, res: Resource) -> bool:
    """On the allowlist, and not costing the sender where the platform holds no balances."""
    fields = res.of(GIFT_RESOURCE)
    if not fields.giftable or res.key in SYSTEM_ITEMS:
        return False
    return not (fields.costs_sender and not is_platform_managed(game))


def max_amount(res: Resource) -> int:
    cap = res.of(GIFT_RESOURCE).max_per_gift
    return cap if cap is not None else MAX_AMOUNT


def check_enabled(game: Game) -> None:
    if not game.settings.of(GIFTING_SETTINGS).enabled:
        raise LivecoreError(GIFTING_DISABLED, "Gifting is not enabled in this game.")


def gift_resource(game: Game, kind: ResourceType, key: str) -> Resource:
    res = game.settings.resources.get(key)
    if res is None or res.type is not kind or not sendable(game, res):
        fields = res.of(GIFT_RESOURCE) if res is not None and res.type is kind else GiftResource()
        why = (
            "costs the sender, which a studio-managed game cannot charge"
            if fields.giftable and fields.costs_sender
            else "is not giftable"
        )
        raise LivecoreError(
            GIFT_NOT_ALLOWED, f"{kind.value} {key!r} {why}.", {"resourceKey": key, "type": kind}
        )
    return res


def check_send(
    game: Game,
    request: SendRequest,
    *,
    are_friends: bool,
    stats: SenderStats,
    balance: int,
    now: datetime,
) -> Resource:
    """The refusal checks of a send, in the documented order; returns the gifted resource."""
    settings = game.settings.of(GIFTING_SETTINGS)
    check_enabled(game)
    if not are_friends:
        raise LivecoreError(NOT_FRIENDS, "You can gift only your friends.")
    res = gift_resource(game, request.type, request.resource_key)
    cap = max_amount(res)
    if not 1 <= request.amount <= cap:
        raise LivecoreError(
            GIFT_AMOUNT_INVALID,
            f"amount must be from 1 to {cap} for {res.key}.",
            {"amount": request.amount, "maxAmount": cap},
        )
    until = cooldown_until(stats.last_to_recipient, settings, now)
    if until is not None:
        raise LivecoreError(
            GIFT_COOLDOWN,
            f"You can gift this friend again at {format_ts(until)}.",
            {"cooldownUntil": format_ts(until)},
        )
    limit = settings.daily_send_limit
    if limit is not None and stats.sent_today >= limit:
        raise LivecoreError(
            GIFT_LIMIT_REACHED,
            f"You have sent {limit} gifts today (UTC), the game's daily limit.",
            {"dailySendLimit": limit, "resetsAt": format_ts(day_start(now) + timedelta(days=1))},
        )
    if res.of(GIFT_RESOURCE).costs_sender and balance < request.amount:
        raise LivecoreError(
            GIFT_INSUFFICIENT_BALANCE,
            f"Not enough {res.key}: have {balance}, need {request.amount}.",
            {"resource": res.key, "needed": request.amount, "have": balance},
        )
    return res


def same_send(gift: Gift, recipient_id: str, request: SendRequest) -> bool:
    """Whether a repeated idempotency key asks for the gift it first made."""
    return (
        gift.recipient_id == recipient_id
        and gift.type is request.type
        and gift.resource_key == request.resource_key
        and gift.amount == request.amount
        and gift.message == request.message
    )


def check_replay(gift: Gift, recipient_id: str, request: SendRequest) -> Gift:
    if not same_send(gift, recipient_id, request):
        raise LivecoreError(
            IDEMPOTENCY_CONFLICT,
            "This idempotencyKey was used for a different gift.",
            {"idempotencyKey": request.idempotency_key},
        )
    return gift


def is_expired(gift: Gift, now: datetime) -> bool:
    return gift.status is GiftStatus.PENDING and gift.expires_at is not None and now >= gift.expires_at


def is_claimable(gift: Gift, now: datetime) -> bool:
    """What the inbox's pending filter shows: pending and not past expiry."""
    return gift.status is GiftStatus.PENDING and not is_expired(gift, now)


def check_claim(gift: Gift, now: datetime) -> None:
    """A recipient's claim, through the gift or its grant: pending and before expiry only."""
    if gift.status is GiftStatus.CLAIMED:
        raise LivecoreError(GIFT_ALREADY_CLAIMED, "This gift was already claimed.")
    if is_expired(gift, now):
        assert gift.expires_at is not None
        raise LivecoreError(
            GIFT_EXPIRED,
            f"This gift expired at {format_ts(gift.expires_at)} before it was claimed.",
            {"expiresAt": format_ts(gift.expires_at)},
        )


def claimed(gift: Gift, now: datetime) -> Gift:
    return attrs.evolve(gift, status=GiftStatus.CLAIMED, claimed_at=now)


def history_visible(game: Game) -> bool:
    """The server gift history answers once the game has ever enabled gifting
    (docs/reference/gifts.md#lists)."""
    return game.settings.of(GIFTING_SETTINGS).enabled or GIFTING_SETTINGS.name in game.ever_enabled


def check_history_visible(game: Game) -> None:
    if not history_visible(game):
        raise LivecoreError(GIFTING_DISABLED, "This game has never enabled gifting.")


@attrs.frozen
class GiftListing:
    """A gift in a list: the record, the other player, and the delivering grant's stored status."""

    gift: Gift
    counterparty: PlayerCard
    grant_status: GrantStatus

    def grant_status_at(self, now: datetime) -> GrantStatus:
        """The grant's status as a claim would see it: past expiry it is expired before the sweep."""
        if self.grant_status is GrantStatus.PENDING and is_expired(self.gift, now):
            return GrantStatus.EXPIRED
        return self.grant_status
