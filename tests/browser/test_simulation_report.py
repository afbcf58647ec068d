"""The simulation report (`livecore-server simulate`, docs/simulation.md#the-report) in headless Chromium:
the page renders from the file alone, its charts are drawn legibly with no text cut off, its tables link
their CSV files, nothing is fetched and nothing is logged as an error. With
``$LIVECORE_SIMULATION_SCREENSHOT`` set (``nox -s screenshots``), a report of the demo manifest is rendered
and its screenshots written there and beside it (``-economy``: the economy's net flow and first resource;
docs/simulation.md shows both; ``-shop``, the worked example's comparison; ``-sweep``, the chest's
price swept)."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from livecore.manifest import parse_manifest
from livecore.simulation.population import parse_population
from livecore_server.manifest import demo_manifest
from livecore_server.simulate.render import write
from livecore_server.simulate.run import simulate
from livecore_server.simulate.shipped import POPULATIONS, resolve
from tests.season_support import MONDAY, SEASON

SHOT = os.environ.get("LIVECORE_SIMULATION_SCREENSHOT")
EXAMPLE_POPULATION = Path(resolve("demo", POPULATIONS))


class Opened:
    """A page opened from a file, with what it logged and what it asked the network for."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.errors: list[str] = []
        self.fetched: list[str] = []
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: None if r.url.startswith("file:") else self.fetched.append(r.url))
        self.page.goto(path.as_uri(), wait_until="load")


#: Credited coins, the players pay the sprint's entry cost on their first day.
CREDITED = "[studio]\nlogin_credit = { coins = 20 }\n"


def report_of(
    tmp: Path, manifests: list[tuple[str, str]], *, players: int, days: int, population: str = ""
) -> Path:
    parsed = [(name, parse_manifest(text)) for name, text in manifests]
    report = simulate(
        parsed,
        [("default", parse_population(population))],
        players=players,
        days=days,
        seed=3,
        start=MONDAY,
    )
    _, html = write(report, tmp)
    return html


def charts_drawn(opened: Opened) -> list[str]:
    """The names of the page's charts, each drawn with a size and its axes and data, its text at least
    10 pixels high (the page draws a chart no smaller than it was made, on a wide screen), and none of
    its text (a title, a label, a legend) outside it."""
    charts = opened.page.eval_on_selector_all(
        "svg.chart",
        """els => els.map(e => {
             const box = e.getBoundingClientRect();
             const out = [...e.querySelectorAll("text")].filter(t => {
               const r = t.getBoundingClientRect();
               return r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1
                 || r.bottom > box.bottom + 1;
             }).map(t => t.textContent);
             return {name: e.dataset.chart, width: box.width, height: box.height,
                     scale: box.width / e.viewBox.baseVal.width, outside: out,
                     paths: e.querySelectorAll("path").length};
           })""",
    )
    for chart in charts:
        assert chart["width"] > 200 and chart["height"] > 80, chart
        assert chart["paths"] > 10, chart  # axes, ticks and the data
        assert chart["scale"] * 9 >= 10, chart  # the charts' 9-point text
        assert chart["outside"] == [], chart
    return [chart["name"] for chart in charts]


def test_the_report_renders_its_charts_offline(browser: Any, tmp_path: Path) -> None:
    html = report_of(tmp_path, [("season.toml", SEASON)], players=80, days=2)
    opened = Opened(browser, html)
    page = opened.page
    assert page.title() == "Simulation report: arena"
    headings = page.locator("h2").all_inner_texts()
    for section in (
        "Warnings",
        "Segments",
        "Economy",
        "Events",
        "Shared leaderboards",
        "Lobbies",
        "Teams",
        "Guilds",
    ):
        assert section in headings
    names = charts_drawn(opened)
    assert {
        "economy-net",
        "economy-coins",
        "event-sprint",
        "leaderboard-daily",
        "lobby-duel",
        "guilds",
    } <= set(names)
    assert page.locator("li.warning").count() >= 1
    segments = page.locator("table[data-table=segments]")
    assert segments.locator("thead th").all_inner_texts() == [
        "Section",
        "Figure",
        "engaged",
        "regular",
        "casual",
    ]
    assert segments.locator("tbody tr").first.inner_text().split("\t")[:2] == ["segments", "players"]
    page.locator("details summary").first.click()
    assert page.locator("details[open] tbody tr").first.is_visible()
    # Each table names its CSV file, beside the page.
    for link in page.locator("table caption a").all():
        href = link.get_attribute("href")
        assert href is not None and (html.parent / href).is_file(), href
    assert opened.errors == []
    assert opened.fetched == []


#: Each economy chart's legend, as drawn: its entries' labels and colours (a bar's fill, a line's stroke).
LEGENDS = """els => els.filter(e => e.dataset.chart.startsWith("economy-")).flatMap(e =>
  [...e.querySelectorAll("g[id^=legend]")].flatMap(legend => {
    const entries = [];
    let colour = null;
    for (const g of legend.children) {
      const mark = g.querySelector("path");
      if (g.id.startsWith("patch") && mark) colour = getComputedStyle(mark).fill;
      else if (g.id.startsWith("line2d") && mark) colour = getComputedStyle(mark).stroke;
      else if (g.id.startsWith("text") && colour) {
        entries.push([e.dataset.chart, g.textContent.trim(), colour]);
        colour = null;
      }
    }
    return entries;
  }))"""


def test_a_source_is_one_colour_in_every_economy_charts_legend(browser: Any, tmp_path: Path) -> None:
    html = report_of(tmp_path, [("season.toml", SEASON)], players=80, days=2)
    opened = Opened(browser, html)
    entries = opened.page.eval_on_selector_all("svg.chart", LEGENDS)
    colours: dict[str, set[str]] = {}
    charts: dict[str, set[str]] = {}
    for chart, label, colour in entries:
        colours.setdefault(label, set()).add(colour)
        charts.setdefault(label, set()).add(chart)
    assert any(len(drawn) > 1 for drawn in charts.values()), "a source drawn on two charts"
    assert {label: found for label, found in colours.items() if len(found) > 1} == {}
    assert opened.errors == []


def test_a_season_of_one_day_says_in_tables_what_one_bar_would(browser: Any, tmp_path: Path) -> None:
    html = report_of(tmp_path, [("season.toml", SEASON)], players=40, days=1, population=CREDITED)
    opened = Opened(browser, html)
    names = charts_drawn(opened)
    assert "leaderboard-daily" not in names and "event-sprint" not in names and "economy-net" not in names
    page = opened.page
    assert page.locator("table[data-table='events.sprint.windows']").is_visible()
    assert page.locator("table[data-table='economy.net'] tbody tr").count() == 1
    assert opened.errors == [] and opened.fetched == []


def test_a_comparison_renders_both_side_by_side(browser: Any, tmp_path: Path) -> None:
    other = SEASON.replace("threshold = 500", "threshold = 300")
    html = report_of(
        tmp_path, [("season.toml", SEASON), ("other.toml", other)], players=30, days=1, population=CREDITED
    )
    opened = Opened(browser, html)
    assert opened.page.title() == "Simulation comparison: arena"
    assert opened.page.locator("table.differences tbody tr").count() > 20
    # What moved, then its charts, then every row: each heading below the one before.
    tops = [opened.page.locator(h).bounding_box() for h in ("#moved", "#economy", "#differences")]
    assert all(t is not None for t in tops)
    assert [t["y"] for t in tops if t is not None] == sorted(t["y"] for t in tops if t is not None)
    # The threshold moved the event's rows: its chart is drawn (a subject with no row moved has none).
    assert "compare-event-sprint" in charts_drawn(opened)
    assert opened.errors == [] and opened.fetched == []


#: The chest's price in the shop example's population, swept (docs/simulation.md#sweeps).
CHEST_PRICE = "population:studio.offers.bronze-chest.price.coins"
#: The rows the sweep's page draws.
SWEPT_ROWS = [
    "offers.bronze-chest.purchases",
    "economy.coins.sunk by offer:bronze-chest",
    "players..sessions",
]


def sweep_page(tmp: Path, values: str, *, players: int, days: int, seeds: int) -> Path:
    from livecore_server.simulate import notebook
    from tests.shop_support import SHOP

    found = notebook.sweep(
        "demo",
        f"{CHEST_PRICE}={values}",
        population=SHOP,
        rows=SWEPT_ROWS,
        players=players,
        days=days,
        seeds=seeds,
    )
    _, html = found.write(tmp)
    return html


def test_a_sweep_draws_each_row_against_the_value(browser: Any, tmp_path: Path) -> None:
    html = sweep_page(tmp_path, "60,100,140", players=40, days=2, seeds=2)
    opened = Opened(browser, html)
    assert opened.page.title().startswith("Simulation sweep: ")
    figures = opened.page.locator("figure[data-row]")
    assert [figures.nth(i).get_attribute("data-row") for i in range(figures.count())] == SWEPT_ROWS
    assert charts_drawn(opened) == ["sweep-0", "sweep-1", "sweep-2"]
    assert opened.errors == [] and opened.fetched == []


@pytest.mark.skipif(not SHOT, reason="screenshots are taken by nox -s screenshots")
def test_the_screenshot_of_a_report_of_the_demo(browser: Any, tmp_path: Path) -> None:
    assert SHOT is not None
    from livecore_server.simulate.run import read_population

    report = simulate(
        [("demo.toml", demo_manifest())],
        [("population.toml", read_population(EXAMPLE_POPULATION))],
        players=1000,
        days=14,
        seed=7,
        start=datetime(2026, 1, 5, tzinfo=UTC),
    )
    _, html = write(report, tmp_path)
    opened = Opened(browser, html)
    charts_drawn(opened)
    assert opened.errors == []
    page = opened.page
    page.screenshot(path=SHOT, clip={"x": 0, "y": 0, "width": 1280, "height": 1800}, full_page=True)
    # The economy: its net flow and its first resource, down to the next resource's heading.
    top = page.locator("#economy").bounding_box()
    end = page.locator("#economy ~ h3").nth(2).bounding_box()
    assert top is not None and end is not None
    economy = str(Path(SHOT).with_name(Path(SHOT).stem + "-economy.png"))
    clip = {"x": 0, "y": top["y"] - 8, "width": 1280, "height": end["y"] - top["y"]}
    page.screenshot(path=economy, clip=clip, full_page=True)


@pytest.mark.skipif(not SHOT, reason="screenshots are taken by nox -s screenshots")
def test_the_screenshot_of_a_cheaper_chest(browser: Any, tmp_path: Path) -> None:
    """docs/simulation.md's worked example: the shop example against its copy at 80% of the chest's price,
    on 5 seeds; what moved, its largest changes (``-shop``, beside the report's)."""
    assert SHOT is not None
    from livecore_server.simulate.run import read_population
    from tests.shop_support import SHOP, cheaper

    copy = tmp_path / "shop-80.toml"
    copy.write_text(cheaper())
    report = simulate(
        [("demo.toml", demo_manifest())],
        [("shop.toml", read_population(SHOP)), ("shop-80.toml", read_population(copy))],
        players=300,
        days=14,
        seed=0,
        seeds=5,
        start=datetime(2026, 1, 5, tzinfo=UTC),
    )
    _, html = write(report, tmp_path)
    opened = Opened(browser, html)
    assert opened.errors == []
    page = opened.page
    top = page.locator("#moved").bounding_box()
    end = page.locator("table.largest").bounding_box()
    assert top is not None and end is not None
    shot = str(Path(SHOT).with_name(Path(SHOT).stem + "-shop.png"))
    clip = {
        "x": 0,
        "y": top["y"] - 8,
        "width": 1280,
        "height": min(1400.0, end["y"] + end["height"] - top["y"] + 16),
    }
    page.screenshot(path=shot, clip=clip, full_page=True)


@pytest.mark.skipif(not SHOT, reason="screenshots are taken by nox -s screenshots")
def test_the_screenshot_of_the_chests_price_swept(browser: Any, tmp_path: Path) -> None:
    """docs/simulation.md#sweeps: the chest's price from 60 to 140 coins on 5 seeds, each row drawn
    against the price (``-sweep``, beside the report's)."""
    assert SHOT is not None
    html = sweep_page(tmp_path, "60..140/20", players=300, days=14, seeds=5)
    opened = Opened(browser, html)
    charts_drawn(opened)
    assert opened.errors == []
    page = opened.page
    top = page.locator("#effects").bounding_box()
    end = page.locator("#sweep").bounding_box()
    assert top is not None and end is not None
    shot = str(Path(SHOT).with_name(Path(SHOT).stem + "-sweep.png"))
    clip = {"x": 0, "y": top["y"] - 8, "width": 1280, "height": end["y"] - top["y"]}
    page.screenshot(path=shot, clip=clip, full_page=True)
