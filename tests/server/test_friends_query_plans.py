"""Friend reads stay a bounded number of indexed queries at any size: every statement the
friend routes run is checked with EXPLAIN QUERY PLAN for table scans, and the number of statements per
request does not grow with the number of rows."""

from __future__ import annotations

import re
from typing import Any

import pytest

from livecore_server.storage import sqlport
from livecore_server.storage.sqlite import SqliteStore
from tests.conftest import World

SCAN = re.compile(r"\bSCAN (?!.*VIRTUAL TABLE)(\w+)")
# The webhook dispatcher shares the connection and may run a pass during a request: not the route's.
WEBHOOK_TABLES = re.compile(r"\bFROM (outbox|webhook_\w+|deliveries)\b")


HOUR = 3600.0


def caches_kept(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The ``world_config`` of a module that counts a request's statements: the server's caches (API
    keys, players, game settings) keep what they read for an hour instead of a second, so that a
    request finds them exactly as the requests before it left them however slowly the machine runs,
    and the statements counted are the route's own."""
    monkeypatch.setattr(sqlport, "GAME_CACHE_TTL", HOUR)
    return {"key_cache_ttl": HOUR, "player_cache_ttl": HOUR}


@pytest.fixture
def world_config(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    return caches_kept(monkeypatch)


@pytest.fixture
def backend() -> str:
    """SQLite only: these tests read SQLite's EXPLAIN QUERY PLAN and count the statements SQLite runs
    through its trace callback. PostgreSQL's plans (and how to count its statements) are a different
    matter, not tested here."""
    return "sqlite"


async def _plans(
    world: World, method: str, path: str, secret: str | None, *, key: str = "test-client"
) -> list[str]:
    store = world.services.store
    assert isinstance(store, SqliteStore)  # the module is pinned to SQLite (see `backend`)
    conn = store.conn
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    try:
        status, _, _ = await world.call(method, path, key=key, secret=secret)
    finally:
        conn.set_trace_callback(None)
    assert status == 200, path
    selects = [
        s
        for s in statements
        if s.lstrip().upper().startswith(("SELECT", "WITH")) and not WEBHOOK_TABLES.search(s)
    ]
    assert selects, path
    for sql in selects:
        plan = " | ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
        scans = [t for t in SCAN.findall(plan) if not t.startswith("player_names")]
        assert not scans, f"{path}: {sql}\n{plan}"
    return selects


async def _grow(world: World, secrets: dict[str, str], n: int) -> None:
    """ann befriends n players, gets requests from n more and blocks n more."""
    for _ in range(n):
        for prefix in ("f", "r", "b"):
            name = f"{prefix}{len(secrets)}"
            secrets[name] = await world.register(name)
            if prefix == "f":
                _, body, _ = await world.call(
                    "POST",
                    "/sdk/v1/players/ann/friends/requests",
                    key="test-client",
                    json={"externalPlayerId": name},
                    secret=secrets["ann"],
                )
                rid = body["data"]["request"]["requestId"]
                await world.call(
                    "POST",
                    f"/sdk/v1/players/{name}/friends/requests/{rid}/accept",
                    key="test-client",
                    secret=secrets[name],
                )
            elif prefix == "r":
                await world.call(
                    "POST",
                    f"/sdk/v1/players/{name}/friends/requests",
                    key="test-client",
                    json={"externalPlayerId": "ann"},
                    secret=secrets[name],
                )
            else:
                await world.call(
                    "POST",
                    "/sdk/v1/players/ann/friends/blocks",
                    key="test-client",
                    json={"externalPlayerId": name},
                    secret=secrets["ann"],
                )


READS: list[tuple[str, str]] = [
    ("GET", "/sdk/v1/players/ann/friends?progression=coins,sessions"),
    ("GET", "/sdk/v1/players/ann/friends/requests?progression=coins"),
    ("GET", "/sdk/v1/players/ann/friends/blocks"),
    ("GET", "/sdk/v1/players/ann/friends/suggestions?limit=25&progression=coins"),
    ("GET", "/sdk/v1/players/ann/friends/search?q=otter&progression=coins"),
    ("GET", "/sdk/v1/players/ann/friends/search?q=b"),
    ("GET", "/sdk/v1/players/ann/friends/code?progression=login_streak"),
]


@pytest.mark.parametrize(("method", "path"), READS)
async def test_friend_reads_use_indexes_and_a_fixed_number_of_queries(
    world: World, method: str, path: str
) -> None:
    secrets: dict[str, Any] = {"ann": await world.register("ann")}
    await _grow(world, secrets, 2)
    small = await _plans(world, method, path, secrets["ann"])
    await _grow(world, secrets, 6)
    large = await _plans(world, method, path, secrets["ann"])
    assert len(large) == len(small), f"{path}: {len(small)} queries for 2 rows, {len(large)} for 8"


@pytest.mark.parametrize("path", ["/friends", "/friends/requests", "/blocks"])
async def test_server_reads_use_indexes(world: World, path: str) -> None:
    secrets: dict[str, Any] = {"ann": await world.register("ann")}
    await _grow(world, secrets, 3)
    await _plans(world, "GET", f"/server/v1/players/ann{path}", None, key="test-server")
