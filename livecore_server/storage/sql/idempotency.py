"""The idempotency port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from livecore.clock import to_millis
from livecore.idempotency import StoredResponse
from livecore_server.storage.read_ahead import MISSING
from livecore_server.storage.rows import STORED_RESPONSE_COLUMNS
from livecore_server.storage.sqlport import Insert, SqlPort

if TYPE_CHECKING:
    pass


# Insert or replace the record of a key.
PUT_RECORD = Insert(
    "idempotency",
    ("scope", "key", "fingerprint", "status", "body", "created_at"),
    conflict=("scope", "key"),
    action="DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,"
    " body = excluded.body, created_at = excluded.created_at",
)


class SqlIdempotency(SqlPort):
    __slots__ = ()

    def get(self, scope: str, key: str) -> StoredResponse | None:
        ahead = self.db.ahead("idempotency", (scope, key))
        if ahead is not MISSING:
            return cast(StoredResponse | None, ahead)
        row = self.db.read(
            f"SELECT {STORED_RESPONSE_COLUMNS.sql} FROM idempotency WHERE scope = ? AND key = ?", (scope, key)
        ).fetchone()
        return None if row is None else STORED_RESPONSE_COLUMNS.of(row)

    def put(self, stored: StoredResponse) -> None:
        with self.db.exactly(lambda p: p.idempotency_written(stored.scope, stored.key)):
            self._put(stored)

    def _put(self, stored: StoredResponse) -> None:
        self.db.insert(
            PUT_RECORD,
            (
                stored.scope,
                stored.key,
                stored.fingerprint,
                stored.status,
                stored.body,
                to_millis(stored.created_at),
            ),
        )

    def purge(self, before_ms: int) -> int:
        return self.db.change(
            "idempotency", "DELETE FROM idempotency WHERE created_at < ?", (before_ms,)
        ).rowcount
