"""A stored answer replays only to the credential that made it (docs/reference/conventions.md#idempotency):
the same idempotency key and request from another player, API key, personal key or member is 409
`idempotency_conflict`, with no one's answer and nothing applied twice, on every surface, on both stores."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import Receiver, World
from tests.server.admin_support import GAME, admin, ok, personal_key, refused, sign_in

# The game's endpoints are listed: only the events they subscribe to are kept.
pytestmark = pytest.mark.parametrize("every_event", [False])

HOOK = {"name": "prod", "env": "live", "url": "", "events": ["player.registered"]}


def _conflict(answer: tuple[int, Any, Any]) -> None:
    status, body, headers = answer
    assert (status, body["error"]["code"]) == (409, "idempotency_conflict"), body
    assert "Idempotent-Replay" not in headers
    assert "whsec_" not in str(body) and "ps_" not in str(body)


async def test_an_owners_rotated_live_secret_does_not_replay_to_a_developers_personal_key(
    world: World, receiver: Receiver
) -> None:
    olga = await sign_in(world, "olga")
    made = ok(await admin(world, "POST", f"{GAME}/webhooks", olga, json={**HOOK, "url": receiver.url}), 201)
    path = f"{GAME}/webhooks/{made['endpoint']['endpointId']}/rotate-secret"
    headers = {"Idempotency-Key": "k"}
    rotated = ok(await admin(world, "POST", path, olga, json={"overlapSeconds": 0}, headers=headers))
    dev_key = await personal_key(world, "dev")
    _conflict(await admin(world, "POST", path, dev_key, json={"overlapSeconds": 0}, headers=headers))
    # Another member's session is another credential too, and a fresh key still meets the role's rule.
    gina = await sign_in(world, "gina")
    _conflict(await admin(world, "POST", path, gina, json={"overlapSeconds": 0}, headers=headers))
    refused(
        await admin(
            world, "POST", path, dev_key, json={"overlapSeconds": 0}, headers={"Idempotency-Key": "k2"}
        ),
        403,
        "dashboard_only",
    )
    # The owner's own retry is still answered, from any of its sessions.
    again = await admin(
        world, "POST", path, await sign_in(world, "olga"), json={"overlapSeconds": 0}, headers=headers
    )
    assert again[2]["Idempotent-Replay"] == "true"
    assert again[1]["data"]["secret"] == rotated["secret"]


async def test_an_owners_new_live_endpoint_does_not_replay_to_a_developers_personal_key(
    world: World, receiver: Receiver
) -> None:
    olga = await sign_in(world, "olga")
    body = {**HOOK, "url": receiver.url}
    headers = {"Idempotency-Key": "create"}
    ok(await admin(world, "POST", f"{GAME}/webhooks", olga, json=body, headers=headers), 201)
    dev_key = await personal_key(world, "dev")
    _conflict(await admin(world, "POST", f"{GAME}/webhooks", dev_key, json=body, headers=headers))
    listed = ok(await admin(world, "GET", f"{GAME}/webhooks", olga))
    assert [e["name"] for e in listed["endpoints"] if e["env"] == "live"] == ["prod"]


async def test_a_players_write_replays_to_the_player_through_any_client_key(world: World) -> None:
    """On a player's route the credential is the player's secret, whichever of the game's client keys
    carries it: a retry from the game's other build is answered."""
    secret = await world.register("alice")
    path = "/sdk/v1/players/alice/identity"
    headers = {"Idempotency-Key": "name"}
    first = await world.call(
        "PUT", path, key="test-client", secret=secret, json={"name": "A"}, headers=headers
    )
    assert first[0] == 200, first[1]
    again = await world.call(
        "PUT", path, key="tight-client", secret=secret, json={"name": "A"}, headers=headers
    )
    assert (again[1], again[2]["Idempotent-Replay"]) == (first[1], "true")


async def test_a_registered_players_secret_does_not_replay_to_another_client_key(world: World) -> None:
    path = "/sdk/v1/players/alice/register"
    headers = {"Idempotency-Key": "reg"}
    status, first, _ = await world.call("POST", path, key="test-client", headers=headers)
    assert status == 201, first
    _conflict(await world.call("POST", path, key="tight-client", headers=headers))
    status, again, replayed = await world.call("POST", path, key="test-client", headers=headers)
    assert (status, again, replayed["Idempotent-Replay"]) == (200, first, "true")


async def test_a_servers_credit_does_not_replay_to_another_server_key_nor_apply_twice(world: World) -> None:
    secret = await world.register("alice")
    path = "/server/v1/players/alice/wallet/coins/credit"
    headers = {"Idempotency-Key": "credit-1"}
    ok(await world.call("POST", path, key="test-server", json={"amount": 5}, headers=headers))
    _conflict(await world.call("POST", path, key="tight-server", json={"amount": 5}, headers=headers))
    replay = await world.call("POST", path, key="test-server", json={"amount": 5}, headers=headers)
    assert replay[2]["Idempotent-Replay"] == "true"
    wallet = ok(await world.call("GET", "/sdk/v1/players/alice/wallet", key="test-client", secret=secret))
    assert {c["key"]: c["balance"] for c in wallet["currencies"]}["coins"] == 5
