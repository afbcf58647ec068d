"""Rate-limit arithmetic (docs/reference/conventions.md#rate-limits): taking several tokens at once, and the
lease size per limit.

``take_up_to`` is what a server process on PostgreSQL uses to lease tokens from a shared bucket
(livecore_server.ratelimit); ``take`` (one request, one token) is its ``want=1`` case, and the tests of
``take`` in test_primitives.py hold it to its earlier answers.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from livecore.ratelimit import (
    DEFAULT_LIMITS,
    LEASE_CAP,
    Bucket,
    decide,
    lease_size,
    refill,
    take,
    take_up_to,
)

LIMITS = st.integers(min_value=1, max_value=1_000_000)
# Steps in ms, now and then backwards (no refill then, and never a negative one).
STEPS = st.one_of(st.just(0), st.integers(0, 2_000), st.integers(0, 120_000), st.integers(-3_000, 0))


@given(
    limit=LIMITS,
    takes=st.lists(st.tuples(STEPS, st.integers(1, 300)), min_size=1, max_size=60),
)
def test_take_up_to_grants_the_whole_tokens_there_at_most_want(
    limit: int, takes: list[tuple[int, int]]
) -> None:
    bucket: Bucket | None = None
    now = 0
    for step, want in takes:
        now += step
        before = refill(bucket, limit, now)
        bucket, granted = take_up_to(bucket, limit, now, want)
        assert granted == min(want, math.floor(before))
        assert 0 <= granted <= want
        assert bucket.tokens == before - granted
        assert 0 <= bucket.tokens <= limit
        assert bucket.updated_ms == now
        # What is left is less than one whole token, unless the take stopped at ``want``.
        assert granted == want or bucket.tokens < 1


@given(
    limit=LIMITS,
    takes=st.lists(st.tuples(st.integers(0, 5_000), st.integers(1, 300)), max_size=100),
)
def test_taking_in_batches_never_grants_more_than_limit_plus_refill(
    limit: int, takes: list[tuple[int, int]]
) -> None:
    bucket: Bucket | None = None
    now = 0
    granted_total = 0
    for step, want in takes:
        now += step
        bucket, granted = take_up_to(bucket, limit, now, want)
        granted_total += granted
    assert granted_total <= limit + now * limit / 60_000 + 1e-6


@given(limit=LIMITS, takes=st.lists(STEPS, min_size=1, max_size=60))
def test_take_is_take_up_to_one(limit: int, takes: list[int]) -> None:
    one: Bucket | None = None
    up_to: Bucket | None = None
    now = 0
    for step in takes:
        now += step
        one, decision = take(one, limit, now)
        up_to, granted = take_up_to(up_to, limit, now, 1)
        assert one == up_to
        assert decision == decide(up_to.tokens, granted == 1, limit)


def test_take_up_to_from_a_missing_bucket_starts_full() -> None:
    assert take_up_to(None, 10, 5, 4) == (Bucket(6.0, 5), 4)
    assert take_up_to(None, 10, 5, 50) == (Bucket(0.0, 5), 10)
    # Half a token is not a token: it stays in the bucket.
    assert take_up_to(Bucket(2.5, 0), 10, 0, 5) == (Bucket(0.5, 0), 2)
    assert take_up_to(Bucket(0.5, 0), 10, 0, 5) == (Bucket(0.5, 0), 0)


def test_want_must_be_at_least_one() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        take_up_to(None, 10, 0, 0)


def test_default_limits_lease_one_token_so_they_behave_as_before() -> None:
    assert {lease_size(limit) for limit in DEFAULT_LIMITS.values()} == {1}
    assert sorted(set(DEFAULT_LIMITS.values())) == [120, 600, 1000]


@pytest.mark.parametrize(
    ("limit", "size"),
    [
        (1, 1),
        (599, 1),
        (1199, 1),
        (1200, 2),
        (6_000, 10),
        (60_000, 100),
        (600_000, 1_000),
        (1_000_000, 1_000),
    ],
)
def test_lease_size_is_the_refill_of_100_ms_capped(limit: int, size: int) -> None:
    assert lease_size(limit) == size


@given(limit=LIMITS)
def test_lease_size_is_between_one_and_the_cap_and_a_tenth_of_a_second(limit: int) -> None:
    size = lease_size(limit)
    assert 1 <= size <= LEASE_CAP
    # One lease is never more than 100 ms of refill, unless it is the single token a request needs.
    assert size == 1 or size * 600 <= limit
