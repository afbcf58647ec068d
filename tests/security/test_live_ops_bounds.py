"""The bounds of live-ops numbers and shapes (docs/reference/conventions.md#limits), through
the real app on SQLite and PostgreSQL.

The probe: event progress took any finite float (1.79e308, 2^64, ...), and the shared board the event fed
summed them until it showed ``score: null``; crate entries of amount -5, 0 and -3 were granted by the
server and the admin grant routes; a string where a list belongs was iterated (``externalPlayerIds:
"abc"`` seated players ``a``, ``b`` and ``c``). Every number that reaches a board is now finite and within
+-(2^53 - 1), a board's sum stops at that bound, a crate entry holds 1 to 1,000 crates, and an array
field takes a JSON array only; whatever is refused changes nothing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from livecore.limits import SAFE_INTEGER_MAX
from tests.conftest import World, start_world
from tests.server.admin_support import GAME, admin, sign_in
from tests.server.leaderboard_support import League, start_league_world

BOUND = f"must be a finite number from -{SAFE_INTEGER_MAX:,} to {SAFE_INTEGER_MAX:,}"
OUTSIDE = [1.79e308, 1e308, 10**100, 2**64, -(2**63) - 1, SAFE_INTEGER_MAX + 1, -SAFE_INTEGER_MAX - 1]


@pytest.fixture
async def league(db_url: str) -> AsyncIterator[League]:
    found = await start_league_world(db_url)
    try:
        yield found
    finally:
        await found.world.client.close()


def board_rows(world: World) -> list[Any]:
    return world.rows("SELECT player_id, score FROM shared_entries")


@pytest.mark.parametrize("value", OUTSIDE, ids=repr)
async def test_event_progress_refuses_a_metric_outside_the_board_bound(league: League, value: float) -> None:
    await league.register("ann")
    status, body, _ = await league.sdk("POST", "ann", "/events/dash/start")
    assert status == 201, body
    attempt = body["data"]["attempt"]["attemptId"]
    before = league.world.rows("SELECT score, metrics FROM attempts")
    status, body, _ = await league.sdk(
        "POST", "ann", f"/events/dash/attempts/{attempt}/progress", {"metrics": {"score": value}}
    )
    assert (status, body["error"]["code"]) == (400, "invalid_request")
    assert body["error"]["details"]["fields"] == {"metrics.score": BOUND}
    assert league.world.rows("SELECT score, metrics FROM attempts") == before
    assert board_rows(league.world) == []


async def test_a_summed_board_stops_at_the_bound_instead_of_overflowing(league: League) -> None:
    await league.register("ann")
    for idem in ("a", "b", "c"):
        status, body, _ = await league.submit("ann", SAFE_INTEGER_MAX, idem=idem)
        assert status == 200, body
    assert await league.entries("weekly-xp") == [(1, "ann", SAFE_INTEGER_MAX)]
    # The event's feed sums into the same board, and stops there too.
    status, body, _ = await league.sdk("POST", "ann", "/events/dash/start")
    attempt = body["data"]["attempt"]["attemptId"]
    status, body, _ = await league.sdk(
        "POST", "ann", f"/events/dash/attempts/{attempt}/progress", {"metrics": {"score": SAFE_INTEGER_MAX}}
    )
    assert status == 200, body
    assert await league.entries("weekly-xp") == [(1, "ann", SAFE_INTEGER_MAX)]


@pytest.mark.parametrize("value", [1e308, 2**64, -(2**63)], ids=repr)
async def test_a_submitted_score_outside_the_bound_is_refused(league: League, value: float) -> None:
    await league.register("ann")
    status, body, _ = await league.submit("ann", value)
    assert (status, body["error"]["code"]) == (400, "invalid_request")
    assert board_rows(league.world) == []


# --- crate entries ------------------------------------------------------------------------------------

CHEST = """
[games.space-race.resources.gems]
type = "currency"

[games.space-race.crates.chest]
table = [{ weight = 1, rewards = [{ type = "currency", key = "gems", amount = 5 }] }]
"""


@pytest.fixture
async def world(db_url: str) -> AsyncIterator[World]:
    found = await start_world(db_url, manifest_extra=CHEST)
    try:
        yield found
    finally:
        await found.client.close()


def grant_count(world: World) -> int:
    return len(world.rows("SELECT id FROM grants"))


@pytest.mark.parametrize("amount", [-5, 0, -3, 1001])
async def test_crate_entry_amounts_outside_1_to_1000_are_refused_by_the_server(
    world: World, amount: int
) -> None:
    await world.register("ann", key="test-client")
    body = {
        "idempotencyKey": "k",
        "kind": "crate",
        "entries": [{"type": "crate", "key": "chest", "amount": amount}],
    }
    status, answer, _ = await world.call("POST", "/server/v1/players/ann/grants", json=body)
    assert (status, answer["error"]["code"]) == (400, "invalid_request"), answer
    assert list(answer["error"]["details"]["fields"]) == ["entries[0].amount"]
    assert grant_count(world) == 0


@pytest.mark.parametrize("amount", [-5, 0, -3, 1001])
async def test_crate_entry_amounts_outside_1_to_1000_are_refused_by_the_admin_grant(
    world: World, amount: int
) -> None:
    await world.register("ann", key="test-client")
    gina = await sign_in(world, "gina")
    body = {
        "externalPlayerId": "ann",
        "kind": "crate",
        "entries": [{"type": "crate", "key": "chest", "amount": amount}],
        "reason": "support",
    }
    status, answer, _ = await admin(world, "POST", f"{GAME}/grants?env=test", gina, json=body)
    assert (status, answer["error"]["code"]) == (400, "invalid_request"), answer
    assert grant_count(world) == 0


@pytest.mark.parametrize("amount", [0, -1, 10**12 + 1])
async def test_reward_entry_amounts_outside_1_to_10_12_are_refused(world: World, amount: int) -> None:
    await world.register("ann", key="test-client")
    body = {"idempotencyKey": "k", "entries": [{"type": "currency", "key": "coins", "amount": amount}]}
    status, answer, _ = await world.call("POST", "/server/v1/players/ann/grants", json=body)
    assert (status, answer["error"]["code"]) == (400, "invalid_request"), answer
    assert grant_count(world) == 0


# --- arrays -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["abc", "5", {"a": 1}, 5])
async def test_a_string_where_a_list_is_expected_is_refused_not_iterated(world: World, value: Any) -> None:
    await world.register("ann", key="test-client")
    body = {"idempotencyKey": "k", "entries": value}
    status, answer, _ = await world.call("POST", "/server/v1/players/ann/grants", json=body)
    assert (status, answer["error"]["code"]) == (400, "invalid_request"), answer
    assert answer["error"]["details"]["fields"] == {"entries": "must be an array"}
    assert grant_count(world) == 0
