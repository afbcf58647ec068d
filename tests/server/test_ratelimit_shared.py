"""Rate limits shared by every server process on one PostgreSQL database (SPEC 8; issue: scale out).

The database-held bucket (:class:`livecore_server.ratelimit.SharedRateLimiter`, one upsert statement)
must answer exactly as the pure arithmetic of :func:`livecore.ratelimit.take` would for the same sequence
of requests, and two server processes on one database must draw on one budget per key, not one each.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from collections.abc import Iterator

import pytest
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from livecore.clock import to_millis
from livecore.ratelimit import Bucket, BucketName, Decision, take
from livecore_server.app import create_app
from livecore_server.ratelimit import SharedRateLimiter
from livecore_server.services import Services
from livecore_server.storage.postgres import PostgresStore
from tests.conftest import START, apply_test_manifest, make_services
from tests.postgres_support import drop_schema, new_schema

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


@pytest.fixture
def pg_url() -> Iterator[str]:
    url, schema = new_schema()
    try:
        yield url
    finally:
        drop_schema(schema)


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
    store = PostgresStore(pg_url, pool_size=1)
    limiter = SharedRateLimiter(store, clock=None)  # type: ignore[arg-type]  # take() never reads it
    subjects = itertools.count()

    async def run(subject: str, bucket: BucketName, requests: list[tuple[int, int]]) -> list[Decision]:
        decisions = []
        now = START_MS
        for step, limit in requests:
            now += step
            decisions.append(await limiter.take(subject, bucket, now, {bucket: limit}))
        return decisions

    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
    store = PostgresStore(pg_url)
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


async def _two_servers(url: str) -> tuple[Services, Services, dict[str, str]]:
    first = make_services(url, seed=1)
    applied = apply_test_manifest(first)
    second = make_services(url, seed=2)  # another process: its own pool, caches and clock
    keys = {name: k["secret"] for name, k in applied["games"]["space-race"]["apiKeys"].items()}
    return first, second, keys


async def test_two_servers_share_one_budget_per_key(pg_url: str) -> None:
    first, second, keys = await _two_servers(pg_url)
    assert isinstance(first.ratelimiter, SharedRateLimiter)
    assert isinstance(second.ratelimiter, SharedRateLimiter)
    clients = [TestClient(TestServer(create_app(s))) for s in (first, second)]
    for c in clients:
        await c.start_server()
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
    first, second, _ = await _two_servers(pg_url)
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
