"""Purchases, spend and revenue through the API on real SQLite (docs/reference/economy.md#purchases,
docs/reference/webhooks.md#kinds, docs/reference/errors.md, docs/reference/conventions.md#limits)."""

from __future__ import annotations

import base64
import itertools
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

from livecore.clock import format_ts
from tests.conftest import START, World, start_world

RATES = """
[games.space-race.exchange_rates]
EUR = 1.08
JPY = 0.0067
KWD = 3.25
"""

TRACKED_FIELDS = {
    "purchaseId",
    "playerId",
    "externalPlayerId",
    "transactionId",
    "store",
    "productId",
    "productType",
    "amountMinor",
    "currency",
    "normalizedAmountMinor",
    "fxRate",
    "validationStatus",
    "purchasedAt",
    "lifetimeAmountMinor",
    "purchaseCount",
    "metadata",
}

_keys = itertools.count()


@pytest.fixture
async def world(db_url: str) -> AsyncIterator[World]:
    w = await start_world(db_url, manifest_extra=RATES)
    try:
        yield w
    finally:
        await w.client.close()


def body(tx: str = "tx-1", **overrides: Any) -> dict[str, Any]:
    return {
        "transactionId": tx,
        "store": "apple",
        "productId": "gems_100",
        "productType": "consumable",
        "amountMinor": 499,
        "currency": "USD",
        **overrides,
    }


def ago(**delta: float) -> str:
    return format_ts(START - timedelta(**delta))


async def sdk_track(world: World, player: str, secret: str | None, payload: dict[str, Any]):  # type: ignore[no-untyped-def]
    return await world.call(
        "POST", f"/sdk/v1/players/{player}/purchases", key="test-client", secret=secret, json=payload
    )


async def server(
    world: World, method: str, path: str, json: Any = None, *, key: str = "test-server", **kw: Any
):  # type: ignore[no-untyped-def]
    headers = {"Idempotency-Key": f"idem-{next(_keys)}"} if method != "GET" else None
    return await world.call(method, f"/server/v1{path}", key=key, json=json, headers=headers, **kw)


async def server_track(world: World, player: str, payload: dict[str, Any], *, key: str = "test-server"):  # type: ignore[no-untyped-def]
    return await server(world, "POST", f"/players/{player}/purchases", payload, key=key)


async def ok(result: Any) -> Any:
    status, got, _ = await result
    assert status == 200, got
    return got["data"]


async def seed(world: World, player: str, *purchases: dict[str, Any]) -> None:
    """Track purchases of a registered player through the server route."""
    for p in purchases:
        status, got, _ = await server_track(world, player, p)
        assert status == 200, got


def tracked(world: World) -> list[dict[str, Any]]:
    return [e.data for e in world.events() if e.kind == "purchase.tracked"]


async def player_id(world: World, external_id: str) -> str:
    data = await ok(server(world, "GET", f"/players/{external_id}"))
    return str(data["player"]["id"])


# --- Tracking ----------------------------------------------------------------------------------------


async def test_client_track_is_unverified_normalised_and_answers_the_lifetime(world: World) -> None:
    secret = await world.register("ann")
    status, got, _ = await sdk_track(
        world, "ann", secret, body(amountMinor=999, currency="EUR", metadata={"campaign": "spring"})
    )
    assert status == 200, got
    data = got["data"]
    assert set(data) == {"purchase", "lifetimeAmountMinor", "purchaseCount"}
    p = data["purchase"]
    assert p["purchaseId"].startswith("pur_")
    assert p["externalPlayerId"] == "ann" and p["transactionId"] == "tx-1"
    assert (p["store"], p["productId"], p["productType"]) == ("apple", "gems_100", "consumable")
    assert (p["amountMinor"], p["currency"], p["normalizedAmountMinor"], p["fxRate"]) == (
        999,
        "EUR",
        1079,
        1.08,
    )
    assert p["validationStatus"] == "unverified"
    assert p["purchasedAt"] == p["trackedAt"] == format_ts(START)
    assert p["metadata"] == {"campaign": "spring"}
    assert (data["lifetimeAmountMinor"], data["purchaseCount"]) == (1079, 1)
    status, got, _ = await sdk_track(world, "ann", secret, body("tx-2", amountMinor=1000, currency="jpy"))
    assert status == 200, got
    assert got["data"]["purchase"]["currency"] == "JPY"
    assert got["data"]["purchase"]["normalizedAmountMinor"] == 670
    assert (got["data"]["lifetimeAmountMinor"], got["data"]["purchaseCount"]) == (1749, 2)


async def test_client_track_needs_the_player_secret(world: World) -> None:
    await world.register("ann")
    for secret in (None, "ps_wrong"):
        status, got, _ = await sdk_track(world, "ann", secret, body())
        assert (status, got["error"]["code"]) == (401, "player_secret_invalid")
    status, got, _ = await world.call("POST", "/sdk/v1/players/ann/purchases", key="test-server", json=body())
    assert status == 403, got
    assert tracked(world) == []


async def test_client_cannot_claim_a_verified_purchase(world: World) -> None:
    secret = await world.register("ann")
    status, got, _ = await sdk_track(world, "ann", secret, body(validationStatus="verified"))
    assert (status, got["error"]["code"]) == (400, "invalid_request")
    assert tracked(world) == []


async def test_banned_player_cannot_track_from_the_client(world: World) -> None:
    secret = await world.register("ann")
    await ok(server(world, "POST", "/players/ann/ban", {"reason": "fraud"}))
    status, got, _ = await sdk_track(world, "ann", secret, body())
    assert (status, got["error"]["code"]) == (403, "player_banned")
    assert tracked(world) == []


async def test_server_track_may_mark_verified_and_fires_every_spec_field(world: World) -> None:
    await world.register("ann")
    data = await ok(
        server_track(
            world,
            "ann",
            body(
                amountMinor=1234,
                currency="KWD",
                validationStatus="verified",
                purchasedAt=ago(hours=1),
                metadata={"receipt": "r1"},
            ),
        )
    )
    p = data["purchase"]
    assert p["validationStatus"] == "verified"
    assert p["normalizedAmountMinor"] == 401  # 1.234 KWD * 3.25 = 4.0105 USD
    assert p["purchasedAt"] == ago(hours=1) and p["trackedAt"] == format_ts(START)
    (event,) = tracked(world)
    assert set(event) == TRACKED_FIELDS
    assert event == {
        "purchaseId": p["purchaseId"],
        "playerId": await player_id(world, "ann"),
        "externalPlayerId": "ann",
        "transactionId": "tx-1",
        "store": "apple",
        "productId": "gems_100",
        "productType": "consumable",
        "amountMinor": 1234,
        "currency": "KWD",
        "normalizedAmountMinor": 401,
        "fxRate": 3.25,
        "validationStatus": "verified",
        "purchasedAt": ago(hours=1),
        "lifetimeAmountMinor": 401,
        "purchaseCount": 1,
        "metadata": {"receipt": "r1"},
    }
    unverified = await ok(server_track(world, "ann", body("tx-2")))
    assert unverified["purchase"]["validationStatus"] == "unverified"
    assert tracked(world)[1]["lifetimeAmountMinor"] == 900 and tracked(world)[1]["purchaseCount"] == 2


async def test_server_track_needs_an_idempotency_key_and_an_existing_player(world: World) -> None:
    await world.register("ann")
    status, got, _ = await world.call("POST", "/server/v1/players/ann/purchases", json=body())
    assert (status, got["error"]["code"]) == (400, "invalid_request")
    status, got, _ = await server_track(world, "nobody", body())
    assert (status, got["error"]["code"]) == (404, "player_not_found")
    # The other environment's key does not see the test player.
    status, got, _ = await server_track(world, "ann", body(), key="live-server")
    assert (status, got["error"]["code"]) == (404, "player_not_found")
    status, got, _ = await server_track(world, "ann", body(validationStatus="fraudulent"))
    assert (status, got["error"]["code"]) == (400, "invalid_request")
    assert tracked(world) == []


async def test_replay_of_a_transaction_is_200_with_no_second_webhook(world: World) -> None:
    secret = await world.register("ann")
    first = await ok(sdk_track(world, "ann", secret, body(amountMinor=999, currency="EUR")))
    world.clock.advance(60)
    status, got, headers = await sdk_track(world, "ann", secret, body(amountMinor=999, currency="EUR"))
    assert status == 200 and headers.get("Idempotent-Replay") == "true"
    assert got["data"]["purchase"] == first["purchase"]
    assert got["data"]["purchaseCount"] == 1
    # The server reporting the same store transaction later (with another request key) is the same
    # purchase too: still one purchase, one webhook.
    status, got, headers = await server_track(world, "ann", body(amountMinor=999, currency="EUR"))
    assert status == 200 and headers.get("Idempotent-Replay") == "true"
    assert got["data"]["purchase"]["purchaseId"] == first["purchase"]["purchaseId"]
    assert len(tracked(world)) == 1
    spend = await ok(server(world, "GET", "/players/ann/spend"))
    assert (spend["lifetimeAmountMinor"], spend["purchaseCount"]) == (1079, 1)


@pytest.mark.parametrize(
    "change",
    [
        {"amountMinor": 500},
        {"currency": "EUR"},
        {"productId": "gems_500"},
        {"store": "google"},
    ],
)
async def test_a_different_purchase_with_the_same_transaction_id_is_409(
    world: World, change: dict[str, Any]
) -> None:
    secret = await world.register("ann")
    await ok(sdk_track(world, "ann", secret, body()))
    status, got, _ = await sdk_track(world, "ann", secret, body(**change))
    assert (status, got["error"]["code"]) == (409, "idempotency_conflict")
    status, got, _ = await server_track(world, "ann", body(**change))
    assert (status, got["error"]["code"]) == (409, "idempotency_conflict")
    assert len(tracked(world)) == 1


async def test_the_same_transaction_id_for_another_player_is_409(world: World) -> None:
    await world.register("ann")
    await world.register("bob")
    await ok(server_track(world, "ann", body()))
    status, got, _ = await server_track(world, "bob", body())
    assert (status, got["error"]["code"]) == (409, "idempotency_conflict")
    spend = await ok(server(world, "GET", "/players/bob/spend"))
    assert spend["purchaseCount"] == 0


async def test_transaction_ids_are_scoped_to_the_game(world: World) -> None:
    await world.register("ann")
    await world.register("ann", key=world.other_keys["test-client"])
    await ok(server_track(world, "ann", body()))
    status, got, _ = await server_track(world, "ann", body(), key=world.other_keys["test-server"])
    assert status == 200, got
    assert got["data"]["purchaseCount"] == 1


async def test_transaction_ids_are_scoped_to_the_environment(world: World) -> None:
    """docs/reference/conventions.md#surfaces-and-credentials: data of one environment is never visible to
    another; a live purchase must not collide with (and so reveal) a test purchase that carries the same store
    transaction id."""
    await world.register("ann")
    await world.register("ann-live", key="live-client")
    await ok(server_track(world, "ann", body()))
    status, got, _ = await server_track(world, "ann-live", body(), key="live-server")
    assert status == 200, got
    assert got["data"]["purchase"]["externalPlayerId"] == "ann-live"
    assert got["data"]["purchaseCount"] == 1


async def test_unknown_currency_is_400_and_tracks_nothing(world: World) -> None:
    secret = await world.register("ann")
    status, got, _ = await sdk_track(world, "ann", secret, body(currency="CHF"))
    assert (status, got["error"]["code"]) == (400, "unknown_currency")
    assert got["error"]["details"] == {"currency": "CHF"}
    status, got, _ = await server_track(world, "ann", body(currency="GBP"))
    assert (status, got["error"]["code"]) == (400, "unknown_currency")
    # A currency known to another game only is still unknown here.
    assert tracked(world) == []
    listed = await ok(server(world, "GET", "/players/ann/purchases"))
    assert listed["purchases"] == []


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"transactionId": "  "}, "transactionId"),
        ({"store": ""}, "store"),
        ({"productId": " "}, "productId"),
        ({"productType": ""}, "productType"),
        ({"amountMinor": -1}, "amountMinor"),
        ({"currency": "EURO"}, "currency"),
        ({"currency": "E1R"}, "currency"),
        ({"purchasedAt": format_ts(START + timedelta(hours=1))}, "purchasedAt"),
    ],
)
async def test_bad_purchase_bodies_are_400_naming_the_field(
    world: World, change: dict[str, Any], field: str
) -> None:
    secret = await world.register("ann")
    status, got, _ = await sdk_track(world, "ann", secret, body(**change))
    assert (status, got["error"]["code"]) == (400, "invalid_request")
    assert field in got["error"]["details"]["fields"]
    assert tracked(world) == []


async def test_missing_and_mistyped_fields_are_400(world: World) -> None:
    secret = await world.register("ann")
    for bad in (
        {k: v for k, v in body().items() if k != "amountMinor"},
        body(amountMinor="499"),
        body(amountMinor=4.99),
        body(purchasedAt="2026-03-01T10:00:00"),  # no time zone
        body(metadata=["not", "an", "object"]),
    ):
        status, got, _ = await sdk_track(world, "ann", secret, bad)
        assert (status, got["error"]["code"]) == (400, "invalid_request"), bad
    assert tracked(world) == []


# --- Listing -----------------------------------------------------------------------------------------


async def test_list_is_newest_first_with_keyset_pages_without_duplicates_or_gaps(world: World) -> None:
    await world.register("ann")
    # Seven purchases, three of them at one instant (ties broken by the id), tracked out of order.
    times = [ago(hours=5), ago(hours=1), ago(hours=3), ago(hours=2), ago(hours=2), ago(hours=2), ago(days=40)]
    for i, t in enumerate(times):
        await ok(server_track(world, "ann", body(f"tx-{i}", purchasedAt=t)))
    pages: list[list[dict[str, Any]]] = []
    cursor: str | None = None
    while True:
        params = {"limit": "2", **({"cursor": cursor} if cursor else {})}
        data = await ok(server(world, "GET", "/players/ann/purchases", params=params))
        pages.append(data["purchases"])
        cursor = data["nextCursor"]
        if cursor is None:
            break
    assert [len(p) for p in pages] == [2, 2, 2, 1]
    flat = [p for page in pages for p in page]
    assert sorted(p["transactionId"] for p in flat) == [f"tx-{i}" for i in range(7)]
    assert [p["purchasedAt"] for p in flat] == sorted(times, reverse=True)
    whole = await ok(server(world, "GET", "/players/ann/purchases", params={"limit": "200"}))
    assert whole["purchases"] == flat and whole["nextCursor"] is None
    # A page that ends exactly at the last purchase has no next cursor.
    exact = await ok(server(world, "GET", "/players/ann/purchases", params={"limit": "7"}))
    assert len(exact["purchases"]) == 7 and exact["nextCursor"] is None
    default = await ok(server(world, "GET", "/players/ann/purchases"))
    assert default["purchases"] == flat


async def test_list_pages_hold_still_while_new_purchases_arrive(world: World) -> None:
    await world.register("ann")
    for i in range(4):
        await ok(server_track(world, "ann", body(f"tx-{i}", purchasedAt=ago(hours=10 - i))))
    first = await ok(server(world, "GET", "/players/ann/purchases", params={"limit": "2"}))
    await ok(server_track(world, "ann", body("tx-new")))
    rest = await ok(
        server(world, "GET", "/players/ann/purchases", params={"limit": "2", "cursor": first["nextCursor"]})
    )
    assert [p["transactionId"] for p in first["purchases"]] == ["tx-3", "tx-2"]
    assert [p["transactionId"] for p in rest["purchases"]] == ["tx-1", "tx-0"]
    assert rest["nextCursor"] is None


@pytest.mark.parametrize("limit", ["0", "201", "-1", "ten"])
async def test_list_limit_outside_1_to_200_is_400(world: World, limit: str) -> None:
    await world.register("ann")
    status, got, _ = await server(world, "GET", "/players/ann/purchases", params={"limit": limit})
    assert (status, got["error"]["code"]) == (400, "invalid_request")


def forged(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@pytest.mark.parametrize(
    "cursor",
    [
        "not a cursor",
        "!!!!",
        forged(b"{}"),
        forged(b"[1]"),
        forged(b'["soon", "pur_x"]'),
        forged(b'[null, "pur_x"]'),
        forged(b"12"),
    ],
)
async def test_a_bad_cursor_is_400(world: World, cursor: str) -> None:
    await world.register("ann")
    await ok(server_track(world, "ann", body()))
    status, got, _ = await server(world, "GET", "/players/ann/purchases", params={"cursor": cursor})
    assert (status, got["error"]["code"]) == (400, "invalid_request")
    assert "cursor" in got["error"]["details"]["fields"]


@pytest.mark.parametrize(
    "cursor",
    [
        forged(b'[1e300, "pur_x"]'),
        forged(b'[4611686018427387904, "pur_x"]'),
        forged(b'[-1000000000000000, "p"]'),
    ],
)
async def test_a_cursor_with_an_impossible_time_is_400_not_500(world: World, cursor: str) -> None:
    await world.register("ann")
    status, got, _ = await server(world, "GET", "/players/ann/purchases", params={"cursor": cursor})
    assert (status, got["error"]["code"]) == (400, "invalid_request")


async def test_list_of_an_unknown_player_is_404(world: World) -> None:
    status, got, _ = await server(world, "GET", "/players/nobody/purchases")
    assert (status, got["error"]["code"]) == (404, "player_not_found")
    await world.register("ann")
    status, got, _ = await server(world, "GET", "/players/ann/purchases", key="live-server")
    assert (status, got["error"]["code"]) == (404, "player_not_found")


# --- A player's spend --------------------------------------------------------------------------------


async def test_spend_of_a_player_who_never_paid(world: World) -> None:
    await world.register("ann")
    data = await ok(server(world, "GET", "/players/ann/spend", params={"windows": "7,30"}))
    assert data == {
        "externalPlayerId": "ann",
        "lifetimeAmountMinor": 0,
        "purchaseCount": 0,
        "firstPurchaseAt": None,
        "lastPurchaseAt": None,
        "windows": [
            {"days": 7, "amountMinor": 0, "purchaseCount": 0},
            {"days": 30, "amountMinor": 0, "purchaseCount": 0},
        ],
        "debug": False,
    }


async def test_spend_lifetime_first_last_and_rolling_windows(world: World) -> None:
    await world.register("ann")
    await seed(
        world,
        "ann",
        body("a", amountMinor=1, purchasedAt=ago(days=7)),  # exactly on the 7-day start: outside it
        body(
            "b", amountMinor=10, purchasedAt=format_ts(START - timedelta(days=7) + timedelta(milliseconds=1))
        ),
        body("c", amountMinor=100, purchasedAt=ago(days=1)),
        body("d", amountMinor=1000, purchasedAt=ago(days=30)),  # on the 30-day start: outside
        body("e", amountMinor=10000, purchasedAt=ago(days=400)),
        body("f", amountMinor=1000, currency="EUR", purchasedAt=ago(days=29)),  # 1080 cents
    )
    data = await ok(server(world, "GET", "/players/ann/spend", params={"windows": "7,30"}))
    assert data["lifetimeAmountMinor"] == 12191
    assert data["purchaseCount"] == 6
    assert data["firstPurchaseAt"] == ago(days=400)
    assert data["lastPurchaseAt"] == ago(days=1)
    assert data["windows"] == [
        {"days": 7, "amountMinor": 110, "purchaseCount": 2},
        {"days": 30, "amountMinor": 1191, "purchaseCount": 4},
    ]
    repeated = await ok(server(world, "GET", "/players/ann/spend?windows=7&windows=30"))
    assert repeated["windows"] == data["windows"]
    plain = await ok(server(world, "GET", "/players/ann/spend"))
    assert plain["windows"] == [] and plain["lifetimeAmountMinor"] == 12191
    # Windows roll with the clock.
    world.clock.advance(2 * 86400)
    later = await ok(server(world, "GET", "/players/ann/spend", params={"windows": "7"}))
    assert later["windows"] == [{"days": 7, "amountMinor": 100, "purchaseCount": 1}]


@pytest.mark.parametrize("windows", ["0", "-7", "abc", "3651", "1,2,3,4,5,6,7,8,9"])
async def test_bad_windows_are_400(world: World, windows: str) -> None:
    await world.register("ann")
    status, got, _ = await server(world, "GET", "/players/ann/spend", params={"windows": windows})
    assert (status, got["error"]["code"]) == (400, "invalid_request")


async def test_spend_of_an_unknown_player_is_404(world: World) -> None:
    status, got, _ = await server(world, "GET", "/players/nobody/spend")
    assert (status, got["error"]["code"]) == (404, "player_not_found")


# --- Spenders ----------------------------------------------------------------------------------------


async def seed_spenders(world: World) -> None:
    for name in ("ann", "bob", "cat", "dan", "eve"):
        await world.register(name)
    await seed(
        world, "ann", body("a1", amountMinor=500), body("a2", amountMinor=500, purchasedAt=ago(days=10))
    )
    await seed(world, "bob", body("b1", amountMinor=999, purchasedAt=ago(days=1)))
    await seed(world, "cat", body("c1", amountMinor=5000, purchasedAt=ago(days=60)))
    await seed(world, "dan", body("d1", amountMinor=1000, currency="EUR", purchasedAt=ago(days=3)))  # 1080
    # eve never paid


async def spender_rows(world: World, **params: str) -> list[tuple[str, int, int]]:
    data = await ok(server(world, "GET", "/spend/players", params=params))
    return [(p["externalPlayerId"], p["amountMinor"], p["purchaseCount"]) for p in data["players"]]


async def test_spenders_highest_first_with_an_inclusive_threshold(world: World) -> None:
    await seed_spenders(world)
    assert await spender_rows(world) == [
        ("cat", 5000, 1),
        ("dan", 1080, 1),
        ("ann", 1000, 2),
        ("bob", 999, 1),
    ]
    assert await spender_rows(world, minAmountMinor="1000") == [
        ("cat", 5000, 1),
        ("dan", 1080, 1),
        ("ann", 1000, 2),
    ]
    assert await spender_rows(world, minAmountMinor="1001") == [("cat", 5000, 1), ("dan", 1080, 1)]
    assert await spender_rows(world, minAmountMinor="5001") == []
    data = await ok(server(world, "GET", "/spend/players", params={"minAmountMinor": "1000"}))
    assert data["players"][0]["lastPurchaseAt"] == ago(days=60)
    assert (data["minAmountMinor"], data["windowDays"], data["limit"], data["offset"]) == (1000, None, 50, 0)


async def test_spenders_within_a_window_of_days(world: World) -> None:
    await seed_spenders(world)
    assert await spender_rows(world, windowDays="7") == [("dan", 1080, 1), ("bob", 999, 1), ("ann", 500, 1)]
    assert await spender_rows(world, windowDays="7", minAmountMinor="999") == [
        ("dan", 1080, 1),
        ("bob", 999, 1),
    ]
    assert await spender_rows(world, windowDays="30") == [("dan", 1080, 1), ("ann", 1000, 2), ("bob", 999, 1)]
    data = await ok(server(world, "GET", "/spend/players", params={"windowDays": "30"}))
    assert data["windowDays"] == 30


async def test_spenders_limit_and_offset(world: World) -> None:
    await seed_spenders(world)
    assert await spender_rows(world, limit="2") == [("cat", 5000, 1), ("dan", 1080, 1)]
    assert await spender_rows(world, limit="2", offset="2") == [("ann", 1000, 2), ("bob", 999, 1)]
    assert await spender_rows(world, limit="2", offset="4") == []
    data = await ok(server(world, "GET", "/spend/players", params={"limit": "2", "offset": "2"}))
    assert (data["limit"], data["offset"]) == (2, 2)


@pytest.mark.parametrize(
    "params",
    [
        {"limit": "0"},
        {"limit": "201"},
        {"offset": "-1"},
        {"minAmountMinor": "-1"},
        {"minAmountMinor": "ten"},
        {"windowDays": "0"},
        {"windowDays": "x"},
        {"sort": "asc"},
    ],
)
async def test_bad_spender_queries_are_400(world: World, params: dict[str, str]) -> None:
    status, got, _ = await server(world, "GET", "/spend/players", params=params)
    assert (status, got["error"]["code"]) == (400, "invalid_request")


# --- Debug accounts ----------------------------------------------------------------------------------


async def test_debug_flag_leaves_revenue_reporting_retroactively_but_not_the_players_own_spend(
    world: World,
) -> None:
    await seed_spenders(world)
    summary_before = await ok(server(world, "GET", "/spend/summary", params={"from": "2026-01-01"}))
    assert summary_before["grossAmountMinor"] == 8079
    flagged = await ok(server(world, "POST", "/players/cat/debug", {"reason": "qa"}))
    assert flagged["applied"] is True and flagged["debug"] is True
    assert [r[0] for r in await spender_rows(world)] == ["dan", "ann", "bob"]
    summary = await ok(server(world, "GET", "/spend/summary", params={"from": "2026-01-01"}))
    assert (summary["grossAmountMinor"], summary["purchaseCount"], summary["payingPlayers"]) == (3079, 4, 3)
    assert summary["arppuMinor"] == 1026  # 1026.33
    # The debug player's own spend keeps counting, new purchases included.
    await seed(world, "cat", body("c2", amountMinor=7))
    own = await ok(server(world, "GET", "/players/cat/spend", params={"windows": "7"}))
    assert (own["lifetimeAmountMinor"], own["purchaseCount"], own["debug"]) == (5007, 2, True)
    assert own["windows"] == [{"days": 7, "amountMinor": 7, "purchaseCount": 1}]
    assert "cat" not in [r[0] for r in await spender_rows(world)]
    # Unflagging restores it, retroactively, with what it bought while flagged.
    cleared = await ok(server(world, "DELETE", "/players/cat/debug"))
    assert cleared["applied"] is True and cleared["debug"] is False
    assert await spender_rows(world, limit="1") == [("cat", 5007, 2)]
    summary = await ok(server(world, "GET", "/spend/summary", params={"from": "2026-01-01"}))
    assert (summary["grossAmountMinor"], summary["purchaseCount"], summary["payingPlayers"]) == (8086, 6, 4)


async def test_a_summary_of_only_debug_players_has_null_arppu(world: World) -> None:
    await world.register("qa")
    await seed(world, "qa", body("q1", amountMinor=100))
    await ok(server(world, "POST", "/players/qa/debug"))
    summary = await ok(server(world, "GET", "/spend/summary"))
    assert (summary["grossAmountMinor"], summary["purchaseCount"], summary["payingPlayers"]) == (0, 0, 0)
    assert summary["arppuMinor"] is None
    assert summary["perProduct"] == [] and summary["perDay"] == []


# --- Revenue summary ---------------------------------------------------------------------------------


async def test_summary_of_nobody_paying(world: World) -> None:
    data = await ok(server(world, "GET", "/spend/summary"))
    assert data == {
        "from": format_ts(START - timedelta(days=30)),
        "to": format_ts(START),
        "grossAmountMinor": 0,
        "purchaseCount": 0,
        "payingPlayers": 0,
        "arppuMinor": None,
        "perProduct": [],
        "perDay": [],
    }


async def test_summary_gross_count_payers_arppu_per_product_and_per_utc_day(world: World) -> None:
    for name in ("ann", "bob", "cat"):
        await world.register(name)
    await seed(
        world,
        "ann",
        body("a1", amountMinor=499, productId="gems_100", purchasedAt="2026-03-01T10:00:00.000Z"),
        # 01:30 at +03:00 is 22:30 UTC the day before: counted on 2026-03-01.
        body(
            "a2",
            amountMinor=1000,
            currency="EUR",
            productId="starter",
            purchasedAt="2026-03-02T01:30:00+03:00",
        ),
    )
    await seed(
        world,
        "bob",
        body("b1", amountMinor=499, productId="gems_100", purchasedAt="2026-03-02T00:00:00.000Z"),
        body(
            "b2", amountMinor=10000, currency="JPY", productId="vip", purchasedAt="2026-02-27T12:00:00.000Z"
        ),
    )
    await seed(
        world, "cat", body("c1", amountMinor=1, productId="sticker", purchasedAt="2026-01-01T00:00:00.000Z")
    )
    data = await ok(server(world, "GET", "/spend/summary"))  # the last 30 days: c1 is out
    assert (data["from"], data["to"]) == (format_ts(START - timedelta(days=30)), format_ts(START))
    assert data["grossAmountMinor"] == 499 + 1080 + 499 + 6700
    assert (data["purchaseCount"], data["payingPlayers"]) == (4, 2)
    assert data["arppuMinor"] == 4389  # 8778 / 2
    assert data["perProduct"] == [
        {"productId": "vip", "amountMinor": 6700, "purchaseCount": 1},
        {"productId": "starter", "amountMinor": 1080, "purchaseCount": 1},
        {"productId": "gems_100", "amountMinor": 998, "purchaseCount": 2},
    ]
    assert data["perDay"] == [
        {"date": "2026-02-27", "amountMinor": 6700, "purchaseCount": 1},
        {"date": "2026-03-01", "amountMinor": 1579, "purchaseCount": 2},
        {"date": "2026-03-02", "amountMinor": 499, "purchaseCount": 1},
    ]


async def test_summary_arppu_rounds_half_up(world: World) -> None:
    for name in ("ann", "bob"):
        await world.register(name)
    await seed(world, "ann", body("a1", amountMinor=2))
    await seed(world, "bob", body("b1", amountMinor=3))
    data = await ok(server(world, "GET", "/spend/summary"))
    assert (data["grossAmountMinor"], data["payingPlayers"], data["arppuMinor"]) == (5, 2, 3)


async def summary_gross(world: World, **params: str) -> tuple[int, int]:
    data = await ok(server(world, "GET", "/spend/summary", params=params))
    return data["grossAmountMinor"], data["purchaseCount"]


async def test_summary_from_and_to_as_dates_include_both_whole_days(world: World) -> None:
    await world.register("ann")
    await seed(
        world,
        "ann",
        body("before", amountMinor=1, purchasedAt="2026-02-27T23:59:59.999Z"),
        body("first", amountMinor=10, purchasedAt="2026-02-28T00:00:00.000Z"),
        body("last", amountMinor=100, purchasedAt="2026-03-01T23:59:59.999Z"),
        body("after", amountMinor=1000, purchasedAt="2026-03-02T00:00:00.000Z"),
    )
    assert await summary_gross(world, **{"from": "2026-02-28", "to": "2026-03-01"}) == (110, 2)
    data = await ok(server(world, "GET", "/spend/summary", params={"from": "2026-02-28", "to": "2026-03-01"}))
    assert (data["from"], data["to"]) == ("2026-02-28T00:00:00.000Z", "2026-03-01T23:59:59.999Z")
    assert await summary_gross(world, **{"from": "2026-03-01", "to": "2026-03-01"}) == (100, 1)
    # Only ``from``: up to now. Only ``to``: the 30 days before it.
    assert await summary_gross(world, **{"from": "2026-03-01"}) == (1100, 2)
    data = await ok(server(world, "GET", "/spend/summary", params={"to": "2026-02-28"}))
    assert data["from"] == "2026-01-29T23:59:59.999Z" and data["grossAmountMinor"] == 11


async def test_summary_from_and_to_as_timestamps_include_both_instants(world: World) -> None:
    await world.register("ann")
    await seed(
        world,
        "ann",
        body("t1", amountMinor=1, purchasedAt="2026-03-01T10:00:00.000Z"),
        body("t2", amountMinor=10, purchasedAt="2026-03-01T11:00:00.000Z"),
        body("t3", amountMinor=100, purchasedAt="2026-03-01T12:00:00.000Z"),
    )
    both = {"from": "2026-03-01T10:00:00.000Z", "to": "2026-03-01T11:00:00.000Z"}
    assert await summary_gross(world, **both) == (11, 2)
    assert await summary_gross(
        world, **{"from": "2026-03-01T10:00:00.001Z", "to": "2026-03-01T12:00:00Z"}
    ) == (110, 2)
    # An offset is converted to UTC (11:00+01:00 is 10:00Z).
    assert await summary_gross(
        world, **{"from": "2026-03-01T11:00:00+01:00", "to": "2026-03-01T10:00:00Z"}
    ) == (1, 1)
    same = {"from": "2026-03-01T11:00:00.000Z", "to": "2026-03-01T11:00:00.000Z"}
    assert await summary_gross(world, **same) == (10, 1)


@pytest.mark.parametrize(
    "params",
    [
        {"from": "yesterday"},
        {"to": "2026-13-01"},
        {"from": "2026-02-30"},
        {"from": "2026-03-01T10:00:00"},  # no time zone
        {"from": "2026-03-02", "to": "2026-03-01"},  # from after to
        {"from": "2026-03-01T10:00:00.001Z", "to": "2026-03-01T10:00:00Z"},
        {"since": "2026-03-01"},
    ],
)
async def test_bad_summary_bounds_are_400(world: World, params: dict[str, str]) -> None:
    status, got, _ = await server(world, "GET", "/spend/summary", params=params)
    assert (status, got["error"]["code"]) == (400, "invalid_request")


async def test_summary_needs_a_server_key(world: World) -> None:
    status, got, _ = await world.call("GET", "/server/v1/spend/summary", key="test-client")
    assert status == 403, got
    status, got, _ = await world.call("GET", "/server/v1/spend/summary", key=None)
    assert status == 401, got


# --- Environments, games and merges ------------------------------------------------------------------


async def test_reports_stay_in_their_environment_and_game(world: World) -> None:
    await seed_spenders(world)
    await world.register("liv", key="live-client")
    await ok(server_track(world, "liv", body("l1", amountMinor=99999), key="live-server"))
    await world.register("oth", key=world.other_keys["test-client"])
    await ok(server_track(world, "oth", body("o1", amountMinor=77777), key=world.other_keys["test-server"]))
    assert [r[0] for r in await spender_rows(world)] == ["cat", "dan", "ann", "bob"]
    live = await ok(server(world, "GET", "/spend/players", key="live-server"))
    assert [p["externalPlayerId"] for p in live["players"]] == ["liv"]
    live_summary = await ok(server(world, "GET", "/spend/summary", key="live-server"))
    assert (live_summary["grossAmountMinor"], live_summary["payingPlayers"]) == (99999, 1)
    other = await ok(server(world, "GET", "/spend/summary", key=world.other_keys["test-server"]))
    assert other["grossAmountMinor"] == 77777


async def test_a_merged_players_purchases_follow_the_target(world: World) -> None:
    await world.register("ann")
    await world.register("bob")
    await seed(world, "ann", body("a1", amountMinor=100, purchasedAt=ago(days=2)))
    await seed(world, "bob", body("b1", amountMinor=10, purchasedAt=ago(days=1)))
    merged = await ok(server(world, "POST", "/players/ann/merge-into/bob"))
    assert merged["status"] == "merged"
    listed = await ok(server(world, "GET", "/players/bob/purchases"))
    assert [(p["transactionId"], p["externalPlayerId"]) for p in listed["purchases"]] == [
        ("b1", "bob"),
        ("a1", "bob"),
    ]
    spend = await ok(server(world, "GET", "/players/bob/spend"))
    assert (spend["lifetimeAmountMinor"], spend["purchaseCount"]) == (110, 2)
    assert spend["firstPurchaseAt"] == ago(days=2)
    assert await spender_rows(world) == [("bob", 110, 2)]
    summary = await ok(server(world, "GET", "/spend/summary"))
    assert (summary["grossAmountMinor"], summary["payingPlayers"]) == (110, 1)
    status, got, _ = await server(world, "GET", "/players/ann/purchases")
    assert (status, got["error"]["code"]) == (404, "player_not_found")
    # The store reporting ann's old transaction again, now for bob, is a replay of the moved purchase.
    status, got, headers = await server_track(world, "bob", body("a1", amountMinor=100))
    assert status == 200 and headers.get("Idempotent-Replay") == "true"
    assert got["data"]["purchase"]["externalPlayerId"] == "bob"
    assert got["data"]["purchaseCount"] == 2
    assert len(tracked(world)) == 2


@pytest.mark.parametrize("params", [{"to": "9999-12-31"}, {"to": "0001-01-01"}, {"from": "0001-01-01"}])
async def test_summary_bounds_at_the_ends_of_the_calendar_are_answered_not_500(
    world: World, params: dict[str, str]
) -> None:
    """A date the service parses must not crash it: a 200 (nothing sold then) or a 400 (range refused)."""
    status, got, _ = await server(world, "GET", "/spend/summary", params=params)
    assert status in (200, 400), got


async def test_the_server_verifies_a_purchase_the_client_reported_unverified(db_url: str) -> None:
    from tests.conftest import start_world

    world = await start_world(db_url)
    try:
        secret = await world.register("vic")
        body = {
            "transactionId": "tx-verify",
            "store": "app_store",
            "productId": "gems",
            "productType": "consumable",
            "amountMinor": 199,
            "currency": "USD",
        }
        status, sent, _ = await world.call(
            "POST", "/sdk/v1/players/vic/purchases", key="test-client", secret=secret, json=body
        )
        assert status == 200 and sent["data"]["purchase"]["validationStatus"] == "unverified"
        status, verified, headers = await world.call(
            "POST",
            "/server/v1/players/vic/purchases",
            json={**body, "validationStatus": "verified"},
            headers={"Idempotency-Key": "verify-1"},
        )
        assert status == 200 and "Idempotent-Replay" not in headers
        assert verified["data"]["purchase"]["validationStatus"] == "verified"
        assert verified["data"]["purchaseCount"] == 1
        # Never back to unverified, and one purchase.tracked only.
        status, again, _ = await world.call(
            "POST", "/server/v1/players/vic/purchases", json=body, headers={"Idempotency-Key": "verify-2"}
        )
        assert again["data"]["purchase"]["validationStatus"] == "verified"
        assert world.event_kinds().count("purchase.tracked") == 1
    finally:
        await world.client.close()
