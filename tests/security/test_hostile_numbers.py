"""Integers past signed 64 bits (docs/reference/conventions.md#requests).

The probe: query integers of 2^63 and above gave a 500 (`offset`, `minAmountMinor`: SQLite and
PostgreSQL take 64 bits at most). Every integer of a query or a body must fit in signed 64 bits, else 400
`invalid_request` naming it.
"""

from __future__ import annotations

import pytest
from yarl import URL

from tests.conftest import World

TOO_BIG = 2**63
WIDE = "must fit in signed 64 bits"


@pytest.mark.parametrize(
    ("path", "name", "named"),
    [
        ("/server/v1/spend/players", "offset", "offset"),
        ("/server/v1/spend/players", "minAmountMinor", "minAmountMinor"),
        ("/server/v1/spend/players", "limit", "limit"),
        ("/server/v1/spend/players", "windowDays", "windowDays"),
        ("/server/v1/players/alice/spend", "windows", "windows[0]"),
        ("/server/v1/players/alice/gifts", "limit", "limit"),
        ("/server/v1/players/alice", "limit", "limit"),
    ],
)
@pytest.mark.parametrize("value", [TOO_BIG, -TOO_BIG - 1])
async def test_query_integers_of_2_63_and_above_are_400(
    world: World, path: str, name: str, named: str, value: int
) -> None:
    await world.register("alice")
    status, body, _ = await world.call("GET", URL(path).with_query({name: str(value)}))
    assert status == 400, body
    assert body["error"]["details"]["fields"] == {named: WIDE}


@pytest.mark.parametrize(
    ("path", "payload", "name"),
    [
        ("/server/v1/players/alice/wallet/coins/credit", {"amount": TOO_BIG}, "amount"),
        (
            "/server/v1/players/alice/purchases",
            {"transactionId": "t", "store": "s", "productId": "p", "productType": "c",
             "amountMinor": 2**64 - 1, "currency": "USD"},
            "amountMinor",
        ),
    ],
)  # fmt: skip
async def test_body_integers_of_2_63_and_above_are_400(
    world: World, path: str, payload: dict[str, object], name: str
) -> None:
    await world.register("alice")
    status, body, _ = await world.call("POST", path, json=payload, headers={"Idempotency-Key": "k"})
    assert status == 400, body
    assert body["error"]["details"]["fields"] == {name: WIDE}
    assert world.event_kinds() == ["player.registered", "player.secret_set"]


@pytest.mark.parametrize("text", [str(-TOO_BIG - 1), str(-(2**64)), str(2**64), "-9.223372036854775808e18"])
async def test_a_body_integer_past_64_bits_is_400_though_json_reads_it_as_a_rounded_float(
    world: World, text: str
) -> None:
    """The JSON parser reads an integer past 64 bits as a float, rounded: -2^63 - 1 arrives as -2.0^63, which
    a field taking 2.0 as 2 must not take for the in-range -2^63."""
    await world.register("alice")
    status, body, _ = await world.call(
        "POST",
        "/server/v1/players/alice/wallet/coins/credit",
        data=f'{{"amount": {text}}}',
        headers={"Idempotency-Key": "k", "Content-Type": "application/json"},
    )
    assert status == 400, body
    assert body["error"]["details"]["fields"] == {"amount": WIDE}
    assert world.event_kinds() == ["player.registered", "player.secret_set"]


@pytest.mark.parametrize("value", [TOO_BIG, 2**64 - 1])
async def test_integers_inside_a_free_form_object_fit_in_signed_64_bits_on_any_route(
    world: World, value: int
) -> None:
    """A free-form object (here ``playerContext``) is held to the same bound as a declared integer, named
    at the path inside it."""
    status, body, _ = await world.call(
        "POST",
        "/sdk/v1/players/alice/register",
        key="test-client",
        json={"playerContext": {"season": {"best": [1, value]}}},
    )
    assert status == 400, body
    assert body["error"]["details"]["fields"] == {"playerContext.season.best[1]": WIDE}
    assert world.event_kinds() == []
