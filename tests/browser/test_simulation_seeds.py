"""A report of several seeds (`livecore-server simulate --seeds`, docs/simulation.md#several-seeds) in
headless Chromium: a comparison's changes within the seeds' noise are greyed and the others drawn as they
are, a report's spread over the seeds is a table, and the page fetches and logs nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from livecore.manifest import parse_manifest
from livecore.simulation.population import parse_population
from livecore_server.simulate.render import write
from livecore_server.simulate.run import simulate
from tests.browser.test_simulation_report import Opened
from tests.season_support import MONDAY, SEASON

COMPLETION = 'completion_rewards = [{ type = "currency", key = "coins", amount = 8 }]'


def report_of(tmp: Path, manifests: list[tuple[str, str]]) -> Path:
    parsed = [(name, parse_manifest(text)) for name, text in manifests]
    report = simulate(
        parsed,
        [("default", parse_population(""))],
        players=60,
        days=2,
        seed=3,
        seeds=5,
        start=MONDAY,
    )
    _, html = write(report, tmp)
    return html


def colour(page: Any, selector: str) -> str:
    found: str = page.eval_on_selector(selector, "e => getComputedStyle(e).color")
    return found


def test_the_changes_within_the_noise_are_greyed(browser: Any, tmp_path: Path) -> None:
    assert SEASON.count(COMPLETION) == 1
    richer = SEASON.replace(COMPLETION, COMPLETION.replace("amount = 8", "amount = 400"))
    html = report_of(tmp_path, [("season.toml", SEASON), ("richer.toml", richer)])
    opened = Opened(browser, html)
    page = opened.page
    rows = page.locator("table.differences tbody tr")
    greyed = page.locator("table.differences tbody tr.noise")
    assert 0 < greyed.count() < rows.count()
    head = page.locator("table.differences thead").first.inner_text()
    assert "Beyond noise" in head and "\tp\t" in head
    minted = page.locator("table.differences tbody tr", has_text="coins").filter(has_text="minted").first
    assert "noise" not in (minted.get_attribute("class") or "")
    assert minted.locator("td").last.inner_text() == "yes"
    kept = colour(page, "table.differences tbody tr:not(.noise) td")
    assert colour(page, "table.differences tbody tr.noise td") != kept
    assert opened.errors == [] and opened.fetched == []


def test_the_spread_over_the_seeds_is_a_table(browser: Any, tmp_path: Path) -> None:
    opened = Opened(browser, report_of(tmp_path, [("season.toml", SEASON)]))
    page = opened.page
    assert "Across seeds" in page.locator("h2").all_inner_texts()
    assert page.locator("table[data-table=spread] tbody tr").count() > 20
    assert "5: 3 to 7" in page.locator("dl.facts").inner_text()
    assert page.locator("svg.chart").count() >= 5  # the first seed's report, whole
    assert opened.errors == [] and opened.fetched == []
