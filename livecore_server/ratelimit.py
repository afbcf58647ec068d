"""Rate-limit buckets (SPEC 8), using the arithmetic of :mod:`livecore.ratelimit`.

:class:`RateLimiter` keeps buckets in memory: a SQLite server is one process. :class:`SharedRateLimiter`
keeps them in the database, so several processes behind a load balancer share one budget per key: each
request takes its token with one ``INSERT ... ON CONFLICT DO UPDATE`` statement, which PostgreSQL applies
under the row's lock, so concurrent takes from any process are counted one after another.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from livecore.clock import Clock, to_millis
from livecore.ratelimit import DEFAULT_LIMITS, Bucket, BucketName, Decision, decide, take

if TYPE_CHECKING:
    from livecore_server.storage.postgres import PostgresStore, PostgresTransaction

IDLE_MS = 60_000  # a bucket idle this long has refilled completely: it carries no information


def limit_for(bucket: BucketName, overrides: dict[BucketName, int] | None) -> int:
    return (overrides or {}).get(bucket) or DEFAULT_LIMITS[bucket]


class RateLimiter:
    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._buckets: dict[tuple[str, BucketName], Bucket] = {}

    async def take(
        self, subject: str, bucket: BucketName, now_ms: int, overrides: dict[BucketName, int] | None = None
    ) -> Decision:
        key = (subject, bucket)
        state, decision = take(self._buckets.get(key), limit_for(bucket, overrides), now_ms)
        self._buckets[key] = state
        return decision

    async def prune(self) -> int:
        """Drop buckets that have refilled completely."""
        now = to_millis(self._clock.now())
        stale = [k for k, b in self._buckets.items() if now - b.updated_ms > IDLE_MS]
        for k in stale:
            del self._buckets[k]
        return len(stale)


# The SQL form of livecore.ratelimit.take (refill, then take one whole token if there is one); the
# decision headers come from livecore.ratelimit.decide. tests/server/test_ratelimit_shared.py holds the
# two to the same answers.
_REFILLED = "LEAST(%(limit)s::float8, b.tokens + GREATEST(0, %(now)s - b.updated_ms) * %(per_ms)s)"
TAKE = f"""INSERT INTO rate_buckets AS b (subject, bucket, tokens, updated_ms, allowed)
    VALUES (%(subject)s, %(bucket)s, %(limit)s::float8 - 1, %(now)s, TRUE)
    ON CONFLICT (subject, bucket) DO UPDATE SET
        tokens = {_REFILLED} - CASE WHEN {_REFILLED} >= 1 THEN 1 ELSE 0 END,
        allowed = {_REFILLED} >= 1,
        updated_ms = %(now)s
    RETURNING tokens, allowed"""


def take_shared(
    tx: PostgresTransaction, subject: str, bucket: BucketName, limit: int, now_ms: int
) -> Decision:
    row = tx.conn.execute(
        TAKE,
        {"subject": subject, "bucket": bucket.value, "limit": limit, "now": now_ms, "per_ms": limit / 60_000},
    ).fetchone()
    assert row is not None  # an upsert always returns its row
    return decide(float(row[0]), bool(row[1]), limit)


class SharedRateLimiter:
    """Buckets held in the database (PostgreSQL), shared by every server process on it."""

    def __init__(self, store: PostgresStore, clock: Clock) -> None:
        self._store = store
        self._clock = clock

    async def take(
        self, subject: str, bucket: BucketName, now_ms: int, overrides: dict[BucketName, int] | None = None
    ) -> Decision:
        limit = limit_for(bucket, overrides)
        return await self._store.autocommit(lambda tx: take_shared(tx, subject, bucket, limit, now_ms))

    async def prune(self) -> int:
        cutoff = to_millis(self._clock.now()) - IDLE_MS
        return await self._store.autocommit(
            lambda tx: tx.execute("DELETE FROM rate_buckets WHERE updated_ms < ?", (cutoff,)).rowcount
        )
