"""The statistics of `simulate --seeds` (livecore_server/simulate/noise.py, docs/simulation.md#several-seeds):
a paired two-sided t-test on the per-seed changes, the numbers marked chosen together at a 5% false
discovery rate, and a number's spread over the seeds; and how a report's rows become the rows over
several seeds (livecore_server/simulate/compare.py). No season is played here."""

from __future__ import annotations

import math
import statistics

import pytest

from livecore_server.simulate.compare import by_evidence, paired
from livecore_server.simulate.noise import interval, level, p_value, summary, t_critical, t_p_value
from livecore_server.simulate.section import row


def test_a_manifest_against_itself_changes_nothing() -> None:
    assert p_value([0, 0, 0]) == 1.0
    assert p_value([0.0] * 30) == 1.0


def test_a_consistent_large_change_has_a_small_p_value() -> None:
    # t = 42.3 on 2 degrees of freedom, whose p-value is 1 - t / sqrt(t^2 + 2).
    assert p_value([48_020, 50_470, 46_550]) == pytest.approx(0.000559, abs=1e-6)
    assert p_value([-12, -10, -11, -13]) == pytest.approx(0.000386, abs=1e-6)  # t = -17.8


def test_noisy_small_changes_have_a_large_one() -> None:
    assert p_value([5, -3, 2]) > 0.5
    assert p_value([1, 2, -1, 0, 3, -2]) > 0.5
    # A mean of zero with noise around it: nothing changed.
    assert p_value([3, -3]) == 1.0


def test_the_same_nonzero_change_on_every_seed_is_certain() -> None:
    assert p_value([7, 7, 7]) == 0.0
    assert p_value([0.1, 0.1, 0.1]) == 0.0
    assert p_value([-1, -1]) == 0.0


def test_one_seed_or_a_missing_number_says_nothing() -> None:
    assert p_value([]) is None
    assert p_value([120]) is None
    assert p_value([0]) is None
    assert p_value([5, None, 6]) is None


@pytest.mark.parametrize(
    ("t", "df"),
    # Student's t's two-sided 95% critical values, as printed tables give them.
    [(12.706, 1), (4.303, 2), (3.182, 3), (2.776, 4), (2.571, 5), (2.262, 9), (2.042, 30), (1.984, 100)],
)
def test_the_p_value_is_students_t_for_the_seeds(t: float, df: int) -> None:
    assert t_p_value(t, df) == pytest.approx(0.05, abs=1e-4)
    assert t_p_value(-t, df) == t_p_value(t, df)
    assert t_p_value(t * 1.01, df) < 0.05 < t_p_value(t * 0.99, df)


def test_the_p_value_at_zero_and_far_out() -> None:
    assert t_p_value(0, 3) == 1.0
    assert t_p_value(1e9, 4) == pytest.approx(0.0, abs=1e-12)
    assert t_p_value(1.96, 100_000) == pytest.approx(0.05, abs=1e-4)  # the normal distribution's
    with pytest.raises(ValueError):
        t_p_value(2.0, 0)


def marked(p_values: list[float | None]) -> list[bool | None]:
    """The numbers whose intervals at the comparison's level leave out 0: those whose p-value passes it."""
    found = level(p_values)
    return [None if p is None or found is None else p <= 1 - found + 1e-12 for p in p_values]


def test_the_numbers_marked_are_chosen_together() -> None:
    # Benjamini-Hochberg at 5% over five numbers: ranks 1-5 are held to 0.01, 0.02, ... 0.05.
    assert level([0.009, 0.5, 0.019, 0.8, 0.04]) == pytest.approx(1 - 2 / 5 * 0.05)
    assert marked([0.009, 0.5, 0.019, 0.8, 0.04]) == [True, False, True, False, False]
    # The third smallest under its bar (0.03) marks the two smaller ones with it, though 0.025 > 0.02.
    assert marked([0.03, 0.025, 0.009, 0.9, 0.7]) == [True, True, True, False, False]
    # One p-value of 0.04 alone is marked; among twenty it is not.
    assert marked([0.04]) == [True]
    assert marked([0.04, *[0.6] * 19]) == [False] * 20
    assert marked([None, 0.001, None]) == [None, True, None]
    assert marked([]) == [] and level([]) is None and level([None]) is None


def test_with_nothing_marked_the_level_is_one_no_p_value_passed() -> None:
    assert level([0.04, *[0.6] * 19]) == pytest.approx(1 - 0.05 / 20)
    assert level([0.5]) == pytest.approx(0.95)


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
    # Never below 0, its base above 0: tested on the log of the ratio of the means, 151 / 100, whose
    # standard error is that of other / 151 - base / 100 over the seeds, by Student's t on 2 degrees of
    # freedom. One of two p-values passes 1 / 2 * 0.05: the intervals are at 97.5%.
    z = [o / 151 - b / 100 for b, o in [(100, 150), (110, 162), (90, 141)]]
    se = statistics.stdev(z) / 3**0.5
    assert t_p_value(math.log(1.51) / se, 2) == pytest.approx(0.001881, abs=1e-6)
    half = t_critical(2, 0.975) * se
    low, high = math.expm1(math.log(1.51) - half), math.expm1(math.log(1.51) + half)
    assert minted == {
        "section": "economy",
        "subject": "coins",
        "metric": "minted",
        "base": 100,
        "other": 151,
        "change": 51,
        "changes": [50, 52, 51],
        "p": 0.001881,
        "level": 0.975,
        "change_interval": [pytest.approx(100 * low, abs=0.01), pytest.approx(100 * high, abs=0.01)],
        # The mean change as a share of the mean base, inside its interval.
        "relative": 0.51,
        "interval": [pytest.approx(low, abs=1e-4), pytest.approx(high, abs=1e-4)],
        "note": None,
        "significant": True,
    }
    assert (sent["change"], sent["changes"], sent["p"], sent["significant"]) == (0, [0, -1, 1], 1.0, False)
    # No change on average is no change, whose interval holds 0.
    assert sent["relative"] == 0 and sent["interval"][0] < 0 < sent["interval"][1]
    assert 0.51 - minted["interval"][0] < minted["interval"][1] - 0.51  # a multiple's: longer above


def test_a_row_a_seed_lacks_is_not_judged() -> None:
    seeds = [
        [row("events", "sprint", "completion rate", 0.5, 0.7)],
        [row("events", "sprint", "completion rate", 0.52, None)],
        [],
    ]
    (rate,) = paired(seeds)
    assert rate["changes"] == [0.2, None, None]
    assert rate["p"] is None and rate["significant"] is None
    assert rate["relative"] is None and rate["interval"] is None and rate["change_interval"] is None
    assert (rate["base"], rate["other"], rate["change"]) == (0.51, 0.7, 0.2)


def test_one_seed_keeps_its_row_and_says_nothing_of_noise() -> None:
    alone = row("economy", "coins", "holdings p50 at the end", 8.33333, 9)
    (found,) = paired([[alone]])
    assert found == {
        **alone,
        "changes": [alone["change"]],
        "p": None,
        "level": None,
        "change_interval": None,
        "relative": pytest.approx(0.08, abs=1e-4),
        "interval": None,
        "note": None,
        "significant": None,
    }


@pytest.mark.parametrize(("df", "t"), [(1, 12.7062), (2, 4.3027), (4, 2.7764), (29, 2.0452)])
def test_the_interval_is_students_t_standard_errors_either_way(df: int, t: float) -> None:
    assert t_critical(df) == pytest.approx(t, abs=1e-4)
    values = [float(v) for v in range(df + 1)]
    low, high = interval(values)  # type: ignore[misc]
    half = t * statistics.stdev(values) / (df + 1) ** 0.5
    assert (low, high) == pytest.approx(
        (statistics.fmean(values) - half, statistics.fmean(values) + half), abs=1e-3
    )


def test_a_base_of_zero_on_a_seed_is_too_small_for_a_share() -> None:
    assert interval([0.1]) is None and interval([0.1, None]) is None
    (grown,) = paired([[row("gifts", "", "sent", 0, 5)], [row("gifts", "", "sent", 2, 6)]])
    assert grown["change"] == 4.5 and grown["note"] == "base too small"
    assert grown["relative"] is None and grown["interval"] is None
    # Its change still has an interval, and the same rule marks it or not.
    low, high = grown["change_interval"]
    assert low < 4.5 < high and grown["significant"] is (low > 0 or high < 0)


def test_a_row_from_nothing_is_new_and_marked_on_its_change_alone() -> None:
    seeds = [[row("economy", "gems", "minted", 0, 12)] for _ in range(3)]
    (new,) = paired(seeds)
    assert (new["note"], new["relative"], new["interval"]) == ("new", None, None)
    assert new["change_interval"] == [12, 12] and new["significant"] is True


def test_a_non_negative_rows_interval_never_falls_below_minus_100_percent() -> None:
    """A fall of 28, 1 and 50 from 30, 2 and 50: on the ratio's scale its interval, turned back into
    shares, stays above -100%; where the other is 0 on every seed (all of it gone) or the base is 0 on
    some, the change's interval reaches far below the mean base, and stops there."""
    pairs = [(30, 2), (2, 1), (50, 0)]
    (fallen,) = paired([[row("economy", "coins", "sunk", b, o)] for b, o in pairs])
    assert -1 < fallen["interval"][0] < fallen["relative"] < fallen["interval"][1]
    assert fallen["change_interval"][0] > -fallen["base"]
    (gone,) = paired([[row("economy", "coins", "sunk", b, 0)] for b in (30, 2, 50)])
    assert gone["relative"] == -1 and gone["interval"][0] == -1 and gone["interval"][1] > 0
    assert gone["change_interval"][0] == pytest.approx(-gone["base"], abs=0.01)
    (rare,) = paired([[row("economy", "coins", "sunk", b, o)] for b, o in [(30, 2), (0, 0), (50, 0)]])
    assert rare["note"] == "base too small" and rare["relative"] is None and rare["interval"] is None
    assert rare["change_interval"][0] == pytest.approx(-rare["base"], abs=0.01)
    # A figure that is negative on some seed is not bounded.
    (net,) = paired([[row("economy", "coins", "net", b, o)] for b, o in [(30, 2), (2, -1), (50, 0)]])
    assert net["interval"][0] < -1


def test_the_page_lists_the_strongest_evidence_first_and_folds_the_rows_that_did_not_move() -> None:
    seeds = [
        [
            row("gifts", "", "sent", 10, 10),
            row("economy", "coins", "minted", 100, 110),
            row("economy", "gems", "minted", 0, 3),
            row("economy", "coins", "sunk", 50, 25),
        ],
        [
            row("gifts", "", "sent", 12, 12),
            row("economy", "coins", "minted", 100, 112),
            row("economy", "gems", "minted", 0, 5),
            row("economy", "coins", "sunk", 40, 22),
        ],
    ]
    moved, still = by_evidence(paired(seeds))
    # Halved, by 0.5 and 0.55, before +10% and +12%; then the gems' change from nothing, by 3 and 5.
    assert [(r["subject"], r["metric"]) for r in moved] == [
        ("coins", "sunk"),
        ("coins", "minted"),
        ("gems", "minted"),
    ]
    assert moved[0]["p"] < moved[1]["p"] < moved[2]["p"]
    assert [r["metric"] for r in still] == ["sent"]


def test_a_large_share_of_a_small_noisy_base_comes_after_a_steady_change() -> None:
    """A segment's +65% of 30 coins that the seeds disagree on comes after a steady +10% of the chest's
    purchases, though its share is larger."""
    seeds = [
        [
            row("segments", "casual", "coins sunk per player", b, o),
            row("offers", "chest", "purchases", 1000, p),
        ]
        for b, o, p in [(30, 80, 1100), (28, 20, 1098), (32, 60, 1103), (30, 38, 1099), (30, 49, 1101)]
    ]
    moved, _ = by_evidence(paired(seeds))
    assert [r["subject"] for r in moved] == ["chest", "casual"]
    assert moved[1]["relative"] > moved[0]["relative"]


def test_the_page_lists_the_changes_beyond_noise_before_the_larger_ones_within_it() -> None:
    """A steady +10% on every seed is marked; a +50% that is -50% on another seed is noise: it comes after."""
    seeds = [
        [row("economy", "coins", "minted", 100, 110), row("gifts", "", "sent", 10, 25)],
        [row("economy", "coins", "minted", 100, 110), row("gifts", "", "sent", 10, 5)],
        [row("economy", "coins", "minted", 100, 110), row("gifts", "", "sent", 10, 20)],
    ]
    compared = paired(seeds)
    moved, _ = by_evidence(compared)
    assert [r["significant"] for r in moved] == [True, False]
    assert abs(moved[1]["relative"]) > abs(moved[0]["relative"])


def test_a_row_is_marked_exactly_when_its_interval_leaves_out_0() -> None:
    """Over many rows of noise and a few of change, the mark and the shown interval never disagree."""
    import random

    draw = random.Random(7)
    seeds: list[list[dict[str, object]]] = [[] for _ in range(5)]
    for index in range(60):
        shift = 1.5 if index % 10 == 0 else 1
        for seed in seeds:
            base = draw.uniform(20, 40)
            other = base * shift + draw.gauss(0, 3)
            seed.append(row("rows", str(index), "n", round(base, 2), round(other, 2)))
    found = paired(seeds)
    assert any(r["significant"] for r in found) and not all(r["significant"] for r in found)
    for r in found:
        low, high = r["interval"]
        assert (
            r["significant"]
            is (low > 0 or high < 0)
            is (r["change_interval"][0] > 0 or r["change_interval"][1] < 0)
        )


def test_an_interval_past_a_million_times_the_base_has_no_bound_there() -> None:
    """Two seeds that disagree: Student's t of one degree of freedom at the level of many rows is in the
    thousands, and the ratio's interval reaches past what a float holds. Its upper end is null (the page
    says "no bound"), its lower end is told, and the row is not marked."""
    noisy = [[row("gifts", "", "sent", 10, 40)], [row("gifts", "", "sent", 40, 10)]]
    quiet = [[row(f"economy{i}", "coins", "minted", 100, 100)] for i in range(200)]
    rows = paired([[*noisy[0], *(q[0] for q in quiet)], [*noisy[1], *(q[0] for q in quiet)]])
    sent = next(r for r in rows if r["section"] == "gifts")
    assert sent["interval"][1] is None and sent["change_interval"][1] is None
    assert -1 <= sent["interval"][0] < 0
    assert sent["significant"] is False
