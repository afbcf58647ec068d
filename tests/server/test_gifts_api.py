"""Gifting through the API on a real SQLite database:
docs/reference/friends-and-presence.md#gift-cooldown-on-friend-rows, docs/reference/gifts.md#catalog,
docs/reference/grants.md#lifecycle (gift routes, rules 4-5), 4.3 gift history, 6.2 gift.sent / gift.claimed,
7; docs/reference/manifest-and-cli.md, docs/reference/gifts.md#sending, docs/reference/errors.md,
docs/reference/conventions.md#idempotency.

The games are described in ``tests/server/gift_support.py``. The manual clock starts at
2026-03-02T12:00:00.000Z (a Monday, noon UTC)."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from tests.server.gift_support import (
    GIFT_CLAIMED_FIELDS,
    GIFT_FIELDS,
    GIFT_SENT_FIELDS,
    Game,
    disable_lapsed,
)

T0 = "2026-03-02T12:00:00.000Z"
DAY = 86_400


@pytest.fixture
async def sr(g: dict[str, Game]) -> Game:
    """space-race (studio-managed, cooldown 24 h, no limit, no expiry): ann is friends with bob and cat,
    dan is a stranger to everyone."""
    game = g["space-race"]
    await game.register("ann", "bob", "cat", "dan")
    await game.befriend("ann", "bob", "cat")
    return game


@pytest.fixture
async def gala(g: dict[str, Game]) -> Game:
    """gala (platform-managed, cooldown 1 h, expiry 2 h, gold costs the sender): ann, bob, cat and dan are
    all friends with each other."""
    game = g["gala"]
    await game.register("ann", "bob", "cat", "dan")
    await game.befriend("ann", "bob", "cat", "dan")
    await game.befriend("bob", "cat", "dan")
    await game.befriend("cat", "dan")
    return game


@pytest.fixture
async def quota(g: dict[str, Game]) -> Game:
    """quota (platform-managed, cooldown 1 h, 3 gifts per UTC day): ann is friends with f1 to f5."""
    game = g["quota"]
    friends = [f"f{i}" for i in range(1, 6)]
    await game.register("ann", *friends)
    await game.befriend("ann", *friends)
    return game


def error(answer: tuple[int, Any, Any]) -> tuple[int, str]:
    status, body, _ = answer
    assert isinstance(body, dict) and "error" in body, body
    return status, body["error"]["code"]


async def identity_of(game: Game, who: str) -> dict[str, Any]:
    status, body, _ = await game.sdk("GET", who, "/friends/code")
    assert status == 200
    identity: dict[str, Any] = body["data"]["displayIdentity"]
    return identity


async def refused_without_trace(
    game: Game, send: Callable[[], Awaitable[tuple[int, Any, Any]]], status: int, code: str
) -> dict[str, Any]:
    """Run a send that must be refused with ``status``/``code`` and leave nothing behind: no gift, no
    grant, no event, no ledger entry (so no debit). Returns the error object."""
    before = game.footprint()
    answer = await send()
    assert error(answer) == (status, code), answer[1]
    assert game.footprint() == before
    err: dict[str, Any] = answer[1]["error"]
    return err


# --- Send: success -------------------------------------------------------------------------------


async def test_send_answers_201_with_the_gift_exactly_as_spec_2_11(sr: Game) -> None:
    status, body, _ = await sr.send("ann", "bob", amount=5, message="gg")
    assert status == 201
    assert set(body["data"]) == {"gift"}
    gift = body["data"]["gift"]
    assert set(gift) == GIFT_FIELDS
    assert uuid.UUID(gift["giftId"]) and uuid.UUID(gift["grantId"]) and gift["giftId"] != gift["grantId"]
    assert gift["player"] == {"externalPlayerId": "bob", "displayIdentity": await identity_of(sr, "bob")}
    assert {k: v for k, v in gift.items() if k not in ("giftId", "grantId", "player")} == {
        "direction": "outgoing",
        "type": "currency",
        "resourceKey": "coins",
        "amount": 5,
        "message": "gg",
        "status": "pending",
        "sentAt": T0,
        "claimedAt": None,
        "expiresAt": None,  # space-race sets no claim expiry: gifts never expire
    }


async def test_send_sets_expires_at_from_claim_expiry_seconds(gala: Game) -> None:
    gift = await gala.sent_gift("ann", "bob", resource="rose", type="item", amount=2)
    assert (gift["type"], gift["resourceKey"], gift["amount"]) == ("item", "rose", 2)
    assert gift["message"] is None
    assert gift["sentAt"] == T0 and gift["expiresAt"] == "2026-03-02T14:00:00.000Z"  # 7200 s later


async def test_send_targets_a_friend_by_friend_code_case_insensitively(sr: Game) -> None:
    code = await sr.code("bob")
    status, body, _ = await sr.send("ann", friendCode=code.lower())
    assert status == 201
    assert body["data"]["gift"]["player"]["externalPlayerId"] == "bob"
    status, body, _ = await sr.send("ann", friendCode=(await sr.code("cat")).upper())
    assert status == 201
    assert body["data"]["gift"]["player"]["externalPlayerId"] == "cat"


@pytest.mark.parametrize("target", ["both", "neither"])
async def test_send_with_both_or_neither_target_is_400_invalid_request(sr: Game, target: str) -> None:
    extra = {"externalPlayerId": "bob", "friendCode": await sr.code("bob")} if target == "both" else {}
    await refused_without_trace(sr, lambda: sr.send("ann", **extra), 400, "invalid_request")


async def test_send_to_an_unknown_friend_code_or_player_is_404(sr: Game) -> None:
    await refused_without_trace(sr, lambda: sr.send("ann", friendCode="ZZZZZZ"), 404, "friend_code_invalid")
    await refused_without_trace(sr, lambda: sr.send("ann", "nobody"), 404, "player_not_found")


async def test_send_creates_the_delivering_pending_grant(gala: Game) -> None:
    gift = await gala.sent_gift("ann", "bob", resource="rose", type="item", amount=3)
    (grant,) = await gala.pending_grants("bob")
    assert grant["grantId"] == gift["grantId"]
    assert grant["sourceKind"] == "gift" and grant["sourceRefId"] == gift["giftId"]
    assert grant["status"] == "pending" and grant["kind"] == "reward"
    assert grant["entries"] == [{"type": "item", "key": "rose", "amount": 3}]
    assert grant["externalPlayerId"] == "bob"
    assert grant["createdAt"] == gift["sentAt"] and grant["expiresAt"] == gift["expiresAt"]
    assert await gala.pending_grants("ann") == []


async def test_send_fires_gift_sent_and_grant_created_together(sr: Game) -> None:
    before = len(sr.events())
    gift = await sr.sent_gift("ann", "bob", amount=9, message="for you")
    new = sr.events()[before:]
    assert [e.kind for e in new] == ["gift.sent", "grant.created"]  # studio-managed: no balance webhook
    sent, created = new
    assert set(sent.data) == GIFT_SENT_FIELDS
    assert sent.data == {
        "giftId": gift["giftId"],
        "grantId": gift["grantId"],
        "senderPlayerId": sr.player_id("ann"),
        "senderExternalPlayerId": "ann",
        "recipientPlayerId": sr.player_id("bob"),
        "recipientExternalPlayerId": "bob",
        "type": "currency",
        "resourceKey": "coins",
        "amount": 9,
        "deductedFromSender": False,
        "message": "for you",
        "sentAt": T0,
        "expiresAt": None,
    }
    assert created.data["grantId"] == gift["grantId"] and created.data["status"] == "pending"
    assert created.data["sourceKind"] == "gift" and created.data["sourceRefId"] == gift["giftId"]
    assert created.data["externalPlayerId"] == "bob"
    assert sent.occurred_at == created.occurred_at
    assert sent.env.value == created.env.value == "test"


async def test_gift_sent_carries_expires_at(gala: Game) -> None:
    await gala.sent_gift("ann", "bob", resource="xp", amount=1000)
    (sent,) = gala.events("gift.sent")
    assert sent.data["expiresAt"] == "2026-03-02T14:00:00.000Z" and sent.data["message"] is None
    assert sent.data["deductedFromSender"] is False


# --- Send: refusals, one rule at a time ----------------------------------------------------------


async def test_gifting_disabled_is_403(g: dict[str, Game]) -> None:
    other = g["other-game"]
    await other.register("ann", "bob")
    await other.befriend("ann", "bob")
    await refused_without_trace(other, lambda: other.send("ann", "bob"), 403, "gifting_disabled")


@pytest.mark.parametrize(
    "relation",
    [
        "stranger",
        "request_pending_outgoing",
        "request_pending_incoming",
        "blocked_by_sender",
        "blocked_by_recipient",
        "unblocked_after_block",
        "removed",
        "self",
        "self_by_friend_code",
    ],
)
async def test_not_friends_is_403(sr: Game, relation: str) -> None:
    target: dict[str, Any] = {"to": "dan"}
    if relation == "request_pending_outgoing":
        await sr.sdk("POST", "ann", "/friends/requests", {"externalPlayerId": "dan"})
    elif relation == "request_pending_incoming":
        await sr.sdk("POST", "dan", "/friends/requests", {"externalPlayerId": "ann"})
    elif relation in ("blocked_by_sender", "unblocked_after_block"):
        target = {"to": "bob"}
        status, _, _ = await sr.sdk("POST", "ann", "/friends/blocks", {"externalPlayerId": "bob"})
        assert status == 201
        if relation == "unblocked_after_block":
            status, _, _ = await sr.sdk("DELETE", "ann", "/friends/blocks/bob")
            assert status == 200
    elif relation == "blocked_by_recipient":
        target = {"to": "bob"}
        status, _, _ = await sr.sdk("POST", "bob", "/friends/blocks", {"externalPlayerId": "ann"})
        assert status == 201
    elif relation == "removed":
        target = {"to": "bob"}
        status, _, _ = await sr.sdk("DELETE", "ann", "/friends/bob")
        assert status == 200
    elif relation == "self":
        target = {"to": "ann"}
    elif relation == "self_by_friend_code":
        target = {"friendCode": await sr.code("ann")}
    await refused_without_trace(sr, lambda: sr.send("ann", **target), 403, "not_friends")


@pytest.mark.parametrize(
    ("game", "type", "key"),
    [
        ("space-race", "currency", "diamonds"),  # unknown key
        ("space-race", "item", "coins"),  # wrong type
        ("space-race", "currency", "badge"),  # wrong type
        ("space-race", "currency", "gems"),  # declared but not giftable
        ("space-race", "currency", "ink"),  # costs the sender in a studio-managed game
        ("space-race", "item", "sessions"),  # system items
        ("space-race", "item", "login_streak"),
        ("space-race", "currency", "sessions"),
        ("gala", "currency", "gems"),
        ("gala", "item", "gold"),
    ],
)
async def test_gift_not_allowed_is_403(g: dict[str, Game], game: str, type: str, key: str) -> None:
    gm = g[game]
    await gm.register("ann", "bob")
    await gm.befriend("ann", "bob")
    err = await refused_without_trace(
        gm, lambda: gm.send("ann", "bob", type=type, resource=key), 403, "gift_not_allowed"
    )
    assert err["details"]["resourceKey"] == key


@pytest.mark.parametrize(
    ("resource", "type", "amount", "cap"),
    [
        ("coins", "currency", 0, 100),
        ("coins", "currency", -1, 100),
        ("coins", "currency", -100, 100),
        ("coins", "currency", 101, 100),
        ("badge", "item", 4, 3),
        ("badge", "item", 0, 3),
    ],
)
async def test_gift_amount_invalid_is_400(sr: Game, resource: str, type: str, amount: int, cap: int) -> None:
    err = await refused_without_trace(
        sr,
        lambda: sr.send("ann", "bob", resource=resource, type=type, amount=amount),
        400,
        "gift_amount_invalid",
    )
    assert err["details"]["maxAmount"] == cap


async def test_amount_at_the_cap_is_accepted(sr: Game) -> None:
    assert (await sr.sent_gift("ann", "bob", amount=100))["amount"] == 100
    assert (await sr.sent_gift("ann", "cat", resource="badge", type="item", amount=3))["amount"] == 3


async def test_gift_cooldown_is_409_with_the_exact_time_until_it_passes(sr: Game) -> None:
    await sr.sent_gift("ann", "bob")
    until = "2026-03-03T12:00:00.000Z"
    sr.world.clock.advance(3600)
    err = await refused_without_trace(sr, lambda: sr.send("ann", "bob"), 409, "gift_cooldown")
    assert until in err["message"]
    assert err["details"]["cooldownUntil"] == until
    # The cooldown is per sender and friend: ann may gift cat, bob may gift ann.
    await sr.sent_gift("ann", "cat")
    await sr.sent_gift("bob", "ann")
    sr.world.clock.advance(DAY - 3600 - 1)  # one second before the cooldown ends
    err = await refused_without_trace(sr, lambda: sr.send("ann", "bob"), 409, "gift_cooldown")
    assert err["details"]["cooldownUntil"] == until
    sr.world.clock.advance(1)
    gift = await sr.sent_gift("ann", "bob")
    assert gift["sentAt"] == until


async def test_gift_limit_reached_is_409_per_utc_day_and_rolls_over_at_midnight(quota: Game) -> None:
    for friend in ("f1", "f2", "f3"):
        await quota.sent_gift("ann", friend, resource="heart")
    err = await refused_without_trace(
        quota, lambda: quota.send("ann", "f4", resource="heart"), 409, "gift_limit_reached"
    )
    assert err["details"]["dailySendLimit"] == 3
    assert err["details"]["resetsAt"] == "2026-03-03T00:00:00.000Z"
    assert (await quota.catalog("ann"))["sentToday"] == 3
    quota.world.clock.advance(12 * 3600 - 1)  # 23:59:59 UTC: f1's cooldown is long over, the day is not
    await refused_without_trace(
        quota, lambda: quota.send("ann", "f1", resource="heart"), 409, "gift_limit_reached"
    )
    quota.world.clock.advance(1)  # midnight UTC: a new day
    assert (await quota.catalog("ann"))["sentToday"] == 0
    for friend in ("f4", "f5", "f1"):
        await quota.sent_gift("ann", friend, resource="heart")
    await refused_without_trace(
        quota, lambda: quota.send("ann", "f2", resource="heart"), 409, "gift_limit_reached"
    )


async def test_gift_insufficient_balance_is_409(gala: Game) -> None:
    err = await refused_without_trace(
        gala, lambda: gala.send("ann", "bob", resource="gold", amount=5), 409, "gift_insufficient_balance"
    )
    assert err["details"] == {"resource": "gold", "needed": 5, "have": 0}
    await gala.credit("ann", "gold", 4)
    err = await refused_without_trace(
        gala, lambda: gala.send("ann", "bob", resource="gold", amount=5), 409, "gift_insufficient_balance"
    )
    assert err["details"] == {"resource": "gold", "needed": 5, "have": 4}
    assert await gala.balance("ann", "gold") == 4
    await gala.sent_gift("ann", "bob", resource="gold", amount=4)
    assert await gala.balance("ann", "gold") == 0


async def test_banned_sender_is_403_player_banned(sr: Game) -> None:
    await sr.ban("ann")
    await refused_without_trace(sr, lambda: sr.send("ann", "bob"), 403, "player_banned")
    await refused_without_trace(sr, lambda: sr.send("ann", "bob", idempotencyKey="k"), 403, "player_banned")


async def test_message_over_200_characters_is_400(sr: Game) -> None:
    err = await refused_without_trace(
        sr, lambda: sr.send("ann", "bob", message="x" * 201), 400, "invalid_request"
    )
    assert "message" in str(err.get("details"))
    gift = await sr.sent_gift("ann", "bob", message="é" * 200)
    assert gift["message"] == "é" * 200


@pytest.mark.parametrize(
    "body",
    [
        {"externalPlayerId": "bob", "type": "currency", "resourceKey": "coins"},  # no amount
        {"externalPlayerId": "bob", "type": "currency", "resourceKey": "coins", "amount": "5"},
        {"externalPlayerId": "bob", "type": "currency", "resourceKey": "coins", "amount": 1.5},
        {"externalPlayerId": "bob", "type": "token", "resourceKey": "coins", "amount": 1},
        {"externalPlayerId": "bob", "type": "currency", "amount": 1},  # no resourceKey
        {"externalPlayerId": "bob", "type": "currency", "resourceKey": "coins", "amount": 1, "extra": 1},
    ],
)
async def test_malformed_send_body_is_400_invalid_request(sr: Game, body: dict[str, Any]) -> None:
    await refused_without_trace(
        sr, lambda: sr.sdk("POST", "ann", "/friends/gifts", body), 400, "invalid_request"
    )


# --- Send: the documented order (the earlier rule answers) ---------------------------------------


async def test_order_gifting_disabled_before_not_friends(g: dict[str, Game]) -> None:
    other = g["other-game"]
    await other.register("ann", "dan")
    await refused_without_trace(other, lambda: other.send("ann", "dan", amount=0), 403, "gifting_disabled")


async def test_order_not_friends_before_gift_not_allowed(sr: Game) -> None:
    await refused_without_trace(sr, lambda: sr.send("ann", "dan", resource="gems"), 403, "not_friends")
    await refused_without_trace(
        sr, lambda: sr.send("ann", "dan", resource="ink", amount=0), 403, "not_friends"
    )


async def test_order_gift_not_allowed_before_gift_amount_invalid(sr: Game) -> None:
    for key in ("gems", "ink", "diamonds"):
        await refused_without_trace(
            sr, lambda key=key: sr.send("ann", "bob", resource=key, amount=0), 403, "gift_not_allowed"
        )


async def test_order_gift_amount_invalid_before_gift_cooldown(sr: Game) -> None:
    await sr.sent_gift("ann", "bob")
    await refused_without_trace(sr, lambda: sr.send("ann", "bob", amount=101), 400, "gift_amount_invalid")


async def test_order_gift_cooldown_before_gift_limit_reached(quota: Game) -> None:
    for friend in ("f1", "f2", "f3"):
        await quota.sent_gift("ann", friend, resource="heart")
    await refused_without_trace(
        quota, lambda: quota.send("ann", "f1", resource="heart"), 409, "gift_cooldown"
    )


async def test_order_gift_limit_reached_before_gift_insufficient_balance(quota: Game) -> None:
    for friend in ("f1", "f2", "f3"):
        await quota.sent_gift("ann", friend, resource="heart")
    await refused_without_trace(
        quota, lambda: quota.send("ann", "f4", resource="gold", amount=5), 409, "gift_limit_reached"
    )


async def test_order_gift_cooldown_before_gift_insufficient_balance(gala: Game) -> None:
    await gala.credit("ann", "gold", 1)
    await gala.sent_gift("ann", "bob", resource="gold", amount=1)
    await refused_without_trace(
        gala, lambda: gala.send("ann", "bob", resource="gold", amount=1), 409, "gift_cooldown"
    )


async def test_order_gift_amount_invalid_before_gift_insufficient_balance(gala: Game) -> None:
    await refused_without_trace(
        gala, lambda: gala.send("ann", "bob", resource="gold", amount=51), 400, "gift_amount_invalid"
    )


async def test_order_player_banned_before_every_gift_rule(sr: Game) -> None:
    await sr.ban("ann")
    await refused_without_trace(
        sr, lambda: sr.send("ann", "dan", resource="gems", amount=0), 403, "player_banned"
    )


# --- costs_sender --------------------------------------------------------------------------------


async def test_costs_sender_debits_the_sender_in_a_platform_game(gala: Game) -> None:
    await gala.credit("ann", "gold", 30)
    before = len(gala.events())
    gift = await gala.sent_gift("ann", "bob", resource="gold", amount=12)
    assert await gala.balance("ann", "gold") == 18
    assert await gala.balance("bob", "gold") == 0  # the recipient is credited when claiming
    debit = gala.ledger("ann", "gold")[-1]
    assert (debit.delta, debit.balance_after, debit.reason.value) == (-12, 18, "gift_cost")
    assert debit.source_ref_id == gift["giftId"]
    new = gala.events()[before:]
    assert sorted(e.kind for e in new) == ["gift.sent", "grant.created", "wallet.changed"]
    (changed,) = [e for e in new if e.kind == "wallet.changed"]
    assert changed.data["externalPlayerId"] == "ann" and changed.data["economyKey"] == "gold"
    assert (changed.data["delta"], changed.data["balance"], changed.data["reason"]) == (-12, 18, "gift_cost")
    assert changed.data["sourceRefId"] == gift["giftId"]
    (sent,) = [e for e in new if e.kind == "gift.sent"]
    assert sent.data["deductedFromSender"] is True
    status, _, _ = await gala.claim("bob", gift["giftId"])
    assert status == 200
    assert await gala.balance("bob", "gold") == 12 and await gala.balance("ann", "gold") == 18


async def test_a_gift_that_does_not_cost_the_sender_debits_nothing(gala: Game) -> None:
    before = len(gala.events())
    await gala.sent_gift("ann", "bob", resource="xp", amount=500)
    assert [e.kind for e in gala.events()[before:]] == ["gift.sent", "grant.created"]
    assert gala.ledger("ann", "xp") == []
    (sent,) = gala.events("gift.sent")
    assert sent.data["deductedFromSender"] is False


# --- Idempotency (docs/reference/gifts.md#sending, docs/reference/conventions.md#idempotency) ---------------


async def test_repeated_idempotency_key_returns_the_original_gift_instead_of_cooldown(sr: Game) -> None:
    status, first, h1 = await sr.send("ann", "bob", amount=3, idempotencyKey="gift-1")
    assert status == 201 and "Idempotent-Replay" not in h1
    sr.world.clock.advance(600)
    await refused_without_trace(sr, lambda: sr.send("ann", "bob", amount=3), 409, "gift_cooldown")
    before = sr.footprint()
    status, again, h2 = await sr.send("ann", "bob", amount=3, idempotencyKey="gift-1")
    assert (status, again) == (200, first)
    assert h2["Idempotent-Replay"] == "true"
    assert sr.footprint() == before
    assert len(sr.events("gift.sent")) == 1


async def test_repeated_idempotency_key_in_the_header_returns_the_original_gift(sr: Game) -> None:
    body = {"externalPlayerId": "bob", "type": "currency", "resourceKey": "coins", "amount": 2}
    h = {"Idempotency-Key": "hdr-1"}
    status, first, _ = await sr.sdk("POST", "ann", "/friends/gifts", body, headers=h)
    assert status == 201
    status, again, rh = await sr.sdk("POST", "ann", "/friends/gifts", body, headers=h)
    assert (status, again, rh["Idempotent-Replay"]) == (200, first, "true")


async def test_same_idempotency_key_with_a_different_gift_is_409_idempotency_conflict(sr: Game) -> None:
    await sr.sent_gift("ann", "bob", amount=3, idempotencyKey="gift-1")
    for changed in (
        {"to": "bob", "amount": 4},
        {"to": "cat", "amount": 3},
        {"to": "bob", "amount": 3, "message": "hi"},
        {"to": "bob", "amount": 3, "resource": "badge", "type": "item"},
    ):
        await refused_without_trace(
            sr, lambda c=changed: sr.send("ann", idempotencyKey="gift-1", **c), 409, "idempotency_conflict"
        )


async def test_a_refused_send_does_not_use_up_its_idempotency_key(sr: Game) -> None:
    await sr.sent_gift("ann", "bob")
    await refused_without_trace(
        sr, lambda: sr.send("ann", "bob", idempotencyKey="retry"), 409, "gift_cooldown"
    )
    sr.world.clock.advance(DAY)
    status, body, headers = await sr.send("ann", "bob", idempotencyKey="retry")
    assert status == 201 and "Idempotent-Replay" not in headers
    assert body["data"]["gift"]["sentAt"] == "2026-03-03T12:00:00.000Z"


async def test_idempotency_key_in_header_and_body_must_agree(sr: Game) -> None:
    await refused_without_trace(
        sr,
        lambda: sr.sdk(
            "POST",
            "ann",
            "/friends/gifts",
            {
                "externalPlayerId": "bob",
                "type": "currency",
                "resourceKey": "coins",
                "amount": 1,
                "idempotencyKey": "a",
            },
            headers={"Idempotency-Key": "b"},
        ),
        400,
        "invalid_request",
    )


def idempotency_records(game: Game, key: str) -> int:
    def count(tx: Any) -> int:
        return int(tx.execute("SELECT COUNT(*) FROM idempotency WHERE key = ?", (key,)).fetchone()[0])

    return int(game.world.services.store.run(count, write=False))


async def test_idempotency_key_outlives_the_24h_http_cache(sr: Game) -> None:
    status, first, _ = await sr.send("ann", "bob", amount=3, idempotencyKey="gift-old")
    assert status == 201 and idempotency_records(sr, "gift-old") == 1
    await sr.advance(25 * 3600)  # the hourly purge sweeps the HTTP record; the 24 h cooldown is over too
    assert idempotency_records(sr, "gift-old") == 0
    before = sr.footprint()
    status, again, _ = await sr.send("ann", "bob", amount=3, idempotencyKey="gift-old")
    assert status == 200, again
    assert again["data"]["gift"] == first["data"]["gift"]  # the gift stores its key
    assert sr.footprint() == before
    assert len(sr.events("gift.sent")) == 1
    await refused_without_trace(
        sr, lambda: sr.send("ann", "bob", amount=4, idempotencyKey="gift-old"), 409, "idempotency_conflict"
    )
    assert (await sr.sent_gift("ann", "bob", amount=3, idempotencyKey="gift-new"))["giftId"] != first["data"][
        "gift"
    ]["giftId"]


async def test_gift_level_replay_after_the_http_cache_is_marked_idempotent_replay(sr: Game) -> None:
    status, _, _ = await sr.send("ann", "bob", amount=3, idempotencyKey="gift-old")
    assert status == 201
    await sr.advance(25 * 3600)
    status, _, headers = await sr.send("ann", "bob", amount=3, idempotencyKey="gift-old")
    assert status == 200
    # docs/reference/conventions.md#idempotency: a replay says so
    assert headers.get("Idempotent-Replay") == "true"


# --- Claim ---------------------------------------------------------------------------------------


async def test_claim_answers_200_claimed_and_credits_the_recipient(sr: Game) -> None:
    gift = await sr.sent_gift("ann", "bob", amount=7)
    sr.world.clock.advance(60)
    before = len(sr.events())
    status, body, _ = await sr.claim("bob", gift["giftId"])
    assert status == 200
    claimed = body["data"]["gift"]
    assert set(claimed) == GIFT_FIELDS
    assert claimed["giftId"] == gift["giftId"] and claimed["grantId"] == gift["grantId"]
    assert claimed["direction"] == "incoming"
    assert claimed["player"] == {"externalPlayerId": "ann", "displayIdentity": await identity_of(sr, "ann")}
    assert claimed["status"] == "claimed" and claimed["claimedAt"] == "2026-03-02T12:01:00.000Z"
    assert (claimed["resourceKey"], claimed["amount"], claimed["sentAt"]) == ("coins", 7, T0)
    (entry,) = sr.ledger("bob", "coins")
    assert (entry.delta, entry.reason.value, entry.source_ref_id) == (7, "grant", gift["grantId"])
    assert await sr.balance("bob", "coins") == 7
    new = sr.events()[before:]
    assert [e.kind for e in new] == ["gift.claimed", "grant.claimed"]
    gift_claimed, grant_claimed = new
    assert set(gift_claimed.data) == GIFT_CLAIMED_FIELDS
    assert gift_claimed.data == {
        "giftId": gift["giftId"],
        "grantId": gift["grantId"],
        "senderPlayerId": sr.player_id("ann"),
        "senderExternalPlayerId": "ann",
        "recipientPlayerId": sr.player_id("bob"),
        "recipientExternalPlayerId": "bob",
        "type": "currency",
        "resourceKey": "coins",
        "amount": 7,
        "claimedAt": "2026-03-02T12:01:00.000Z",
    }
    assert grant_claimed.data["grantId"] == gift["grantId"] and grant_claimed.data["status"] == "claimed"
    assert grant_claimed.data["ackedBy"] == "client"
    assert await sr.pending_grants("bob") == []


async def test_claim_in_a_platform_game_fires_the_balance_webhooks(gala: Game) -> None:
    rose = await gala.sent_gift("ann", "bob", resource="rose", type="item", amount=2)
    xp = await gala.sent_gift("cat", "bob", resource="xp", amount=40)
    before = len(gala.events())
    assert (await gala.claim("bob", rose["giftId"]))[0] == 200
    assert (await gala.claim("bob", xp["giftId"]))[0] == 200
    new = gala.events()[before:]
    assert [e.kind for e in new] == [
        "inventory.changed",
        "gift.claimed",
        "grant.claimed",
        "wallet.changed",
        "gift.claimed",
        "grant.claimed",
    ]
    assert new[0].data["quantity"] == 2 and new[3].data["balance"] == 40
    assert gala.holding("bob", "rose") == 2 and await gala.balance("bob", "xp") == 40


async def test_claim_twice_is_409_gift_already_claimed(sr: Game) -> None:
    gift = await sr.sent_gift("ann", "bob", amount=7)
    assert (await sr.claim("bob", gift["giftId"]))[0] == 200
    before = sr.footprint()
    assert error(await sr.claim("bob", gift["giftId"])) == (409, "gift_already_claimed")
    assert sr.footprint() == before
    assert await sr.balance("bob", "coins") == 7


async def test_sender_or_a_third_player_claiming_is_404_gift_not_found(sr: Game) -> None:
    gift = await sr.sent_gift("ann", "bob")
    for who in ("ann", "cat", "dan"):
        assert error(await sr.claim(who, gift["giftId"])) == (404, "gift_not_found"), who
        assert error(await sr.claim_grant(who, gift["grantId"])) == (404, "grant_not_found"), who
    assert error(await sr.claim("bob", str(uuid.uuid4()))) == (404, "gift_not_found")
    assert error(await sr.claim("bob", gift["grantId"])) == (
        404,
        "gift_not_found",
    )  # a grant id is no gift id
    assert [r["status"] for r in await sr.listing("bob", "inbox")] == ["pending"]


async def test_a_gift_of_another_game_is_404(g: dict[str, Game]) -> None:
    sr, gala = g["space-race"], g["gala"]
    for game in (sr, gala):
        await game.register("ann", "bob")
        await game.befriend("ann", "bob")
    gift = await gala.sent_gift("ann", "bob", resource="xp")
    assert error(await sr.claim("bob", gift["giftId"])) == (404, "gift_not_found")


async def test_claim_past_expiry_is_410_gift_expired(gala: Game) -> None:
    early = await gala.sent_gift("ann", "cat", resource="rose", type="item")
    late = await gala.sent_gift("ann", "bob", resource="rose", type="item")
    gala.world.clock.advance(7200 - 1)
    assert (await gala.claim("cat", early["giftId"]))[0] == 200  # one second before expiry
    gala.world.clock.advance(1)  # exactly expiresAt: the sweep has not run yet
    before = gala.footprint()
    status, body, _ = await gala.claim("bob", late["giftId"])
    assert (status, body["error"]["code"]) == (410, "gift_expired")
    assert body["error"]["details"]["expiresAt"] == "2026-03-02T14:00:00.000Z"
    assert error(await gala.claim_grant("bob", late["grantId"])) == (410, "gift_expired")
    assert gala.footprint() == before
    assert gala.holding("bob", "rose") == 0
    assert await gala.pending_grants("bob") == []  # an expired gift's grant is no longer claimable
    await gala.advance(60)  # the minute sweep marks the grant expired
    (expired,) = gala.events("grant.expired")
    assert expired.data["grantId"] == late["grantId"]
    assert error(await gala.claim("bob", late["giftId"])) == (410, "gift_expired")
    assert error(await gala.claim_grant("bob", late["grantId"])) == (410, "gift_expired")
    assert gala.events("gift.claimed")[-1].data["giftId"] == early["giftId"]
    assert len(gala.events("gift.claimed")) == 1


async def test_claiming_the_grant_claims_the_gift(sr: Game) -> None:
    gift = await sr.sent_gift("ann", "bob", amount=6)
    sr.world.clock.advance(30)
    before = len(sr.events())
    status, body, _ = await sr.claim_grant("bob", gift["grantId"])
    assert status == 200
    assert body["data"]["grant"]["status"] == "claimed" and body["data"]["grant"]["ackedBy"] == "client"
    assert [e.kind for e in sr.events()[before:]] == ["gift.claimed", "grant.claimed"]
    (row,) = await sr.listing("bob", "inbox")
    assert row["status"] == "claimed" and row["claimedAt"] == "2026-03-02T12:00:30.000Z"
    (out,) = await sr.listing("ann", "sent")
    assert out["status"] == "claimed"
    assert error(await sr.claim("bob", gift["giftId"])) == (409, "gift_already_claimed")
    assert error(await sr.claim_grant("bob", gift["grantId"])) == (409, "gift_already_claimed")
    assert await sr.balance("bob", "coins") == 6
    assert len(sr.events("gift.claimed")) == 1 and len(sr.events("grant.claimed")) == 1


async def test_server_ack_of_the_gift_grant_claims_the_gift(sr: Game) -> None:
    gift = await sr.sent_gift("ann", "bob", amount=4)
    status, body, _ = await sr.server("POST", f"/players/bob/grants/{gift['grantId']}/ack", idem="ack-1")
    assert status == 200
    assert body["data"]["grant"]["status"] == "claimed" and body["data"]["grant"]["ackedBy"] == "server_api"
    (gift_claimed,) = sr.events("gift.claimed")
    assert gift_claimed.data["giftId"] == gift["giftId"] and gift_claimed.data["claimedAt"] == T0
    (row,) = await sr.listing("bob", "inbox")
    assert row["status"] == "claimed" and row["claimedAt"] == T0
    assert error(await sr.claim("bob", gift["giftId"])) == (409, "gift_already_claimed")
    status, _, _ = await sr.server("POST", f"/players/bob/grants/{gift['grantId']}/ack", idem="ack-2")
    assert status == 200  # acks stay idempotent
    assert len(sr.events("gift.claimed")) == 1
    assert await sr.balance("bob", "coins") == 4


async def test_banned_recipient_cannot_claim(sr: Game) -> None:
    gift = await sr.sent_gift("ann", "bob")
    await sr.ban("bob")
    assert error(await sr.claim("bob", gift["giftId"])) == (403, "player_banned")
    assert error(await sr.claim_grant("bob", gift["grantId"])) == (403, "player_banned")


# --- Inbox and sent lists ------------------------------------------------------------------------


async def test_inbox_and_sent_are_newest_first_with_the_counterparty(sr: Game) -> None:
    from_bob = await sr.sent_gift("bob", "ann", amount=1)
    sr.world.clock.advance(60)
    from_cat = await sr.sent_gift("cat", "ann", amount=2)
    sr.world.clock.advance(60)
    to_bob = await sr.sent_gift("ann", "bob", amount=3)
    inbox = await sr.listing("ann", "inbox")
    assert [r["giftId"] for r in inbox] == [from_cat["giftId"], from_bob["giftId"]]
    assert all(set(r) == GIFT_FIELDS and r["direction"] == "incoming" for r in inbox)
    assert [r["player"] for r in inbox] == [
        {"externalPlayerId": "cat", "displayIdentity": await identity_of(sr, "cat")},
        {"externalPlayerId": "bob", "displayIdentity": await identity_of(sr, "bob")},
    ]
    (sent,) = await sr.listing("ann", "sent")
    assert sent["giftId"] == to_bob["giftId"] and sent["direction"] == "outgoing"
    assert sent["player"]["externalPlayerId"] == "bob"
    assert (await sr.listing("ann", "inbox", "?limit=1"))[0]["giftId"] == from_cat["giftId"]
    assert len(await sr.listing("ann", "inbox", "?limit=1")) == 1
    (bob_in,) = await sr.listing("bob", "inbox")
    ann_view = {"externalPlayerId": "ann", "displayIdentity": await identity_of(sr, "ann")}
    assert bob_in == {**to_bob, "direction": "incoming", "player": ann_view}  # the same gift, seen by bob


async def test_lists_show_a_display_name_the_counterparty_set(sr: Game) -> None:
    status, _, _ = await sr.sdk("PUT", "bob", "/identity", {"name": "Bobby", "avatar": None})
    assert status == 200
    await sr.sent_gift("bob", "ann")
    (row,) = await sr.listing("ann", "inbox")
    assert row["player"]["displayIdentity"]["name"] == "Bobby"


async def test_pending_filter_excludes_claimed_and_expired_gifts(gala: Game) -> None:
    expiring = await gala.sent_gift("bob", "ann", resource="xp", amount=1)
    gala.world.clock.advance(1800)
    claimed = await gala.sent_gift("cat", "ann", resource="xp", amount=2)
    gala.world.clock.advance(1800)
    waiting = await gala.sent_gift("dan", "ann", resource="xp", amount=3)
    assert (await gala.claim("ann", claimed["giftId"]))[0] == 200
    gala.world.clock.advance(3600)  # 14:00: the first gift has expired (no sweep yet)
    pending = await gala.listing("ann", "inbox", "?pending=true")
    assert [r["giftId"] for r in pending] == [waiting["giftId"]]
    everything = await gala.listing("ann", "inbox")
    assert [(r["giftId"], r["status"]) for r in everything] == [
        (waiting["giftId"], "pending"),
        (claimed["giftId"], "claimed"),
        (expiring["giftId"], "pending"),  # the contract has two statuses; expiry shows in expiresAt
    ]
    assert await gala.listing("bob", "sent", "?pending=true") == []
    assert await gala.listing("cat", "sent", "?pending=true") == []
    assert [r["giftId"] for r in await gala.listing("dan", "sent", "?pending=true")] == [waiting["giftId"]]
    assert [r["giftId"] for r in await gala.listing("bob", "sent")] == [expiring["giftId"]]
    await gala.advance(60)  # after the sweep nothing changes on the lists
    assert [r["giftId"] for r in await gala.listing("ann", "inbox", "?pending=true")] == [waiting["giftId"]]
    assert [r["giftId"] for r in await gala.listing("ann", "inbox", "?pending=false")] == [
        r["giftId"] for r in everything
    ]


async def test_list_limit_caps_the_newest(sr: Game) -> None:
    for i, friend in enumerate(("bob", "cat")):
        sr.world.clock.advance(1)
        await sr.sent_gift(friend, "ann", amount=i + 1)
    await sr.befriend("dan", "ann")
    sr.world.clock.advance(1)
    newest = await sr.sent_gift("dan", "ann", amount=3)
    assert [r["amount"] for r in await sr.listing("ann", "inbox", "?limit=2")] == [3, 2]
    assert [r["giftId"] for r in await sr.listing("ann", "inbox", "?limit=1&pending=true")] == [
        newest["giftId"]
    ]
    assert len(await sr.listing("ann", "inbox", "?limit=200")) == 3


async def test_list_with_a_bad_query_is_400(sr: Game) -> None:
    for query in ("?limit=abc", "?pending=maybe", "?unknown=1"):
        status, body, _ = await sr.sdk("GET", "ann", f"/friends/gifts/inbox{query}")
        assert (status, body["error"]["code"]) == (400, "invalid_request"), query


# --- giftCooldownUntil on friend rows (docs/reference/friends-and-presence.md) ---


async def test_friend_rows_carry_gift_cooldown_until_while_it_lasts(sr: Game) -> None:
    rows = await sr.friends("ann")
    assert all("giftCooldownUntil" not in r for r in rows.values())
    sr.world.clock.advance(90)
    await sr.sent_gift("ann", "bob")
    until = "2026-03-03T12:01:30.000Z"
    rows = await sr.friends("ann")
    assert rows["bob"]["giftCooldownUntil"] == until
    assert "giftCooldownUntil" not in rows["cat"]  # never gifted
    assert "giftCooldownUntil" not in (await sr.friends("bob"))["ann"]  # bob may still gift ann
    status, body, _ = await sr.server("GET", "/players/ann/friends")
    assert status == 200
    server_rows = {r["externalPlayerId"]: r for r in body["data"]["friends"]}
    assert server_rows["bob"]["giftCooldownUntil"] == until and "giftCooldownUntil" not in server_rows["cat"]
    sr.world.clock.advance(DAY - 1)
    assert (await sr.friends("ann"))["bob"]["giftCooldownUntil"] == until
    sr.world.clock.advance(1)
    assert "giftCooldownUntil" not in (await sr.friends("ann"))["bob"]
    status, body, _ = await sr.server("GET", "/players/ann/friends")
    assert all("giftCooldownUntil" not in r for r in body["data"]["friends"])


async def test_accepting_a_friend_again_shows_a_running_cooldown(sr: Game) -> None:
    await sr.sent_gift("ann", "bob")
    await sr.sdk("DELETE", "ann", "/friends/bob")
    await sr.sdk("POST", "bob", "/friends/requests", {"externalPlayerId": "ann"})
    status, body, _ = await sr.sdk("POST", "ann", "/friends/requests", {"externalPlayerId": "bob"})
    assert status == 200 and body["data"]["status"] == "accepted"
    assert body["data"]["friend"]["giftCooldownUntil"] == "2026-03-03T12:00:00.000Z"
    await refused_without_trace(sr, lambda: sr.send("ann", "bob"), 409, "gift_cooldown")


# --- Catalog (docs/reference/gifts.md) ----------------------------------------------------------------------


async def test_catalog_lists_settings_and_only_sendable_resources(g: dict[str, Game]) -> None:
    for game in g.values():
        await game.register("ann")
    sr = await g["space-race"].catalog("ann")
    assert sr == {
        "enabled": True,
        "cooldownSeconds": 86400,
        "dailySendLimit": None,
        "sentToday": 0,
        "resources": sr["resources"],
    }
    by_key = {r["key"]: r for r in sr["resources"]}
    assert by_key == {  # not ink (costs the sender in a studio-managed game), gems, or system items
        "badge": {"type": "item", "key": "badge", "maxAmount": 3, "costsSender": False},
        "coins": {"type": "currency", "key": "coins", "maxAmount": 100, "costsSender": False},
    }
    gala = await g["gala"].catalog("ann")
    assert (gala["enabled"], gala["cooldownSeconds"], gala["dailySendLimit"]) == (True, 3600, None)
    by_key = {r["key"]: r for r in gala["resources"]}
    assert set(by_key) == {"gold", "rose", "xp"}
    assert by_key["gold"] == {"type": "currency", "key": "gold", "maxAmount": 50, "costsSender": True}
    assert by_key["rose"] == {"type": "item", "key": "rose", "maxAmount": 5, "costsSender": False}
    assert by_key["xp"]["costsSender"] is False and by_key["xp"]["maxAmount"] >= 10**9  # no cap declared
    quota = await g["quota"].catalog("ann")
    assert (quota["cooldownSeconds"], quota["dailySendLimit"]) == (3600, 3)
    assert {r["key"]: r["costsSender"] for r in quota["resources"]} == {"gold": True, "heart": False}
    other = await g["other-game"].catalog("ann")
    assert other == {
        "enabled": False,
        "cooldownSeconds": 86400,
        "dailySendLimit": None,
        "sentToday": 0,
        "resources": [],
    }


async def test_catalog_sent_today_counts_this_utc_day_only(sr: Game) -> None:
    await sr.sent_gift("ann", "bob")
    sr.world.clock.advance(3600)
    await sr.sent_gift("ann", "cat")
    assert (await sr.catalog("ann"))["sentToday"] == 2
    assert (await sr.catalog("bob"))["sentToday"] == 0  # received gifts do not count
    sr.world.clock.advance(11 * 3600 - 1)  # 23:59:59 UTC
    assert (await sr.catalog("ann"))["sentToday"] == 2
    sr.world.clock.advance(1)  # midnight UTC
    assert (await sr.catalog("ann"))["sentToday"] == 0
    sr.world.clock.advance(12 * 3600)  # noon: bob's cooldown is over
    await sr.sent_gift("ann", "bob")
    assert (await sr.catalog("ann"))["sentToday"] == 1


async def test_catalog_of_a_game_that_disabled_gifting(g: dict[str, Game]) -> None:
    lapsed = g["lapsed"]
    await lapsed.register("ann", "bob")
    await lapsed.befriend("ann", "bob")
    await lapsed.sent_gift("ann", "bob")
    assert (await lapsed.catalog("ann"))["enabled"] is True
    await disable_lapsed(lapsed.world)
    catalog = await lapsed.catalog("ann")
    assert catalog["enabled"] is False and catalog["resources"] == []
    lapsed.world.clock.advance(DAY)
    await refused_without_trace(lapsed, lambda: lapsed.send("ann", "bob"), 403, "gifting_disabled")


# --- Server gift history (docs/reference/gifts.md) ----------------------------------------------------------


async def test_server_gift_history_is_received_by_default_and_sent_on_request(sr: Game) -> None:
    await sr.befriend("cat", "bob")
    from_ann = await sr.sent_gift("ann", "bob", amount=1)
    sr.world.clock.advance(60)
    from_cat = await sr.sent_gift("cat", "bob", amount=2)
    status, body, _ = await sr.history("bob")
    assert status == 200
    assert body["data"]["direction"] == "received"
    gifts = body["data"]["gifts"]
    assert [x["giftId"] for x in gifts] == [from_cat["giftId"], from_ann["giftId"]]
    assert all(set(x) == GIFT_FIELDS | {"grantStatus"} for x in gifts)
    assert all(x["direction"] == "incoming" and x["grantStatus"] == "pending" for x in gifts)
    assert gifts[1]["player"] == {"externalPlayerId": "ann", "displayIdentity": await identity_of(sr, "ann")}
    status, body, _ = await sr.history("bob", "?direction=received")
    assert [x["giftId"] for x in body["data"]["gifts"]] == [from_cat["giftId"], from_ann["giftId"]]
    status, body, _ = await sr.history("ann", "?direction=sent")
    assert status == 200 and body["data"]["direction"] == "sent"
    (sent,) = body["data"]["gifts"]
    assert sent["giftId"] == from_ann["giftId"] and sent["direction"] == "outgoing"
    assert sent["player"]["externalPlayerId"] == "bob"
    status, body, _ = await sr.history("ann", "?direction=both")
    assert (status, body["error"]["code"]) == (400, "invalid_request")


async def test_server_gift_history_limit_is_1_to_200(sr: Game) -> None:
    await sr.befriend("cat", "bob")
    await sr.sent_gift("ann", "bob")
    sr.world.clock.advance(1)
    newest = await sr.sent_gift("cat", "bob")
    status, body, _ = await sr.history("bob", "?limit=1")
    assert status == 200 and [x["giftId"] for x in body["data"]["gifts"]] == [newest["giftId"]]
    status, body, _ = await sr.history("bob", "?limit=200")
    assert status == 200 and len(body["data"]["gifts"]) == 2
    for bad in ("0", "201", "-1", "abc"):
        status, body, _ = await sr.history("bob", f"?limit={bad}")
        assert (status, body["error"]["code"]) == (400, "invalid_request"), bad


async def test_server_gift_history_shows_pending_claimed_and_expired_grants(gala: Game) -> None:
    expiring = await gala.sent_gift("ann", "bob", resource="xp", amount=1)
    claimed = await gala.sent_gift("cat", "bob", resource="xp", amount=2)
    assert (await gala.claim("bob", claimed["giftId"]))[0] == 200
    gala.world.clock.advance(3600)
    pending = await gala.sent_gift("dan", "bob", resource="xp", amount=3)
    await gala.advance(3600 + 60)  # 14:01: the sweep has expired the first gift's grant
    status, body, _ = await gala.history("bob")
    assert status == 200
    assert [(x["giftId"], x["grantStatus"]) for x in body["data"]["gifts"]] == [
        (pending["giftId"], "pending"),
        (claimed["giftId"], "claimed"),
        (expiring["giftId"], "expired"),
    ]
    assert body["data"]["gifts"][1]["status"] == "claimed"
    status, body, _ = await gala.history("ann", "?direction=sent")
    assert [(x["giftId"], x["grantStatus"]) for x in body["data"]["gifts"]] == [
        (expiring["giftId"], "expired")
    ]


async def test_server_gift_history_shows_a_grant_expired_before_the_sweep_reaches_it(gala: Game) -> None:
    gift = await gala.sent_gift("ann", "bob", resource="xp", amount=1)
    gala.world.clock.advance(7200)  # exactly at expiresAt; the manual clock ran no sweep
    status, body, _ = await gala.history("bob")
    assert status == 200
    assert [(x["giftId"], x["grantStatus"]) for x in body["data"]["gifts"]] == [(gift["giftId"], "expired")]


async def test_gifts_sent_in_the_same_millisecond_list_newest_first(sr: Game) -> None:
    for friend in ("cat", "dan"):
        await sr.befriend(friend, "bob")
    sent = [await sr.sent_gift(sender, "bob") for sender in ("ann", "cat", "dan")]  # one clock instant
    status, body, _ = await sr.history("bob")
    assert status == 200
    assert [x["giftId"] for x in body["data"]["gifts"]] == [g["giftId"] for g in reversed(sent)]


async def test_server_gift_history_of_a_game_that_never_enabled_gifting_is_403(g: dict[str, Game]) -> None:
    other = g["other-game"]
    await other.register("ann")
    status, body, _ = await other.history("ann")
    assert (status, body["error"]["code"]) == (403, "gifting_disabled")
    status, body, _ = await other.history("ann", "?direction=sent")
    assert (status, body["error"]["code"]) == (403, "gifting_disabled")


async def test_server_gift_history_of_an_unknown_player_is_404(sr: Game) -> None:
    status, body, _ = await sr.history("ghost")
    assert (status, body["error"]["code"]) == (404, "player_not_found")


async def test_server_gift_history_still_answers_after_gifting_is_disabled(g: dict[str, Game]) -> None:
    lapsed = g["lapsed"]
    await lapsed.register("ann", "bob")
    await lapsed.befriend("ann", "bob")
    gift = await lapsed.sent_gift("ann", "bob", amount=5)
    await disable_lapsed(lapsed.world)
    await refused_without_trace(lapsed, lambda: lapsed.send("bob", "ann"), 403, "gifting_disabled")
    status, body, _ = await lapsed.history("bob")
    assert status == 200
    assert [(x["giftId"], x["grantStatus"]) for x in body["data"]["gifts"]] == [(gift["giftId"], "pending")]
    status, body, _ = await lapsed.history("ann", "?direction=sent")
    assert status == 200 and [x["giftId"] for x in body["data"]["gifts"]] == [gift["giftId"]]


async def test_server_gift_history_needs_a_server_key(sr: Game) -> None:
    status, body, _ = await sr.world.call(
        "GET", "/server/v1/players/ann/gifts", key=sr.api_key("gift-client")
    )
    assert (status, body["error"]["code"]) == (403, "permission_denied")
