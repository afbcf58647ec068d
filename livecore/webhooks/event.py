"""One webhook event as a receiver reads it (docs/webhooks.md#reading-events): the envelope's fields by
their wire names in snake_case (``eventName`` is ``event_name``), ``data`` read into the kind's payload
class. ``livecore_client.webhooks.construct_event`` answers one for a delivery it verified; a simulation
answers the same for the events it emitted (``sim.received()``), so a studio's handler of events runs on
either.

The core's own record of an event, :class:`livecore.events.DomainEvent` (``sim.webhooks``), is what a
command emitted into the outbox, before any delivery: its routing (``env``, ``debounce_key``), its
``kind``, the ``payload`` the command built and ``data``, the payload's wire form as the outbox stores
and the envelope sends it. A delivery adds what a receiver alone has (``delivery_attempt``, ``raw``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import attrs
import orjson

from livecore.events import DomainEvent
from livecore.webhooks.envelope import build_envelope
from livecore.webhooks.payload import WebhookPayload

__all__ = ["WebhookEvent"]


@attrs.frozen
class WebhookEvent:
    """One delivery, verified. ``id`` is the same on every retry and replay of an event: dedupe by it.
    ``data`` is the kind's payload class, or a plain ``dict`` for a kind the reader was not given."""

    id: str
    event_name: str
    studio_id: str
    game_id: str
    occurred_at: datetime
    delivery_attempt: int
    data: WebhookPayload | dict[str, Any]
    # Everything that was sent, including fields newer than this client's classes.
    raw: dict[str, Any] = attrs.field(factory=dict, repr=False, eq=False)

    @classmethod
    def received(cls, event: DomainEvent, *, delivery_attempt: int = 1) -> WebhookEvent:
        """``event`` as a receiver reads a delivery of it: the envelope the service sends, ``data`` the
        payload the command built."""
        return cls(
            id=event.id,
            event_name=event.kind,
            studio_id=event.studio_id,
            game_id=event.game_id,
            occurred_at=event.occurred_at,
            delivery_attempt=delivery_attempt,
            data=event.payload,
            raw=orjson.loads(build_envelope(event, delivery_attempt=delivery_attempt)),
        )
