"""docs/reference/conventions.md#surfaces-and-credentials: the auth matrix, through the real app on a real
SQLite file."""

from __future__ import annotations

import asyncio

import pytest

from tests.conftest import World


@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("/server/v1/ping", None),
        ("/server/v1/ping", "lc_test_not-a-real-key"),
        ("/sdk/v1/players/p/register", None),
    ],
)
async def test_missing_or_unknown_key_is_401_invalid_api_key(
    world: World, path: str, key: str | None
) -> None:
    method = "GET" if "ping" in path else "POST"
    status, body, _ = await world.call(method, path, key=key)
    assert status == 401
    assert body["error"]["code"] == "invalid_api_key"


async def test_non_bearer_authorization_is_401(world: World) -> None:
    status, body, _ = await world.call(
        "GET", "/server/v1/ping", key=None, headers={"Authorization": f"Basic {world.keys['test-server']}"}
    )
    assert (status, body["error"]["code"]) == (401, "invalid_api_key")


async def test_client_key_on_server_route_is_403_permission_denied(world: World) -> None:
    status, body, _ = await world.call("GET", "/server/v1/ping", key="test-client")
    assert (status, body["error"]["code"]) == (403, "permission_denied")


async def test_server_key_on_sdk_route_is_403_permission_denied(world: World) -> None:
    status, body, _ = await world.call("POST", "/sdk/v1/players/p1/register", key="test-server")
    assert (status, body["error"]["code"]) == (403, "permission_denied")


async def test_ping_names_the_keys_scope(world: World) -> None:
    status, body, _ = await world.call("GET", "/server/v1/ping", key="live-server")
    game = world.applied["games"]["space-race"]
    assert status == 200
    assert body["data"]["gameId"] == game["id"]
    assert body["data"]["studioId"] == world.applied["studio"]["id"]
    assert body["data"]["environment"] == "live"
    assert world.keys["live-server"].startswith(body["data"]["keyPrefix"])


async def test_player_route_needs_the_matching_secret(world: World) -> None:
    alice = await world.register("alice")
    bob = await world.register("bob")
    path = "/sdk/v1/players/alice/identity"
    for secret in (None, "ps_wrong", bob):
        status, body, _ = await world.call("PUT", path, key="test-client", json={"name": "A"}, secret=secret)
        assert (status, body["error"]["code"]) == (401, "player_secret_invalid"), secret
    status, _, _ = await world.call("PUT", path, key="test-client", json={"name": "A"}, secret=alice)
    assert status == 200


async def test_unknown_player_on_player_route_is_401_not_a_leak(world: World) -> None:
    status, body, _ = await world.call(
        "PUT", "/sdk/v1/players/ghost/identity", key="test-client", json={"name": "A"}, secret="ps_x"
    )
    assert (status, body["error"]["code"]) == (401, "player_secret_invalid")


async def test_key_of_the_other_environment_naming_a_player_is_404(world: World) -> None:
    secret = await world.register("alice", key="test-client")
    status, body, _ = await world.call(
        "PUT", "/sdk/v1/players/alice/identity", key="live-client", json={"name": "A"}, secret=secret
    )
    assert (status, body["error"]["code"]) == (404, "player_not_found")
    status, body, _ = await world.call("POST", "/sdk/v1/players/alice/register", key="live-client")
    assert (status, body["error"]["code"]) == (404, "player_not_found")
    status, body, _ = await world.call(
        "PUT",
        "/server/v1/players/alice/identity",
        key="live-server",
        json={"name": "A"},
        headers={"Idempotency-Key": "k"},
    )
    assert (status, body["error"]["code"]) == (404, "player_not_found")


async def test_players_of_another_game_are_invisible(world: World) -> None:
    await world.register("alice")
    status, body, _ = await world.call(
        "PUT",
        "/server/v1/players/alice/identity",
        key=world.other_keys["test-server"],
        json={"name": "A"},
        headers={"Idempotency-Key": "k"},
    )
    assert (status, body["error"]["code"]) == (404, "player_not_found")
    # The same external id registers independently in the other game.
    status, _, _ = await world.call(
        "POST", "/sdk/v1/players/alice/register", key=world.other_keys["test-client"]
    )
    assert status == 201


async def test_health_is_public(world: World) -> None:
    status, body, headers = await world.call("GET", "/admin/v1/health", key=None)
    assert status == 200
    assert body["data"]["status"] == "ok"
    assert "RateLimit-Limit" in headers


async def test_a_rotated_key_works_for_60_days_of_service_time_then_stops(world: World) -> None:
    from livecore_server.operators.apply import rotate_key

    old = world.keys["test-server"]
    assert (await world.call("GET", "/server/v1/ping", key=old))[0] == 200  # cached before the rotation
    game_id = world.applied["games"]["space-race"]["id"]
    new = (
        await asyncio.to_thread(
            rotate_key, world.services.store, world.services.runtime, game_id, "test-server"
        )
    )["secret"]
    world.services.key_cache.clear()
    assert (await world.call("GET", "/server/v1/ping", key=old))[0] == 200
    assert (await world.call("GET", "/server/v1/ping", key=new))[0] == 200
    world.clock.advance(60 * 86400 - 1)
    assert (await world.call("GET", "/server/v1/ping", key=old))[0] == 200
    world.clock.advance(1)  # the grace ends: refused at once, though the key is in the cache
    status, body, _ = await world.call("GET", "/server/v1/ping", key=old)
    assert (status, body["error"]["code"]) == (401, "invalid_api_key")
    assert (await world.call("GET", "/server/v1/ping", key=new))[0] == 200


async def test_a_second_rotation_mints_from_the_successor(world: World) -> None:
    from livecore_server.operators.apply import rotate_key

    game_id = world.applied["games"]["space-race"]["id"]
    first = await asyncio.to_thread(
        rotate_key, world.services.store, world.services.runtime, game_id, "test-server"
    )
    second = await asyncio.to_thread(
        rotate_key, world.services.store, world.services.runtime, game_id, "test-server"
    )
    assert len({world.keys["test-server"], first["secret"], second["secret"]}) == 3
    world.services.key_cache.clear()
    for key in (world.keys["test-server"], first["secret"], second["secret"]):
        assert (await world.call("GET", "/server/v1/ping", key=key))[0] == 200


async def test_key_usage_records_time_operation_and_sdk(world: World) -> None:
    await world.call("GET", "/server/v1/ping", headers={"X-Svc-SDK": "acme-backend/2.1"})
    await asyncio.to_thread(world.services.usage.flush, world.services.store)
    (row,) = world.rows(
        "SELECT last_used_at, last_operation, last_sdk FROM api_keys WHERE name = 'test-server'"
        " AND game_id = ?",
        (world.applied["games"]["space-race"]["id"],),
    )
    assert row[0] is not None
    assert row[1:] == ("ping", "acme-backend/2.1")
