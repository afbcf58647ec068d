"""Webhook delivery rules (docs/reference/webhooks.md#delivery).

- Routing: an event goes to every endpoint of its game whose environment is the event's environment and
  which subscribes to its kind (or to ``*``). ``webhook.endpoint.failed`` never goes to the endpoint that
  failed. A sample event goes to the one endpoint it was sent to, whatever its subscriptions.
- Attempts: the first at once, then retries 30 s, 2 min, 10 min, 1 h, 6 h and 24 h after the previous
  attempt; a delivery whose sixth retry fails is ``failed``. An attempt fails on a non-2xx answer, a
  connection error or no answer within 10 seconds. A delivery is ``delivered`` only on a 2xx.
- Attempt numbers: an attempt counts from the moment it is claimed (:func:`claimed`), before its request
  is sent, so one cut short (its process died, or stopped) still counts and the re-send carries the
  next ``deliveryAttempt``: a receiver can tell a re-send from a first send.
- Circuit breaker: 5 consecutive failed attempts to one endpoint, whatever the event, pause it; a 2xx
  resets the count. A paused endpoint holds its deliveries (nothing is dropped); unpausing sends them
  again, oldest first, continuing their schedules.
- Undeliverable: a delivery whose request cannot be built (its event does not serialize) is ``failed``
  at once with the reason; the endpoint's breaker does not count it.
- Replay: a delivered or failed delivery can be sent again as a new delivery of the same event (same
  ``evt_`` id, so receivers dedupe it) with a fresh schedule.
- Retention: finished deliveries are kept 30 days, then removed with events that have no delivery left;
  pending deliveries are never removed.
- Rolling the signing secret (docs/webhooks.md#rolling-the-signing-secret): a new secret is minted and
  becomes the endpoint's secret; the one it replaces stays the *previous* secret for an overlap the
  operator chooses, 0 to 7 days (:data:`OVERLAP`, 24 hours when not said). Every attempt made before the
  overlap ends (service time) is signed with both, the new one first; every attempt after it with the new
  one only, retries of deliveries made before the roll included. An endpoint holds two secrets at most:
  rolling again during an overlap makes the secret being replaced the previous one, and the earlier
  previous one is dropped at once. An overlap of 0 drops the old secret at once. A previous secret whose
  overlap ended is deleted from storage within a minute (:data:`SECRET_SWEEP`).
"""

from __future__ import annotations

import enum
from collections.abc import Collection
from datetime import datetime, timedelta

import attrs

from livecore.events import DomainEvent
from livecore.limits import Range
from livecore.scope import Environment

RETRY_SCHEDULE: tuple[timedelta, ...] = (
    timedelta(seconds=30),
    timedelta(minutes=2),
    timedelta(minutes=10),
    timedelta(hours=1),
    timedelta(hours=6),
    timedelta(hours=24),
)
MAX_ATTEMPTS = 1 + len(RETRY_SCHEDULE)
ATTEMPT_TIMEOUT = timedelta(seconds=10)
BREAKER_THRESHOLD = 5
# Finished deliveries (and events left with none) are kept this long for listing and replay.
RETENTION = timedelta(days=30)
ENDPOINT_FAILED = "webhook.endpoint.failed"
#: Seconds a rolled secret's predecessor keeps signing: up to 7 days, as Stripe allows, so a receiver
#: deployed weekly still has its slot; 0 stops the old secret at once (a leaked secret).
OVERLAP = Range(0, 7 * 24 * 3600)
#: The overlap when the operator names none: Svix's fixed one, a day for a receiver to take the new secret.
DEFAULT_OVERLAP = timedelta(hours=24)
#: How often previous secrets whose overlap ended are deleted.
SECRET_SWEEP = timedelta(minutes=1)


class DeliveryStatus(enum.StrEnum):
    PENDING = "pending"
    DELIVERED = "delivered"
    FAILED = "failed"


class EndpointStatus(enum.StrEnum):
    ACTIVE = "active"
    PAUSED = "paused"


@attrs.frozen
class Endpoint:
    id: str
    game_id: str
    name: str
    env: Environment
    url: str
    events: tuple[str, ...]
    status: EndpointStatus = EndpointStatus.ACTIVE
    consecutive_failures: int = 0
    # While a rolled secret's predecessor still signs: until then (service time), else None.
    previous_secret_until: datetime | None = None

    def signs_with_previous(self, now: datetime) -> bool:
        """Whether an attempt made at ``now`` also carries the previous secret's signature."""
        return self.previous_secret_until is not None and now < self.previous_secret_until


@attrs.frozen
class Delivery:
    id: str
    event_id: str
    endpoint_id: str
    status: DeliveryStatus
    # Attempts claimed so far, the one in flight included (:func:`claimed`); the next is attempts + 1.
    attempts: int
    next_attempt_at: datetime
    created_at: datetime
    last_status: int | None = None
    last_error: str | None = None
    delivered_at: datetime | None = None


@attrs.frozen
class AttemptResult:
    """What one HTTP attempt produced: a status (None when no answer came) or an error text."""

    status: int | None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def receives(endpoint: Endpoint, event: DomainEvent, *, target: str | None = None) -> bool:
    if target is not None:
        return endpoint.id == target
    if endpoint.game_id != event.game_id or endpoint.env is not event.env:
        return False
    if event.kind == ENDPOINT_FAILED and event.data.get("endpointId") == endpoint.id:
        return False
    return subscribes_to(endpoint.events, event.kind)


def subscribes_to(events: Collection[str], kind: str) -> bool:
    """Whether an endpoint subscribed to ``events`` receives events of ``kind``."""
    return "*" in events or kind in events


def subscribed_kinds_valid(events: Collection[str]) -> bool:
    return bool(events) and (tuple(events) == ("*",) or "*" not in events)


def claimed(delivery: Delivery) -> Delivery:
    """The delivery as its next attempt is claimed: that attempt counts already, and its number
    (``deliveryAttempt``) is the new ``attempts``."""
    return attrs.evolve(delivery, attempts=delivery.attempts + 1)


def after_attempt(delivery: Delivery, result: AttemptResult, now: datetime) -> Delivery:
    """The delivery once an attempt finished at ``now``; ``delivery`` as :func:`claimed` for it."""
    attempts = delivery.attempts
    if result.ok:
        return attrs.evolve(
            delivery,
            status=DeliveryStatus.DELIVERED,
            attempts=attempts,
            last_status=result.status,
            last_error=None,
            delivered_at=now,
        )
    failed = attrs.evolve(delivery, attempts=attempts, last_status=result.status, last_error=result.error)
    if attempts >= MAX_ATTEMPTS:
        return attrs.evolve(failed, status=DeliveryStatus.FAILED)
    return attrs.evolve(failed, next_attempt_at=now + RETRY_SCHEDULE[attempts - 1])


def undeliverable(delivery: Delivery, reason: str) -> Delivery:
    """A delivery (as :func:`claimed`) whose request cannot even be built (its event does not serialize):
    ``failed`` at once with ``reason``, since no retry could build it either. The receiver did nothing
    wrong, so this is not an attempt its endpoint's breaker counts."""
    return attrs.evolve(
        delivery,
        status=DeliveryStatus.FAILED,
        last_status=None,
        last_error=reason,
    )


def endpoint_after_attempt(endpoint: Endpoint, result: AttemptResult) -> tuple[Endpoint, bool]:
    """The endpoint's breaker once an attempt finished; ``True`` when this attempt trips it."""
    if result.ok:
        return attrs.evolve(endpoint, consecutive_failures=0), False
    failures = endpoint.consecutive_failures + 1
    trips = endpoint.status is EndpointStatus.ACTIVE and failures >= BREAKER_THRESHOLD
    status = EndpointStatus.PAUSED if trips else endpoint.status
    return attrs.evolve(endpoint, consecutive_failures=failures, status=status), trips


def unpause(endpoint: Endpoint) -> Endpoint:
    return attrs.evolve(endpoint, status=EndpointStatus.ACTIVE, consecutive_failures=0)


def rolled(endpoint: Endpoint, now: datetime, overlap_seconds: int) -> Endpoint:
    """The endpoint once its secret is rolled at ``now``: the secret it had signs alongside the new one
    for ``overlap_seconds`` (not at all for 0). 400 ``invalid_request`` outside :data:`OVERLAP`."""
    OVERLAP.check(overlap_seconds, "overlapSeconds")
    until = now + timedelta(seconds=overlap_seconds) if overlap_seconds else None
    return attrs.evolve(endpoint, previous_secret_until=until)


def replay(delivery: Delivery, new_id: str, now: datetime) -> Delivery:
    """A fresh delivery of the same event to the same endpoint, due at once."""
    if delivery.status is DeliveryStatus.PENDING:
        raise ValueError("this delivery is still pending; it will be attempted on its schedule")
    return Delivery(
        id=new_id,
        event_id=delivery.event_id,
        endpoint_id=delivery.endpoint_id,
        status=DeliveryStatus.PENDING,
        attempts=0,
        next_attempt_at=now,
        created_at=now,
    )
