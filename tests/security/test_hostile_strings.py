"""Characters no string of a request may hold (docs/reference/conventions.md#requests).

The probes: a NUL gave a 500, in SQLite's name search (`q`) and in PostgreSQL's text columns; names and
ids took control, zero-width and bidirectional characters (a display name `"\\u202eevil"`, an id made
only of `\\u200b`). No string may hold NUL (body, free-form objects, query, path); names and ids hold no
other control or format character either: 400 `invalid_request` naming the field, and nothing changes.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from yarl import URL

from tests.conftest import World

NUL = "must not contain NUL characters"
CONTROL = "must not contain control or format characters"
IDEM = {"Idempotency-Key": "k-strings"}


async def test_nul_in_search_q_is_400(world: World) -> None:
    secret = await world.register("alice")
    for q in ("abc\x00", "\x00", "a\x00"):
        status, body, _ = await world.call(
            "GET",
            URL("/sdk/v1/players/alice/friends/search").with_query(q=q),
            key="test-client",
            secret=secret,
        )
        assert status == 400, body
        assert body["error"]["details"]["fields"] == {"q": NUL}


# (method, path, body, the field named, what is wrong): strings that PostgreSQL's text and jsonb columns
# cannot hold, on the routes that store them.
STORED = [
    ("PUT", "/server/v1/players/alice/identity", {"name": "A\x00n"}, "name", NUL),
    ("POST", "/server/v1/players/alice/ban", {"reason": "x\x00"}, "reason", NUL),
    ("POST", "/server/v1/players/alice/debug", {"reason": "x\x00"}, "reason", NUL),
    (
        "POST",
        "/server/v1/players/alice/wallet/coins/credit",
        {"amount": 1, "reason": "gift\x00", "sourceRefId": "r"},
        "reason",
        NUL,
    ),
    (
        "POST",
        "/server/v1/players/alice/grants",
        {"idempotencyKey": "k-strings", "entries": [{"type": "currency", "key": "coins", "amount": 1}],
         "metadata": {"note\x00": 1}},
        "metadata",
        NUL,
    ),
    (
        "POST",
        "/server/v1/players/alice/purchases",
        {"transactionId": "t-1", "store": "app_store", "productId": "gems", "productType": "consumable",
         "amountMinor": 99, "currency": "USD", "metadata": {"campaign": ["spring", "x\x00"]}},
        "metadata",
        NUL,
    ),
]  # fmt: skip


@pytest.mark.parametrize(("method", "path", "payload", "field", "problem"), STORED)
async def test_nul_in_text_columns_is_400_and_stores_nothing(
    world: World, method: str, path: str, payload: dict[str, Any], field: str, problem: str
) -> None:
    await world.register("alice")
    before = world.event_kinds()
    status, body, _ = await world.call(method, path, json=payload, headers=IDEM)
    assert status == 400, body
    assert body["error"]["code"] == "invalid_request"
    assert body["error"]["details"]["fields"] == {field: problem}
    assert world.event_kinds() == before


async def test_nul_in_the_heartbeat_status_is_400(world: World) -> None:
    secret = await world.register("alice")
    status, body, _ = await world.call(
        "POST", "/sdk/v1/players/alice/presence", key="test-client", secret=secret, json={"status": "\x00"}
    )
    assert status == 400, body
    assert body["error"]["details"]["fields"] == {"status": NUL}
    # Only NUL is refused outside names and ids: free text may hold a tab or a line break.
    status, body, _ = await world.call(
        "POST", "/sdk/v1/players/alice/presence", key="test-client", secret=secret, json={"status": "a\tb"}
    )
    assert status == 200, body


@pytest.mark.parametrize(
    ("external_id", "problem"),
    [("a\x00b", NUL), ("\u200b", CONTROL), ("\u202eevil", CONTROL), ("tab\there", CONTROL)],
)
async def test_an_id_of_nul_zero_width_or_bidi_characters_is_400(
    world: World, external_id: str, problem: str
) -> None:
    status, body, _ = await world.call(
        "POST", URL(f"/sdk/v1/players/{quote(external_id)}/register", encoded=True), key="test-client"
    )
    assert status == 400, body
    assert body["error"]["details"]["fields"] == {"externalId": problem}
    assert world.event_kinds() == []


@pytest.mark.parametrize("record_id", ["g\x00", "\u200b", "g" * 300])
@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("grants/{}/claim", "grant_not_found"),
        ("friends/gifts/{}/claim", "gift_not_found"),
        ("friends/requests/{}/accept", "friend_request_not_found"),
    ],
)
async def test_a_malformed_record_id_in_a_path_is_the_records_404(
    world: World, record_id: str, path: str, code: str
) -> None:
    """A record id names nothing, whatever its form: the area's 404, as for a well-formed unknown id
    (and the NUL never reaches PostgreSQL's text)."""
    secret = await world.register("alice")
    url = URL(f"/sdk/v1/players/alice/{path.format(quote(record_id))}", encoded=True)
    status, body, _ = await world.call(
        "POST", url, key="test-client", secret=secret, headers={"Idempotency-Key": "k-record"}
    )
    assert (status, body["error"]["code"]) == (404, code), body


@pytest.mark.parametrize("name", ["\u202eevil", "Ann\u200b", "A\u0007nn", "\u2066Ann\u2069"])
async def test_a_display_name_of_bidi_zero_width_or_control_characters_is_400(
    world: World, name: str
) -> None:
    secret = await world.register("alice")
    status, body, _ = await world.call(
        "PUT", "/sdk/v1/players/alice/identity", key="test-client", secret=secret, json={"name": name}
    )
    assert status == 400, body
    assert body["error"]["details"]["fields"] == {"name": CONTROL}


async def test_ids_in_bodies_and_queries_are_checked_too(world: World) -> None:
    secret = await world.register("alice")
    status, body, _ = await world.call(
        "POST",
        "/sdk/v1/players/alice/friends/requests",
        key="test-client",
        secret=secret,
        json={"externalPlayerId": "\u200b"},
    )
    assert (status, body["error"]["details"]["fields"]) == (400, {"externalPlayerId": CONTROL})
    status, body, _ = await world.call(
        "POST",
        "/server/v1/migrate/players",
        json={"rows": [{"externalPlayerId": "\u202ebob", "idempotencyKey": "m1"}]},
        headers=IDEM,
    )
    assert (status, body["error"]["details"]["fields"]) == (400, {"rows[0].externalPlayerId": CONTROL})
    status, body, _ = await world.call(
        "GET",
        URL("/sdk/v1/players/alice/friends").with_query(progression="coins\u200b"),
        key="test-client",
        secret=secret,
    )
    assert (status, body["error"]["details"]["fields"]) == (400, {"progression": CONTROL})
