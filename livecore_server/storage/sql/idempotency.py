"""The idempotency port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

from typing import cast

from livecore.clock import to_millis
from livecore.idempotency import WITHDRAWN, StoredResponse
from livecore_server.storage.read_ahead import MISSING
from livecore_server.storage.rows import STORED_RESPONSE_COLUMNS
from livecore_server.storage.sqlport import Insert, SqlPort, SqlTransaction

# Insert or replace the record of a key.
PUT_RECORD = Insert(
    "idempotency",
    ("scope", "key", "fingerprint", "status", "body", "created_at", "shows_secret_of"),
    conflict=("scope", "key"),
    action="DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,"
    " body = excluded.body, created_at = excluded.created_at, shows_secret_of = excluded.shows_secret_of",
)


class SqlIdempotency(SqlPort):
    __slots__ = ("_showing",)

    def __init__(self, db: SqlTransaction) -> None:
        super().__init__(db)
        # Idempotency key -> whose secret the answer about to be stored under it shows (shows_secret).
        self._showing: dict[str, str] = {}

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
        showing = None
        if self._showing:
            showing = self._showing.pop(stored.key, None)
            # A mark left by a write that failed after making it is stale by now.
            self._showing.clear()
        self.db.insert(
            PUT_RECORD,
            (
                stored.scope,
                stored.key,
                stored.fingerprint,
                stored.status,
                stored.body,
                to_millis(stored.created_at),
                showing,
            ),
        )

    def shows_secret(self, key: str | None, holder: str) -> None:
        """The answer the running write stores under ``key`` (if it has one) shows a secret of ``holder``:
        it is kept marked so, for :meth:`withdraw`. Called by the handler, before the answer is stored, so
        that the record's scope is left to whoever stores it."""
        if key is not None:
            self._showing[key] = holder

    def withdraw(self, holder: str) -> int:
        """The secret of ``holder`` that kept answers show was replaced: each such answer is withdrawn, its
        sealed body emptied, and its key answers 409 from now on (``livecore.idempotency.check_replay``);
        how many."""
        return self.db.change(
            "idempotency",
            "UPDATE idempotency SET fingerprint = ?, body = ?, shows_secret_of = NULL"
            " WHERE shows_secret_of = ?",
            (WITHDRAWN, b"", holder),
        ).rowcount

    def purge(self, before_ms: int) -> int:
        return self.db.change(
            "idempotency", "DELETE FROM idempotency WHERE created_at < ?", (before_ms,)
        ).rowcount
