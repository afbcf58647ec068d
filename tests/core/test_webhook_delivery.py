"""Webhook delivery rules without a server: routing, retry schedule, breaker, replay, debounce."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import ClassVar

import attrs
import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime, emit
from livecore.events import DomainEvent
from livecore.hashing import KeyedHasher
from livecore.memory import MemoryStore
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore.webhooks.delivery import (
    BREAKER_THRESHOLD,
    MAX_ATTEMPTS,
    RETRY_SCHEDULE,
    AttemptResult,
    Delivery,
    DeliveryStatus,
    Endpoint,
    EndpointStatus,
    after_attempt,
    claimed,
    endpoint_after_attempt,
    receives,
    replay,
    unpause,
)
from livecore.webhooks.endpoints import WebhookEndpointFailed
from livecore.webhooks.payload import WebhookPayload

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@attrs.frozen
class ProgressUpdated(WebhookPayload):
    """A debounced kind, declared here as a studio-facing kind would be in ``livecore.webhooks``."""

    KIND: ClassVar[str] = "event.progress_updated"

    score: int


FAIL = AttemptResult(500, "HTTP 500")
OK = AttemptResult(204)


def event(
    kind: str = "player.registered", env: Environment = Environment.TEST, **data: object
) -> DomainEvent:
    return DomainEvent(
        id="evt_1", kind=kind, studio_id="std_1", game_id="gam_1", env=env, occurred_at=T0, payload=dict(data)
    )


def endpoint(**kw: object) -> Endpoint:
    base = Endpoint(
        id="whe_1", game_id="gam_1", name="hook", env=Environment.TEST, url="https://x", events=("*",)
    )
    return attrs.evolve(base, **kw)


def delivery() -> Delivery:
    return Delivery(
        id="dlv_1",
        event_id="evt_1",
        endpoint_id="whe_1",
        status=DeliveryStatus.PENDING,
        attempts=0,
        next_attempt_at=T0,
        created_at=T0,
    )


def test_schedule_is_the_spec_one() -> None:
    assert [int(d.total_seconds()) for d in RETRY_SCHEDULE] == [30, 120, 600, 3600, 21600, 86400]
    assert MAX_ATTEMPTS == 7


def test_each_failure_schedules_the_next_retry_then_fails_after_the_sixth() -> None:
    d = delivery()
    now = T0
    for wait in RETRY_SCHEDULE:
        d = after_attempt(claimed(d), FAIL, now)
        assert d.status is DeliveryStatus.PENDING
        assert d.next_attempt_at == now + wait
        now = d.next_attempt_at
    d = after_attempt(claimed(d), FAIL, now)
    assert (d.status, d.attempts, d.last_status) == (DeliveryStatus.FAILED, 7, 500)


def test_an_attempt_counts_from_its_claim_so_a_re_send_carries_the_next_number() -> None:
    """A claim counts its attempt before the request is sent: an attempt cut short (its process died
    before recording the outcome) still counts, and the re-send is attempt 2, not a second attempt 1."""
    first = claimed(delivery())
    assert first.attempts == 1  # the deliveryAttempt the first request carries
    resent = claimed(first)  # never recorded: claimed again once the claim has run out
    assert resent.attempts == 2
    recorded = after_attempt(resent, FAIL, T0)
    assert (recorded.attempts, recorded.next_attempt_at) == (2, T0 + RETRY_SCHEDULE[1])


def test_only_a_2xx_delivers() -> None:
    for status in (199, 300, 301, 404, 500):
        assert after_attempt(claimed(delivery()), AttemptResult(status), T0).status is DeliveryStatus.PENDING
    refused = after_attempt(claimed(delivery()), AttemptResult(None, "refused"), T0)
    assert refused.status is DeliveryStatus.PENDING
    done = after_attempt(claimed(delivery()), OK, T0)
    assert (done.status, done.attempts, done.delivered_at) == (DeliveryStatus.DELIVERED, 1, T0)


def test_breaker_trips_on_the_fifth_consecutive_failure_and_a_2xx_resets() -> None:
    e = endpoint()
    for i in range(1, BREAKER_THRESHOLD):
        e, tripped = endpoint_after_attempt(e, FAIL)
        assert not tripped and e.status is EndpointStatus.ACTIVE and e.consecutive_failures == i
    e, tripped = endpoint_after_attempt(e, FAIL)
    assert tripped and e.status is EndpointStatus.PAUSED
    e, tripped = endpoint_after_attempt(e, FAIL)
    assert not tripped  # trips once, not on every later failure
    e = unpause(e)
    assert (e.status, e.consecutive_failures) == (EndpointStatus.ACTIVE, 0)
    e, _ = endpoint_after_attempt(attrs.evolve(e, consecutive_failures=4), OK)
    assert e.consecutive_failures == 0


def test_routing_by_environment_subscription_and_self() -> None:
    assert receives(endpoint(), event())
    assert not receives(endpoint(), event(env=Environment.LIVE))
    assert not receives(endpoint(game_id="gam_2"), event())
    assert receives(endpoint(events=("player.registered",)), event())
    assert not receives(endpoint(events=("player.banned",)), event())
    failed = event("webhook.endpoint.failed", endpointId="whe_1")
    assert not receives(endpoint(), failed)
    assert receives(endpoint(id="whe_2"), failed)
    # As emitted (a payload object) rather than read back from an outbox (its stored JSON object).
    emitted = attrs.evolve(failed, payload=WebhookEndpointFailed.of(endpoint(), FAIL))
    assert not receives(endpoint(), emitted)
    assert receives(endpoint(id="whe_2"), emitted)
    assert receives(endpoint(events=("player.banned",)), event(), target="whe_1")
    assert not receives(endpoint(), event(), target="whe_2")


def test_replay_is_a_fresh_delivery_of_the_same_event() -> None:
    with pytest.raises(ValueError, match="still pending"):
        replay(delivery(), "dlv_2", T0)
    failed = attrs.evolve(delivery(), status=DeliveryStatus.FAILED, attempts=7)
    fresh = replay(failed, "dlv_2", T0 + timedelta(days=3))
    assert (fresh.event_id, fresh.attempts, fresh.status) == ("evt_1", 0, DeliveryStatus.PENDING)


def test_memory_store_debounces_like_the_server() -> None:
    store = MemoryStore()
    clock = ManualClock(T0)
    rt = Runtime(clock=clock, rng=SeededRandomSource(1), hasher=KeyedHasher(b"k" * 32))
    scope = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
    for score in (1, 2, 3):
        with store.transaction() as tx:
            emit(tx, rt, scope, ProgressUpdated(score), debounce_key="att_1")
        clock.advance(2)
    with store.transaction() as tx:  # 6 s after the burst began: a new burst
        emit(tx, rt, scope, ProgressUpdated(4), debounce_key="att_1")
    assert [e.data["score"] for e in store.outbox] == [3, 4]
    assert store.outbox[0].occurred_at == T0 + timedelta(seconds=4)
