"""The statistics of `simulate --seeds` (livecore_server/simulate/noise.py, docs/simulation.md#several-seeds):
a paired two-sided t-test at 95% on the per-seed changes, and a number's spread over the seeds; and how a
report's rows become the rows over several seeds (livecore_server/simulate/compare.py). No season is
played here."""

from __future__ import annotations

import statistics

import pytest

from livecore_server.simulate.compare import paired
from livecore_server.simulate.noise import T_CRITICAL_95, Z_95, critical, significant, summary
from livecore_server.simulate.section import row


def test_a_manifest_against_itself_changes_nothing() -> None:
    assert significant([0, 0, 0]) is False
    assert significant([0.0] * 30) is False


def test_a_consistent_large_change_is_significant() -> None:
    assert significant([48_020, 50_470, 46_550]) is True
    assert significant([-12, -10, -11, -13]) is True


def test_noisy_small_changes_are_not() -> None:
    assert significant([5, -3, 2]) is False
    assert significant([1, 2, -1, 0, 3, -2]) is False
    # A mean of zero with noise around it: nothing changed.
    assert significant([3, -3]) is False


def test_the_same_nonzero_change_on_every_seed_is_significant() -> None:
    assert significant([7, 7, 7]) is True
    assert significant([0.1, 0.1, 0.1]) is True
    assert significant([-1, -1]) is True


def test_one_seed_or_a_missing_number_says_nothing() -> None:
    assert significant([]) is None
    assert significant([120]) is None
    assert significant([0]) is None
    assert significant([5, None, 6]) is None


def test_the_bar_is_students_t_for_the_seeds() -> None:
    assert critical(2) == 4.303  # 3 seeds
    assert critical(1) == 12.706
    assert critical(30) == 2.042
    assert critical(45) == T_CRITICAL_95[40]  # between two listed: the stricter
    assert critical(99) == T_CRITICAL_95[80]
    assert critical(100) == 1.984
    assert critical(1000) == Z_95
    with pytest.raises(ValueError):
        critical(0)
    # |t| just above and just below 4.303 with 3 seeds (sd 1, so t = mean * sqrt(3)).
    assert significant([2.5 - 1, 2.5, 2.5 + 1]) is True  # t = 4.33
    assert significant([2.48 - 1, 2.48, 2.48 + 1]) is False  # t = 4.295


def test_a_summary_is_over_the_values_present() -> None:
    assert summary([3, 5, 10]) == {"mean": 6, "sd": statistics.stdev([3, 5, 10]), "min": 3, "max": 10}
    assert summary([4, None]) == {"mean": 4, "sd": None, "min": 4, "max": 4}
    assert summary([None, None]) == {"mean": None, "sd": None, "min": None, "max": None}


def test_rows_over_seeds_are_paired_by_name() -> None:
    seeds = [
        [row("economy", "coins", "minted", 100, 150), row("gifts", "", "sent", 10, 10)],
        [row("economy", "coins", "minted", 110, 162), row("gifts", "", "sent", 12, 11)],
        [row("economy", "coins", "minted", 90, 141), row("gifts", "", "sent", 8, 9)],
    ]
    minted, sent = paired(seeds)
    assert minted == {
        "section": "economy",
        "subject": "coins",
        "metric": "minted",
        "base": 100,
        "other": 151,
        "change": 51,
        "changes": [50, 52, 51],
        "significant": True,
    }
    assert (sent["change"], sent["changes"], sent["significant"]) == (0, [0, -1, 1], False)


def test_a_row_a_seed_lacks_is_not_judged() -> None:
    seeds = [
        [row("events", "sprint", "completion rate", 0.5, 0.7)],
        [row("events", "sprint", "completion rate", 0.52, None)],
        [],
    ]
    (rate,) = paired(seeds)
    assert rate["changes"] == [0.2, None, None]
    assert rate["significant"] is None
    assert (rate["base"], rate["other"], rate["change"]) == (0.51, 0.7, 0.2)


def test_one_seed_keeps_its_row_and_says_nothing_of_noise() -> None:
    alone = row("economy", "coins", "holdings p50 at the end", 8.33333, 9)
    (found,) = paired([[alone]])
    assert found == {**alone, "changes": [alone["change"]], "significant": None}
