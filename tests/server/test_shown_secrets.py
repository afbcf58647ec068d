"""Answers kept under idempotency keys that show a secret (docs/reference/conventions.md#idempotency), on
both stores: a replay hands the secret back while it is the one in force; once a later write replaces it
(a webhook endpoint's rotation, with an overlap or not, from the admin API or the CLI; a player's
rotation by an operator or a forced register; the player's erasure or merge), the kept answer is
withdrawn, its sealed body emptied, and a replay answers 409 ``idempotency_conflict`` without applying
the write again. The server key's rotation leaves withdrawn answers alone."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from livecore.idempotency import WITHDRAWN
from livecore_server import rotation
from livecore_server.operators.webhooks import rotate_secret
from tests.conftest import Receiver, World
from tests.server.admin_support import GAME, Operator, admin, ok, refused, sign_in

pytestmark = pytest.mark.parametrize("every_event", [False])

HOOK = {"name": "backend", "env": "test", "url": "", "events": ["player.registered"]}


def _key(key: str) -> dict[str, str]:
    return {"Idempotency-Key": key}


async def _create(world: World, op: Operator, receiver: Receiver, key: str) -> tuple[int, Any, Any]:
    body = {**HOOK, "url": receiver.url}
    return await admin(world, "POST", f"{GAME}/webhooks", op, json=body, headers=_key(key))


async def _rotate(
    world: World, op: Operator, endpoint_id: str, overlap: int, key: str
) -> tuple[int, Any, Any]:
    path = f"{GAME}/webhooks/{endpoint_id}/rotate-secret"
    return await admin(world, "POST", path, op, json={"overlapSeconds": overlap}, headers=_key(key))


def _replayed(answer: tuple[int, Any, Any], first: dict[str, Any]) -> None:
    status, body, headers = answer
    assert (status, headers.get("Idempotent-Replay")) == (200, "true"), body
    assert body["data"] == first


def _withdrawn(answer: tuple[int, Any, Any]) -> None:
    error = refused(answer, 409, "idempotency_conflict")
    assert "replaced since and is not shown again" in error["message"]


def _kept(world: World, key: str) -> tuple[str, bytes]:
    ((fingerprint, body),) = world.rows("SELECT fingerprint, body FROM idempotency WHERE key = ?", (key,))
    return fingerprint, bytes(body)


def _secret_enc(world: World, endpoint_id: str) -> bytes:
    ((enc,),) = world.rows("SELECT secret_enc FROM webhook_endpoints WHERE id = ?", (endpoint_id,))
    return bytes(enc)


async def test_a_rotation_withdraws_the_kept_answers_that_show_the_secrets_it_replaces(
    world: World, receiver: Receiver
) -> None:
    world.only_hourly_jobs()
    dev = await sign_in(world, "dev")
    made = ok(await _create(world, dev, receiver, "create"), 201)
    endpoint_id = made["endpoint"]["endpointId"]
    _replayed(await _create(world, dev, receiver, "create"), made)

    # With an overlap: the created secret still signs for a minute, but it is no longer the one in force,
    # and the answer that showed it is withdrawn; the rotation's own answer replays.
    first = ok(await _rotate(world, dev, endpoint_id, 60, "first"))
    _withdrawn(await _create(world, dev, receiver, "create"))
    assert _kept(world, "create") == (WITHDRAWN, b"")
    _replayed(await _rotate(world, dev, endpoint_id, 60, "first"), first)

    # A second rotation during the overlap: the first rotation's answer goes too.
    second = ok(await _rotate(world, dev, endpoint_id, 0, "second"))
    current = _secret_enc(world, endpoint_id)
    _withdrawn(await _rotate(world, dev, endpoint_id, 60, "first"))
    assert _kept(world, "first") == (WITHDRAWN, b"")
    assert _secret_enc(world, endpoint_id) == current  # the replay applied nothing
    _replayed(await _rotate(world, dev, endpoint_id, 0, "second"), second)
    # Another credential with a withdrawn key gets the same 409, and nothing more.
    olga = await sign_in(world, "olga")
    _withdrawn(await _rotate(world, olga, endpoint_id, 60, "first"))

    # The CLI's rotation (no idempotency key of its own) withdraws the admin API's answers as well.
    await asyncio.to_thread(rotate_secret, world.services, endpoint_id, 0)
    _withdrawn(await _rotate(world, dev, endpoint_id, 0, "second"))
    assert world.rows("SELECT count(*) FROM idempotency WHERE shows_secret_of IS NOT NULL") == [(0,)]


async def test_a_players_rotation_withdraws_the_kept_answers_that_show_the_old_secret(world: World) -> None:
    register = "/sdk/v1/players/ann/register"
    status, registered, _ = await world.call("POST", register, key="test-client", headers=_key("reg"))
    assert status == 201
    _replayed(await world.call("POST", register, key="test-client", headers=_key("reg")), registered["data"])

    dev = await sign_in(world, "dev")
    path = f"{GAME}/players/ann/rotate-secret?env=test"
    rotated = ok(await admin(world, "POST", path, dev, headers=_key("rot")))
    _withdrawn(await world.call("POST", register, key="test-client", headers=_key("reg")))
    assert _kept(world, "reg") == (WITHDRAWN, b"")
    _replayed(await admin(world, "POST", path, dev, headers=_key("rot")), rotated)

    # A forced register (a test key) rotates it too: the operator's answer is withdrawn.
    forced = f"{register}?force=true"
    status, again, _ = await world.call("POST", forced, key="test-client", headers=_key("force"))
    assert status == 201, again
    _withdrawn(await admin(world, "POST", path, dev, headers=_key("rot")))
    _replayed(await world.call("POST", forced, key="test-client", headers=_key("force")), again["data"])
    status, _, _ = await world.call(
        "GET", "/sdk/v1/players/ann/pending-grants", key="test-client", secret=again["data"]["playerSecret"]
    )
    assert status == 200  # no replay rotated the secret again

    # Erased: no kept answer shows its secret any more.
    erased = await world.call(
        "POST", "/server/v1/players/ann/delete", json={"reason": "test"}, headers=_key("erase")
    )
    assert erased[0] == 200, erased[1]
    _withdrawn(await world.call("POST", forced, key="test-client", headers=_key("force")))


async def test_a_first_register_withdraws_nothing(world: World) -> None:
    """Only a write that replaces a secret withdraws: each player's first register answer replays."""
    answers = {}
    for who in ("ann", "bob"):
        path = f"/sdk/v1/players/{who}/register"
        status, body, _ = await world.call("POST", path, key="test-client", headers=_key(who))
        assert status == 201
        answers[who] = (path, body["data"])
    for who, (path, first) in answers.items():
        _replayed(await world.call("POST", path, key="test-client", headers=_key(who)), first)


async def test_the_server_keys_rotation_leaves_withdrawn_answers_alone(world: World) -> None:
    """A withdrawn answer's body is empty: it is no value the rotation could open, nor one it counts as
    unreadable (which would end the command in an error)."""
    register = "/sdk/v1/players/ann/register"
    assert (await world.call("POST", register, key="test-client", headers=_key("reg")))[0] == 201
    dev = await sign_in(world, "dev")
    ok(await admin(world, "POST", f"{GAME}/players/ann/rotate-secret?env=test", dev, headers=_key("rot")))
    assert _kept(world, "reg") == (WITHDRAWN, b"")
    (answers,) = [c for c in rotation.ENCRYPTED if c.table == "idempotency"]
    tally = await asyncio.to_thread(rotation.reencrypt, world.services.store, world.services.keys, answers)
    assert (tally.unreadable, tally.current) == (0, 1)


async def test_a_merge_withdraws_the_kept_answers_that_show_the_source_players_secret(world: World) -> None:
    answers = {}
    for who in ("ann", "bob"):
        path = f"/sdk/v1/players/{who}/register"
        status, body, _ = await world.call("POST", path, key="test-client", headers=_key(who))
        assert status == 201
        answers[who] = (path, body["data"])
    merged = await world.call("POST", "/server/v1/players/bob/merge-into/ann", headers=_key("merge"))
    assert merged[0] == 200, merged[1]
    _withdrawn(await world.call("POST", answers["bob"][0], key="test-client", headers=_key("bob")))
    _replayed(
        await world.call("POST", answers["ann"][0], key="test-client", headers=_key("ann")), answers["ann"][1]
    )
