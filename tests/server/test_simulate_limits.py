"""A designer's limits on a comparison (`livecore-server simulate --compare OTHER --expect ...`,
docs/simulation.md#limits): each bounds a compared row's relative change or its number in the other
configuration, the report, limits.csv and the page say which were broken, a broken one fails the run once
the report is written (exit 1), and one naming no row exits 2 with the names nearest it."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from livecore_server.simulate.limits import Limit, judged, parse, unknown
from tests.server.test_simulate_seeds import RICHER, report, run


def test_a_limit_names_a_row_and_bounds_its_change_in_percent() -> None:
    assert parse("economy.coins.minted < +10%") == Limit(
        "economy.coins.minted < +10%", "economy", "coins", "minted", "<", 0.1
    )
    found = parse(" economy.coins.holdings p50 at the end>=-2.5% ")
    assert (found.metric, found.op, found.bound) == ("holdings p50 at the end", ">=", -0.025)
    assert parse("gifts..sent <= 0%").subject == ""


def test_a_bound_without_percent_bounds_the_rows_number() -> None:
    nobody = parse("players..players who left <= 0")
    assert (nobody.name, nobody.op, nobody.bound, nobody.relative) == (
        "players..players who left",
        "<=",
        0,
        False,
    )
    assert parse("economy.coins.minted < 1e6").bound == 1_000_000
    assert parse("economy.coins.minted > -2.5").bound == -2.5


@pytest.mark.parametrize(
    "text", ["economy.coins.minted < ten", "coins.minted < +10%", "economy.coins.minted ~ 1%", "a.b.c < 1%%"]
)
def test_anything_else_is_not_a_limit(text: str) -> None:
    with pytest.raises(ValueError, match=r"is not a limit: write section\.subject\.metric"):
        parse(text)


def test_a_limit_is_broken_past_its_bound_and_where_it_cannot_be_judged() -> None:
    rows = [
        {"section": "economy", "subject": "coins", "metric": "minted", "relative": 0.5, "other": 300},
        {"section": "gifts", "subject": "", "metric": "sent", "relative": None, "other": 4, "note": "new"},
        {"section": "players", "subject": "", "metric": "players who left", "relative": None, "other": 0},
    ]
    limits = [parse(t) for t in ("economy.coins.minted < +10%", "economy.coins.minted > +10%")]
    limits += [parse("gifts..sent < +1%"), parse("economy.gems.minted < +1%")]
    limits += [parse(t) for t in ("players..players who left <= 0", "gifts..sent < 3", "gifts..sent < 1e6")]
    assert [(j["broken"], j["why"]) for j in judged(limits, rows)] == [
        (True, "changed by +50%"),
        (False, None),
        (True, "no relative change: its base is 0 on every seed"),
        (True, "no row is named economy.gems.minted: did you mean economy.coins.minted?"),
        (False, None),
        (True, "is 4"),
        (False, None),
    ]
    assert unknown(limits, rows) == [
        "economy.gems.minted < +1%: no row is named economy.gems.minted: did you mean economy.coins.minted?"
    ]
    assert unknown([parse("zzz.qqq.xxx > 1")], rows) == ["zzz.qqq.xxx > 1: no row is named zzz.qqq.xxx"]


def test_a_broken_limit_fails_the_run_after_the_report_is_written(tmp_path: Path) -> None:
    limits = ("--expect", "economy.coins.minted < +10%", "--expect", "economy.coins.minted > +0%")
    limits += ("--expect", "economy.coins.minted < 1000")
    result = run(tmp_path, "limited", *limits, other=RICHER)
    assert result.exit_code == 1, result.output
    assert "limit broken: economy.coins.minted < +10%: changed by +" in result.stderr
    assert "limit broken: economy.coins.minted < 1000: is " in result.stderr
    found = report(tmp_path, "limited")["limits"]
    assert [(j["limit"], j["broken"]) for j in found] == [
        ("economy.coins.minted < +10%", True),
        ("economy.coins.minted > +0%", False),
        ("economy.coins.minted < 1000", True),
    ]
    written = list(csv.DictReader((tmp_path / "limited" / "limits.csv").open(encoding="utf-8")))
    assert [r["Broken"] for r in written] == ["true", "false", "true"]
    assert 'class="broken"' in (tmp_path / "limited" / "report.html").read_text()


def test_kept_limits_pass(tmp_path: Path) -> None:
    limits = ("--expect", "economy.coins.minted > +0%", "--expect", "economy.coins.minted > 1000")
    result = run(tmp_path, "kept", *limits, "--expect", "players..players who left <= 1000000", other=RICHER)
    assert result.exit_code == 0, result.output
    assert [j["broken"] for j in report(tmp_path, "kept")["limits"]] == [False, False, False]


def test_a_limit_naming_no_row_exits_2_with_the_nearest_names(tmp_path: Path) -> None:
    """A typo is not a regression: the report is written, and the run exits 2, not 1, naming the rows
    the limit may have meant."""
    limits = ("--expect", "economy.coin.minted < +10%", "--expect", "economy.coins.minted < +10%")
    result = run(tmp_path, "typo", *limits, other=RICHER)
    assert result.exit_code == 2, result.output
    assert (
        "limit names no row: economy.coin.minted < +10%: no row is named economy.coin.minted:"
        " did you mean economy.coins.minted" in result.stderr
    )
    assert (tmp_path / "typo" / "report.json").exists()


def test_limits_need_a_comparison_and_the_form_of_one(tmp_path: Path) -> None:
    alone = run(tmp_path, "alone", "--expect", "economy.coins.minted < +10%")
    assert alone.exit_code == 2 and "add --compare, --compare-population or --sweep" in alone.stderr
    wrong = run(tmp_path, "wrong", "--expect", "coins up a bit", other=RICHER)
    assert wrong.exit_code == 2 and "is not a limit" in wrong.stderr
    assert not (tmp_path / "alone").exists() and not (tmp_path / "wrong").exists()
