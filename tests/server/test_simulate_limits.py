"""A designer's limits on a comparison (`livecore-server simulate --compare OTHER --expect ...`,
docs/simulation.md#limits): each bounds a compared row's relative change, the report, limits.csv and the
page say which were broken, and a broken one fails the run once the report is written."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from livecore_server.simulate.limits import Limit, judged, parse
from tests.server.test_simulate_seeds import RICHER, report, run


def test_a_limit_names_a_row_and_bounds_its_change_in_percent() -> None:
    assert parse("economy.coins.minted < +10%") == Limit(
        "economy.coins.minted < +10%", "economy", "coins", "minted", "<", 0.1
    )
    found = parse(" economy.coins.holdings p50 at the end>=-2.5% ")
    assert (found.metric, found.op, found.bound) == ("holdings p50 at the end", ">=", -0.025)
    assert parse("gifts..sent <= 0%").subject == ""


@pytest.mark.parametrize(
    "text", ["economy.coins.minted < 10", "coins.minted < +10%", "economy.coins.minted ~ 1%"]
)
def test_anything_else_is_not_a_limit(text: str) -> None:
    with pytest.raises(ValueError, match=r"is not a limit: write section\.subject\.metric"):
        parse(text)


def test_a_limit_is_broken_past_its_bound_and_where_it_cannot_be_judged() -> None:
    rows = [
        {"section": "economy", "subject": "coins", "metric": "minted", "relative": 0.5},
        {"section": "gifts", "subject": "", "metric": "sent", "relative": None},
    ]
    limits = [parse(t) for t in ("economy.coins.minted < +10%", "economy.coins.minted > +10%")]
    limits += [parse("gifts..sent < +1%"), parse("economy.gems.minted < +1%")]
    assert [(j["broken"], j["why"]) for j in judged(limits, rows)] == [
        (True, "changed by +50%"),
        (False, None),
        (True, "no relative change: its base is 0 or missing on a seed"),
        (True, "the comparison has no such row"),
    ]


def test_a_broken_limit_fails_the_run_after_the_report_is_written(tmp_path: Path) -> None:
    limits = ("--expect", "economy.coins.minted < +10%", "--expect", "economy.coins.minted > +0%")
    result = run(tmp_path, "limited", *limits, other=RICHER)
    assert result.exit_code == 1, result.output
    assert "limit broken: economy.coins.minted < +10%: changed by +" in result.stderr
    found = report(tmp_path, "limited")["limits"]
    assert [(j["limit"], j["broken"]) for j in found] == [
        ("economy.coins.minted < +10%", True),
        ("economy.coins.minted > +0%", False),
    ]
    written = list(csv.DictReader((tmp_path / "limited" / "limits.csv").open(encoding="utf-8")))
    assert [r["Broken"] for r in written] == ["true", "false"]
    assert 'class="broken"' in (tmp_path / "limited" / "report.html").read_text()


def test_kept_limits_pass(tmp_path: Path) -> None:
    result = run(tmp_path, "kept", "--expect", "economy.coins.minted > +0%", other=RICHER)
    assert result.exit_code == 0, result.output
    assert report(tmp_path, "kept")["limits"][0]["broken"] is False


def test_limits_need_a_comparison_and_the_form_of_one(tmp_path: Path) -> None:
    alone = run(tmp_path, "alone", "--expect", "economy.coins.minted < +10%")
    assert alone.exit_code == 2 and "add --compare or --compare-population" in alone.stderr
    wrong = run(tmp_path, "wrong", "--expect", "coins up a bit", other=RICHER)
    assert wrong.exit_code == 2 and "is not a limit" in wrong.stderr
    assert not (tmp_path / "alone").exists() and not (tmp_path / "wrong").exists()
