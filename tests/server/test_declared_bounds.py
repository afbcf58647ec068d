"""Through the real app: a bound the OpenAPI documents declare is the bound the server keeps
(docs/reference/conventions.md#requests)."""

from __future__ import annotations

import pytest

from tests.conftest import World


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("player=", "player"),
        ("player=" + "p" * 201, "player"),
        ("offset=-1", "offset"),
        ("limit=0", "limit"),
    ],
)
async def test_a_guild_list_refuses_what_its_document_forbids(world: World, query: str, field: str) -> None:
    status, body, _ = await world.call("GET", f"/server/v1/guilds?{query}")
    assert status == 400, body
    assert list(body["error"]["details"]["fields"]) == [field]


@pytest.mark.parametrize(
    "query", ["windowDays=0", "windowDays=3651", "minAmountMinor=-1", "limit=201", "offset=-1"]
)
async def test_the_spenders_query_names_the_parameter_it_refuses(world: World, query: str) -> None:
    status, body, _ = await world.call("GET", f"/server/v1/spend/players?{query}")
    assert status == 400, body
    assert list(body["error"]["details"]["fields"]) == [query.split("=")[0]]


@pytest.mark.parametrize(
    "path", ["/server/v1/players/p1", "/server/v1/players/p1/gifts", "/server/v1/players/p1/purchases"]
)
async def test_a_player_s_lists_take_1_to_200(world: World, path: str) -> None:
    await world.register("p1")
    for limit, expected in ((0, 400), (201, 400), (1, 200), (200, 200)):
        status, body, _ = await world.call("GET", f"{path}?limit={limit}")
        assert status == expected, (limit, body)


async def test_a_body_integer_written_2_0_is_2(world: World) -> None:
    await world.register("p1")
    status, body, _ = await world.call(
        "POST",
        "/server/v1/players/p1/wallet/coins/credit",
        json={"amount": 2.0},
        headers={"Idempotency-Key": "two"},
    )
    assert status == 200, body
    assert body["data"]["delta"] == 2
