"""Rate-limit buckets (docs/reference/conventions.md#rate-limits), using the arithmetic of
:mod:`livecore.ratelimit`.

:class:`RateLimiter` keeps buckets in memory: a SQLite server is one process. :class:`SharedRateLimiter`
keeps them in the database, so several processes behind a load balancer share one budget per key. Each
take from the database is one ``INSERT ... ON CONFLICT DO UPDATE`` statement, which PostgreSQL applies
under the row's lock, so concurrent takes from any process are counted one after another.

So that a busy key does not cost a round trip per request, a process takes a *lease* of several tokens
at once (:func:`livecore.ratelimit.lease_size`: 1 for the default limits, up to 1,000 for lifted ones) and
hands them to the next requests of that key and bucket without a database call, for up to
:data:`~livecore.ratelimit.LEASE_MS`. Every request it admits holds a token the shared bucket granted, so
all processes together never admit more than one bucket would.

:class:`SecretBrake` counts wrong player secrets per player and client address, apart from the keys'
buckets.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from livecore.clock import Clock, to_millis
from livecore.ratelimit import (
    DEFAULT_LIMITS,
    LEASE_MS,
    WRONG_SECRETS_PER_MINUTE,
    Bucket,
    BucketName,
    Decision,
    decide,
    lease_size,
    refill,
    take,
)
from livecore.scope import Scope

if TYPE_CHECKING:
    from livecore_server.storage.postgres import PostgresStore
    from livecore_server.storage.postgres_transaction import PostgresTransaction

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

    async def give_back(
        self, subject: str, bucket: BucketName, now_ms: int, overrides: dict[BucketName, int] | None = None
    ) -> None:
        """Return the token a request took: it is not to be charged to this bucket after all."""
        key = (subject, bucket)
        state = self._buckets.get(key)
        if state is not None:
            self._buckets[key] = state._replace(
                tokens=min(float(limit_for(bucket, overrides)), state.tokens + 1)
            )

    async def prune(self) -> int:
        """Drop buckets that have refilled completely."""
        now = to_millis(self._clock.now())
        stale = [k for k, b in self._buckets.items() if now - b.updated_ms > IDLE_MS]
        for k in stale:
            del self._buckets[k]
        return len(stale)


# The SQL form of livecore.ratelimit.take_up_to (refill, then take as many whole tokens as are there, at
# most %(want)s); the decision headers come from livecore.ratelimit.decide. RETURNING sees only the row's
# new values, so the number granted is stored in the row (column ``granted``) to be returned. ``allowed``
# is still written for a process of the previous version (which returns it) during a rolling upgrade.
# tests/server/test_ratelimit_shared.py holds the SQL and the pure arithmetic to the same answers.
_REFILLED = "LEAST(%(limit)s::float8, b.tokens + GREATEST(0, %(now)s - b.updated_ms) * %(per_ms)s)"
_GRANTED = f"GREATEST(0, LEAST(%(want)s, FLOOR({_REFILLED})))"
TAKE = f"""INSERT INTO rate_buckets AS b (subject, bucket, tokens, updated_ms, allowed, granted)
    VALUES (%(subject)s, %(bucket)s, %(limit)s::float8 - LEAST(%(want)s, %(limit)s), %(now)s, TRUE,
        LEAST(%(want)s, %(limit)s))
    ON CONFLICT (subject, bucket) DO UPDATE SET
        tokens = {_REFILLED} - {_GRANTED},
        granted = {_GRANTED},
        allowed = {_GRANTED} >= 1,
        updated_ms = %(now)s
    RETURNING tokens, granted"""
# RateLimiter.give_back's arithmetic: one token more at the row's own time, never above the limit.
GIVE_BACK = """UPDATE rate_buckets SET tokens = LEAST(%(limit)s::float8, tokens + 1)
    WHERE subject = %(subject)s AND bucket = %(bucket)s"""


def take_shared(
    tx: PostgresTransaction, subject: str, bucket: str, limit: int, now_ms: int, want: int = 1
) -> tuple[float, int]:
    """Take up to ``want`` tokens from the shared bucket: the tokens it has left, and how many it granted."""
    if want < 1:
        raise ValueError(f"want must be at least 1, not {want}")
    row = tx.conn.execute(
        TAKE,
        {
            "subject": subject,
            "bucket": str(bucket),
            "limit": limit,
            "now": now_ms,
            "per_ms": limit / 60_000,
            "want": want,
        },
    ).fetchone()
    assert row is not None  # an upsert always returns its row
    tokens, granted = row
    return float(tokens), int(granted)


class Lease(NamedTuple):
    """Tokens this process took from a shared bucket and has not handed out yet."""

    tokens: int  # whole tokens left to hand out, each one already taken from the shared bucket
    shared_left: float  # the shared bucket's tokens just after the take (for RateLimit-Remaining)
    taken_ms: int  # the server clock of the request that took it
    limit: int  # the limit it was taken under: under another limit (a manifest change) it is dropped

    def usable(self, limit: int, now_ms: int) -> bool:
        """Whether it may hand out a token at ``now_ms``: tokens left, the same limit, and taken less than
        LEASE_MS ago. A clock stepped back by more than that lets it go too, so no lease outlives its
        second whatever the clock does."""
        return self.tokens >= 1 and self.limit == limit and abs(now_ms - self.taken_ms) < LEASE_MS


class _Took(enum.Enum):
    """How a take from the database ended, for the requests that waited for it."""

    GRANTED = enum.auto()  # a lease may be there: look again
    REFUSED = enum.auto()  # the bucket was empty: take yourself (a token may have refilled since)
    ABANDONED = enum.auto()  # the request taking it was cancelled: look again (one of you takes)


class SharedRateLimiter:
    """Buckets held in the database (PostgreSQL), shared by every server process on it, taken in leases.

    A request uses a token of its process's lease for its key and bucket when there is one (no database
    call); otherwise it takes :func:`~livecore.ratelimit.lease_size` tokens from the database at once:
    none granted is a refusal, exactly as the unleased arithmetic; g granted admits this request and
    leases the other g - 1. Unused leased tokens are dropped when the lease expires, never given back:
    the cost of leasing is at most one lease per process, key and bucket per LEASE_MS.

    While one request of a process takes a lease (lease size above 1), the others of that key and bucket
    wait for it rather than each take their own, so a burst costs one round trip per lease, not one per
    request.

    ``RateLimit-Remaining`` is the shared bucket's tokens at this process's last take plus the tokens it
    still leases (``RateLimit-Reset`` likewise). With leases of 1 that is exactly the unleased answer.
    With larger leases and one process it leaves out only the refill since the take (less than a second
    of it: on the safe side); with several processes it is approximate by up to one lease per other
    process, since their leases, and their takes since this one, do not show.
    """

    def __init__(
        self, store: PostgresStore, clock: Clock, *, sizes: Callable[[int], int] = lease_size
    ) -> None:
        """``sizes`` gives the lease size for a limit (tests lease small buckets in several tokens)."""
        self._store = store
        self._clock = clock
        self._sizes = sizes
        # Only keys whose lease size is above 1 and that were used within about LEASE_MS: prune() drops
        # the expired ones, so this stays as small as the set of busy keys.
        self._leases: dict[tuple[str, str], Lease] = {}
        # The take from the database in flight per key and bucket, which other requests wait for.
        self._taking: dict[tuple[str, str], asyncio.Future[_Took | Exception]] = {}

    async def take(
        self, subject: str, bucket: BucketName, now_ms: int, overrides: dict[BucketName, int] | None = None
    ) -> Decision:
        limit = limit_for(bucket, overrides)
        key = (subject, bucket)
        size = self._sizes(limit)
        while True:
            decision = self._from_lease(key, limit, now_ms)
            if decision is not None:
                return decision
            taking = self._taking.get(key) if size > 1 else None
            if taking is None:
                break
            # shield: a waiter that is cancelled must not cancel what the others wait for.
            took = await asyncio.shield(taking)
            if isinstance(took, Exception):
                raise RuntimeError("taking a rate-limit lease from the database failed") from took
            if took is _Took.REFUSED:
                break
        return await self._take_from_database(key, limit, size, now_ms)

    async def take_one(self, subject: str, bucket: str, limit: int, now_ms: int) -> Decision:
        """Take one token from a bucket of the server's own (not a key's), without leasing."""
        return await self._take_from_database((subject, bucket), limit, 1, now_ms)

    async def give_back(
        self, subject: str, bucket: BucketName, now_ms: int, overrides: dict[BucketName, int] | None = None
    ) -> None:
        """Return the token a request took to the shared bucket (a lease's unused tokens are lost as
        usual: a token given back is the database's again, for any process)."""
        params = {"subject": subject, "bucket": bucket.value, "limit": limit_for(bucket, overrides)}
        await self._store.autocommit(lambda tx: tx.conn.execute(GIVE_BACK, params))

    def _from_lease(self, key: tuple[str, str], limit: int, now_ms: int) -> Decision | None:
        lease = self._leases.get(key)
        if lease is None:
            return None
        if not lease.usable(limit, now_ms):
            del self._leases[key]
            return None
        left = lease.tokens - 1
        if left:
            self._leases[key] = lease._replace(tokens=left)
        else:
            del self._leases[key]
        return decide(min(float(limit), lease.shared_left + left), True, limit)

    async def _take_from_database(self, key: tuple[str, str], limit: int, size: int, now_ms: int) -> Decision:
        subject, bucket = key
        waiters: asyncio.Future[_Took | Exception] | None = None
        if size > 1 and key not in self._taking:
            waiters = asyncio.get_running_loop().create_future()
            self._taking[key] = waiters
        try:
            shared_left, granted = await self._store.autocommit(
                lambda tx: take_shared(tx, subject, bucket, limit, now_ms, size)
            )
        except BaseException as exc:
            if waiters is not None:
                del self._taking[key]
                waiters.set_result(exc if isinstance(exc, Exception) else _Took.ABANDONED)
            raise
        if granted == 0:
            decision = decide(shared_left, False, limit)
        else:
            leased = self._keep(key, Lease(granted - 1, shared_left, now_ms, limit))
            decision = decide(min(float(limit), shared_left + leased), True, limit)
        if waiters is not None:  # after the lease is stored, so that the waiters find it
            del self._taking[key]
            waiters.set_result(_Took.GRANTED if granted else _Took.REFUSED)
        return decision

    def _keep(self, key: tuple[str, str], new: Lease) -> int:
        """Store ``new``, adding the tokens of a lease still usable (another take of this process ran
        at the same time); the sum expires with the older one. Returns the tokens now leased."""
        old = self._leases.get(key)
        if old is not None and old.usable(new.limit, new.taken_ms):
            new = new._replace(tokens=new.tokens + old.tokens, taken_ms=min(new.taken_ms, old.taken_ms))
        if new.tokens:
            self._leases[key] = new
        else:
            self._leases.pop(key, None)
        return new.tokens

    async def prune(self) -> int:
        """Drop expired leases, and buckets that have refilled completely; returns how many of both."""
        now = to_millis(self._clock.now())
        expired = [k for k, lease in self._leases.items() if abs(now - lease.taken_ms) >= LEASE_MS]
        for k in expired:
            del self._leases[k]
        cutoff = now - IDLE_MS
        rows: int = await self._store.autocommit(
            lambda tx: tx.execute("DELETE FROM rate_buckets WHERE updated_ms < ?", (cutoff,)).rowcount
        )
        return rows + len(expired)


WRONG_SECRETS = "player_secret"  # the brake's bucket name; never a key's (livecore.ratelimit.BucketName)
BRAKE_PRUNE_AT = 10_000  # local buckets kept before refilled ones are dropped


class _Checks:
    """One player and address: its wrong secrets, and its requests whose secret is being checked."""

    __slots__ = ("bucket", "checking", "freed")

    def __init__(self) -> None:
        self.bucket: Bucket | None = None  # wrong secrets; None: none counted (a full bucket)
        self.checking = 0
        self.freed: asyncio.Event | None = None  # set when a check ends, for the requests waiting

    def wake(self) -> None:
        if self.freed is not None:
            self.freed.set()
            self.freed = None


class SecretBrake:
    """Wrong player secrets, counted per player and client address
    (docs/reference/conventions.md#rate-limits): ``per_minute`` a minute (:data:`WRONG_SECRETS_PER_MINUTE`
    unless ``serve --wrong-secrets-per-minute`` says otherwise), then 429 for
    that player from that address until a token is back, whatever the secret. The key's own bucket is not
    charged for them (the namespace's guard gives the key's token back), so wrong secrets for one player never
    lock the game's other players out.

    A request of a player-scoped route passes :meth:`admit` before its secret is checked, and then either
    :meth:`wrong` or :meth:`release`. No more secrets are checked at once than the bucket has tokens:
    requests sent together past that wait for the checks under way (a client's burst with the right
    secret is only delayed, never refused), and once the bucket is empty they are refused without
    their secret being checked. A player whose secrets are right never spends a token.

    The buckets are in process memory, exact for one process (SQLite). With ``shared`` (PostgreSQL),
    every wrong secret is also taken from a bucket in the database that all processes share, and what
    that bucket has left caps this process's: a process learns that the brake is on at its next wrong
    secret for that player and address, so each process checks at most one more secret per token the
    bucket refills.
    """

    def __init__(
        self, shared: SharedRateLimiter | None = None, per_minute: int = WRONG_SECRETS_PER_MINUTE
    ) -> None:
        self._shared = shared
        self._limit = per_minute
        self._players: dict[str, _Checks] = {}
        self._prune_at = BRAKE_PRUNE_AT

    @staticmethod
    def subject(scope: Scope, external_id: str, address: str | None) -> str:
        # Neither a game id nor an environment holds ":", and no address holds "@": unambiguous.
        return f"secret:{scope.game_id}:{scope.env.value}:{external_id}@{address}"

    async def admit(self, subject: str, now_ms: int) -> Decision | None:
        """Let a request have its secret checked (``None``) once fewer of this player's secrets from this
        address are being checked than could still be wrong; else the refusal to answer (429)."""
        if len(self._players) >= self._prune_at:
            self.prune(now_ms)
        while True:
            checks = self._players.get(subject)
            if checks is None:  # no wrong secret counted, nothing being checked: the usual case
                checks = self._players[subject] = _Checks()
                checks.checking = 1
                return None
            tokens = refill(checks.bucket, self._limit, now_ms)
            if tokens < 1:
                return decide(tokens, False, self._limit)
            if checks.checking < int(tokens):
                checks.checking += 1
                return None
            if checks.freed is None:
                checks.freed = asyncio.Event()
            await checks.freed.wait()

    def release(self, subject: str) -> None:
        """The secret was right, or never checked (the request failed before): nothing is counted."""
        checks = self._players[subject]
        checks.checking -= 1
        checks.wake()
        if not checks.checking and checks.bucket is None:
            del self._players[subject]  # nothing left to remember

    async def wrong(self, subject: str, now_ms: int) -> Decision:
        """The secret was wrong: count it. Refused (429 rather than 401): no token was left for it, which
        only the shared bucket can tell (other processes counted the rest)."""
        checks = self._players[subject]
        checks.checking -= 1
        checks.bucket, decision = take(checks.bucket, self._limit, now_ms)
        checks.wake()
        if self._shared is None:
            return decision
        decision = await self._shared.take_one(subject, WRONG_SECRETS, self._limit, now_ms)
        checks = self._players.setdefault(subject, checks)
        if decision.remaining < refill(checks.bucket, self._limit, now_ms):
            checks.bucket = Bucket(float(decision.remaining), now_ms)
        return decision

    def prune(self, now_ms: int) -> int:
        """Forget the players and addresses with nothing being checked whose bucket refilled; how many.
        Runs as they grow, so a flood of wrong secrets from many addresses costs memory only while their
        buckets refill."""
        limit = self._limit
        idle = [
            s for s, c in self._players.items() if not c.checking and refill(c.bucket, limit, now_ms) >= limit
        ]
        for s in idle:
            del self._players[s]
        self._prune_at = max(BRAKE_PRUNE_AT, 2 * len(self._players))
        return len(idle)
