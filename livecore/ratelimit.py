"""Rate-limit arithmetic (SPEC 8, DECISIONS 4): a token bucket per API key and bucket name.

A bucket holds up to ``limit`` tokens and refills at ``limit`` per minute; each request takes one.
Headers: ``RateLimit-Limit`` the per-minute limit, ``RateLimit-Remaining`` whole tokens left,
``RateLimit-Reset`` seconds until the bucket is full again, and on refusal ``Retry-After`` seconds until
one token is back. All in whole seconds, rounded up, so a client that waits that long succeeds.
"""

from __future__ import annotations

import enum
import math
from typing import NamedTuple


class BucketName(enum.StrEnum):
    SDK_READ = "sdk_read"
    SDK_WRITE = "sdk_write"
    SERVER_API = "server_api"
    ADMIN = "admin"


DEFAULT_LIMITS: dict[BucketName, int] = {
    BucketName.SDK_READ: 600,
    BucketName.SDK_WRITE: 120,
    BucketName.SERVER_API: 1000,
    BucketName.ADMIN: 600,
}


# NamedTuples rather than attrs classes: immutable all the same, and several times cheaper to create on
# a path every request takes.
class Bucket(NamedTuple):
    tokens: float
    updated_ms: int


class Decision(NamedTuple):
    allowed: bool
    limit: int
    remaining: int
    reset_seconds: int
    retry_after_seconds: int | None

    def headers(self) -> dict[str, str]:
        out: dict[str, str] = {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(self.remaining),
            "RateLimit-Reset": str(self.reset_seconds),
        }
        if self.retry_after_seconds is not None:
            out["Retry-After"] = str(self.retry_after_seconds)
        return out


def refill(bucket: Bucket | None, limit: int, now_ms: int) -> float:
    """The tokens in ``bucket`` at ``now_ms``, before taking one. A missing bucket starts full."""
    if bucket is None:
        return float(limit)
    elapsed = max(0, now_ms - bucket.updated_ms)
    return min(float(limit), bucket.tokens + elapsed * (limit / 60_000))


def decide(tokens: float, allowed: bool, limit: int) -> Decision:
    """The decision (and headers) for a bucket left with ``tokens`` after a take that was ``allowed`` or
    not. Shared by the in-process buckets and the database-held ones (livecore_server.ratelimit)."""
    per_ms = limit / 60_000
    retry_after = None if allowed else max(1, math.ceil((1.0 - tokens) / per_ms / 1000))
    reset = math.ceil((limit - tokens) / per_ms / 1000) if tokens < limit else 0
    return Decision(
        allowed=allowed,
        limit=limit,
        remaining=int(tokens),
        reset_seconds=reset,
        retry_after_seconds=retry_after,
    )


def take(bucket: Bucket | None, limit: int, now_ms: int) -> tuple[Bucket, Decision]:
    """Take one token at ``now_ms``: allowed when at least one whole token is there."""
    tokens = refill(bucket, limit, now_ms)
    allowed = tokens >= 1.0
    if allowed:
        tokens -= 1.0
    return Bucket(tokens=tokens, updated_ms=now_ms), decide(tokens, allowed, limit)
