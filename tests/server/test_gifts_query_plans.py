"""Gift reads and the send path stay indexed and a fixed number of statements at any size:
every SELECT they run is checked with EXPLAIN QUERY PLAN for table scans, and the statement count does
not grow with the number of friends and gifts."""

from __future__ import annotations

import re
from typing import Any

import pytest

from livecore_server.storage.sqlite import SqliteStore
from tests.conftest import World
from tests.server.test_friends_query_plans import SCAN, WEBHOOK_TABLES, caches_kept

P = "/sdk/v1/players"


@pytest.fixture
def world_config(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    return caches_kept(monkeypatch)


@pytest.fixture
def backend() -> str:
    """SQLite only: these tests read SQLite's EXPLAIN QUERY PLAN and count the statements SQLite runs
    through its trace callback. PostgreSQL's plans (and how to count its statements) are a different
    matter, not tested here."""
    return "sqlite"


async def _selects(
    world: World, method: str, path: str, secret: str | None, *, key: str, json: Any = None
) -> list[str]:
    store = world.services.store
    assert isinstance(store, SqliteStore)  # the module is pinned to SQLite (see `backend`)
    conn = store.conn
    if method == "GET":  # fill the caches (API key, game settings) first: both sizes are measured alike
        await world.call(method, path, key=key, secret=secret)
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    try:
        status, body, _ = await world.call(method, path, key=key, secret=secret, json=json)
    finally:
        conn.set_trace_callback(None)
    assert status in (200, 201), (path, body)
    # The webhook dispatcher shares the connection and may run between requests: its reads are not the
    # route's.
    selects = [
        s
        for s in statements
        if s.lstrip().upper().startswith(("SELECT", "WITH")) and not WEBHOOK_TABLES.search(s)
    ]
    for sql in selects:
        plan = " | ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
        # A subquery's rows (a send's one-row statistics, its earlier gift: CO-ROUTINE or MATERIALIZE in
        # the plan) are read whole; a table never is.
        subqueries = set(re.findall(r"(?:CO-ROUTINE|MATERIALIZE) (\w+)", plan))
        assert not [t for t in SCAN.findall(plan) if t not in subqueries], f"{path}: {sql}\n{plan}"
    return selects


async def _grow(world: World, secrets: dict[str, str], n: int) -> None:
    """ann gains n friends; she gifts each, and each gifts her."""
    for _ in range(n):
        name = f"f{len(secrets)}"
        secrets[name] = await world.register(name)
        _, body, _ = await world.call(
            "POST",
            f"{P}/ann/friends/requests",
            key="test-client",
            json={"externalPlayerId": name},
            secret=secrets["ann"],
        )
        rid = body["data"]["request"]["requestId"]
        await world.call(
            "POST", f"{P}/{name}/friends/requests/{rid}/accept", key="test-client", secret=secrets[name]
        )
        for sender, recipient in (("ann", name), (name, "ann")):
            status, body, _ = await world.call(
                "POST",
                f"{P}/{sender}/friends/gifts",
                key="test-client",
                json={"externalPlayerId": recipient, "type": "currency", "resourceKey": "coins", "amount": 1},
                secret=secrets[sender],
            )
            assert status == 201, body


READS = [
    ("test-client", f"{P}/ann/friends"),
    ("test-client", f"{P}/ann/friends/gifts/catalog"),
    ("test-client", f"{P}/ann/friends/gifts/inbox?pending=true"),
    ("test-client", f"{P}/ann/friends/gifts/sent"),
    ("test-server", "/server/v1/players/ann/gifts"),
    ("test-server", "/server/v1/players/ann/gifts?direction=sent"),
    ("test-server", "/server/v1/players/ann/friends"),
]


@pytest.mark.parametrize(("key", "path"), READS)
async def test_gift_reads_use_indexes_and_a_fixed_number_of_queries(
    world: World, key: str, path: str
) -> None:
    secrets = {"ann": await world.register("ann")}
    await _grow(world, secrets, 2)
    small = await _selects(world, "GET", path, secrets["ann"] if key == "test-client" else None, key=key)
    await _grow(world, secrets, 6)
    large = await _selects(world, "GET", path, secrets["ann"] if key == "test-client" else None, key=key)
    assert len(large) == len(small), f"{path}: {len(small)} queries for 2 friends, {len(large)} for 8"


async def test_sending_a_gift_uses_indexes_and_a_fixed_number_of_queries(world: World) -> None:
    secrets = {"ann": await world.register("ann")}
    counts = []
    for n in (2, 6):
        await _grow(world, secrets, n)
        newcomer = f"new{n}"
        secrets[newcomer] = await world.register(newcomer)
        _, body, _ = await world.call(
            "POST",
            f"{P}/ann/friends/requests",
            key="test-client",
            json={"externalPlayerId": newcomer},
            secret=secrets["ann"],
        )
        rid = body["data"]["request"]["requestId"]
        await world.call(
            "POST",
            f"{P}/{newcomer}/friends/requests/{rid}/accept",
            key="test-client",
            secret=secrets[newcomer],
        )
        gift = {
            "externalPlayerId": newcomer,
            "type": "currency",
            "resourceKey": "coins",
            "amount": 1,
            "idempotencyKey": f"k{n}",
        }
        counts.append(
            len(
                await _selects(
                    world, "POST", f"{P}/ann/friends/gifts", secrets["ann"], key="test-client", json=gift
                )
            )
        )
    assert counts[0] == counts[1]
