"""A comparison's intervals mean what they say (docs/simulation.md#several-seeds): an A/A comparison (the
same manifest and population, the base on five seeds and the other on the next five, so that only chance
differs) marks nothing, and a row is marked exactly when its shown interval leaves out 0; no interval of
a row never below 0 falls below -100%; a base of 0 says so on the page instead of a percentage."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from livecore_server.simulate.compare import comparison
from livecore_server.simulate.gather import parts
from livecore_server.simulate.render import to_html
from livecore_server.simulate.run import parse, read_population, simulate
from tests.server.test_simulate_seeds import DEMO


def _played(seed: int) -> dict[str, Any]:
    report: dict[str, Any] = simulate(
        [("demo", parse(DEMO))],
        [("default", read_population(None))],
        players=40,
        days=2,
        seed=seed,
        start=datetime(2026, 1, 5, tzinfo=UTC),
    )
    return report


@pytest.fixture(scope="module")
def placebo() -> dict[str, Any]:
    """Seeds 1 to 5 against seeds 6 to 10: the same season, its players drawn anew. Where nothing
    changed, a comparison marks a row on about one choice of seeds in twenty (the false discovery rate,
    5%): seeds 1 to 5 against 11 to 15 mark the guilds' help requests filled (2 against 6 a season, of
    40 players over 2 days), which is that 5% at work, not a rule broken."""
    bases = [_played(seed) for seed in range(1, 6)]
    others = [_played(seed) for seed in range(6, 11)]
    return comparison(bases, others, parts())


def _excludes_0(found: list[float] | None) -> bool:
    return found is not None and (found[0] > 0 or found[1] < 0)


def test_an_a_a_comparison_marks_nothing(placebo: dict[str, Any]) -> None:
    rows = placebo["differences"]
    tested = [r for r in rows if r["significant"] is not None]
    assert len(tested) > 50
    assert not any(r["significant"] for r in tested)
    excluding = [r for r in tested if _excludes_0(r["interval"]) or _excludes_0(r["change_interval"])]
    assert len(excluding) <= 0.05 * len(tested)


def test_a_row_is_marked_exactly_when_its_interval_leaves_out_0(placebo: dict[str, Any]) -> None:
    for r in placebo["differences"]:
        if r["significant"] is None:
            assert r["interval"] is None and r["change_interval"] is None
            continue
        assert r["significant"] is _excludes_0(r["change_interval"])
        if r["interval"] is not None:
            assert r["significant"] is _excludes_0(r["interval"])
            assert r["interval"][0] <= r["relative"] <= r["interval"][1]


def test_no_interval_of_a_row_never_below_0_falls_below_minus_100_percent(placebo: dict[str, Any]) -> None:
    rows = [r for r in placebo["differences"] if r["interval"] is not None]
    assert rows and all(r["interval"][0] >= -1 for r in rows if r["base"] >= 0 and r["other"] >= 0)


def test_a_base_of_0_says_so_instead_of_a_percentage(placebo: dict[str, Any]) -> None:
    rows = placebo["differences"]
    noted = [r for r in rows if r["note"] is not None]
    assert noted and all(r["relative"] is None and r["interval"] is None for r in noted)
    assert {r["note"] for r in noted} <= {"new", "base too small"}
    page = to_html(placebo)
    for r in noted:
        assert ("new: 0 &rarr;" if r["note"] == "new" else "base too small") in page
