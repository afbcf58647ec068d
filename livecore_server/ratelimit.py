"""Rate-limit buckets of this process (SPEC 8), using the pure arithmetic of :mod:`livecore.ratelimit`.

Buckets live in memory: one SQLite server is one process. A full bucket carries no information, so
buckets idle long enough to have refilled are dropped by :meth:`RateLimiter.prune`.
"""

from __future__ import annotations

from livecore.clock import Clock, to_millis
from livecore.ratelimit import DEFAULT_LIMITS, Bucket, BucketName, Decision, take


class RateLimiter:
    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._buckets: dict[tuple[str, BucketName], Bucket] = {}

    def take(
        self, subject: str, bucket: BucketName, now_ms: int, overrides: dict[BucketName, int] | None = None
    ) -> Decision:
        limit = (overrides or {}).get(bucket) or DEFAULT_LIMITS[bucket]
        key = (subject, bucket)
        state, decision = take(self._buckets.get(key), limit, now_ms)
        self._buckets[key] = state
        return decision

    def prune(self) -> int:
        """Drop buckets idle for over a minute: they have refilled completely."""
        now = to_millis(self._clock.now())
        stale = [k for k, b in self._buckets.items() if now - b.updated_ms > 60_000]
        for k in stale:
            del self._buckets[k]
        return len(stale)
