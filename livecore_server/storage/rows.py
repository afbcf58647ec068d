"""Row <-> record conversions shared by the SQLite and PostgreSQL stores: both keep the same row layout
(timestamps as integer milliseconds, JSON as text), so a record is read and written one way.

Each record is read through its ``*_COLUMNS`` declaration (:class:`~livecore_server.storage.columns.Columns`):
the builder's parameters name the columns, so a read's SELECT list and its conversion are one piece of
code. The ``*_row`` functions give the values to write, in the order of the declaration's ``names``.
Each area's records are declared in its own package (``livecore_server/<area>/rows.py``); here are the
conversions they share and the records no area owns (stored responses, outbox events)."""

from __future__ import annotations

from typing import Any

import orjson

from livecore.clock import from_millis, to_millis
from livecore.events import DomainEvent
from livecore.idempotency import StoredResponse
from livecore.scope import Environment
from livecore_server.storage.columns import Columns


def ms(value: Any) -> int | None:
    return None if value is None else to_millis(value)


def dt(ms: int | None) -> Any:
    return None if ms is None else from_millis(ms)


def _stored_response(
    scope: Any, key: Any, fingerprint: Any, status: Any, body: Any, created_at: Any
) -> StoredResponse:
    return StoredResponse(
        scope=scope,
        key=key,
        fingerprint=fingerprint,
        status=status,
        body=bytes(body),
        created_at=from_millis(created_at),
    )


STORED_RESPONSE_COLUMNS = Columns(_stored_response)


def _outbox_event(
    id: Any, kind: Any, studio_id: Any, game_id: Any, env: Any, occurred_at: Any, data: Any, debounce_key: Any
) -> DomainEvent:
    return DomainEvent(
        id=id,
        kind=kind,
        studio_id=studio_id,
        game_id=game_id,
        env=Environment(env),
        occurred_at=from_millis(occurred_at),
        payload=orjson.loads(data),
        debounce_key=debounce_key,
    )


OUTBOX_COLUMNS = Columns(_outbox_event)
