"""A season's revenue on its report (livecore_server/purchases/report.py, docs/simulation.md#the-report):
what the players paid for the offers priced in real money, read from the purchases the store recorded,
its rates defined over the players who played, by segment and by install cohort; compared like every
row, so an offer bought more often shows as more revenue on every seed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import livecore_server
from livecore.manifest import parse_manifest
from livecore.purchases.memory import PurchaseTables
from livecore.simulation import Simulation
from livecore.simulation.population import parse_population
from livecore.simulation.season import Season
from livecore_server.cli import main
from livecore_server.purchases.report import cohort_of
from livecore_server.simulate.compare import differences
from livecore_server.simulate.gather import gather, parts
from livecore_server.simulate.render import to_html
from livecore_server.simulate.tables import tables_of
from tests.season_support import MONDAY, POPULATION, SEASON

#: A gem pack for 4.99 euros, which the manifest (below) changes at 1.1 dollars a euro: 549 US cents.
MONEY = """
[studio.offers.gem-pack]
money = { EUR = 4.99 }
gives = [{ type = "currency", key = "gems", amount = 100 }]
buy = 0.1
"""
RATES = "\n[exchange_rates]\nEUR = 1.1\n"
CENTS = 549
DEMO_POPULATION = Path(livecore_server.__file__).parent / "demo_population.toml"


def play(
    population: str, *, days: int = 3, installs: dict[int, int] | None = None
) -> tuple[Season, dict[str, Any]]:
    """A season of 60 players; ``installs`` sets members' install days (by index) before the report."""
    sim = Simulation(parse_manifest(SEASON + RATES), seed=5, start=MONDAY)
    season = Season(sim, parse_population(population), players=60, days=days, seed=5)
    season.play()
    for index, day in (installs or {}).items():
        season.members[index].installed = day
    return season, gather(sim, season, run={"manifest": "season.toml", "population": "p", "seed": 5})


@pytest.fixture(scope="module")
def paid() -> tuple[Season, dict[str, Any]]:
    return play(POPULATION + MONEY, installs={0: 1, 1: 1, 2: 2})


def test_a_season_in_which_nobody_paid_has_no_revenue_section_nor_rows() -> None:
    _, report = play(POPULATION)
    assert "revenue" not in report
    assert "revenue" not in report["segments"]["figures"]
    assert not [r for r in differences(report, report, parts()) if r["section"] == "revenue"]


def test_revenue_is_what_the_store_recorded_in_us_cents_with_its_rates_over_the_players(
    paid: tuple[Season, dict[str, Any]],
) -> None:
    season, report = paid
    section = report["revenue"]
    bought = list(season.sim.store.tables_of(PurchaseTables).purchases.values())
    assert bought and all(p.normalized_amount_minor == CENTS for p in bought)
    payers = {p.player_id for p in bought}
    played = sum(m.sessions > 0 for m in season.members)
    assert section["revenue_cents"] == CENTS * len(bought) == sum(section["by_day"])
    assert (section["purchases"], section["payers"], section["players"]) == (len(bought), len(payers), played)
    assert section["payer_conversion"] == round(len(payers) / played, 4)
    assert section["player_days"] == sum(season.players_by_day)
    assert section["arpdau_cents"] == round(CENTS * len(bought) / sum(season.players_by_day), 4)
    assert section["arppu_cents"] == round(CENTS * len(bought) / len(payers), 4)
    assert section["ltv_cents"] == round(CENTS * len(bought) / 60, 4)
    assert section["by_product"] == {
        "gem-pack": {"purchases": len(bought), "revenue_cents": CENTS * len(bought)}
    }


def test_revenue_by_segment_is_per_player_in_dollars_and_conversion_over_those_who_played(
    paid: tuple[Season, dict[str, Any]],
) -> None:
    season, report = paid
    figures = report["segments"]["figures"]["revenue"]
    players = report["segments"]["players"]
    per_player = figures["revenue per player ($)"]
    total = sum(v * players[s] for s, v in per_player.items() if v is not None)
    assert total == pytest.approx(report["revenue"]["revenue_cents"] / 100, abs=0.01)
    payers = {p.player_id for p in season.sim.store.tables_of(PurchaseTables).purchases.values()}
    for name, conversion in figures["payer conversion"].items():
        members = [m for m in season.members if m.segment.name == name and m.sessions > 0]
        assert conversion == round(sum(m.handle.id in payers for m in members) / len(members), 4)


def test_revenue_by_install_cohort_groups_players_by_the_day_they_installed(
    paid: tuple[Season, dict[str, Any]],
) -> None:
    _, report = paid
    cohorts = report["revenue"]["cohorts"]
    assert cohorts["by"] == "day"
    assert [(c["cohort"], c["players"]) for c in cohorts["cohorts"]] == [(1, 57), (2, 2), (3, 1)]
    assert sum(c["revenue_cents"] for c in cohorts["cohorts"]) == report["revenue"]["revenue_cents"]
    first = cohorts["cohorts"][0]
    assert first["ltv_cents"] == round(first["revenue_cents"] / 57, 4)


def test_a_season_longer_than_a_fortnight_groups_its_cohorts_by_week() -> None:
    assert cohort_of(14)[0] == "day" and cohort_of(14)[1](13) == 14
    unit, week = cohort_of(15)
    assert unit == "week" and [week(d) for d in (0, 6, 7, 14)] == [1, 1, 2, 3]


def test_the_revenue_rows_compare_a_season_nobody_paid_in_as_zero(
    paid: tuple[Season, dict[str, Any]],
) -> None:
    _, report = paid
    _, unpaid = play(POPULATION, installs={0: 1, 1: 1, 2: 2})
    rows = [r for r in differences(report, unpaid, parts()) if r["section"] == "revenue"]
    assert [r["metric"] for r in rows] == [
        "revenue ($)",
        "payers",
        "payer conversion",
        "ARPDAU ($)",
        "LTV ($)",
    ]
    assert all(r["other"] == 0 and r["base"] > 0 for r in rows)
    assert rows[0]["base"] == report["revenue"]["revenue_cents"] / 100


def test_the_page_and_the_csv_files_show_the_revenue_in_dollars(paid: tuple[Season, dict[str, Any]]) -> None:
    _, report = paid
    tables = tables_of(report, parts())
    [headline] = tables["revenue"].rows
    assert headline[0] == report["revenue"]["revenue_cents"] / 100
    assert [row[0] for row in tables["revenue.cohorts"].rows] == ["day 1", "day 2", "day 3"]
    page = to_html(report, parts(), tables)
    assert '<h2 id="revenue">Revenue</h2>' in page
    assert f"<td>{report['revenue']['revenue_cents'] / 100:,.2f}</td>" in page  # dollars, to the cent
    # The offer's purchases are the grants section's too, with no currency sunk.
    offer = report["grants"]["offers"]["gem-pack"]
    assert (offer["currency"], offer["price"], offer["sunk"]) == ("EUR", 4.99, None)
    assert offer["purchases"] == report["revenue"]["purchases"]


def test_an_offer_bought_more_often_brings_more_revenue_on_every_seed(tmp_path: Path) -> None:
    """The demo's population with a gem pack for $4.99, against a copy bought three times as often: its
    revenue about three times the base's (3 seeds are too few for the family's intervals to mark it)."""
    pack = MONEY.replace("EUR", "USD").replace("buy = 0.1", "buy = 0.02")
    (tmp_path / "base.toml").write_text(DEMO_POPULATION.read_text() + pack)
    (tmp_path / "keen.toml").write_text(DEMO_POPULATION.read_text() + pack.replace("0.02", "0.06"))
    command = ["simulate", "demo", "--population", str(tmp_path / "base.toml")]
    command += ["--compare-population", str(tmp_path / "keen.toml")]
    command += ["--players", "100", "--days", "3", "--seeds", "3", "--out", str(tmp_path / "out")]
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    rows = {r["metric"]: r for r in report["differences"] if r["section"] == "revenue"}
    assert set(rows) == {"revenue ($)", "payers", "payer conversion", "ARPDAU ($)", "LTV ($)"}
    revenue = rows["revenue ($)"]
    assert all(change > 0 for change in revenue["changes"]) and revenue["relative"] > 1
    assert rows["payers"]["relative"] > 0 and rows["LTV ($)"]["relative"] > 1
