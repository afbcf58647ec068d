"""The hot routes' statement budgets: how many statements one request of each runs on SQLite, pinned.

The friends list, a first registration, a server grant, a gift sent and a gift claimed are what games do
most; each statement of theirs costs every one of those requests (docs/architecture.md#hot-path-choices).
Every other list that shows players (requests, blocks, search, suggestions, gifts, the server's reads) is
pinned too, over rows of several players: a statement per row would show as soon as it appeared. A change
that adds a statement to a route fails here, naming the statements, so that it is made on purpose and the
budget raised with it; a change that removes one lowers the budget. Counted with SQLite's trace callback,
the caches kept for the whole test (``caches_kept``) so that only the route's own statements count; the
webhook dispatcher's (it shares the connection), the store's look for other processes' commits (``PRAGMA
data_version``, SqliteStore.watch), the transaction's own BEGIN/COMMIT/SAVEPOINT and SQLite's inner
statements (its full-text index's, a write traced again per trigger) are not the route's.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from livecore_server.players.presence import PRESENCE_BOARD
from livecore_server.statement_tally import not_its_own
from livecore_server.storage.sqlite import SqliteStore
from tests.conftest import World
from tests.server.test_friends_query_plans import caches_kept

P = "/sdk/v1/players"
WEBHOOK_TABLES = re.compile(r"\b(outbox|webhook_\w+)\b")
TRANSACTION = re.compile(r"^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b", re.IGNORECASE)
STORE_WATCH = re.compile(r"^\s*PRAGMA data_version\b")

# Route -> statements per request: SELECTs read (the idempotency record before the write; then the players
# with the record again in one statement, and what the rule needs in one more:
# livecore_server/storage/sqlite_prefetch.py), the rest write (rows, the idempotency record, an audit
# entry for a registration). The webhook events' outbox rows are not counted: the dispatcher's statements
# on the same tables could not be told apart.
BUDGETS = {
    "list_friends": 3,
    # The other lists that show players: a fixed count whatever their length (each reads its rows with the
    # players' cards in one statement), for rows of two or more players here.
    "friends.requests.list": 2,
    "friends.blocks.list": 2,
    "friends.search": 5,
    "friends.suggestions": 5,
    "gifts.inbox": 2,
    "gifts.sent": 2,
    "server.friends.list": 3,
    "server.friends.requests": 2,
    "server.friends.blocks": 2,
    "server.gifts.list": 2,
    "register": 5,
    "server_grant": 4,
    "send_gift": 6,
    "claim_gift": 8,
}


@pytest.fixture
def world_config(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    # No flush of buffered key usage and heartbeats in the middle of a counted request, either.
    return {**caches_kept(monkeypatch), "flush_every": 3600.0}


@pytest.fixture
def backend() -> str:
    return "sqlite"  # SQLite's trace callback counts the statements


async def _count(world: World, method: str, path: str, **kw: Any) -> tuple[list[str], Any]:
    store = world.services.store
    assert isinstance(store, SqliteStore)
    statements: list[str] = []
    store.conn.set_trace_callback(statements.append)
    try:
        status, body, _ = await world.call(method, path, **kw)
    finally:
        store.conn.set_trace_callback(None)
    assert status in (200, 201), body
    own: list[str] = []
    for s in statements:
        if (
            not_its_own(s, own[-1] if own else "")
            or WEBHOOK_TABLES.search(s)
            or TRANSACTION.match(s)
            or STORE_WATCH.match(s)
        ):
            continue  # not the route's (see the module docstring)
        own.append(s)
    return own, body


async def _friends(world: World) -> dict[str, str]:
    secrets = {name: await world.register(name) for name in ("ann", "bob")}
    _, body, _ = await world.call(
        "POST",
        f"{P}/ann/friends/requests",
        key="test-client",
        json={"externalPlayerId": "bob"},
        secret=secrets["ann"],
    )
    rid = body["data"]["request"]["requestId"]
    await world.call(
        "POST", f"{P}/bob/friends/requests/{rid}/accept", key="test-client", secret=secrets["bob"]
    )
    return secrets


def _within(route: str, statements: list[str]) -> None:
    print("\n###", route, len(statements))
    [print("   ", s.strip()[:300]) for s in statements]
    listed = "\n".join(f"  {s.strip()[:100]}" for s in statements)
    assert len(statements) == BUDGETS[route], (
        f"{route} runs {len(statements)} statements, its budget is {BUDGETS[route]}: change the budget on"
        f" purpose (docs/architecture.md#hot-path-choices)\n{listed}"
    )


async def test_the_friends_list_runs_its_budget_of_statements(world: World) -> None:
    secrets = await _friends(world)
    path = f"{P}/ann/friends"
    await world.call("GET", path, key="test-client", secret=secrets["ann"])  # its friend code, made once
    statements, _ = await _count(world, "GET", path, key="test-client", secret=secrets["ann"])
    _within("list_friends", statements)


async def test_the_build_headers_add_no_statement_to_the_friends_list_or_a_registration(world: World) -> None:
    # What a game's SDK sends on every request: a change waits for the presence board's flush, the row
    # being registered takes it with its insert, and a request that reports what is kept writes nothing.
    build = {"X-Svc-Platform": "ios", "X-Svc-App-Version": "1.4.2"}
    secrets = await _friends(world)
    path = f"{P}/ann/friends"
    await world.call("GET", path, key="test-client", secret=secrets["ann"])  # its friend code, made once
    changed, _ = await _count(world, "GET", path, key="test-client", secret=secrets["ann"], headers=build)
    _within("list_friends", changed)
    await world.services.of(PRESENCE_BOARD).flush_async(world.services.store)
    kept, _ = await _count(world, "GET", path, key="test-client", secret=secrets["ann"], headers=build)
    _within("list_friends", kept)
    statements, _ = await _count(
        world, "POST", f"{P}/cy/register", key="test-client", headers={**build, "Idempotency-Key": "reg-cy"}
    )
    _within("register", statements)


async def test_a_first_registration_runs_its_budget_of_statements(world: World) -> None:
    await world.register("warm")  # the caches filled by an earlier request, as in a running server
    statements, _ = await _count(
        world, "POST", f"{P}/cy/register", key="test-client", headers={"Idempotency-Key": "reg-cy"}
    )
    _within("register", statements)


async def test_a_server_grant_runs_its_budget_of_statements(world: World) -> None:
    await world.register("ann")
    grant = {"entries": [{"type": "currency", "key": "coins", "amount": 5}]}
    await world.call("POST", "/server/v1/players/ann/grants", json={**grant, "idempotencyKey": "warm"})
    statements, _ = await _count(
        world, "POST", "/server/v1/players/ann/grants", json={**grant, "idempotencyKey": "g1"}
    )
    _within("server_grant", statements)


async def test_sending_and_claiming_a_gift_run_their_budgets_of_statements(world: World) -> None:
    secrets = await _friends(world)
    gift = {"externalPlayerId": "bob", "type": "currency", "resourceKey": "coins", "amount": 1}
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
    gift_id = body["data"]["gift"]["giftId"]
    claimed, _ = await _count(
        world,
        "POST",
        f"{P}/bob/friends/gifts/{gift_id}/claim",
        key="test-client",
        secret=secrets["bob"],
        headers={"Idempotency-Key": "claim-1"},
    )
    _within("claim_gift", claimed)


# Route -> the path ann's list is read at (the SDK's as ann, the server's with the server key).
LISTS = {
    "friends.requests.list": f"{P}/ann/friends/requests",
    "friends.blocks.list": f"{P}/ann/friends/blocks",
    "friends.search": f"{P}/ann/friends/search?q=bo",
    "friends.suggestions": f"{P}/ann/friends/suggestions",
    "gifts.inbox": f"{P}/ann/friends/gifts/inbox",
    "gifts.sent": f"{P}/ann/friends/gifts/sent",
    "server.friends.list": "/server/v1/players/ann/friends",
    "server.friends.requests": "/server/v1/players/ann/friends/requests",
    "server.friends.blocks": "/server/v1/players/ann/blocks",
    "server.gifts.list": "/server/v1/players/ann/gifts",
}


@pytest.mark.parametrize("route", sorted(LISTS))
async def test_every_player_list_runs_its_budget_of_statements(world: World, route: str) -> None:
    # ann: two friends (bob, bo2, with gifts both ways), two requests out (cy, dee) and two in (eve, fay),
    # two blocks (gus, hal), and two strangers to be suggested (ivy, jo).
    names = ("ann", "bob", "bo2", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo")
    secrets = {name: await world.register(name) for name in names}

    async def call(who: str, method: str, path: str, **kw: Any) -> Any:
        world.clock.advance(1)  # rows in a known order
        status, body, _ = await world.call(
            method, f"{P}/{who}{path}", key="test-client", secret=secrets[who], **kw
        )
        assert status in (200, 201), body
        return body["data"]

    for name, shown in (("bob", "Bob"), ("bo2", "Boa")):
        await call(name, "PUT", "/identity", json={"name": shown, "avatar": None})
    for friend in ("bob", "bo2"):
        request = (await call("ann", "POST", "/friends/requests", json={"externalPlayerId": friend}))[
            "request"
        ]
        await call(friend, "POST", f"/friends/requests/{request['requestId']}/accept")
    for other in ("cy", "dee"):
        await call("ann", "POST", "/friends/requests", json={"externalPlayerId": other})
    for other in ("eve", "fay"):
        await call(other, "POST", "/friends/requests", json={"externalPlayerId": "ann"})
    for other in ("gus", "hal"):
        await call("ann", "POST", "/friends/blocks", json={"externalPlayerId": other})
    gift = {"type": "currency", "resourceKey": "coins", "amount": 1}
    for friend in ("bob", "bo2"):
        await call("ann", "POST", "/friends/gifts", json={**gift, "externalPlayerId": friend})
        await call(friend, "POST", "/friends/gifts", json={**gift, "externalPlayerId": "ann"})
    for name in names:
        await call(name, "POST", "/presence", json={})  # active: suggestions draw from them
    path = LISTS[route]
    kw: dict[str, Any] = (
        {} if path.startswith("/server/") else {"key": "test-client", "secret": secrets["ann"]}
    )
    await world.call("GET", path, **kw)  # caches and the friend code, as in a running server
    statements, body = await _count(world, "GET", path, **kw)
    rows = body["data"]
    if isinstance(rows, dict):
        rows = next(v for v in rows.values() if isinstance(v, list))
    assert len(rows) >= 2, body  # a list of several players, so that a statement per row would show
    _within(route, statements)
