"""The gift rules of ``livecore.gifts.rules``, without a store: refusal order, cooldown, day, claim."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import attrs
import pytest

from livecore.errors import IDEMPOTENCY_CONFLICT, INVALID_REQUEST, Code, LivecoreError
from livecore.friends.errors import NOT_FRIENDS
from livecore.games import Economy, Game, GameSettings, Resource, ResourceType
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
from livecore.gifts.rules import (
    MESSAGE,
    Gift,
    GiftStatus,
    SenderStats,
    SendRequest,
    check_claim,
    check_history_visible,
    check_replay,
    check_send,
    claimed,
    cooldown_until,
    day_start,
    expiry,
    is_claimable,
    max_amount,
    sendable,
)
from livecore.gifts.settings import GIFT_RESOURCE, GIFTING_SETTINGS, GiftingSettings, GiftResource
from livecore.gifts.webhooks import GiftClaimed, GiftSent

NOW = datetime(2026, 3, 2, 23, 30, tzinfo=UTC)
COINS = Resource(
    "coins",
    ResourceType.CURRENCY,
    parts={GIFT_RESOURCE: GiftResource(giftable=True, max_per_gift=10, costs_sender=True)},
)
GEMS = Resource(
    "gems", ResourceType.CURRENCY, parts={GIFT_RESOURCE: GiftResource(giftable=True, max_per_gift=5)}
)
SWORD = Resource("sword", ResourceType.ITEM, parts={GIFT_RESOURCE: GiftResource(giftable=True)})
SECRET = Resource("secret", ResourceType.CURRENCY)
GIFTING = GiftingSettings(enabled=True, cooldown_seconds=3_600, daily_send_limit=2, claim_expiry_seconds=600)
PLATFORM = Game(
    id="gam_1",
    studio_id="std_1",
    key="g",
    name="G",
    settings=GameSettings(
        economy=Economy.PLATFORM,
        sections={GIFTING_SETTINGS: GIFTING},
        resources={r.key: r for r in (COINS, GEMS, SWORD, SECRET)},
    ),
)
STUDIO = attrs.evolve(PLATFORM, settings=attrs.evolve(PLATFORM.settings, economy=Economy.STUDIO))
FREE = SenderStats(last_to_recipient=None, sent_today=0)


def code(fn, *args, **kw) -> Code | None:  # type: ignore[no-untyped-def]
    try:
        fn(*args, **kw)
    except LivecoreError as exc:
        return exc.code
    return None


def send(game: Game = PLATFORM, key: str = "coins", amount: int = 1, **facts) -> Code | None:  # type: ignore[no-untyped-def]
    facts = {"are_friends": True, "stats": FREE, "balance": 100, "now": NOW, **facts}
    return code(check_send, game, SendRequest(ResourceType.CURRENCY, key, amount), **facts)


def test_a_send_that_passes_every_check_returns_the_resource() -> None:
    assert (
        check_send(
            PLATFORM,
            SendRequest(ResourceType.CURRENCY, "gems", 5),
            are_friends=True,
            stats=FREE,
            balance=0,
            now=NOW,
        )
        is GEMS
    )


def test_refusals_come_in_the_documented_order() -> None:
    off = attrs.evolve(
        PLATFORM,
        settings=attrs.evolve(
            PLATFORM.settings.with_sections({GIFTING_SETTINGS: GiftingSettings()}),
        ),
    )
    everything_wrong = {
        "are_friends": False,
        "stats": SenderStats(NOW - timedelta(minutes=1), 2),
        "balance": 0,
    }
    assert send(off, "secret", 0, **everything_wrong) is GIFTING_DISABLED
    assert send(PLATFORM, "secret", 0, **everything_wrong) is NOT_FRIENDS
    assert send(PLATFORM, "secret", 0, **{**everything_wrong, "are_friends": True}) is GIFT_NOT_ALLOWED
    facts = {**everything_wrong, "are_friends": True}
    assert send(PLATFORM, "coins", 0, **facts) is GIFT_AMOUNT_INVALID
    assert send(PLATFORM, "coins", 1, **facts) is GIFT_COOLDOWN
    facts["stats"] = SenderStats(None, 2)
    assert send(PLATFORM, "coins", 1, **facts) is GIFT_LIMIT_REACHED
    facts["stats"] = FREE
    assert send(PLATFORM, "coins", 1, **facts) is GIFT_INSUFFICIENT_BALANCE


@pytest.mark.parametrize("key", ["secret", "nope", "sessions", "login_streak", "sword"])
def test_gift_not_allowed_for_unlisted_unknown_system_or_wrong_type_resources(key: str) -> None:
    # sword is an item: asking for it as a currency names no giftable currency.
    assert send(key=key) is GIFT_NOT_ALLOWED


def test_costs_sender_is_not_allowed_in_a_studio_managed_game() -> None:
    assert send(STUDIO, "coins") is GIFT_NOT_ALLOWED
    assert send(STUDIO, "gems") is None
    assert not sendable(STUDIO, COINS) and sendable(PLATFORM, COINS)


@pytest.mark.parametrize(("amount", "ok"), [(-1, False), (0, False), (1, True), (10, True), (11, False)])
def test_amount_must_be_from_one_to_max_per_gift(amount: int, ok: bool) -> None:
    assert (send(amount=amount) is None) is ok


def test_no_max_per_gift_caps_at_the_general_maximum() -> None:
    assert max_amount(SWORD) == 1_000_000_000_000
    assert max_amount(COINS) == 10


def test_cooldown_holds_until_exactly_last_plus_cooldown() -> None:
    last = NOW - timedelta(seconds=3_000)
    assert cooldown_until(last, GIFTING, NOW) == last + timedelta(seconds=3_600)
    assert cooldown_until(last, GIFTING, last + timedelta(seconds=3_600)) is None
    assert cooldown_until(None, GIFTING, NOW) is None
    with pytest.raises(LivecoreError) as exc:
        check_send(
            PLATFORM,
            SendRequest(ResourceType.CURRENCY, "gems", 1),
            are_friends=True,
            stats=SenderStats(last, 0),
            balance=0,
            now=NOW,
        )
    assert exc.value.details == {"cooldownUntil": "2026-03-02T23:40:00.000Z"}
    assert "2026-03-02T23:40:00.000Z" in exc.value.message


def test_a_zero_cooldown_never_holds() -> None:
    assert cooldown_until(NOW, attrs.evolve(GIFTING, cooldown_seconds=0), NOW) is None


def test_the_daily_limit_counts_from_utc_midnight() -> None:
    assert day_start(NOW) == datetime(2026, 3, 2, tzinfo=UTC)
    assert day_start(datetime(2026, 3, 3, 1, 0, tzinfo=timezone_plus(3))) == datetime(2026, 3, 2, tzinfo=UTC)
    assert send(stats=SenderStats(None, 1)) is None
    unlimited = attrs.evolve(
        PLATFORM,
        settings=attrs.evolve(
            PLATFORM.settings.with_sections({GIFTING_SETTINGS: attrs.evolve(GIFTING, daily_send_limit=None)}),
        ),
    )
    assert send(unlimited, stats=SenderStats(None, 10_000)) is None


def timezone_plus(hours: int):  # type: ignore[no-untyped-def]
    from datetime import timezone

    return timezone(timedelta(hours=hours))


def test_balance_is_checked_only_when_the_gift_costs_the_sender() -> None:
    assert send(key="coins", amount=5, balance=4) is GIFT_INSUFFICIENT_BALANCE
    assert send(key="coins", amount=5, balance=5) is None
    assert send(key="gems", amount=5, balance=0) is None


def test_message_is_at_most_200_characters() -> None:
    assert MESSAGE.check("x" * 200, "message") == "x" * 200
    assert code(MESSAGE.check, "x" * 201, "message") is INVALID_REQUEST
    assert MESSAGE.check_optional(None, "message") is None


def gift(**kw) -> Gift:  # type: ignore[no-untyped-def]
    base = {
        "id": "g1",
        "grant_id": "t1",
        "game_id": "gam_1",
        "sender_id": "plr_a",
        "sender_external_id": "a",
        "recipient_id": "plr_b",
        "recipient_external_id": "b",
        "type": ResourceType.CURRENCY,
        "resource_key": "gems",
        "amount": 3,
        "message": "hi",
        "status": GiftStatus.PENDING,
        "sent_at": NOW,
        "expires_at": expiry(GIFTING, NOW),
    }
    return Gift(**{**base, **kw})


def test_claim_before_expiry_then_twice_then_after_expiry() -> None:
    g = gift()
    assert g.expires_at == NOW + timedelta(seconds=600)
    assert code(check_claim, g, NOW + timedelta(seconds=599)) is None
    assert code(check_claim, g, NOW + timedelta(seconds=600)) is GIFT_EXPIRED
    done = claimed(g, NOW)
    assert done.status is GiftStatus.CLAIMED and done.claimed_at == NOW
    assert code(check_claim, done, NOW) is GIFT_ALREADY_CLAIMED
    assert code(check_claim, gift(expires_at=None), NOW + timedelta(days=999)) is None


def test_only_pending_unexpired_gifts_are_claimable() -> None:
    assert is_claimable(gift(), NOW)
    assert not is_claimable(gift(), NOW + timedelta(seconds=600))
    assert not is_claimable(claimed(gift(), NOW), NOW)


def test_a_repeated_key_must_name_the_same_gift() -> None:
    g = gift(idempotency_key="k")
    same = SendRequest(ResourceType.CURRENCY, "gems", 3, "hi", "k")
    assert check_replay(g, "plr_b", same) is g
    assert code(check_replay, g, "plr_c", same) is IDEMPOTENCY_CONFLICT
    assert code(check_replay, g, "plr_b", attrs.evolve(same, amount=2)) is IDEMPOTENCY_CONFLICT
    assert code(check_replay, g, "plr_b", attrs.evolve(same, message=None)) is IDEMPOTENCY_CONFLICT


def test_webhook_payloads_carry_the_spec_fields() -> None:
    sent = GiftSent.of(gift(deducted_from_sender=True)).to_wire()
    assert set(sent) == {
        "giftId", "grantId", "senderPlayerId", "senderExternalPlayerId", "recipientPlayerId",
        "recipientExternalPlayerId", "type", "resourceKey", "amount", "deductedFromSender", "message",
        "sentAt", "expiresAt",
    }  # fmt: skip
    assert sent["deductedFromSender"] is True and sent["expiresAt"] == "2026-03-02T23:40:00.000Z"
    done = GiftClaimed.of(claimed(gift(), NOW)).to_wire()
    assert set(done) == set(sent) - {"deductedFromSender", "message", "sentAt", "expiresAt"} | {"claimedAt"}


def test_history_answers_once_gifting_was_ever_enabled() -> None:
    never = attrs.evolve(
        PLATFORM,
        settings=attrs.evolve(
            PLATFORM.settings.with_sections({GIFTING_SETTINGS: GiftingSettings()}),
        ),
    )
    assert code(check_history_visible, never) is GIFTING_DISABLED
    assert code(check_history_visible, attrs.evolve(never, ever_enabled=frozenset({"gifting"}))) is None
    assert code(check_history_visible, PLATFORM) is None
