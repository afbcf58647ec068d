"""Rate-limit arithmetic (docs/reference/conventions.md#rate-limits): a token bucket per API key and bucket
name.

A bucket holds up to ``limit`` tokens and refills at ``limit`` per minute; each request takes one.
Headers: ``RateLimit-Limit`` the per-minute limit, ``RateLimit-Remaining`` whole tokens left,
``RateLimit-Reset`` seconds until the bucket is full again, and on refusal ``Retry-After`` seconds until
one token is back. All in whole seconds, rounded up, so a client that waits that long succeeds.

Several server processes on PostgreSQL share one bucket per key in the database. So that every request
does not cost a database round trip, a process may take several tokens at once (:func:`take_up_to`, a
*lease* of :func:`lease_size` tokens) and hand them out locally for up to :data:`LEASE_MS`
(livecore_server.ratelimit). Leasing never admits more than the bucket grants; tokens a process leased
but did not use are lost to the key, at most one lease per process and bucket per :data:`LEASE_MS`.
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
    # Not a bucket: the most event-board streams one key holds open at once, across processes
    # (docs/events.md#the-live-stream), which a manifest changes in the same ``rate_limits`` table as
    # the buckets.
    OPEN_STREAMS = "open_streams"


DEFAULT_LIMITS: dict[BucketName, int] = {
    BucketName.SDK_READ: 600,
    BucketName.SDK_WRITE: 120,
    BucketName.SERVER_API: 1000,
    BucketName.ADMIN: 600,
}


OPEN_STREAMS_PER_KEY = 5_000  # BucketName.OPEN_STREAMS unless a key's manifest says otherwise
# The server's defaults (``serve --wrong-secrets-per-minute``, ``--auth-failures-per-minute``): wrong player
# secrets a minute per player and client address; failed authentications a minute per client address.
WRONG_SECRETS_PER_MINUTE = 20
AUTH_FAILURES_PER_MINUTE = 20


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
    # Positional: a NamedTuple built from keywords costs about twice as much, on every request.
    return Decision(allowed, limit, int(tokens), reset, retry_after)


def take_up_to(bucket: Bucket | None, limit: int, now_ms: int, want: int) -> tuple[Bucket, int]:
    """Take up to ``want`` whole tokens at ``now_ms``: as many as the refilled bucket holds, at most
    ``want``. Returns the bucket after the take and the number granted (0 when not even one is there).

    Whole tokens only, so a fraction is never spent: the bucket keeps it and the refill completes it.
    The SQL form (livecore_server.ratelimit.TAKE) is held to this by tests/server/test_ratelimit_shared.py.
    """
    if want < 1:
        raise ValueError(f"want must be at least 1, not {want}")
    tokens = refill(bucket, limit, now_ms)
    granted = max(0, min(want, math.floor(tokens)))
    return Bucket(tokens=tokens - granted, updated_ms=now_ms), granted


def take(bucket: Bucket | None, limit: int, now_ms: int) -> tuple[Bucket, Decision]:
    """Take one token at ``now_ms`` (one request): allowed when at least one whole token is there."""
    state, granted = take_up_to(bucket, limit, now_ms, 1)
    return state, decide(state.tokens, granted == 1, limit)


LEASE_MS = 1_000
"""How long a process may hand out tokens it leased: long enough that a busy key costs about one
database take a second per process, short enough that tokens it does not use are soon let go of."""

LEASE_CAP = 1_000
"""The most tokens one process takes at once, whatever the limit: bounds what an idle or dying process
can hold out of a key's budget. At the highest limit a manifest may set (1,000,000 a minute) a lease is
60 ms of refill. Each take costs the server far more than its statement (a worker thread's hand-off,
the GIL passed back and forth), so a busy key takes few, large leases (measured in docs/deployment.md)."""


def lease_size(limit: int) -> int:
    """How many tokens one process takes from a shared bucket at once for a key limited to ``limit`` a
    minute: the bucket's refill in 100 ms (``limit // 600``), at least 1 and at most :data:`LEASE_CAP`.

    The default limits (120 to 1000 a minute) give 1, so each request takes its own token, exactly as
    without leases: at those rates a lease would hold back a visible share of the budget, and the
    database round trip per request is affordable. A lifted limit of 1,000,000 a minute gives 1,000, one
    round trip per 1,000 requests, and what a process can waste (one lease per :data:`LEASE_MS`) is at
    most a tenth of the refill per process."""
    return max(1, min(LEASE_CAP, limit // 600))
