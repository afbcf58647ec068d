"""Grants through the API: every transition of docs/reference/grants.md#lifecycle and every refusal."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from livecore.players.rules import ban
from tests.conftest import START
from tests.server.economy_support import Econ, start_econ

COINS = {"type": "currency", "key": "coins", "amount": 25}
SWORD = {"type": "item", "key": "sword", "amount": 1, "parameters": {"level": 5}}


@pytest.fixture
async def econ(db_url: str) -> AsyncIterator[Econ]:
    e = await start_econ(db_url)
    try:
        yield e
    finally:
        await e.world.client.close()


async def create(econ: Econ, player: str, idem: str, **extra: Any) -> tuple[int, Any, Any]:
    body = {"idempotencyKey": idem, "entries": [COINS, SWORD], **extra}
    return await econ.server("POST", f"/players/{player}/grants", body)


async def test_create_answers_201_with_the_pinned_record_and_creates_the_player(econ: Econ) -> None:
    status, body, _ = await create(econ, "newbie", "g1", sourceRefId="season-1", metadata={"tier": "gold"})
    assert status == 201
    grant = body["data"]["grant"]
    assert set(grant) == {
        "grantId",
        "externalPlayerId",
        "kind",
        "status",
        "entries",
        "sourceKind",
        "sourceRefId",
        "metadata",
        "createdAt",
        "claimedAt",
        "expiresAt",
        "ackedBy",
    }
    assert grant["status"] == "pending" and grant["kind"] == "reward" and grant["sourceKind"] == "api"
    assert grant["entries"] == [COINS, SWORD]
    assert grant["externalPlayerId"] == "newbie" and grant["createdAt"] == "2026-03-02T12:00:00.000Z"
    assert len(grant["grantId"]) == 36  # a UUID
    assert econ.kinds() == ["player.registered", "grant.created"]
    created = econ.events("grant.created")[0].data
    assert created["grantId"] == grant["grantId"] and created["entries"] == [COINS, SWORD]


async def test_create_replay_is_200_same_body_and_conflict_is_409(econ: Econ) -> None:
    _, first, _ = await create(econ, "ann", "same")
    status, again, headers = await create(econ, "ann", "same")
    assert (status, again) == (200, first)
    assert headers["Idempotent-Replay"] == "true"
    status, body, _ = await create(econ, "ann", "same", metadata={"other": True})
    assert (status, body["error"]["code"]) == (409, "idempotency_conflict")
    assert len(econ.events("grant.created")) == 1


async def test_idempotency_key_is_mandatory(econ: Econ) -> None:
    status, body, _ = await econ.server("POST", "/players/ann/grants", {"entries": [COINS]})
    assert status == 400
    assert body["error"]["details"]["fields"] == {"idempotencyKey": "is required"}


@pytest.mark.parametrize(
    ("entries", "status", "code"),
    [
        ([], 400, "invalid_request"),
        ([{"type": "currency", "key": "diamonds", "amount": 1}], 404, "resource_not_found"),
        ([{"type": "item", "key": "coins", "amount": 1}], 404, "resource_not_found"),
        ([{"type": "item", "key": "sessions", "amount": 1}], 409, "system_resource_locked"),
        ([{"type": "currency", "key": "coins", "amount": 0}], 400, "invalid_request"),
        ([{"type": "currency", "key": "coins", "amount": 1, "parameters": {"a": 1}}], 400, "invalid_request"),
        ([{"type": "token", "key": "coins", "amount": 1}], 400, "invalid_request"),
    ],
)
async def test_invalid_entries_are_refused_and_create_nothing(
    econ: Econ, entries: list[Any], status: int, code: str
) -> None:
    got, body, _ = await econ.server(
        "POST", "/players/ann/grants", {"idempotencyKey": "x", "entries": entries}
    )
    assert (got, body["error"]["code"]) == (status, code)
    assert econ.kinds() == []  # not even the first-contact player


async def test_expiry_must_be_in_the_future(econ: Econ) -> None:
    status, body, _ = await create(econ, "ann", "x", expiresAt="2026-03-02T11:00:00.000Z")
    assert status == 400
    assert body["error"]["details"]["fields"] == {"expiresAt": "must be in the future"}


async def test_pending_then_claim_credits_now_and_fires_claimed(econ: Econ) -> None:
    secret = await econ.register("ann")
    _, body, _ = await create(econ, "ann", "g1")
    grant_id = body["data"]["grant"]["grantId"]
    status, body, _ = await econ.sdk("GET", "/players/ann/pending-grants", secret)
    assert status == 200
    assert [g["grantId"] for g in body["data"]["grants"]] == [grant_id]
    _, wallet, _ = await econ.sdk("GET", "/players/ann/wallet", secret)
    assert wallet["data"]["currencies"][0]["balance"] == 0  # payout is deferred to the claim
    econ.world.clock.advance(60)
    status, body, _ = await econ.sdk("POST", f"/players/ann/grants/{grant_id}/claim", secret)
    assert status == 200
    claimed = body["data"]["grant"]
    assert claimed["status"] == "claimed" and claimed["ackedBy"] == "client"
    assert claimed["claimedAt"] == "2026-03-02T12:01:00.000Z"
    _, wallet, _ = await econ.sdk("GET", "/players/ann/wallet", secret)
    assert wallet["data"]["currencies"][0]["balance"] == 25
    _, inv, _ = await econ.sdk("GET", "/players/ann/inventory", secret)
    sword = next(i for i in inv["data"]["items"] if i["key"] == "sword")
    assert sword["quantity"] == 1 and sword["parameters"] == {"level": 5, "color": "grey"}
    assert econ.events("grant.claimed")[0].data["ackedBy"] == "client"
    assert {e.data["sourceRefId"] for e in econ.events("wallet.changed")} == {grant_id}
    _, body, _ = await econ.sdk("GET", "/players/ann/pending-grants", secret)
    assert body["data"]["grants"] == []


async def test_claim_twice_is_409_and_credits_once(econ: Econ) -> None:
    secret = await econ.register("ann")
    _, body, _ = await create(econ, "ann", "g1")
    grant_id = body["data"]["grant"]["grantId"]
    await econ.sdk("POST", f"/players/ann/grants/{grant_id}/claim", secret)
    status, body, _ = await econ.sdk("POST", f"/players/ann/grants/{grant_id}/claim", secret)
    assert (status, body["error"]["code"]) == (409, "grant_already_claimed")
    _, wallet, _ = await econ.sdk("GET", "/players/ann/wallet", secret)
    assert wallet["data"]["currencies"][0]["balance"] == 25
    assert len(econ.events("grant.claimed")) == 1


async def test_another_players_grant_is_404(econ: Econ) -> None:
    await econ.register("ann")
    bob = await econ.register("bob")
    _, body, _ = await create(econ, "ann", "g1")
    status, body, _ = await econ.sdk(
        "POST", f"/players/bob/grants/{body['data']['grant']['grantId']}/claim", bob
    )
    assert (status, body["error"]["code"]) == (404, "grant_not_found")


async def test_expiry_refuses_claims_and_the_sweep_fires_expired_live(econ: Econ) -> None:
    secret = await econ.register("ann")
    _, body, _ = await create(econ, "ann", "g1", expiresAt="2026-03-02T13:00:30.000Z")
    grant_id = body["data"]["grant"]["grantId"]
    econ.world.clock.advance(3600 + 31)  # past expiry, before the minute sweep has run
    status, body, _ = await econ.sdk("POST", f"/players/ann/grants/{grant_id}/claim", secret)
    assert (status, body["error"]["code"]) == (409, "grant_expired")
    _, pending, _ = await econ.sdk("GET", "/players/ann/pending-grants", secret)
    assert pending["data"]["grants"] == []
    assert econ.events("grant.expired") == []
    await econ.world.call("POST", "/server/v1/dev/clock/advance", json={"seconds": 60})
    (expired,) = econ.events("grant.expired")
    assert expired.env.value == "live"  # worker-driven (docs/reference/grants.md)
    assert expired.data["grantId"] == grant_id and expired.data["status"] == "expired"
    status, body, _ = await econ.server("POST", f"/players/ann/grants/{grant_id}/ack", idem="a1")
    assert (status, body["error"]["code"]) == (409, "grant_expired")


async def test_ack_marks_claimed_by_server_api_and_is_idempotent(econ: Econ) -> None:
    secret = await econ.register("ann")
    _, body, _ = await create(econ, "ann", "g1")
    grant_id = body["data"]["grant"]["grantId"]
    status, body, _ = await econ.server("POST", f"/players/ann/grants/{grant_id}/ack", idem="a1")
    assert status == 200
    assert body["data"]["grant"]["status"] == "claimed" and body["data"]["grant"]["ackedBy"] == "server_api"
    status, again, _ = await econ.server("POST", f"/players/ann/grants/{grant_id}/ack", idem="a2")
    assert status == 200 and again["data"]["grant"] == body["data"]["grant"]
    assert len(econ.events("grant.claimed")) == 1
    _, wallet, _ = await econ.sdk("GET", "/players/ann/wallet", secret)
    assert wallet["data"]["currencies"][0]["balance"] == 25  # credited once
    status, body, _ = await econ.sdk("POST", f"/players/ann/grants/{grant_id}/claim", secret)
    assert (status, body["error"]["code"]) == (409, "grant_already_claimed")


async def test_ack_of_an_unknown_player_or_grant_is_404(econ: Econ) -> None:
    status, body, _ = await econ.server("POST", "/players/ghost/grants/nope/ack", idem="a")
    assert (status, body["error"]["code"]) == (404, "player_not_found")
    await econ.register("ann")
    status, body, _ = await econ.server("POST", "/players/ann/grants/nope/ack", idem="b")
    assert (status, body["error"]["code"]) == (404, "grant_not_found")


async def test_banned_player_cannot_claim(econ: Econ) -> None:
    secret = await econ.register("ann")
    _, body, _ = await create(econ, "ann", "g1")
    await econ.world.services.store.run_async(
        lambda tx: tx.players.update(ban(tx.players.get(econ.game_id, "ann"), "x", START)[0])
    )
    status, body, _ = await econ.sdk(
        "POST", f"/players/ann/grants/{body['data']['grant']['grantId']}/claim", secret
    )
    assert (status, body["error"]["code"]) == (403, "player_banned")


async def test_studio_managed_claim_records_without_balance_webhooks(econ: Econ) -> None:
    world = econ.world
    secret = await world.register("sam")
    _, body, _ = await world.call(
        "POST",
        "/server/v1/players/sam/grants",
        json={"idempotencyKey": "g", "entries": [{"type": "currency", "key": "coins", "amount": 3}]},
    )
    grant_id = body["data"]["grant"]["grantId"]
    status, _, _ = await world.call(
        "POST", f"/sdk/v1/players/sam/grants/{grant_id}/claim", key="test-client", secret=secret
    )
    assert status == 200
    assert "grant.claimed" in world.event_kinds() and "wallet.changed" not in world.event_kinds()
    _, wallet, _ = await world.call("GET", "/sdk/v1/players/sam/wallet", key="test-client", secret=secret)
    assert wallet["data"]["currencies"] == [{"key": "coins", "balance": 3}]  # what the platform granted


async def test_live_key_grants_are_invisible_to_test_players(econ: Econ) -> None:
    await econ.register("ann")  # a test player
    status, body, _ = await econ.server(
        "POST", "/players/ann/grants", {"idempotencyKey": "l", "entries": [COINS]}, key="live-server"
    )
    assert (status, body["error"]["code"]) == (404, "player_not_found")


async def test_concurrent_grants_under_one_key_pay_once(econ: Econ) -> None:
    # docs/reference/conventions.md#idempotency: a second request with the key while the first runs waits
    # for it, so 20 at once make one grant, and every answer is that grant.
    await create(econ, "ann", "warmup")
    results = await asyncio.gather(*(create(econ, "ann", "race") for _ in range(20)))
    statuses = sorted(status for status, _, _ in results)
    assert statuses == [200] * 19 + [201]
    assert len({body["data"]["grant"]["grantId"] for _, body, _ in results}) == 1
    assert econ.kinds().count("grant.created") == 2
