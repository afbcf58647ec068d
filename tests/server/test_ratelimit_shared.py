"""Rate limits shared by every server process on one PostgreSQL database
(docs/reference/conventions.md#rate-limits; issue: scale out).

The database-held bucket (:class:`livecore_server.ratelimit.SharedRateLimiter`, one upsert statement)
must answer exactly as the pure arithmetic of :func:`livecore.ratelimit.take` would for the same sequence
of requests, and two server processes on one database must draw on one budget per key, not one each.

Leases: the upsert takes up to ``want`` tokens exactly as
:func:`livecore.ratelimit.take_up_to`; several limiters (processes) leasing from one bucket never admit
more than the bucket grants; with leases of one token they decide exactly as without leases; and a lifted
limit costs one database take per lease, not one per request.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from livecore.clock import ManualClock, to_millis
from livecore.ratelimit import LEASE_CAP, LEASE_MS, Bucket, BucketName, Decision, lease_size, take, take_up_to
from livecore_server.ratelimit import SharedRateLimiter, take_shared
from livecore_server.registry import storage
from livecore_server.services import SERVICES
from livecore_server.storage.postgres import PostgresStore
from tests.budget import examples
from tests.conftest import START, apply_test_manifest, make_app, make_services
from tests.waiting import until

START_MS = to_millis(START)

# A time step in ms: often none or a little (the bucket empties), sometimes a lot (it refills), and now
# and then backwards (another process's clock may be a little behind: no refill, no negative one).
STEPS = st.one_of(
    st.just(0),
    st.integers(0, 2_000),
    st.integers(0, 120_000),
    st.integers(-3_000, 0),
)
LIMITS = st.sampled_from([1, 2, 3, 7, 60, 120, 1000])
REQUESTS = st.lists(st.tuples(STEPS, LIMITS), min_size=1, max_size=40)


def _model(requests: list[tuple[int, int]]) -> tuple[list[Decision], Bucket | None]:
    bucket: Bucket | None = None
    decisions = []
    now = START_MS
    for step, limit in requests:
        now += step
        bucket, decision = take(bucket, limit, now)
        decisions.append(decision)
    return decisions, bucket


def test_database_bucket_decides_as_the_pure_arithmetic(pg_url: str) -> None:
    # One connection, opened here: a pool growing during an example would draw on the global random
    # module (connection-lifetime jitter), which hypothesis flags.
    store = PostgresStore(pg_url, pool_size=1, areas=storage())
    limiter = SharedRateLimiter(store, clock=None)  # type: ignore[arg-type]  # take() never reads it
    subjects = itertools.count()

    async def run(subject: str, bucket: BucketName, requests: list[tuple[int, int]]) -> list[Decision]:
        decisions = []
        now = START_MS
        for step, limit in requests:
            now += step
            decisions.append(await limiter.take(subject, bucket, now, {bucket: limit}))
        return decisions

    @settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(requests=REQUESTS, bucket=st.sampled_from(list(BucketName)))
    def check(requests: list[tuple[int, int]], bucket: BucketName) -> None:
        subject = f"key_{next(subjects)}"  # a fresh bucket for every example
        expected, final = _model(requests)
        assert asyncio.run(run(subject, bucket, requests)) == expected
        row = store.run(
            lambda tx: tx.execute(
                "SELECT tokens, updated_ms FROM rate_buckets WHERE subject = ? AND bucket = ?",
                (subject, bucket.value),
            ).fetchone(),
            write=False,
        )
        assert final is not None and row is not None
        assert (float(row[0]), int(row[1])) == (final.tokens, final.updated_ms)

    try:
        check()
    finally:
        store.close()


def test_a_long_exact_sequence_matches_including_refusals(pg_url: str) -> None:
    """A hand-written sequence through every branch: first take, empty bucket, partial refill, full
    refill capped at the limit, a clock step backwards, a limit lowered under the tokens held."""
    store = PostgresStore(pg_url, areas=storage())
    limiter = SharedRateLimiter(store, clock=None)  # type: ignore[arg-type]
    requests = [(0, 3), (0, 3), (0, 3), (0, 3), (1, 3), (19_999, 3), (0, 3), (600_000, 3), (-500, 3)]
    requests += [(0, 60), (10, 1), (0, 1), (60_000, 1), (0, 1000), (0, 1000), (120_000, 1000)]
    requests += [(0, 3), (0, 3), (0, 3)]
    expected, _ = _model(requests)

    async def run() -> list[Decision]:
        out = []
        now = START_MS
        for step, limit in requests:
            now += step
            out.append(await limiter.take("k", BucketName.SDK_WRITE, now, {BucketName.SDK_WRITE: limit}))
        return out

    try:
        got = asyncio.run(run())
    finally:
        store.close()
    assert got == expected
    assert "".join("Y" if d.allowed else "N" for d in got) == "YYYNNYNYYYNNYNNYYYY"
    assert [d.remaining for d in got[-4:]] == [999, 2, 1, 0]  # 999 tokens held, capped at the new limit
    assert got[3].retry_after_seconds == 20 and got[8].remaining == 1


async def test_two_servers_share_one_budget_per_key(pg_url: str) -> None:
    seeding = await asyncio.to_thread(make_services, pg_url)
    applied = await asyncio.to_thread(apply_test_manifest, seeding)
    seeding.close()
    keys = {name: k["secret"] for name, k in applied["games"]["space-race"]["apiKeys"].items()}
    # Two servers as two processes: each its own pool, caches and clock.
    clients = [TestClient(TestServer(make_app(pg_url, seed=seed))) for seed in (1, 2)]
    for c in clients:
        await c.start_server()
    first, second = (c.app[SERVICES] for c in clients)
    assert isinstance(first.ratelimiter, SharedRateLimiter)
    assert isinstance(second.ratelimiter, SharedRateLimiter)
    try:
        auth = {"Authorization": f"Bearer {keys['tight-server']}"}  # server_api = 3 per minute

        async def ping(i: int) -> tuple[int, str]:
            resp = await clients[i % 2].get("/server/v1/ping", headers=auth)
            return resp.status, resp.headers["RateLimit-Remaining"]

        # One after another, alternating servers: the budget counts down across both.
        answers = [await ping(i) for i in range(5)]
        assert answers == [(200, "2"), (200, "1"), (200, "0"), (429, "0"), (429, "0")]

        # A minute later (both clocks), concurrently from both: 3 allowed in all, not 3 per server.
        for s in (first, second):
            s.clock.advance(60)  # type: ignore[attr-defined]
        statuses = Counter(status for status, _ in await asyncio.gather(*(ping(i) for i in range(12))))
        assert statuses == {200: 3, 429: 9}
    finally:
        for c in clients:
            await c.close()


async def test_concurrent_takes_from_two_processes_never_exceed_the_limit(pg_url: str) -> None:
    first, second = (
        await asyncio.to_thread(make_services, pg_url, seed=1),
        await asyncio.to_thread(make_services, pg_url, seed=2),
    )
    try:
        limit = 5
        takes = [
            s.ratelimiter.take("key_shared", BucketName.SDK_WRITE, START_MS, {BucketName.SDK_WRITE: limit})
            for s in (first, second)
            for _ in range(10)
        ]
        decisions = await asyncio.gather(*takes)
        assert sum(d.allowed for d in decisions) == limit
        # Each allowed take saw its own count: remaining 4, 3, 2, 1, 0 once each (no lost update).
        assert sorted(d.remaining for d in decisions if d.allowed) == [0, 1, 2, 3, 4]
        # Other subjects and buckets are untouched by this one.
        other = await second.ratelimiter.take("key_other", BucketName.SDK_WRITE, START_MS, {})
        assert other.allowed and other.remaining == 119
    finally:
        first.close()
        second.close()


# Leases -------------------------------------------------------------------------

T = TypeVar("T")
WANTS = st.one_of(st.just(1), st.integers(1, 10), st.integers(1, 1_500))
TAKES = st.lists(st.tuples(STEPS, LIMITS, WANTS), min_size=1, max_size=40)


def _model_up_to(takes: list[tuple[int, int, int]]) -> tuple[list[tuple[float, int]], Bucket | None]:
    bucket: Bucket | None = None
    out = []
    now = START_MS
    for step, limit, want in takes:
        now += step
        bucket, granted = take_up_to(bucket, limit, now, want)
        out.append((bucket.tokens, granted))
    return out, bucket


def test_database_take_up_to_matches_the_pure_arithmetic(pg_url: str) -> None:
    store = PostgresStore(pg_url, pool_size=1, areas=storage())
    subjects = itertools.count()

    async def run(subject: str, bucket: BucketName, takes: list[tuple[int, int, int]]) -> list[Any]:
        out = []
        now = START_MS
        for step, limit, want in takes:
            now += step
            one = functools.partial(
                take_shared, subject=subject, bucket=bucket, limit=limit, now_ms=now, want=want
            )
            out.append(await store.autocommit(one))
        return out

    @settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(takes=TAKES, bucket=st.sampled_from(list(BucketName)))
    def check(takes: list[tuple[int, int, int]], bucket: BucketName) -> None:
        subject = f"key_{next(subjects)}"
        expected, final = _model_up_to(takes)
        assert asyncio.run(run(subject, bucket, takes)) == expected
        row = store.run(
            lambda tx: tx.execute(
                "SELECT tokens, updated_ms, granted, allowed FROM rate_buckets"
                " WHERE subject = ? AND bucket = ?",
                (subject, bucket.value),
            ).fetchone(),
            write=False,
        )
        assert final is not None and row is not None
        granted = expected[-1][1]
        # ``allowed`` is still written, for a process of the previous version during a rolling upgrade.
        assert (float(row[0]), int(row[1]), int(row[2]), bool(row[3])) == (
            final.tokens,
            final.updated_ms,
            granted,
            granted >= 1,
        )

    try:
        check()
    finally:
        store.close()


def _count_takes(store: PostgresStore, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Wrap ``store.autocommit`` (every database take of a SharedRateLimiter goes through it): returns a
    list that gets the number of tokens granted by each take."""
    granted: list[int] = []
    real = store.autocommit

    async def counting(fn: Callable[[Any], T]) -> T:
        result = await real(fn)
        if isinstance(result, tuple):  # a take (prune returns a row count)
            granted.append(result[1])
        return result

    monkeypatch.setattr(store, "autocommit", counting)
    return granted


@pytest.fixture
def three_stores(pg_url: str) -> Iterator[list[PostgresStore]]:
    """Three stores on one database, as three server processes would have (one connection each, opened
    here: a pool growing during an example would draw on the global random module, which hypothesis
    flags)."""
    stores = [PostgresStore(pg_url, pool_size=1, areas=storage()) for _ in range(3)]
    try:
        yield stores
    finally:
        for s in stores:
            s.close()


# What happens in a run: the shared clock moves on, one limiter takes, or a burst of takes runs
# concurrently across the limiters.
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("step"), st.integers(0, 3_000)),
        st.tuples(st.just("take"), st.integers(0, 2)),
        st.tuples(st.just("burst"), st.integers(2, 15)),
    ),
    min_size=1,
    max_size=50,
)


def test_leasing_processes_never_admit_more_than_one_bucket(
    three_stores: list[PostgresStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The invariant of leases: whatever the lease size, the number of processes and the interleaving,
    the requests admitted in all are at most what the shared bucket granted, which is at most what one
    bucket admits (the limit, plus the refill over the elapsed time)."""
    granted = [_count_takes(s, monkeypatch) for s in three_stores]
    subjects = itertools.count()

    @settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        ops=OPS,
        limit=st.sampled_from([1, 2, 3, 7, 20, 60, 600]),
        size=st.integers(1, 8),
        processes=st.integers(1, 3),
    )
    def check(ops: list[tuple[str, int]], limit: int, size: int, processes: int) -> None:
        limiters = [
            SharedRateLimiter(s, clock=None, sizes=lambda _limit: size)  # type: ignore[arg-type]
            for s in three_stores[:processes]
        ]
        subject = f"key_{next(subjects)}"
        overrides = {BucketName.SDK_WRITE: limit}
        for g in granted:
            g.clear()

        async def run() -> tuple[int, int]:
            now = START_MS
            decisions: list[Decision] = []
            for op, n in ops:
                if op == "step":
                    now += n
                    continue
                chosen = (
                    [limiters[n % processes]] if op == "take" else [limiters[i % processes] for i in range(n)]
                )
                decisions += await asyncio.gather(
                    *(lim.take(subject, BucketName.SDK_WRITE, now, overrides) for lim in chosen)
                )
            for d in decisions:
                assert 0 <= d.remaining <= limit
                assert d.allowed == (d.retry_after_seconds is None)
            return sum(d.allowed for d in decisions), now - START_MS

        admitted, elapsed = asyncio.run(run())
        from_bucket = sum(sum(g) for g in granted)
        assert all(0 <= t <= size for g in granted for t in g)
        assert admitted <= from_bucket <= limit + elapsed * limit / 60_000 + 1e-9

    check()


def test_leases_of_one_token_decide_exactly_as_without_leases(three_stores: list[PostgresStore]) -> None:
    """The default limits lease one token: several processes taking in turn then answer exactly as the
    pure arithmetic of one bucket, clock steps backwards included."""
    subjects = itertools.count()

    @settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(requests=st.lists(st.tuples(STEPS, LIMITS, st.integers(0, 2)), min_size=1, max_size=40))
    def check(requests: list[tuple[int, int, int]]) -> None:
        limiters = [SharedRateLimiter(s, clock=None) for s in three_stores]  # type: ignore[arg-type]
        subject = f"key_{next(subjects)}"
        assert all(lease_size(limit) == 1 for _, limit, _ in requests)
        expected, _ = _model([(step, limit) for step, limit, _ in requests])

        async def run() -> list[Decision]:
            out = []
            now = START_MS
            for step, limit, which in requests:
                now += step
                out.append(
                    await limiters[which].take(
                        subject, BucketName.SDK_READ, now, {BucketName.SDK_READ: limit}
                    )
                )
            return out

        assert asyncio.run(run()) == expected

    check()


LIFTED = 1_000_000  # the highest limit a manifest may set: leases of LEASE_CAP (1,000) tokens
LEASE = LEASE_CAP


async def test_a_lifted_limit_takes_from_the_database_once_per_lease(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = PostgresStore(pg_url, areas=storage())
    granted = _count_takes(store, monkeypatch)
    clock = ManualClock(START)
    limiter = SharedRateLimiter(store, clock)
    overrides = {BucketName.SDK_READ: LIFTED}
    assert lease_size(LIFTED) == LEASE == 1_000
    requests = 2 * LEASE + LEASE // 2
    try:
        decisions = [
            await limiter.take("key_busy", BucketName.SDK_READ, START_MS, overrides) for _ in range(requests)
        ]
        assert all(d.allowed for d in decisions)
        assert granted == [LEASE] * 3  # one database take per lease, not one per request
        # With one process the header is exact: each request one token fewer.
        assert [d.remaining for d in decisions] == list(range(LIFTED - 1, LIFTED - requests - 1, -1))

        # The half lease left is used for up to LEASE_MS after its take, then dropped.
        await limiter.take("key_busy", BucketName.SDK_READ, START_MS + LEASE_MS - 1, overrides)
        assert len(granted) == 3
        await limiter.take("key_busy", BucketName.SDK_READ, START_MS + LEASE_MS, overrides)
        assert len(granted) == 4

        # A concurrent burst waits for the take in flight instead of each request taking its own.
        granted.clear()
        later = START_MS + 2 * LEASE_MS
        burst = await asyncio.gather(
            *(limiter.take("key_busy", BucketName.SDK_READ, later, overrides) for _ in range(requests))
        )
        assert all(d.allowed for d in burst)
        assert granted == [LEASE] * 3
        assert len({d.remaining for d in burst}) == requests

        # Expired leases are dropped at prune time: the memory held is the busy keys of the last second.
        clock.advance(2)  # the clock of the burst: its lease is still in use
        assert await limiter.prune() == 0
        clock.advance(1)
        assert await limiter.prune() == 1
        assert limiter._leases == {}
    finally:
        store.close()


async def test_two_processes_lease_separately_and_stay_within_the_bucket(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = PostgresStore(pg_url, areas=storage()), PostgresStore(pg_url, areas=storage())
    granted = [_count_takes(s, monkeypatch) for s in (first, second)]
    limiters = [SharedRateLimiter(s, clock=None) for s in (first, second)]  # type: ignore[arg-type]
    limit = 1_200  # leases of 2: the bucket runs dry after 1,200 requests
    overrides = {BucketName.SERVER_API: limit}
    try:
        decisions = [
            await limiters[i % 2].take("key_two", BucketName.SERVER_API, START_MS, overrides)
            for i in range(1_300)
        ]
        assert sum(d.allowed for d in decisions) == limit
        assert [d.allowed for d in decisions] == [True] * limit + [False] * 100
        assert sum(len(g) for g in granted) == limit // 2 + 100  # a take per lease of 2, then per refusal
        # Headers stay within the limit and end at 0; each process sees the other's takes at its next one.
        assert decisions[limit - 1].remaining == 0 and decisions[-1].retry_after_seconds == 1
    finally:
        first.close()
        second.close()


async def test_waiting_requests_share_a_failed_take_and_take_over_an_abandoned_one(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = PostgresStore(pg_url, areas=storage())
    limiter = SharedRateLimiter(store, clock=None)  # type: ignore[arg-type]
    real = store.autocommit
    calls: list[str] = []
    gate = asyncio.Event()
    behaviour = {"first": "fail"}

    async def gated(fn: Callable[[Any], T]) -> T:
        calls.append("take")
        if len(calls) == 1:
            await gate.wait()
            if behaviour["first"] == "fail":
                raise OSError("database unreachable")
        return await real(fn)

    monkeypatch.setattr(store, "autocommit", gated)
    overrides = {BucketName.SDK_READ: LIFTED}

    async def takes(n: int) -> list[asyncio.Task[Decision]]:
        """``n`` requests, once the first takes from the database: the others, started with it, then
        wait for its take (each runs up to its first wait as soon as the loop runs)."""
        tasks = [
            asyncio.create_task(limiter.take("key_wait", BucketName.SDK_READ, START_MS, overrides))
            for _ in range(n)
        ]
        await until(lambda: calls == ["take"] and bool(limiter._taking), "the first request's take")
        return tasks

    try:
        # The take in flight fails: the requests waiting for it fail too, without a take of their own.
        tasks = await takes(5)
        gate.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert isinstance(results[0], OSError)
        assert all(isinstance(r, RuntimeError) and isinstance(r.__cause__, OSError) for r in results[1:])
        assert calls == ["take"]

        # The request taking is cancelled (its client went away): one of the waiting ones takes instead.
        calls.clear()
        gate.clear()
        behaviour["first"] = "hang"
        tasks = await takes(5)
        tasks[0].cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert isinstance(results[0], asyncio.CancelledError)
        assert all(isinstance(r, Decision) and r.allowed for r in results[1:])
        assert calls == ["take", "take"]
    finally:
        gate.set()
        store.close()
