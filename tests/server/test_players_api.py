"""Register (docs/reference/players-and-identity.md#register-and-the-player-secret) and identity
(docs/reference/players-and-identity.md#identity) through the API."""

from __future__ import annotations

import attrs

from livecore.players.rules import ban
from tests.conftest import START, World


async def _ban(world: World, external_id: str) -> None:
    def run(tx):  # type: ignore[no-untyped-def]
        game_id = world.applied["games"]["space-race"]["id"]
        player = tx.players.get(game_id, external_id)
        tx.players.update(ban(player, "cheating", START)[0])

    await world.services.store.run_async(run)


async def test_register_answers_201_with_the_pinned_fields(world: World) -> None:
    status, body, _ = await world.call(
        "POST", "/sdk/v1/players/alice/register", key="test-client", headers={"CF-IPCountry": "de"}
    )
    assert status == 201
    data = body["data"]
    assert data["playerSecret"].startswith("ps_")
    assert len(data["playerSecret"]) >= 43  # 256 bits, base64url
    assert data["country"] == "DE"
    assert data["externalPlayerId"] == "alice"
    assert data["playerId"].startswith("plr_")
    assert data["syntheticIdentity"] == data["anonymizedIdentity"] == data["displayIdentity"]
    assert set(data["displayIdentity"]) == {"name", "avatar", "country"}


async def test_register_fires_registered_then_secret_set(world: World) -> None:
    await world.register("alice")
    events = world.events()
    assert [e.kind for e in events] == ["player.registered", "player.secret_set"]
    registered, secret_set = events
    assert set(registered.data) == {"playerId", "externalPlayerId", "firstSeenAt", "contextSnapshot"}
    assert registered.data["firstSeenAt"] == "2026-03-02T12:00:00.000Z"
    assert secret_set.data["via"] == "sdk_register"
    assert secret_set.data["secretRotatedAt"] is None
    assert set(secret_set.data) == {
        "playerId",
        "externalPlayerId",
        "secretPrefix",
        "registeredAt",
        "secretRotatedAt",
        "via",
    }
    assert registered.env.value == "test"


async def test_the_secret_is_never_returned_twice_or_stored_in_clear(world: World) -> None:
    secret = await world.register("alice")
    status, body, _ = await world.call("POST", "/sdk/v1/players/alice/register", key="test-client")
    assert (status, body["error"]["code"]) == (409, "player_already_registered")
    assert secret not in str(body)
    raw = world.rows("SELECT * FROM players")
    assert raw and secret not in str(raw)
    assert secret not in str([e.data for e in world.events()])


async def test_force_rotates_with_a_test_key(world: World) -> None:
    old = await world.register("alice")
    status, body, _ = await world.call("POST", "/sdk/v1/players/alice/register?force=true", key="test-client")
    assert status == 201
    new = body["data"]["playerSecret"]
    assert new != old
    rotated = world.events()[-1]
    assert rotated.kind == "player.secret_rotated"
    assert rotated.data["via"] == "force_rotate"
    assert rotated.data["secretRotatedAt"] == "2026-03-02T12:00:00.000Z"
    # The old secret no longer works; the new one does.
    path = "/sdk/v1/players/alice/identity"
    assert (await world.call("PUT", path, key="test-client", json={"name": "A"}, secret=old))[0] == 401
    assert (await world.call("PUT", path, key="test-client", json={"name": "A"}, secret=new))[0] == 200


async def test_force_with_a_live_key_is_403(world: World) -> None:
    await world.register("alice", key="live-client")
    status, body, _ = await world.call("POST", "/sdk/v1/players/alice/register?force=true", key="live-client")
    assert (status, body["error"]["code"]) == (403, "permission_denied")


async def test_banned_player_register_is_403_before_409(world: World) -> None:
    await world.register("alice")
    await _ban(world, "alice")
    status, body, _ = await world.call("POST", "/sdk/v1/players/alice/register", key="test-client")
    assert (status, body["error"]["code"]) == (403, "player_banned")
    status, body, _ = await world.call("POST", "/sdk/v1/players/alice/register?force=true", key="test-client")
    assert (status, body["error"]["code"]) == (403, "player_banned")


async def test_banned_player_cannot_set_own_identity(world: World) -> None:
    secret = await world.register("alice")
    await _ban(world, "alice")
    status, body, _ = await world.call(
        "PUT", "/sdk/v1/players/alice/identity", key="test-client", json={"name": "A"}, secret=secret
    )
    assert (status, body["error"]["code"]) == (403, "player_banned")


async def test_player_context_country_wins_over_geo(world: World) -> None:
    status, body, _ = await world.call(
        "POST",
        "/sdk/v1/players/alice/register",
        key="test-client",
        json={"playerContext": {"country": "jp", "level": 3}},
        headers={"CF-IPCountry": "DE"},
    )
    assert status == 201
    assert body["data"]["country"] == "JP"
    assert world.events()[0].data["contextSnapshot"] == {"country": "jp", "level": 3}


async def test_unknown_country_is_null(world: World) -> None:
    _, body, _ = await world.call(
        "POST", "/sdk/v1/players/alice/register", key="test-client", headers={"CF-IPCountry": "XX1"}
    )
    assert body["data"]["country"] is None


async def test_synthetic_identity_is_deterministic_per_game(world: World) -> None:
    _, a, _ = await world.call("POST", "/sdk/v1/players/same-id/register", key="test-client")
    _, b, _ = await world.call(
        "POST", "/sdk/v1/players/same-id/register", key=world.other_keys["test-client"]
    )
    game_a = world.applied["games"]["space-race"]["id"]
    from livecore.players.identity import DEFAULT_POOL

    game_b = world.applied["games"]["other-game"]["id"]
    assert a["data"]["syntheticIdentity"]["name"] == DEFAULT_POOL.compose(game_a, "same-id").name
    assert b["data"]["syntheticIdentity"]["name"] == DEFAULT_POOL.compose(game_b, "same-id").name


async def test_set_own_identity_trims_and_keeps_anonymized(world: World) -> None:
    secret = await world.register("alice")
    status, body, _ = await world.call(
        "PUT",
        "/sdk/v1/players/alice/identity",
        key="test-client",
        json={"name": "  Ally  ", "avatar": "https://cdn.example/a.png"},
        secret=secret,
    )
    assert status == 200
    assert body["data"]["displayIdentity"] == {
        "name": "Ally",
        "avatar": "https://cdn.example/a.png",
        "country": None,
    }
    game_id = world.applied["games"]["space-race"]["id"]
    player = world.services.store.run(lambda tx: tx.players.get(game_id, "alice"), write=False)
    from livecore.players.identity import DEFAULT_POOL

    assert player.anonymized == attrs.evolve(DEFAULT_POOL.compose(game_id, "alice"), country=None)


async def test_identity_limits(world: World) -> None:
    secret = await world.register("alice")
    path = "/sdk/v1/players/alice/identity"
    for bad, field in [
        ({"name": "   "}, "name"),
        ({"name": "x" * 33}, "name"),
        ({"name": "ok", "avatar": "a" * 513}, "avatar"),
    ]:
        status, body, _ = await world.call("PUT", path, key="test-client", json=bad, secret=secret)
        assert status == 400, bad
        assert field in body["error"]["details"]["fields"]
    status, _, _ = await world.call(
        "PUT", path, key="test-client", json={"name": "x" * 32, "avatar": "a" * 512}, secret=secret
    )
    assert status == 200


async def test_server_sets_identity_of_an_existing_player(world: World) -> None:
    await world.register("alice")
    status, body, _ = await world.call(
        "PUT",
        "/server/v1/players/alice/identity",
        json={"name": "Studio Name", "avatar": None},
        headers={"Idempotency-Key": "s1"},
    )
    assert status == 200
    assert body["data"]["displayIdentity"]["name"] == "Studio Name"


async def test_server_identity_of_unknown_player_is_404_and_creates_nothing(world: World) -> None:
    status, body, _ = await world.call(
        "PUT", "/server/v1/players/nobody/identity", json={"name": "X"}, headers={"Idempotency-Key": "s1"}
    )
    assert (status, body["error"]["code"]) == (404, "player_not_found")
    assert world.events() == []


async def test_register_counts_a_session_and_starts_the_streak(world: World) -> None:
    await world.register("alice")
    game_id = world.applied["games"]["space-race"]["id"]
    player = world.services.store.run(lambda tx: tx.players.get(game_id, "alice"), write=False)
    assert player.activity.sessions == 1
    assert player.activity.streak == 1
