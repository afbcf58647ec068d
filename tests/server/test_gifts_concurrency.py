"""Gifting under real concurrent requests: many sends or claims in flight at once against the app on a real
database (SQLite, and PostgreSQL with several transactions truly at once) must apply the rules as if they came
one by one (docs/reference/gifts.md#sending, docs/reference/errors.md,
docs/reference/conventions.md#idempotency)."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from tests.server.gift_support import Game


def outcome(answer: tuple[int, Any, Any]) -> tuple[int, str]:
    status, body, _ = answer
    return status, body["error"]["code"] if status >= 400 else "ok"


def gift_count(game: Game) -> int:
    def count(tx: Any) -> int:
        return int(tx.execute("SELECT COUNT(*) FROM gifts WHERE game_id = ?", (game.id,)).fetchone()[0])

    return int(game.world.services.store.run(count, write=False))


async def many_friends(game: Game, sender: str, n: int) -> list[str]:
    friends = [f"p{i:02d}" for i in range(n)]
    await game.register(sender, *friends)
    await game.befriend(sender, *friends)
    return friends


async def test_simultaneous_sends_to_one_friend_create_exactly_one_gift(g: dict[str, Game]) -> None:
    sr = g["space-race"]
    await sr.register("ann", "bob")
    await sr.befriend("ann", "bob")
    answers = await asyncio.gather(*(sr.send("ann", "bob", amount=i + 1) for i in range(20)))
    assert Counter(outcome(a) for a in answers) == {(201, "ok"): 1, (409, "gift_cooldown"): 19}
    assert gift_count(sr) == 1
    assert len(sr.events("gift.sent")) == 1 and len(sr.events("grant.created")) == 1
    (grant,) = await sr.pending_grants("bob")
    (won,) = [a[1]["data"]["gift"] for a in answers if a[0] == 201]
    assert grant["grantId"] == won["grantId"] and grant["entries"][0]["amount"] == won["amount"]


async def test_two_simultaneous_sends_create_one_gift(g: dict[str, Game]) -> None:
    sr = g["space-race"]
    await sr.register("ann", "bob")
    await sr.befriend("ann", "bob")
    answers = await asyncio.gather(sr.send("ann", "bob"), sr.send("ann", "bob"))
    assert sorted(outcome(a) for a in answers) == [(201, "ok"), (409, "gift_cooldown")]
    assert gift_count(sr) == 1


async def test_simultaneous_sends_with_one_idempotency_key_create_one_gift(g: dict[str, Game]) -> None:
    sr = g["space-race"]
    await sr.register("ann", "bob")
    await sr.befriend("ann", "bob")
    answers = await asyncio.gather(
        *(sr.send("ann", "bob", amount=5, idempotencyKey="same") for _ in range(20))
    )
    statuses = Counter(a[0] for a in answers)
    assert statuses[201] == 1
    # docs/reference/conventions.md#idempotency: a duplicate in flight waits for the first (a replay) or
    # answers 409; never a second gift.
    assert set(statuses) <= {201, 200, 409}
    (first,) = [a[1]["data"]["gift"] for a in answers if a[0] == 201]
    for status, body, headers in answers:
        if status == 200:
            assert body["data"]["gift"] == first and headers["Idempotent-Replay"] == "true"
        elif status == 409:
            assert body["error"]["code"] == "idempotency_conflict"
    assert gift_count(sr) == 1 and len(sr.events("gift.sent")) == 1


async def test_simultaneous_costs_sender_sends_never_overdraw(g: dict[str, Game]) -> None:
    gala = g["gala"]
    friends = await many_friends(gala, "ann", 40)
    await gala.credit("ann", "gold", 10)
    answers = await asyncio.gather(*(gala.send("ann", f, resource="gold", amount=1) for f in friends))
    assert Counter(outcome(a) for a in answers) == {(201, "ok"): 10, (409, "gift_insufficient_balance"): 30}
    assert await gala.balance("ann", "gold") == 0
    debits = [e for e in gala.ledger("ann", "gold") if e.reason.value == "gift_cost"]
    assert len(debits) == 10 and all(e.delta == -1 and e.balance_after >= 0 for e in debits)
    assert sorted(e.balance_after for e in debits) == list(range(10))
    assert gift_count(gala) == 10
    sent = gala.events("gift.sent")
    assert len(sent) == 10 and all(e.data["deductedFromSender"] for e in sent)
    winners = {a[1]["data"]["gift"]["player"]["externalPlayerId"] for a in answers if a[0] == 201}
    assert {e.data["recipientExternalPlayerId"] for e in sent} == winners


async def test_simultaneous_costs_sender_sends_of_several_units_stop_at_the_affordable_number(
    g: dict[str, Game],
) -> None:
    gala = g["gala"]
    friends = await many_friends(gala, "ann", 12)
    await gala.credit("ann", "gold", 10)
    answers = await asyncio.gather(*(gala.send("ann", f, resource="gold", amount=3) for f in friends))
    assert Counter(outcome(a) for a in answers) == {(201, "ok"): 3, (409, "gift_insufficient_balance"): 9}
    assert await gala.balance("ann", "gold") == 1


async def test_simultaneous_sends_respect_the_daily_limit(g: dict[str, Game]) -> None:
    quota = g["quota"]
    friends = await many_friends(quota, "ann", 10)
    answers = await asyncio.gather(*(quota.send("ann", f, resource="heart") for f in friends))
    assert Counter(outcome(a) for a in answers) == {(201, "ok"): 3, (409, "gift_limit_reached"): 7}
    assert gift_count(quota) == 3
    assert (await quota.catalog("ann"))["sentToday"] == 3


async def test_simultaneous_claims_through_gift_and_grant_credit_once(g: dict[str, Game]) -> None:
    gala = g["gala"]
    await gala.register("ann", "bob")
    await gala.befriend("ann", "bob")
    gift = await gala.sent_gift("ann", "bob", resource="xp", amount=25)
    claims = [gala.claim("bob", gift["giftId"]) for _ in range(10)]
    claims += [gala.claim_grant("bob", gift["grantId"]) for _ in range(10)]
    answers = await asyncio.gather(*claims)
    assert Counter(outcome(a) for a in answers) == {(200, "ok"): 1, (409, "gift_already_claimed"): 19}
    assert await gala.balance("bob", "xp") == 25
    assert len(gala.ledger("bob", "xp")) == 1
    assert len(gala.events("gift.claimed")) == 1 and len(gala.events("grant.claimed")) == 1


async def test_simultaneous_sends_from_many_senders_to_one_friend_all_land(g: dict[str, Game]) -> None:
    sr = g["space-race"]
    senders = [f"s{i:02d}" for i in range(15)]
    await sr.register("hub", *senders)
    await sr.befriend("hub", *senders)
    answers = await asyncio.gather(*(sr.send(s, "hub", amount=2) for s in senders))
    assert Counter(outcome(a) for a in answers) == {(201, "ok"): 15}
    inbox = await sr.listing("hub", "inbox", "?pending=true")
    assert len(inbox) == 15 and {r["player"]["externalPlayerId"] for r in inbox} == set(senders)
    assert len(await sr.pending_grants("hub")) == 15
