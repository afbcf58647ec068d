"""Rotating a webhook endpoint's signing secret with an overlap (docs/webhooks.md#rolling-the-signing-secret),
through the real app on both stores: the new secret is shown once; until the overlap ends every delivery
carries a signature by the new secret and one by the old; after it only the new one, retries included,
and the old secret is deleted from storage. Refusals change nothing. Under load no delivery is lost and
each one verifies, with Stripe's verifier and ours, under the old or the new secret."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

import orjson
import pytest

from livecore.clock import format_ts
from livecore.webhooks.signing import compute_signature
from livecore_client.webhooks import InvalidSignatureError, verify
from tests.conftest import Received, Receiver, World
from tests.server.admin_support import GAME, Operator, admin, ok, personal_key, refused, sign_in, snapshot
from tests.waiting import until

# The game's endpoints and deliveries are listed: only the events they subscribe to are kept.
pytestmark = pytest.mark.parametrize("every_event", [False])

HOOK = {"name": "backend", "env": "test", "url": "", "events": ["player.registered"]}


async def _endpoint(world: World, op: Operator, receiver: Receiver, **hook: Any) -> tuple[str, str]:
    made = ok(
        await admin(world, "POST", f"{GAME}/webhooks", op, json={**HOOK, "url": receiver.url, **hook}), 201
    )
    return made["endpoint"]["endpointId"], made["secret"]


async def _rotate(world: World, op: Operator, endpoint_id: str, overlap: int | None = None) -> dict[str, Any]:
    body = None if overlap is None else {"overlapSeconds": overlap}
    path = f"{GAME}/webhooks/{endpoint_id}/rotate-secret"
    rotated: dict[str, Any] = ok(await admin(world, "POST", path, op, json=body))
    return rotated


async def _advance(world: World, seconds: float) -> None:
    ok(await world.call("POST", "/server/v1/dev/clock/advance", json={"seconds": seconds}))


def _signatures(got: Received) -> list[str]:
    return [item.split("=", 1)[1] for item in got.headers["X-Signature"].split(",") if item.startswith("v1=")]


def _signs(got: Received, secret: str) -> bool:
    """Whether the delivery verifies under ``secret`` alone, by our verifier and by Stripe's (which must
    agree)."""
    stripe = pytest.importorskip("stripe")
    header = got.headers["X-Signature"]
    try:
        verify(got.body, header, secret)
        ours = True
    except InvalidSignatureError:
        ours = False
    try:
        theirs = bool(stripe.WebhookSignature.verify_header(got.body, header, secret, tolerance=300))
    except stripe.SignatureVerificationError:
        theirs = False
    assert ours == theirs, header
    return ours


def _json(value: Any) -> Any:
    """A JSON column as read back: text (SQLite) or bytes (PostgreSQL)."""
    return orjson.loads(bytes(value) if isinstance(value, memoryview) else value)


def _stored(world: World, endpoint_id: str) -> tuple[Any, Any]:
    ((previous, until_ms),) = world.rows(
        "SELECT previous_secret_enc, previous_secret_until FROM webhook_endpoints WHERE id = ?",
        (endpoint_id,),
    )
    return previous, until_ms


async def test_both_secrets_sign_during_the_overlap_then_only_the_new_one_and_the_old_is_deleted(
    world: World, receiver: Receiver
) -> None:
    world.only_hourly_jobs()
    dev = await sign_in(world, "dev")
    endpoint_id, old = await _endpoint(world, dev, receiver)
    now = world.services.clock.now()

    rotated = await _rotate(world, dev, endpoint_id, 60)
    new = rotated["secret"]
    assert new.startswith("whsec_") and new != old
    assert rotated["endpoint"]["endpointId"] == endpoint_id
    assert rotated["endpoint"]["previousSecretExpiresAt"] == format_ts(now + timedelta(seconds=60))
    # Shown once: never listed, never in the audit log, stored encrypted (the world's secrets scan).
    listed = ok(await admin(world, "GET", f"{GAME}/webhooks", dev))
    assert listed["endpoints"] == [rotated["endpoint"]]
    audit = str(world.rows("SELECT * FROM audit_log"))
    assert new not in audit and old not in audit
    ((metadata, before, after),) = world.rows(
        "SELECT metadata, before, after FROM audit_log WHERE action = 'webhook.secret_rotate' AND target = ?",
        (f"webhook:{endpoint_id}",),
    )
    assert _json(metadata) == {"overlapSeconds": 60, "droppedPreviousSecret": False}
    assert _json(before) == {"previousSecretExpiresAt": None}
    assert _json(after) == {"previousSecretExpiresAt": rotated["endpoint"]["previousSecretExpiresAt"]}

    # During the overlap: both signatures, the new one first; the receiver fails it.
    receiver.statuses = [500, 500]
    await world.register("ann", key="test-client")
    await world.dispatcher.drain_due()
    (first,) = await receiver.wait_for(1)
    assert len(_signatures(first)) == 2 and _signs(first, new) and _signs(first, old)
    t = int(first.headers["X-Signature"].split(",")[0].removeprefix("t="))
    assert _signatures(first)[0] == compute_signature(new, t, first.body)
    await _advance(world, 30)  # the first retry, still in the overlap
    second = (await receiver.wait_for(2))[1]
    assert second.envelope["deliveryAttempt"] == 2
    assert len(_signatures(second)) == 2 and _signs(second, new) and _signs(second, old)
    assert _stored(world, endpoint_id)[0] is not None

    # The overlap ends (60 s after the rotation): the old secret is deleted at once, and the next retry
    # (2 min after the second attempt) carries the new signature only.
    await _advance(world, 30)
    assert _stored(world, endpoint_id) == (None, None)
    (listed_endpoint,) = ok(await admin(world, "GET", f"{GAME}/webhooks", dev))["endpoints"]
    assert listed_endpoint["previousSecretExpiresAt"] is None
    await _advance(world, 120)
    third = (await receiver.wait_for(3))[2]
    assert third.envelope["deliveryAttempt"] == 3
    assert len(_signatures(third)) == 1 and _signs(third, new) and not _signs(third, old)
    (delivery,) = ok(await admin(world, "GET", f"{GAME}/webhooks/{endpoint_id}/deliveries", dev))[
        "deliveries"
    ]
    assert (delivery["status"], delivery["attempts"]) == ("delivered", 3)


async def test_rotating_again_drops_the_earlier_secret_and_an_overlap_of_0_stops_the_old_one_at_once(
    world: World, receiver: Receiver
) -> None:
    gina = await sign_in(world, "gina")
    endpoint_id, a = await _endpoint(world, gina, receiver)
    b = (await _rotate(world, gina, endpoint_id))["secret"]  # 24 hours by default
    now = world.services.clock.now()
    c_rotated = await _rotate(world, gina, endpoint_id, 600)
    c = c_rotated["secret"]
    assert c_rotated["endpoint"]["previousSecretExpiresAt"] == format_ts(now + timedelta(seconds=600))
    await world.register("bo", key="test-client")
    await world.dispatcher.drain_due()
    (got,) = await receiver.wait_for(1)
    # At most two secrets: the newest and the one it replaced; the first one no longer signs.
    assert len(_signatures(got)) == 2 and _signs(got, c) and _signs(got, b) and not _signs(got, a)
    entries = world.rows(
        "SELECT metadata FROM audit_log WHERE action = 'webhook.secret_rotate' ORDER BY seq", ()
    )
    assert [_json(m)["droppedPreviousSecret"] for (m,) in entries] == [False, True]

    d = (await _rotate(world, gina, endpoint_id, 0))["secret"]
    assert _stored(world, endpoint_id) == (None, None)  # c is gone from storage at once
    await world.register("cy", key="test-client")
    await world.dispatcher.drain_due()
    got = (await receiver.wait_for(2))[1]
    assert len(_signatures(got)) == 1 and _signs(got, d) and not _signs(got, c)


async def test_bad_input_an_unknown_endpoint_and_a_personal_key_on_a_live_one_change_nothing(
    world: World, receiver: Receiver
) -> None:
    dev = await sign_in(world, "dev")
    endpoint_id, _ = await _endpoint(world, dev, receiver)
    live_id, _ = await _endpoint(world, dev, receiver, name="prod", env="live")
    path = f"{GAME}/webhooks/{endpoint_id}/rotate-secret"
    key = await personal_key(world, "dev")
    vic = await sign_in(world, "vic")
    before = await snapshot(world)
    for body in (
        {"overlapSeconds": -1},
        {"overlapSeconds": 604_801},
        {"overlapSeconds": "a day"},
        {"overlapSeconds": 1.5},
        {"overlap": 60},
    ):
        error = refused(await admin(world, "POST", path, dev, json=body), 400, "invalid_request")
        assert error["details"]["fields"].keys() & {"overlapSeconds", "overlap"}, (body, error)
    refused(
        await admin(world, "POST", f"{GAME}/webhooks/whe_nope/rotate-secret", dev),
        404,
        "webhook_endpoint_not_found",
    )
    # Another game's paths do not find it.
    other = f"/admin/v1/studios/acme/games/other-game/webhooks/{endpoint_id}/rotate-secret"
    refused(await admin(world, "POST", other, dev), 404, "webhook_endpoint_not_found")
    # A live endpoint's secret is dashboard-only, as creating one is; a test one's is not.
    live = f"{GAME}/webhooks/{live_id}/rotate-secret"
    refused(await admin(world, "POST", live, key), 403, "dashboard_only")
    refused(await admin(world, "POST", path, vic), 403, "permission_denied")
    assert await snapshot(world) == before
    assert ok(await admin(world, "POST", path, key, json={"overlapSeconds": 604_800}))["secret"]
    assert ok(await admin(world, "POST", live, dev, json={"overlapSeconds": 0}))["secret"]


async def test_a_retried_request_with_its_idempotency_key_rotates_once(
    world: World, receiver: Receiver
) -> None:
    dev = await sign_in(world, "dev")
    endpoint_id, _ = await _endpoint(world, dev, receiver)
    path = f"{GAME}/webhooks/{endpoint_id}/rotate-secret"
    headers = {"Idempotency-Key": "roll-1"}
    first = ok(await admin(world, "POST", path, dev, json={"overlapSeconds": 60}, headers=headers))
    again = ok(await admin(world, "POST", path, dev, json={"overlapSeconds": 60}, headers=headers))
    assert again == first
    assert len(world.rows("SELECT id FROM audit_log WHERE action = 'webhook.secret_rotate'")) == 1
    refused(
        await admin(world, "POST", path, dev, json={"overlapSeconds": 0}, headers=headers),
        409,
        "idempotency_conflict",
    )


async def test_a_rotation_under_load_loses_no_delivery_and_each_verifies_with_the_old_or_the_new_secret(
    world: World, receiver: Receiver
) -> None:
    """Registrations flow while the secret is rotated (an overlap of 10 s of service time, which stands
    still meanwhile). One first attempt in five fails; their retries, 30 s later, come after the
    overlap and carry the new signature only."""
    world.only_hourly_jobs()
    dev = await sign_in(world, "dev")
    endpoint_id, old = await _endpoint(world, dev, receiver)

    def flaky(envelope: dict[str, Any]) -> int:
        # One player in five, far from the 5 failures in a row that would pause the endpoint.
        unlucky = int(envelope["data"]["externalPlayerId"].removeprefix("load").removeprefix("late")) % 5 == 0
        return 500 if unlucky and envelope["deliveryAttempt"] == 1 else 200

    receiver.respond = flaky
    rotated: dict[str, Any] = {}

    async def rotate_midway() -> None:
        await until(lambda: len(receiver.received) >= 5, "deliveries flowing before the rotation")
        rotated.update(await _rotate(world, dev, endpoint_id, 10))

    async def register(players: list[str]) -> None:
        for p in players:
            await world.register(p, key="test-client")

    players = [f"load{i}" for i in range(40)]
    await asyncio.gather(rotate_midway(), register(players))
    new = rotated["secret"]
    after = [f"late{i}" for i in range(8)]  # registered once the rotation has answered
    await register(after)
    await world.dispatcher.drain_due()
    first_attempts = len(players) + len(after)
    await receiver.wait_for(first_attempts)
    failed = sum(1 for _, status in receiver.answered if status == 500)
    assert failed > 0
    await _advance(world, 30)
    await receiver.wait_for(first_attempts + failed)
    await until(lambda: len(receiver.answered) == len(receiver.received), "every request answered")
    await world.dispatcher.drain_due()  # every attempt recorded

    # The rotation came while deliveries were flowing: the first five were signed by the old secret only.
    assert sum(1 for got in receiver.received if len(_signatures(got)) == 1 and _signs(got, old)) >= 5
    for got in receiver.received:
        assert _signs(got, new) or _signs(got, old), got.headers["X-Signature"]
        if got.envelope["deliveryAttempt"] == 1 and got.envelope["data"]["externalPlayerId"] in after:
            assert len(_signatures(got)) == 2 and _signs(got, new) and _signs(got, old)
        else:
            assert got.envelope["deliveryAttempt"] == 1 or len(_signatures(got)) == 1
        if got.envelope["deliveryAttempt"] > 1:  # after the overlap
            assert len(_signatures(got)) == 1 and _signs(got, new) and not _signs(got, old)
    delivered = {event_id for event_id, status in receiver.answered if status == 200}
    registered = {e.id for e in world.events() if e.kind == "player.registered"}
    assert len(registered) == first_attempts and delivered == registered  # none lost
    deliveries = ok(await admin(world, "GET", f"{GAME}/webhooks/{endpoint_id}/deliveries?limit=200", dev))[
        "deliveries"
    ]
    assert len(deliveries) == first_attempts and {d["status"] for d in deliveries} == {"delivered"}
    assert _stored(world, endpoint_id) == (None, None)
    # The signatures' timestamps are wall-clock time whatever the service clock says.
    assert all(
        abs(int(g.headers["X-Signature"].split(",")[0][2:]) - time.time()) < 300 for g in receiver.received
    )
