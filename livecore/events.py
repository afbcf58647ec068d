"""Domain events: what a command tells the studio through webhooks (docs/reference/webhooks.md).

A command emits events into its transaction; the store writes them to the outbox in the same
transaction as the change, and the dispatcher delivers them. ``payload`` is the kind's payload class
from ``livecore.webhooks``, built by the rule that caused it; it is turned into JSON only when the event
is stored or delivered (``data``). An event read back from an outbox carries the stored JSON object as
it is, so stored events are delivered byte for byte as they were written.

``env`` routes the event (docs/reference/webhooks.md): the environment of the key that caused it;
worker-driven events (sweeps, windows) are emitted live.

Debounce: an event with a ``debounce_key`` waits :data:`DEBOUNCE` before it is sent; another event with
the same key emitted meanwhile replaces its payload (last state wins, one delivery per burst, the first
event's id). ``event.progress_updated`` uses the attempt id as its key.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import attrs

from livecore.scope import Environment
from livecore.webhooks.payload import WebhookPayload


@attrs.frozen
class DomainEvent:
    id: str
    kind: str
    studio_id: str
    game_id: str
    env: Environment
    occurred_at: datetime
    payload: WebhookPayload | dict[str, Any]
    debounce_key: str | None = None

    @property
    def data(self) -> dict[str, Any]:
        """The envelope's ``data`` object: the payload in its wire form."""
        payload = self.payload
        return payload if isinstance(payload, dict) else payload.to_wire()


DEBOUNCE = timedelta(seconds=5)
