"""The shared-leaderboard rules of ``livecore.leaderboards.rules``, without a store: periods, aggregation,
division placement, promotion and relegation (properties over many cases, and the cases docs/leaderboards.md
names)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from livecore.games import Order
from livecore.leaderboards.rules import (
    combine,
    moves,
    next_boundary,
    period_start,
    place,
    tier_after,
)
from livecore.leaderboards.settings import Aggregation, Divisions, Period

times = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC))
LEAGUE = Divisions(size=30, tiers=("bronze", "silver", "gold"), promote=5, relegate=5)


@given(times, st.sampled_from([Period.DAILY, Period.WEEKLY, Period.MONTHLY]))
def test_every_moment_lies_in_one_period_from_its_start_to_the_next_boundary(t, period):
    start, end = period_start(period, t), next_boundary(period, t)
    assert start is not None and end is not None
    assert start <= t < end
    assert period_start(period, end) == end  # the next period starts where this one ends
    assert (start.hour, start.minute, start.second, start.microsecond) == (0, 0, 0, 0)


@given(times)
def test_a_week_starts_on_monday_and_a_month_on_the_first(t):
    assert period_start(Period.WEEKLY, t).weekday() == 0
    assert next_boundary(Period.WEEKLY, t) - period_start(Period.WEEKLY, t) == timedelta(days=7)
    assert period_start(Period.MONTHLY, t).day == 1
    assert next_boundary(Period.MONTHLY, t).day == 1


def test_periods_are_aligned_in_utc_whatever_zone_a_time_carries():
    t = datetime(2026, 3, 2, 0, 30, tzinfo=UTC).astimezone(ZoneInfo("America/New_York"))
    assert period_start(Period.DAILY, t) == datetime(2026, 3, 2, tzinfo=UTC)
    assert period_start(Period.WEEKLY, t) == datetime(2026, 3, 2, tzinfo=UTC)  # a Monday


def test_december_rolls_into_january():
    assert next_boundary(Period.MONTHLY, datetime(2026, 12, 31, 23, tzinfo=UTC)) == datetime(
        2027, 1, 1, tzinfo=UTC
    )


def test_an_all_time_board_has_one_period_that_never_ends():
    t = datetime(2026, 5, 5, tzinfo=UTC)
    assert period_start(Period.ALL_TIME, t) is None and next_boundary(Period.ALL_TIME, t) is None


@pytest.mark.parametrize(
    ("aggregation", "order", "current", "new", "after"),
    [
        (Aggregation.SUM, Order.DESC, 10, 5, 15),
        (Aggregation.BEST, Order.DESC, 10, 5, 10),
        (Aggregation.BEST, Order.DESC, 10, 12, 12),
        (Aggregation.BEST, Order.ASC, 10, 5, 5),
        (Aggregation.LATEST, Order.DESC, 10, 5, 5),
        (Aggregation.SUM, Order.DESC, None, 7, 7),
        (Aggregation.BEST, Order.ASC, None, 7, 7),
    ],
)
def test_a_new_score_combines_with_the_entry_as_the_aggregation_says(aggregation, order, current, new, after):
    assert combine(aggregation, order, current, new) == after


def test_a_newcomer_joins_the_open_division_of_its_tier_while_it_has_room():
    assert place(12, size=30)
    assert not place(30, size=30)  # full: the next division opens
    assert not place(None, size=30)  # none yet: the first opens


@given(st.integers(0, 200), st.integers(0, 2), st.integers(0, 40), st.integers(0, 40))
def test_promotion_and_relegation_never_exceed_the_division(n, tier, promote, relegate):
    league = Divisions(size=200, tiers=("a", "b", "c"), promote=promote, relegate=relegate)
    up, down = moves(league, tier, n)
    assert up <= n // 2 and up <= promote
    assert down <= relegate and up + down <= n
    assert (tier == 2) <= (up == 0)  # nobody leaves the top tier upwards
    assert (tier == 0) <= (down == 0)  # nor the bottom one downwards
    tiers = [tier_after(league, tier, rank, n) for rank in range(1, n + 1)]
    assert tiers.count(tier + 1) == up and tiers.count(tier - 1) == down
    assert tiers == sorted(tiers, reverse=True)  # the better ranks never end lower


def test_a_small_division_promotes_half_and_relegates_what_is_left():
    assert moves(LEAGUE, tier=1, n=30) == (5, 5)
    assert moves(LEAGUE, tier=1, n=7) == (3, 4)
    assert moves(LEAGUE, tier=1, n=1) == (0, 1)
    assert moves(LEAGUE, tier=2, n=30) == (0, 5)  # gold: nobody above
    assert moves(LEAGUE, tier=0, n=30) == (5, 0)  # bronze: nobody below
    assert [tier_after(LEAGUE, 1, rank, 7) for rank in range(1, 8)] == [2, 2, 2, 0, 0, 0, 0]
