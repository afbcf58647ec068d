"""The outbox port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

import orjson

from livecore.clock import to_millis
from livecore.events import DEBOUNCE, DomainEvent
from livecore_server.storage.rows import OUTBOX_COLUMNS, outbox_event
from livecore_server.storage.sqlport import Insert, SqlPort

INSERT_EVENT = Insert(
    "outbox",
    ("id", "studio_id", "game_id", "env", "kind", "occurred_at", "data", "debounce_key", "not_before"),
)


class SqlOutbox(SqlPort):
    __slots__ = ()

    def emit(self, event: DomainEvent) -> None:
        self.db.emitted = True
        data = orjson.dumps(event.data).decode()
        not_before = None
        if event.debounce_key is not None:
            # Last state wins: a burst with one key is one event, sent DEBOUNCE after its first one.
            replaced = self.db.change(
                "outbox",
                "UPDATE outbox SET data = ?, occurred_at = ?"
                f" WHERE debounce_key = ? AND {self.db.NOT_FANNED_OUT}",
                (data, to_millis(event.occurred_at), event.debounce_key),
            ).rowcount
            if replaced:
                return
            not_before = to_millis(event.occurred_at + DEBOUNCE)
        self.db.insert(
            INSERT_EVENT,
            (
                event.id,
                event.studio_id,
                event.game_id,
                event.env.value,
                event.kind,
                to_millis(event.occurred_at),
                data,
                event.debounce_key,
                not_before,
            ),
        )

    def events(self) -> list[DomainEvent]:
        rows = self.db.read(f"SELECT {OUTBOX_COLUMNS} FROM outbox ORDER BY seq", ())
        return [outbox_event(r) for r in rows]
