"""docs/reference/conventions.md#idempotency: idempotency keys, stored in the database, 24 hours, replay and
conflict."""

from __future__ import annotations

import asyncio

from aiohttp.test_utils import TestClient, TestServer

from tests.conftest import World, make_app


async def _register(world: World, external_id: str, key: str) -> tuple[int, dict, dict]:  # type: ignore[type-arg]
    return await world.call(
        "POST", f"/sdk/v1/players/{external_id}/register", key="test-client", headers={"Idempotency-Key": key}
    )


async def test_replay_returns_the_original_body_once_applied(world: World) -> None:
    status, first, h1 = await _register(world, "alice", "k-1")
    assert status == 201
    assert "Idempotent-Replay" not in h1
    status, again, h2 = await _register(world, "alice", "k-1")
    # docs/reference/conventions.md#idempotency: the original body, status 201 becomes 200, marked as a
    # replay.
    assert status == 200
    assert again == first
    assert h2["Idempotent-Replay"] == "true"
    assert world.event_kinds().count("player.secret_set") == 1


async def test_same_key_different_body_is_409(world: World) -> None:
    await world.register("alice")
    headers = {"Idempotency-Key": "id-1"}
    path = "/server/v1/players/alice/identity"
    status, _, _ = await world.call("PUT", path, json={"name": "One"}, headers=headers)
    assert status == 200
    status, body, _ = await world.call("PUT", path, json={"name": "Two"}, headers=headers)
    assert (status, body["error"]["code"]) == (409, "idempotency_conflict")
    # Nothing changed: replaying the original still answers "One".
    status, body, _ = await world.call("PUT", path, json={"name": "One"}, headers=headers)
    assert body["data"]["displayIdentity"]["name"] == "One"


async def test_one_key_on_two_players_paths_is_two_writes_each_replayed_to_its_own(world: World) -> None:
    # Keys are scoped to the concrete path: the same key on bob's path is bob's write, not a conflict.
    await world.register("alice")
    await world.register("bob")
    headers = {"Idempotency-Key": "shared"}
    for name in ("alice", "bob"):
        path = f"/server/v1/players/{name}/identity"
        status, body, _ = await world.call("PUT", path, json={"name": name.title()}, headers=headers)
        assert status == 200 and body["data"]["displayIdentity"]["name"] == name.title()
    for name in ("alice", "bob"):
        path = f"/server/v1/players/{name}/identity"
        status, body, h = await world.call("PUT", path, json={"name": name.title()}, headers=headers)
        assert (status, h["Idempotent-Replay"]) == (200, "true")
        assert body["data"]["displayIdentity"]["name"] == name.title()


async def test_players_registering_at_once_under_one_key_each_get_their_own_secret_back(
    world: World,
) -> None:
    names = [f"p{i}" for i in range(4)]
    firsts = await asyncio.gather(*(_register(world, name, "one-key") for name in names))
    assert [status for status, _, _ in firsts] == [201] * 4
    again = await asyncio.gather(*(_register(world, name, "one-key") for name in names))
    for (_, first, _), (status, replay, headers) in zip(firsts, again, strict=True):
        assert (status, headers["Idempotent-Replay"]) == (200, "true")
        assert replay["data"]["playerSecret"] == first["data"]["playerSecret"]
    assert world.event_kinds().count("player.secret_set") == 4


async def test_key_order_and_whitespace_do_not_matter(world: World) -> None:
    await world.register("alice")
    path = "/server/v1/players/alice/identity"
    h = {"Idempotency-Key": "ord", "Content-Type": "application/json"}
    status, _, _ = await world.call("PUT", path, data=b'{"name":"A","avatar":"x"}', headers=h)
    assert status == 200
    status, _, rh = await world.call("PUT", path, data=b'{ "avatar": "x",\n "name": "A" }', headers=h)
    assert status == 200
    assert rh["Idempotent-Replay"] == "true"


async def test_keys_are_scoped_to_the_game_and_environment(world: World) -> None:
    await _register(world, "alice", "same")
    status, _, h = await world.call(
        "POST", "/sdk/v1/players/bob/register", key="live-client", headers={"Idempotency-Key": "same"}
    )
    assert status == 201
    assert "Idempotent-Replay" not in h


async def test_keys_expire_after_24_hours(world: World) -> None:
    await world.register("alice")
    path = "/server/v1/players/alice/identity"
    h = {"Idempotency-Key": "old"}
    await world.call("PUT", path, json={"name": "A"}, headers=h)
    world.clock.advance(24 * 3600 + 1)
    status, body, rh = await world.call("PUT", path, json={"name": "B"}, headers=h)
    assert status == 200
    assert "Idempotent-Replay" not in rh
    assert body["data"]["displayIdentity"]["name"] == "B"


async def test_failed_writes_are_not_cached(world: World) -> None:
    h = {"Idempotency-Key": "retry-me"}
    status, _, _ = await world.call("PUT", "/server/v1/players/later/identity", json={"name": "A"}, headers=h)
    assert status == 404
    await world.register("later")
    status, _, _ = await world.call("PUT", "/server/v1/players/later/identity", json={"name": "A"}, headers=h)
    assert status == 200


async def test_server_writes_require_a_key(world: World) -> None:
    await world.register("alice")
    status, body, _ = await world.call("PUT", "/server/v1/players/alice/identity", json={"name": "A"})
    assert status == 400
    assert body["error"]["details"]["fields"] == {"Idempotency-Key": "is required"}


async def test_over_long_key_is_400(world: World) -> None:
    status, body, _ = await _register(world, "alice", "k" * 256)
    assert status == 400
    # The key came in the header, and the refusal names it there.
    assert body["error"]["details"]["fields"] == {"Idempotency-Key": "must be 1 to 255 characters"}


async def test_concurrent_duplicates_apply_once(world: World) -> None:
    results = await asyncio.gather(*(_register(world, "racer", "dup") for _ in range(20)))
    statuses = sorted(r[0] for r in results)
    assert statuses.count(201) == 1
    assert statuses.count(200) == 19
    assert len({r[1]["data"]["playerSecret"] for r in results}) == 1
    assert world.event_kinds().count("player.secret_set") == 1


async def test_replay_survives_a_restart(world: World) -> None:
    status, first, _ = await _register(world, "alice", "persist")
    assert status == 201
    # The server stops; a fresh one on the same database answers the replay from the stored record.
    await world.client.close()
    client = TestClient(TestServer(make_app(world.services.config.db, seed=99)))
    await client.start_server()
    try:
        resp = await client.post(
            "/sdk/v1/players/alice/register",
            headers={"Authorization": f"Bearer {world.keys['test-client']}", "Idempotency-Key": "persist"},
        )
        assert resp.status == 200
        assert resp.headers["Idempotent-Replay"] == "true"
        assert await resp.json() == first
    finally:
        await client.close()


async def test_replay_needs_the_player_secret(world: World) -> None:
    secret = await world.register("alice")
    path = "/sdk/v1/players/alice/identity"
    h = {"Idempotency-Key": "sec"}
    status, _, _ = await world.call(
        "PUT", path, key="test-client", json={"name": "A"}, headers=h, secret=secret
    )
    assert status == 200
    status, body, _ = await world.call(
        "PUT", path, key="test-client", json={"name": "A"}, headers=h, secret="ps_bad"
    )
    assert (status, body["error"]["code"]) == (401, "player_secret_invalid")


async def test_a_key_moved_from_the_body_to_the_header_is_the_same_request(world: World) -> None:
    secret = await world.register("kim")
    body = {"amount": 5, "reason": "quest"}
    path = "/server/v1/players/kim/wallet/coins/credit"
    first = await world.call("POST", path, json={**body, "idempotencyKey": "move-1"})
    again = await world.call("POST", path, json=body, headers={"Idempotency-Key": "move-1"})
    assert secret and first[0] == 200
    assert again[0] == 200 and again[2].get("Idempotent-Replay") == "true"
    assert again[1] == first[1]
