"""Webhook delivery (docs/reference/webhooks.md#delivery) against real HTTP receivers on 127.0.0.1.

Signatures are checked with an HMAC computed here, independently of the project's signing code.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import time
from collections.abc import AsyncIterator

import attrs
import pytest

from livecore.commands import emit
from livecore.players.webhooks import PlayerRegistered
from livecore.scope import Environment, Scope
from livecore.webhooks.delivery import Delivery, Endpoint
from livecore_server.operators.webhooks import replay_delivery, send_sample, unpause_endpoint
from tests.conftest import Receiver, World, start_world, webhook_manifest
from tests.core.test_webhook_delivery import ProgressUpdated


@attrs.define
class Hooked:
    world: World
    all: Receiver  # test env, every kind
    players: Receiver  # test env, player.registered only
    live: Receiver  # live env, every kind

    def endpoint(self, name: str) -> dict[str, str]:
        hooks: dict[str, dict[str, str]] = self.world.applied["games"]["space-race"]["webhooks"]
        return hooks[name]

    async def flush(self) -> None:
        """Send everything due at the service time and wait for the answers. The dispatcher's own
        background pass may be under way: ``drain_due`` takes its turn after it (one pass at a time) and
        waits for its attempts too, so nothing is due or in flight afterwards."""
        services = self.world.services
        await self.world.dispatcher.drain_due()
        due = services.store.run(lambda tx: tx.webhooks.next_due(), write=False)
        assert not self.world.dispatcher._inflight
        assert due is None or due > services.clock.now(), f"webhook work still due at {due}"

    def only_hourly_jobs(self) -> None:
        """:meth:`World.only_hourly_jobs`: webhook retention and the dispatcher's retries still run."""
        assert "webhook_retention" in {job.name for job in self.world.services.scheduler.jobs}
        self.world.only_hourly_jobs()

    async def advance(self, seconds: float) -> None:
        status, _, _ = await self.world.call(
            "POST", "/server/v1/dev/clock/advance", json={"seconds": seconds}
        )
        assert status == 200

    def deliveries(self, name: str) -> list[Delivery]:
        endpoint_id = self.endpoint(name)["id"]
        rows = self.world.services.store.run(lambda tx: tx.webhooks.list_deliveries(endpoint_id), write=False)
        return [d for d, _ in rows]


async def _hooked(db_url: str, **config: float) -> Hooked:
    receivers = [await Receiver().start() for _ in range(3)]
    extra = webhook_manifest(
        **{
            "all": ("test", receivers[0].url, '["*"]'),
            "players": ("test", receivers[1].url, '["player.registered"]'),
            "live": ("live", receivers[2].url, '["*"]'),
        }
    )
    # Its endpoints subscribe to every kind in both environments: the outbox keeps every event as it is.
    world = await start_world(db_url, manifest_extra=extra, every_event=False, **config)
    return Hooked(world, *receivers)


@pytest.fixture
async def hooked(db_url: str) -> AsyncIterator[Hooked]:
    h = await _hooked(db_url)
    try:
        yield h
    finally:
        await h.world.client.close()
        for r in (h.all, h.players, h.live):
            await r.stop()


def independent_check(secret: str, header: str, body: bytes) -> int:
    parts = [p.split("=", 1) for p in header.split(",")]
    t = next(v for k, v in parts if k == "t")
    v1 = [v for k, v in parts if k == "v1"]
    expected = hmac.new(secret.encode(), t.encode() + b"." + body, hashlib.sha256).hexdigest()
    assert expected in v1
    return int(t)


async def test_events_are_delivered_signed_over_the_exact_bytes(hooked: Hooked) -> None:
    await hooked.world.register("alice")
    await hooked.flush()
    received = await hooked.all.wait_for(2)
    secret = hooked.endpoint("all")["secret"]
    for r in received:
        assert r.headers["Content-Type"] == "application/json"
        t = independent_check(secret, r.headers["X-Signature"], r.body)
        assert abs(t - time.time()) < 60  # wall-clock t, even under the manual clock
        assert "X-Svc-Webhook-Test" not in r.headers
    first = received[0].envelope
    assert list(first) == ["id", "eventName", "studioId", "gameId", "occurredAt", "deliveryAttempt", "data"]
    assert first["id"].startswith("evt_")
    assert first["studioId"] == hooked.world.applied["studio"]["id"]
    assert first["gameId"] == hooked.world.applied["games"]["space-race"]["id"]
    assert first["occurredAt"] == "2026-03-02T12:00:00.000Z"  # service time
    assert first["deliveryAttempt"] == 1
    assert sorted(hooked.all.kinds()) == ["player.registered", "player.secret_set"]
    assert all(d.status.value == "delivered" for d in hooked.deliveries("all"))


async def test_environment_and_subscription_routing(hooked: Hooked) -> None:
    await hooked.world.register("alice", key="test-client")
    await hooked.flush()
    assert sorted(hooked.all.kinds()) == ["player.registered", "player.secret_set"]
    assert hooked.players.kinds() == ["player.registered"]
    assert hooked.live.kinds() == []
    await hooked.world.register("bob", key="live-client")
    await hooked.flush()
    assert sorted(hooked.live.kinds()) == ["player.registered", "player.secret_set"]
    assert len(hooked.all.received) == 2
    assert len(hooked.players.received) == 1


async def test_retry_schedule_breaker_hold_unpause_and_final_failure(hooked: Hooked) -> None:
    """One event to an endpoint that always fails: attempts at 0, 30 s, 2 min, 10 min, 1 h; the fifth
    consecutive failure pauses the endpoint and tells the game's other endpoints; the held delivery
    continues its schedule after unpause (6 h, then 24 h) and is failed after the sixth retry."""
    hooked.only_hourly_jobs()  # 79 hours of service time
    hooked.players.default_status = 500
    await hooked.world.register("alice")
    await hooked.flush()
    assert len(hooked.players.received) == 1
    for wait, expected in [(29, 1), (1, 2), (119, 2), (1, 3), (600, 4), (3600, 5)]:
        await hooked.advance(wait)
        assert len(hooked.players.received) == expected, (wait, expected)
    envelopes = [r.envelope for r in hooked.players.received]
    assert {e["id"] for e in envelopes} == {envelopes[0]["id"]}  # same event id on every retry
    assert [e["deliveryAttempt"] for e in envelopes] == [1, 2, 3, 4, 5]

    # The breaker tripped: webhook.endpoint.failed went to the other test endpoint only.
    failed = [r.envelope for r in hooked.all.received if r.envelope["eventName"] == "webhook.endpoint.failed"]
    assert len(failed) == 1
    data = failed[0]["data"]
    assert data["endpointId"] == hooked.endpoint("players")["id"]
    assert data["endpointKey"] == "players"
    assert (data["consecutiveFailures"], data["threshold"], data["lastStatus"]) == (5, 5, 500)
    assert data["reason"] == "consecutive_failures"
    assert "webhook.endpoint.failed" not in hooked.players.kinds()
    assert "webhook.endpoint.failed" not in hooked.live.kinds()

    # Paused: held, not dropped, not attempted.
    await hooked.advance(7 * 3600)
    assert len(hooked.players.received) == 5
    assert hooked.deliveries("players")[0].status.value == "pending"

    # New events for a paused endpoint are held too.
    await hooked.world.register("bob")
    await hooked.flush()
    assert len(hooked.players.received) == 5

    # After unpause bob's event succeeds (so the breaker stays shut) and alice's keeps failing.
    hooked.players.respond = lambda env: 200 if env["data"]["externalPlayerId"] == "bob" else 500
    assert (
        await asyncio.to_thread(unpause_endpoint, hooked.world.services, hooked.endpoint("players")["id"])
        is True
    )
    await hooked.flush()
    resumed = sorted(
        (r.envelope["data"]["externalPlayerId"], r.envelope["deliveryAttempt"])
        for r in hooked.players.received[5:]
    )
    assert resumed == [("alice", 6), ("bob", 1)]  # alice continues her schedule; nothing was dropped
    await hooked.advance(24 * 3600)
    alice = next(d for d in hooked.deliveries("players") if d.attempts == 7)
    assert alice.status.value == "failed"
    await hooked.advance(48 * 3600)
    assert sum(1 for r in hooked.players.received if r.envelope["data"]["externalPlayerId"] == "alice") == 7


async def test_a_2xx_resets_the_breaker(hooked: Hooked) -> None:
    def players_endpoint() -> Endpoint:
        endpoint_id = hooked.endpoint("players")["id"]
        endpoint = hooked.world.services.store.run(
            lambda tx: tx.webhooks.get_endpoint(endpoint_id), write=False
        )
        assert endpoint is not None
        return endpoint

    hooked.players.statuses = [500, 500, 500, 500]
    for name in ("a", "b", "c", "d"):
        await hooked.world.register(name)
    await hooked.flush()
    # Attempts to one endpoint run concurrently and their outcomes may be recorded in any order: the
    # success is sent once the four failures are recorded, so "four failures then a success" is the order.
    endpoint = players_endpoint()
    assert (endpoint.status.value, endpoint.consecutive_failures) == ("active", 4)
    await hooked.world.register("e")
    await hooked.flush()
    # Four failures then a success: never five in a row.
    endpoint = players_endpoint()
    assert endpoint.status.value == "active"
    assert endpoint.consecutive_failures == 0
    assert [status for _, status in hooked.players.answered] == [500, 500, 500, 500, 200]


async def test_a_slow_endpoint_does_not_hold_up_others(hooked: Hooked) -> None:
    hooked.all.gate = asyncio.Event()  # hangs until opened
    await hooked.world.register("alice")
    await hooked.players.wait_for(1)
    await hooked.all.wait_for(1)
    assert hooked.all.answered == []  # still hanging while the other endpoint was served
    hooked.all.gate.set()
    await hooked.flush()
    assert len(hooked.all.answered) == 2


async def test_no_answer_within_the_timeout_fails_the_attempt(db_url: str) -> None:
    h = await _hooked(db_url, webhook_timeout=0.3)
    try:
        h.players.gate = asyncio.Event()
        await h.world.register("alice")
        await h.flush()
        (delivery,) = h.deliveries("players")
        assert delivery.status.value == "pending"
        assert delivery.attempts == 1
        assert delivery.last_status is None
        assert "no answer within 0.3 s" in (delivery.last_error or "")
        h.players.gate.set()
    finally:
        await h.world.client.close()
        for r in (h.all, h.players, h.live):
            await r.stop()


async def test_connection_refused_fails_the_attempt(hooked: Hooked) -> None:
    await hooked.players.stop()
    await hooked.world.register("alice")
    await hooked.flush()
    (delivery,) = hooked.deliveries("players")
    assert delivery.attempts == 1
    assert delivery.status.value == "pending"
    assert delivery.last_error


async def test_sample_event_is_signed_marked_and_sent_to_one_endpoint(hooked: Hooked) -> None:
    event_id = await asyncio.to_thread(
        send_sample, hooked.world.services, hooked.endpoint("all")["id"], "player.secret_set"
    )
    await hooked.flush()
    (r,) = await hooked.all.wait_for(1)
    assert r.headers["X-Svc-Webhook-Test"] == "1"
    independent_check(hooked.endpoint("all")["secret"], r.headers["X-Signature"], r.body)
    assert r.envelope["id"] == event_id
    assert r.envelope["eventName"] == "player.secret_set"
    assert r.envelope["data"]["externalPlayerId"] == "sample-player"
    assert hooked.players.received == [] and hooked.live.received == []


async def test_replay_sends_the_same_event_again(hooked: Hooked) -> None:
    await hooked.world.register("alice")
    await hooked.flush()
    original = hooked.players.received[0].envelope
    (delivery,) = hooked.deliveries("players")
    new_id = await asyncio.to_thread(replay_delivery, hooked.world.services, delivery.id)
    await hooked.flush()
    again = hooked.players.received[1].envelope
    assert again["id"] == original["id"]
    assert again["deliveryAttempt"] == 1
    assert new_id != delivery.id


async def test_debounced_events_send_the_last_state_once(hooked: Hooked) -> None:
    services = hooked.world.services
    game = hooked.world.applied["games"]["space-race"]["id"]
    scope = Scope(studio_id=hooked.world.applied["studio"]["id"], game_id=game, env=Environment.TEST)
    for score in (1, 2, 3):
        await services.store.run_async(
            lambda tx, score=score: emit(
                tx, services.runtime, scope, ProgressUpdated(score), debounce_key="att_1"
            )
        )
        hooked.world.clock.advance(1)
    await hooked.flush()
    assert hooked.all.received == []  # still within the debounce window
    await hooked.advance(3)
    (r,) = await hooked.all.wait_for(1)
    assert r.envelope["data"] == {"score": 3}


async def test_a_rolled_back_write_emits_nothing(hooked: Hooked) -> None:
    services = hooked.world.services
    scope = Scope(
        studio_id=hooked.world.applied["studio"]["id"],
        game_id=hooked.world.applied["games"]["space-race"]["id"],
        env=Environment.TEST,
    )

    def failing(tx: object) -> None:
        ghost = PlayerRegistered(
            player_id="plr_ghost",
            external_player_id="ghost",
            first_seen_at=services.clock.now(),
            context_snapshot={},
        )
        emit(tx, services.runtime, scope, ghost)  # type: ignore[arg-type]
        raise RuntimeError("the write fails after emitting")

    with pytest.raises(RuntimeError):
        await services.store.run_async(failing)
    await hooked.flush()
    assert hooked.all.received == []
    assert hooked.world.rows("SELECT count(*) FROM outbox") == [(0,)]


async def test_finished_deliveries_are_kept_30_days_pending_ones_forever(hooked: Hooked) -> None:
    hooked.only_hourly_jobs()  # a month of service time
    hooked.players.default_status = 500  # fails until the breaker pauses it: its delivery stays pending
    await hooked.world.register("alice")
    await hooked.flush()
    await hooked.advance(29 * 86400)
    assert len(hooked.deliveries("all")) == 3  # two player events and webhook.endpoint.failed
    await hooked.advance(2 * 86400)
    assert hooked.deliveries("all") == []
    (kept,) = hooked.deliveries("players")
    assert kept.status.value == "pending"
    events = hooked.world.rows("SELECT kind FROM outbox")
    assert events == [("player.registered",)]  # only the event with a delivery still pending
