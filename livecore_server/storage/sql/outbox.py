"""The outbox port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

import functools

import orjson

from livecore.clock import to_millis
from livecore.events import DEBOUNCE, DomainEvent
from livecore_server.storage.rows import OUTBOX_COLUMNS
from livecore_server.storage.sql.webhooks import SqlWebhooks
from livecore_server.storage.sqlport import Insert, SqlPort

INSERT_EVENT = Insert(
    "outbox",
    (
        "id",
        "studio_id",
        "game_id",
        "env",
        "kind",
        "occurred_at",
        "data",
        "debounce_key",
        "not_before",
        "target_endpoint",
    ),
)


@functools.cache
def _debounced(not_fanned_out: str) -> Insert:
    """An event's insert that replaces the data and time of the pending event of its debounce key
    (``not_fanned_out``: the dialect's condition of the pending events' unique index)."""
    return Insert(
        "outbox",
        INSERT_EVENT.columns,
        conflict=("debounce_key",),
        action=f"WHERE {not_fanned_out}"
        " DO UPDATE SET data = excluded.data, occurred_at = excluded.occurred_at",
    )


class SqlOutbox(SqlPort):
    __slots__ = ()

    def emit(self, event: DomainEvent) -> None:
        if not SqlWebhooks(self.db).subscribes(event.game_id, event.env, event.kind):
            return  # nobody would receive it (docs/webhooks.md#what-is-kept)
        self.db.emitted = True
        data = orjson.dumps(event.data).decode()
        if event.debounce_key is None:
            self._insert(event, data)
            return
        # Last state wins: a burst with one key is one event, sent DEBOUNCE after its first one. One
        # upsert on the pending events' unique key: the pending event of the key takes the new data and
        # time (its id and not_before stay), or this one is inserted. Nobody reads its answer, so on
        # PostgreSQL it travels with the next statement that waits.
        debounced = _debounced(self.db.NOT_FANNED_OUT)
        self._insert(event, data, not_before=to_millis(event.occurred_at + DEBOUNCE), insert=debounced)

    def insert_sample(self, event: DomainEvent, endpoint_id: str) -> None:
        """A sample event for one endpoint; fanned out only to it (sample deliveries,
        docs/reference/webhooks.md#signing-and-verifying); the dispatcher hears of it once committed."""
        self.db.emitted = True
        self._insert(event, orjson.dumps(event.data).decode(), target_endpoint=endpoint_id)

    def _insert(
        self,
        event: DomainEvent,
        data: str,
        *,
        not_before: int | None = None,
        target_endpoint: str | None = None,
        insert: Insert = INSERT_EVENT,
    ) -> None:
        row = (
            event.id,
            event.studio_id,
            event.game_id,
            event.env.value,
            event.kind,
            to_millis(event.occurred_at),
            data,
            event.debounce_key,
            not_before,
            target_endpoint,
        )
        self.db.insert(insert, row)

    def events(self) -> list[DomainEvent]:
        rows = self.db.read(f"SELECT {OUTBOX_COLUMNS.sql} FROM outbox ORDER BY seq", ())
        return [OUTBOX_COLUMNS.of(r) for r in rows]
