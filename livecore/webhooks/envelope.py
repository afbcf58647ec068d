"""The webhook envelope (docs/reference/webhooks.md#the-envelope): the exact bytes that are POSTed and signed.

``{"id","eventName","studioId","gameId","occurredAt","deliveryAttempt","data"}`` in that order,
serialized as compact JSON (UTF-8, no spaces). ``id`` is the event's ``evt_`` id and stays the same on
every retry and replay, so receivers can dedupe on it. ``studioId`` and ``gameId`` are the ``std_``
and ``gam_`` ids. ``occurredAt`` is service time, written ``YYYY-MM-DDTHH:MM:SS.sssZ``.
``deliveryAttempt`` starts at 1. ``data`` is the event's payload in its wire form.

The signature covers these bytes, so they are built once per attempt and sent unchanged.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import orjson

from livecore.clock import format_ts
from livecore.events import DomainEvent

__all__ = ["build_envelope"]


def build_envelope(event: DomainEvent, *, delivery_attempt: int) -> bytes:
    """The JSON body for one delivery attempt of ``event``."""
    if isinstance(delivery_attempt, bool) or not isinstance(delivery_attempt, int) or delivery_attempt < 1:
        raise ValueError("delivery_attempt starts at 1")
    envelope = {
        "id": event.id,
        "eventName": event.kind,
        "studioId": event.studio_id,
        "gameId": event.game_id,
        "occurredAt": format_ts(event.occurred_at),
        "deliveryAttempt": delivery_attempt,
        "data": event.data,
    }
    # orjson keeps insertion order and writes compact UTF-8. Rules put timestamps in ``data`` already
    # formatted. Should a datetime slip through, it still gets the contract's format rather than orjson's
    # ``+00:00`` one.
    return orjson.dumps(envelope, default=_default, option=orjson.OPT_PASSTHROUGH_DATETIME)


def _default(value: Any) -> Any:
    if isinstance(value, datetime):
        return format_ts(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable in a webhook payload")
