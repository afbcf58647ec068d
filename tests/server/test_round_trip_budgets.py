"""The writes' round-trip budgets on PostgreSQL: how many times one request of each waits for PostgreSQL's
answer, pinned (docs/architecture.md, "Round trips").

On PostgreSQL every statement whose answer a request waits for costs a round trip to the database, and
while a write waits its locks are held: a round trip is time in which the player's other writes (or, for a
write that holds its game's lock alone, the game's) wait. A registration, a server grant, a gift sent and
claimed, an event's progress, a crate opened and a guild donation are the writes games do most. Each alone
here, its round trips counted as the bench counts them (:mod:`livecore_server.storage.postgres_tally`):
the rate-limit bucket of a key with the default limits (a lease of one token; the ``arcade`` keys' lifted
limits lease many), the idempotency pre-check outside the transaction, the transaction's locks with its
BEGIN and reads ahead, each statement whose answer the command reads, the COMMIT. A change that adds
a round trip to a route fails here, naming the statements each waited for, so that it is made on purpose
and the budget raised with it; a change that removes one lowers the budget. The statements sent are
pinned too, as on SQLite (tests/server/test_statement_budgets.py), but here every one PostgreSQL is sent,
BEGIN and COMMIT included.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from livecore_server.app import DISPATCHER
from livecore_server.storage.postgres_tally import Tally, counting
from tests.conftest import World, start_world
from tests.server.event_support import Arcade, start_event_world
from tests.server.test_friends_query_plans import caches_kept
from tests.server.test_statement_tally import _written

UNWRAPPED = psycopg.Cursor.execute  # nothing counts unless asked

P = "/sdk/v1/players"

# Route -> (round trips, statements) of one request alone.
BUDGETS = {
    "register": (4, 14),
    "server_grant": (4, 12),
    "send_gift": (4, 17),
    "claim_gift": (4, 17),
    "event_progress": (4, 17),
    "server_debit": (4, 13),
    "open_crate": (3, 19),
    "guild_donate": (3, 19),
}


@pytest.fixture
def backend() -> str:
    return "postgres"  # round trips are PostgreSQL's; SQLite runs in the process


@pytest.fixture
async def arcade(db_url: str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Arcade]:
    # The caches keep what they read for an hour, and nothing buffered is flushed in the middle of a
    # counted request: only the route's own round trips count.
    config = {**caches_kept(monkeypatch), "flush_every": 3600.0}
    game = await start_event_world(db_url, **config)
    # The webhook dispatcher fans out what a write emitted after it is answered, on a thread of its
    # own: not the route's round trips, and not in any order with them.
    await game.world.client.app[DISPATCHER].stop()
    try:
        yield game
    finally:
        await game.world.client.close()


async def _count(world: World, method: str, path: str, **kw: Any) -> tuple[Tally, Any]:
    with counting(record=True) as tally:
        status, body, _ = await world.call(method, path, **kw)
    assert status in (200, 201), body
    return tally, body


def _within(route: str, tally: Tally) -> None:
    trips, statements = BUDGETS[route]
    waited = "\n".join(f"  {i}. {trip}" for i, trip in enumerate(tally.waited_for(), start=1))
    print("\n###", route, tally.round_trips, tally.statements, "\n" + waited)
    assert (tally.round_trips, tally.statements) == (trips, statements), (
        f"{route} waits for PostgreSQL {tally.round_trips} times and sends {tally.statements} statements,"
        f" its budget is {trips} round trips and {statements} statements: change the budget on purpose"
        ' (docs/architecture.md, "Round trips")\n' + waited
    )


async def test_a_first_registration_keeps_its_round_trip_budget(arcade: Arcade) -> None:
    world = arcade.world
    await world.register("warm")  # the caches filled by an earlier request, as in a running server
    tally, _ = await _count(
        world, "POST", f"{P}/cy/register", key="test-client", headers={"Idempotency-Key": "reg-cy"}
    )
    _within("register", tally)


async def test_a_server_grant_keeps_its_round_trip_budget(arcade: Arcade) -> None:
    world = arcade.world
    await world.register("ann")
    grant = {"entries": [{"type": "currency", "key": "coins", "amount": 5}]}
    await world.call("POST", "/server/v1/players/ann/grants", json={**grant, "idempotencyKey": "warm"})
    tally, _ = await _count(
        world, "POST", "/server/v1/players/ann/grants", json={**grant, "idempotencyKey": "g1"}
    )
    _within("server_grant", tally)


async def test_sending_and_claiming_a_gift_keep_their_round_trip_budgets(arcade: Arcade) -> None:
    world = arcade.world
    secrets = {name: await world.register(name) for name in ("ann", "bob", "cy")}

    async def befriend(a: str, b: str) -> None:
        _, body, _ = await world.call(
            "POST",
            f"{P}/{a}/friends/requests",
            key="test-client",
            json={"externalPlayerId": b},
            secret=secrets[a],
        )
        rid = body["data"]["request"]["requestId"]
        await world.call(
            "POST", f"{P}/{b}/friends/requests/{rid}/accept", key="test-client", secret=secrets[b]
        )

    await befriend("ann", "bob")
    await befriend("cy", "bob")
    gift = {"externalPlayerId": "bob", "type": "currency", "resourceKey": "coins", "amount": 1}
    # A send and a claim before, so that what a running server has warm is warm.
    _, body, _ = await world.call(
        "POST",
        f"{P}/cy/friends/gifts",
        key="test-client",
        secret=secrets["cy"],
        json=gift,
        headers={"Idempotency-Key": "gift-0"},
    )
    await world.call(
        "POST",
        f"{P}/bob/friends/gifts/{body['data']['gift']['giftId']}/claim",
        key="test-client",
        secret=secrets["bob"],
        headers={"Idempotency-Key": "claim-0"},
    )
    sent, body = await _count(
        world,
        "POST",
        f"{P}/ann/friends/gifts",
        key="test-client",
        secret=secrets["ann"],
        json=gift,
        headers={"Idempotency-Key": "gift-1"},
    )
    _within("send_gift", sent)
    claimed, _ = await _count(
        world,
        "POST",
        f"{P}/bob/friends/gifts/{body['data']['gift']['giftId']}/claim",
        key="test-client",
        secret=secrets["bob"],
        headers={"Idempotency-Key": "claim-1"},
    )
    _within("claim_gift", claimed)


async def test_a_server_debit_keeps_its_round_trip_budget(arcade: Arcade) -> None:
    world = arcade.world
    await world.register("dee")
    wallet = "/server/v1/players/dee/wallet/coins"
    await world.call("POST", f"{wallet}/credit", json={"amount": 10, "idempotencyKey": "c1"})
    await world.call("POST", f"{wallet}/debit", json={"amount": 1, "idempotencyKey": "d0"})  # warm
    tally, _ = await _count(world, "POST", f"{wallet}/debit", json={"amount": 1, "idempotencyKey": "d1"})
    _within("server_debit", tally)


async def test_an_event_progress_keeps_its_round_trip_budget(arcade: Arcade) -> None:
    await arcade.register("gil", "hal")
    for who, strokes in (("hal", 6), ("gil", 9)):
        attempt = await arcade.started(who, "golf", context={"country": "FR"})
        await arcade.progressed(who, attempt["attemptId"], {"strokes": strokes}, event="golf")
    tally, _ = await _count(
        arcade.world,
        "POST",
        f"{P}/gil/events/golf/attempts/{attempt['attemptId']}/progress",
        key=arcade.api_key(arcade.client_key),
        secret=arcade.secrets["gil"],
        json={"metrics": {"strokes": 5}},
        headers={"Idempotency-Key": "progress-1"},
    )
    _within("event_progress", tally)


async def test_opening_a_crate_keeps_its_round_trip_budget(arcade: Arcade) -> None:
    await arcade.register("ann")
    crates = []
    for idem in ("c0", "c1"):
        status, body, _ = await arcade.server(
            "POST",
            "/players/ann/grants",
            {
                "idempotencyKey": idem,
                "kind": "crate",
                "entries": [{"type": "crate", "key": "chest", "amount": 1}],
            },
        )
        assert status == 201, body
        crates.append(body["data"]["grant"]["grantId"])
    status, body, _ = await arcade.sdk(
        "POST", "ann", f"/crates/{crates[0]}/open", headers={"Idempotency-Key": "o0"}
    )
    assert status in (200, 201), body
    tally, _ = await _count(
        arcade.world,
        "POST",
        f"{P}/ann/crates/{crates[1]}/open",
        key=arcade.api_key(arcade.client_key),
        secret=arcade.secrets["ann"],
        headers={"Idempotency-Key": "o1"},
    )
    _within("open_crate", tally)


async def _help_request(arcade: Arcade, donors: tuple[str, ...]) -> str:
    """ann's request for 5 gems in a guild with ``donors``, each holding 100 of them; its id."""
    await arcade.register("ann", *donors)
    for who in ("ann", *donors):
        for key in ("coins", "gems"):
            status, body, _ = await arcade.server(
                "POST",
                f"/players/{who}/wallet/{key}/credit",
                {"amount": 100, "idempotencyKey": f"{who}-{key}"},
            )
            assert status == 200, body
    status, body, _ = await arcade.sdk("POST", "ann", "/guilds", {"name": "Crew", "joinType": "open"})
    assert status == 201, body
    guild = body["data"]["guild"]["guildId"]
    for who in donors:
        status, body, _ = await arcade.sdk("POST", who, f"/guilds/{guild}/join")
        assert status == 200, body
    status, body, _ = await arcade.sdk(
        "POST", "ann", "/guild/help-requests", {"type": "currency", "resourceKey": "gems", "amount": 5}
    )
    assert status == 201, body
    return str(body["data"]["helpRequest"]["requestId"])


async def test_a_guild_donation_keeps_its_round_trip_budget(arcade: Arcade) -> None:
    path = f"/guild/help-requests/{await _help_request(arcade, ('bob',))}/donate"
    status, body, _ = await arcade.sdk("POST", "bob", path, {"amount": 1}, headers={"Idempotency-Key": "d0"})
    assert status == 200, body
    tally, _ = await _count(
        arcade.world,
        "POST",
        f"{P}/bob{path}",
        key=arcade.api_key(arcade.client_key),
        secret=arcade.secrets["bob"],
        json={"amount": 1},
        headers={"Idempotency-Key": "d1"},
    )
    _within("guild_donate", tally)


async def test_donations_together_see_each_other_through_what_was_read_ahead(arcade: Arcade) -> None:
    # Donations arriving together run in one group, after one read ahead of the request, the donors'
    # stints and balances: each sees what the ones before it changed (the request's total, a balance).
    path = f"/guild/help-requests/{await _help_request(arcade, ('bob', 'cy'))}/donate"
    answers = await asyncio.gather(
        *(arcade.sdk("POST", who, path, {"amount": 1}) for who in ("bob", "cy", "bob", "cy", "bob", "cy"))
    )
    given = Counter(
        who for who, (status, _, _) in zip(("bob", "cy") * 3, answers, strict=True) if status == 200
    )
    assert sum(given.values()) == 5, answers  # the sixth finds the request filled
    assert {status for status, _, _ in answers} <= {200, 409}, answers
    for who in ("bob", "cy"):
        assert await arcade.balance(who, "gems") == 100 - given[who]


async def test_a_postgres_server_writes_its_round_trips_on_sigusr1(db_url: str, tmp_path: Path) -> None:
    # What the bench reads (LIVECORE_STATEMENT_TALLY): statements and round trips, on each SIGUSR1; and
    # psycopg unwrapped again once the app stops, as it is when nothing asks.
    path = tmp_path / "tally.json"
    world = await start_world(db_url, statement_tally=str(path))
    try:
        assert psycopg.Cursor.execute is not UNWRAPPED
        await world.register("ann")
        os.kill(os.getpid(), signal.SIGUSR1)
        before = await _written(path, 1)
        grant = {"entries": [{"type": "currency", "key": "coins", "amount": 5}], "idempotencyKey": "g1"}
        status, body, _ = await world.call("POST", "/server/v1/players/ann/grants", json=grant)
        assert status == 201, body
        os.kill(os.getpid(), signal.SIGUSR1)
        after = await _written(path, 2)
        assert sorted(after) == ["retried", "retries", "round_trips", "seq", "statements", "writes"]
        assert after["round_trips"] - before["round_trips"] >= 2  # the grant's transaction, at least
        assert after["writes"] - before["writes"] >= 1  # the grant's, counted as it commits
        assert after["statements"] - before["statements"] > after["round_trips"] - before["round_trips"]
    finally:
        await world.client.close()
    assert psycopg.Cursor.execute is UNWRAPPED
    assert signal.getsignal(signal.SIGUSR1) == signal.SIG_DFL
