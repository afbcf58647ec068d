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
#: The default segments, spending their coins and gems: the coins a player holds then vary less from seed
#: to seed, so 5 seeds tell the copy's richer completions.
SPENDING = '[economy]\nspend = ["coins", "gems"]'


def report_of(tmp: Path, manifests: list[tuple[str, str]]) -> Path:
    parsed = [(name, parse_manifest(text)) for name, text in manifests]
    report = simulate(
        parsed,
        [("spending", parse_population(SPENDING))],
        players=60,
        days=2,
        seed=3,
        seeds=5,
        start=MONDAY,
    )
    _, html = write(report, tmp)
    return html


def row(page: Any, section: str, subject: str, metric: str) -> Any:
    """The differences' row of that name."""
    return page.locator("table.differences:not(.largest) tbody tr").filter(
        has=page.locator(
            f"td:first-child:text-is('{section}') + td:text-is('{subject}') + td:text-is('{metric}')"
        )
    )


def colour(page: Any, selector: str) -> str:
    found: str = page.eval_on_selector(selector, "e => getComputedStyle(e).color")
    return found


def test_the_changes_within_the_noise_are_greyed(browser: Any, tmp_path: Path) -> None:
    assert SEASON.count(COMPLETION) == 1
    richer = SEASON.replace(COMPLETION, COMPLETION.replace("amount = 8", "amount = 400"))
    html = report_of(tmp_path, [("season.toml", SEASON), ("richer.toml", richer)])
    opened = Opened(browser, html)
    page = opened.page
    # Every row is in the full table below the charts, folded: unfolded as a reader would.
    page.eval_on_selector_all("details", "folds => folds.forEach(fold => fold.open = true)")
    rows = page.locator("table.differences:not(.largest) tbody tr")
    greyed = page.locator("table.differences:not(.largest) tbody tr.noise")
    assert 0 < greyed.count() < rows.count()
    head = page.locator("table.differences:not(.largest) thead").first.inner_text()
    assert "Beyond noise" in head and "\tp\t" in head
    # The coins minted in all and by the completions the copy pays more for stand out; those of the
    # gifts, which it does not touch, do not.
    for metric, marked in (("minted", "yes"), ("minted by completions", "yes"), ("minted by gifts", "no")):
        found = row(page, "economy", "coins", metric)
        assert found.count() == 1 and found.locator("td").last.inner_text() == marked
        assert ("noise" in (found.get_attribute("class") or "")) is (marked == "no")
    kept = colour(page, "table.differences:not(.largest) tbody tr:not(.noise) td")
    assert colour(page, "table.differences:not(.largest) tbody tr.noise td") != kept
    assert opened.errors == [] and opened.fetched == []


def test_the_spread_over_the_seeds_is_a_table(browser: Any, tmp_path: Path) -> None:
    opened = Opened(browser, report_of(tmp_path, [("season.toml", SEASON)]))
    page = opened.page
    assert "Across seeds" in page.locator("h2").all_inner_texts()
    assert page.locator("table[data-table=spread] tbody tr").count() > 20
    assert "5: 3 to 7" in page.locator("dl.facts").inner_text()
    assert page.locator("svg.chart").count() >= 5  # the first seed's report, whole
    assert opened.errors == [] and opened.fetched == []
