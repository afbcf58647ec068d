"""Crates through the API (docs/reference/grants.md#crates), on SQLite and PostgreSQL: the server sends a
crate grant, the player opens it; every refusal changes nothing; an open deposits once, under retries and
under real concurrent requests."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest

from livecore.players.rules import ban
from tests.conftest import apply_test_manifest
from tests.server.economy_support import BAZAAR, CRATES, Econ, start_econ

CHEST = {"type": "crate", "key": "chest", "amount": 1}
COINS = {"type": "currency", "key": "coins", "amount": 25}


@pytest.fixture
async def econ(db_url: str) -> AsyncIterator[Econ]:
    e = await start_econ(db_url)
    await asyncio.to_thread(apply_test_manifest, e.world.services, BAZAAR + CRATES)
    e.world.services.store.clear_caches()
    try:
        yield e
    finally:
        await e.world.client.close()


async def send(
    econ: Econ, player: str, idem: str, *entries: dict[str, Any], **extra: Any
) -> tuple[int, Any, Any]:
    body = {"idempotencyKey": idem, "kind": "crate", "entries": list(entries or [CHEST]), **extra}
    return await econ.server("POST", f"/players/{player}/grants", body)


async def crate_for(econ: Econ, player: str, idem: str = "c1", **extra: Any) -> str:
    status, body, _ = await send(econ, player, idem, **extra)
    assert status == 201, body
    return str(body["data"]["grant"]["grantId"])


async def open_crate(econ: Econ, player: str, secret: str, grant_id: str, idem: str | None = None):  # type: ignore[no-untyped-def]
    headers = {"Idempotency-Key": idem} if idem else None
    return await econ.world.call(
        "POST",
        f"/sdk/v1/players/{player}/crates/{grant_id}/open",
        key=econ.key("client"),
        secret=secret,
        headers=headers,
    )


def footprint(econ: Econ) -> tuple[int, ...]:
    """What an open or a send could leave behind in the game: grants, ledger entries, outbox events."""

    def count(tx: Any) -> tuple[int, ...]:
        return tuple(
            tx.execute(f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", (econ.game_id,)).fetchone()[0]
            for table in ("grants", "ledger", "outbox")
        )

    result: tuple[int, ...] = econ.world.services.store.run(count, write=False)
    return result


def grant_status(econ: Econ, grant_id: str) -> str:
    g = econ.world.services.store.run(lambda tx: tx.grants.get(econ.game_id, grant_id), write=False)
    return str(g.status.value)


# --- sending crates -------------------------------------------------------------------------------


async def test_the_server_sends_a_crate_grant(econ: Econ) -> None:
    secret = await econ.register("ann")
    status, body, _ = await send(econ, "ann", "c1", {**CHEST, "amount": 2})
    assert status == 201
    grant = body["data"]["grant"]
    assert (grant["kind"], grant["status"]) == ("crate", "pending")
    assert grant["entries"] == [{"type": "crate", "key": "chest", "amount": 2}]
    (created,) = econ.events("grant.created")
    assert created.data["kind"] == "crate" and created.data["entries"] == grant["entries"]
    status, body, _ = await econ.sdk("GET", "/players/ann/pending-grants", secret)
    assert [g["grantId"] for g in body["data"]["grants"]] == [grant["grantId"]]


@pytest.mark.parametrize(
    ("kind", "entries", "status", "code"),
    [
        ("crate", [{"type": "crate", "key": "mystery", "amount": 1}], 404, "resource_not_found"),
        ("reward", [COINS, CHEST], 400, "invalid_request"),
        ("crate", [CHEST, COINS], 400, "invalid_request"),
        ("crate", [{**CHEST, "parameters": {"a": 1}}], 400, "invalid_request"),
        ("crate", [{"type": "crate", "key": "pouch", "amount": 501}], 400, "invalid_request"),
    ],
    ids=["unknown crate", "crate in a reward grant", "reward in a crate grant", "parameters", "draws"],
)
async def test_a_refused_crate_grant_creates_nothing(
    econ: Econ, kind: str, entries: list[dict[str, Any]], status: int, code: str
) -> None:
    await econ.register("ann")
    before = footprint(econ)
    got, body, _ = await send(econ, "ann", "bad", *entries, kind=kind)
    assert (got, body["error"]["code"]) == (status, code)
    assert footprint(econ) == before


async def test_an_unknown_crate_names_its_key_and_entry(econ: Econ) -> None:
    _, body, _ = await send(econ, "ann", "bad", CHEST, {"type": "crate", "key": "mystery", "amount": 1})
    assert body["error"]["details"] == {"crateKey": "mystery", "entry": 1}


async def test_a_crate_grant_draws_at_most_1000_times(econ: Econ) -> None:
    # A pouch draws twice: 500 pouches are exactly the limit.
    status, _, _ = await send(econ, "ann", "ok", {"type": "crate", "key": "pouch", "amount": 500})
    assert status == 201


# --- opening --------------------------------------------------------------------------------------


async def test_opening_a_crate_answers_the_crate_and_its_deposited_contents(econ: Econ) -> None:
    secret = await econ.register("ann")
    grant_id = await crate_for(econ, "ann")
    status, body, _ = await open_crate(econ, "ann", secret, grant_id)
    assert status == 200
    crate, contents = body["data"]["crate"], body["data"]["contents"]
    assert (crate["grantId"], crate["status"], crate["ackedBy"]) == (grant_id, "claimed", "client")
    assert (contents["kind"], contents["status"], contents["ackedBy"]) == ("reward", "claimed", "client")
    assert (contents["sourceKind"], contents["sourceRefId"]) == ("crate", grant_id)
    assert contents["entries"] == [
        {"type": "currency", "key": "coins", "amount": 50},
        {"type": "item", "key": "sword", "amount": 1, "parameters": {"level": 3}},
    ]
    _, wallet, _ = await econ.sdk("GET", "/players/ann/wallet", secret)
    assert {c["key"]: c["balance"] for c in wallet["data"]["currencies"]}["coins"] == 50
    _, inventory, _ = await econ.sdk("GET", "/players/ann/inventory", secret)
    sword = next(i for i in inventory["data"]["items"] if i["key"] == "sword")
    assert sword["quantity"] == 1 and sword["parameters"]["level"] == 3


async def test_an_open_fires_its_webhooks_in_order(econ: Econ) -> None:
    secret = await econ.register("ann")
    grant_id = await crate_for(econ, "ann")
    before = len(econ.kinds())
    _, body, _ = await open_crate(econ, "ann", secret, grant_id)
    contents_id = body["data"]["contents"]["grantId"]
    assert econ.kinds()[before:] == [
        "grant.claimed",
        "grant.created",
        "wallet.changed",
        "inventory.changed",
        "grant.claimed",
        "crate.opened",
    ]
    claimed = [e.data["grantId"] for e in econ.events("grant.claimed")]
    assert claimed == [grant_id, contents_id]
    (opened,) = econ.events("crate.opened")
    assert opened.data["grantId"] == grant_id and opened.data["contentsGrantId"] == contents_id
    assert opened.data["crates"] == [{"key": "chest", "amount": 1, "type": "crate"}]
    assert opened.data["contents"] == body["data"]["contents"]["entries"]


async def test_opening_again_with_the_same_key_replays_the_same_contents(econ: Econ) -> None:
    secret = await econ.register("ann")
    grant_id = await crate_for(econ, "ann")
    status, first, _ = await open_crate(econ, "ann", secret, grant_id, idem="open-1")
    assert status == 200
    after_first = footprint(econ)
    status, again, headers = await open_crate(econ, "ann", secret, grant_id, idem="open-1")
    assert (status, again) == (200, first) and headers["Idempotent-Replay"] == "true"
    assert footprint(econ) == after_first
    assert len(econ.events("crate.opened")) == 1


async def _refused_open(econ: Econ, who: str, secret: str, grant_id: str) -> tuple[int, str]:
    before = footprint(econ)
    status, body, _ = await open_crate(econ, who, secret, grant_id)
    assert footprint(econ) == before, "a refused open changed the store"
    return status, body["error"]["code"]


async def test_opening_a_crate_twice_is_grant_already_claimed(econ: Econ) -> None:
    secret = await econ.register("ann")
    grant_id = await crate_for(econ, "ann")
    await open_crate(econ, "ann", secret, grant_id)
    assert await _refused_open(econ, "ann", secret, grant_id) == (409, "grant_already_claimed")


async def test_opening_another_players_crate_is_grant_not_found(econ: Econ) -> None:
    secret = await econ.register("ann")
    await econ.register("bob")
    bobs = await crate_for(econ, "bob")
    assert await _refused_open(econ, "ann", secret, bobs) == (404, "grant_not_found")
    assert grant_status(econ, bobs) == "pending"


async def test_opening_an_unknown_grant_is_grant_not_found(econ: Econ) -> None:
    secret = await econ.register("ann")
    unknown = "0193e0c0-0000-7000-8000-000000000000"
    assert await _refused_open(econ, "ann", secret, unknown) == (404, "grant_not_found")


async def test_opening_a_reward_grant_is_not_a_crate(econ: Econ) -> None:
    secret = await econ.register("ann")
    _, body, _ = await econ.server(
        "POST", "/players/ann/grants", {"idempotencyKey": "r1", "entries": [COINS]}
    )
    reward = body["data"]["grant"]["grantId"]
    assert await _refused_open(econ, "ann", secret, reward) == (409, "not_a_crate")
    assert grant_status(econ, reward) == "pending"


async def test_opening_an_expired_crate_is_grant_expired(econ: Econ) -> None:
    secret = await econ.register("ann")
    grant_id = await crate_for(econ, "ann", expiresAt="2026-03-02T12:01:00.000Z")
    econ.world.clock.advance(61)  # past expiry, before the sweep has run
    assert await _refused_open(econ, "ann", secret, grant_id) == (409, "grant_expired")


async def test_a_banned_player_cannot_open_a_crate(econ: Econ) -> None:
    secret = await econ.register("ann")
    grant_id = await crate_for(econ, "ann")
    now = econ.world.clock.now()
    await econ.world.services.store.run_async(
        lambda tx: tx.players.update(ban(tx.players.get(econ.game_id, "ann"), "test", now)[0])
    )
    assert await _refused_open(econ, "ann", secret, grant_id) == (403, "player_banned")
    assert grant_status(econ, grant_id) == "pending"


async def test_a_crate_removed_from_the_manifest_is_resource_not_found_until_it_is_back(econ: Econ) -> None:
    secret = await econ.register("ann")
    _, body, _ = await send(econ, "ann", "p1", {"type": "crate", "key": "pouch", "amount": 1})
    grant_id = body["data"]["grant"]["grantId"]
    await asyncio.to_thread(
        apply_test_manifest, econ.world.services, BAZAAR + CRATES.split("[games.bazaar.crates.pouch]")[0]
    )
    econ.world.services.store.clear_caches()  # what a running server sees within its settings cache's TTL
    before = footprint(econ)
    status, body, _ = await open_crate(econ, "ann", secret, grant_id)
    assert (status, body["error"]["code"]) == (404, "resource_not_found")
    assert body["error"]["details"] == {"crateKey": "pouch"}
    assert footprint(econ) == before
    await asyncio.to_thread(apply_test_manifest, econ.world.services, BAZAAR + CRATES)
    econ.world.services.store.clear_caches()
    status, _, _ = await open_crate(econ, "ann", secret, grant_id)
    assert status == 200


# --- claiming a crate like a reward ---------------------------------------------------------------


async def test_the_plain_claim_route_refuses_a_crate(econ: Econ) -> None:
    secret = await econ.register("ann")
    grant_id = await crate_for(econ, "ann")
    before = footprint(econ)
    status, body, _ = await econ.sdk("POST", f"/players/ann/grants/{grant_id}/claim", secret)
    assert (status, body["error"]["code"]) == (409, "crate_must_be_opened")
    assert footprint(econ) == before and grant_status(econ, grant_id) == "pending"


async def test_a_server_ack_refuses_a_crate(econ: Econ) -> None:
    await econ.register("ann")
    grant_id = await crate_for(econ, "ann")
    before = footprint(econ)
    status, body, _ = await econ.server("POST", f"/players/ann/grants/{grant_id}/ack", idem="a1")
    assert (status, body["error"]["code"]) == (409, "crate_must_be_opened")
    assert footprint(econ) == before and grant_status(econ, grant_id) == "pending"


# --- under concurrency ----------------------------------------------------------------------------


def coin_entries(econ: Econ, who: str) -> int:
    def count(tx: Any) -> int:
        player = tx.players.get(econ.game_id, who)
        return len(list(tx.ledger.entries(player.id, "coins")))

    result: int = econ.world.services.store.run(count, write=False)
    return result


async def test_simultaneous_opens_of_one_crate_deposit_once(econ: Econ) -> None:
    secret = await econ.register("ann")
    grant_id = await crate_for(econ, "ann")
    answers = await asyncio.gather(*(open_crate(econ, "ann", secret, grant_id) for _ in range(20)))
    outcomes = Counter((s, b["error"]["code"] if s >= 400 else "ok") for s, b, _ in answers)
    assert outcomes == {(200, "ok"): 1, (409, "grant_already_claimed"): 19}
    assert len(econ.events("crate.opened")) == 1 and len(econ.events("grant.created")) == 2
    assert coin_entries(econ, "ann") == 1


async def test_simultaneous_opens_with_one_key_draw_once(econ: Econ) -> None:
    secret = await econ.register("ann")
    grant_id = await crate_for(econ, "ann")
    answers = await asyncio.gather(
        *(open_crate(econ, "ann", secret, grant_id, idem="same") for _ in range(20))
    )
    statuses = Counter(s for s, _, _ in answers)
    # docs/reference/conventions.md#idempotency: a duplicate in flight waits for the first (a replay) or
    # answers 409 idempotency_conflict; never a second draw.
    assert set(statuses) <= {200, 409}
    bodies = [b for s, b, h in answers if s == 200]
    assert bodies and all(b == bodies[0] for b in bodies)
    # One answer drew; every other 200 is the stored answer again.
    fresh = [h for s, _, h in answers if s == 200 and h.get("Idempotent-Replay") != "true"]
    assert len(fresh) == 1
    for status, body, _ in answers:
        if status == 409:
            assert body["error"]["code"] == "idempotency_conflict"
    assert len(econ.events("crate.opened")) == 1 and coin_entries(econ, "ann") == 1
