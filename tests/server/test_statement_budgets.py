"""The hot routes' statement budgets: how many statements one request of each runs on SQLite, pinned.

The friends list, a first registration, a server grant, a gift sent and a gift claimed are what games do
most; each statement of theirs costs every one of those requests (docs/architecture.md#hot-path-choices).
A change that adds a statement to one of them fails here, naming the statements, so that it is made on
purpose and the budget raised with it; a change that removes one lowers the budget. Counted with SQLite's
trace callback, the caches kept for the whole test (``caches_kept``) so that only the route's own
statements count; the webhook dispatcher's (it shares the connection), the transaction's own
BEGIN/COMMIT/SAVEPOINT and SQLite's inner statements (its full-text index's, a write traced again per
trigger) are not the route's.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from livecore_server.storage.sqlite import SqliteStore
from tests.conftest import World
from tests.server.test_friends_query_plans import caches_kept

P = "/sdk/v1/players"
WEBHOOK_TABLES = re.compile(r"\b(outbox|webhook_\w+)\b")
TRANSACTION = re.compile(r"^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b", re.IGNORECASE)

# Route -> statements per request: SELECTs read (the caller, the idempotency record, what the rule needs),
# the rest write (rows, the idempotency record, an audit entry for a registration). The webhook events'
# outbox rows are not counted: the dispatcher's statements on the same tables could not be told apart.
BUDGETS = {
    "list_friends": 3,
    "register": 6,
    "server_grant": 5,
    "send_gift": 10,
    "claim_gift": 12,
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
        if s.startswith("--") or WEBHOOK_TABLES.search(s) or TRANSACTION.match(s):
            continue  # not the route's (see the module docstring)
        if own and s == own[-1] and not s.lstrip().upper().startswith("SELECT"):
            continue  # a write traced again for each trigger it fires
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
