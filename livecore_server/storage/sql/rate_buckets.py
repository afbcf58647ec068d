"""The rate-limit buckets the database holds (table ``rate_buckets``, server-only): what the operator's
``livecore-server lockouts`` commands list and clear, and on SQLite the takes of failed authentications
(livecore_server/lockouts.py). PostgreSQL takes from them with one upsert instead
(livecore_server.ratelimit.TAKE), held to the same arithmetic by tests/server/test_ratelimit_shared.py."""

from __future__ import annotations

from livecore.ratelimit import Bucket, take_up_to
from livecore_server.storage.sqlport import SqlPort


class SqlRateBuckets(SqlPort):
    __slots__ = ()

    def get(self, subject: str, bucket: str) -> Bucket | None:
        row = self.db.read(
            "SELECT tokens, updated_ms FROM rate_buckets WHERE subject = ? AND bucket = ?", (subject, bucket)
        ).fetchone()
        if row is None:
            return None
        tokens, updated_ms = row
        return Bucket(float(tokens), int(updated_ms))

    def take(self, subject: str, bucket: str, limit: int, now_ms: int) -> tuple[float, int]:
        """Take one token (:func:`livecore.ratelimit.take_up_to`): the tokens left, and whether one was
        granted (1) or not (0). One writer at a time (SQLite) makes the read and the write one step."""
        state, granted = take_up_to(self.get(subject, bucket), limit, now_ms, 1)
        self.db.execute(
            "INSERT INTO rate_buckets (subject, bucket, tokens, updated_ms, allowed, granted)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (subject, bucket) DO UPDATE SET tokens = excluded.tokens,"
            " updated_ms = excluded.updated_ms, allowed = excluded.allowed, granted = excluded.granted",
            (subject, bucket, state.tokens, state.updated_ms, granted >= 1, granted),
        )
        return state.tokens, granted

    def of_bucket(self, bucket: str) -> list[tuple[str, Bucket]]:
        """Every subject's bucket of that name, by subject."""
        rows = self.db.read(
            "SELECT subject, tokens, updated_ms FROM rate_buckets WHERE bucket = ? ORDER BY subject",
            (bucket,),
        )
        return [
            (str(subject), Bucket(float(tokens), int(updated_ms))) for subject, tokens, updated_ms in rows
        ]

    def clear(self, subject: str, bucket: str) -> bool:
        """Forget the subject's bucket (it starts full again); whether there was one."""
        cursor = self.db.execute(
            "DELETE FROM rate_buckets WHERE subject = ? AND bucket = ?", (subject, bucket)
        )
        return bool(cursor.rowcount)

    def prune(self, bucket: str, before_ms: int) -> int:
        """Drop the buckets of that name untouched since ``before_ms`` (refilled: they say nothing)."""
        cursor = self.db.execute(
            "DELETE FROM rate_buckets WHERE bucket = ? AND updated_ms < ?", (bucket, before_ms)
        )
        return int(cursor.rowcount)
