"""The simulation report (`livecore-server simulate`, docs/simulation.md#the-report) in headless Chromium:
the page renders from the file alone, its charts are drawn, nothing is fetched and nothing is logged as an
error. With ``$LIVECORE_SIMULATION_SCREENSHOT`` set (``nox -s screenshots``), a report of the demo
manifest is rendered and its screenshot written there (docs/simulation.md shows it)."""

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


def report_of(tmp: Path, manifests: list[tuple[str, str]], *, players: int, days: int) -> Path:
    parsed = [(name, parse_manifest(text)) for name, text in manifests]
    report = simulate(
        parsed,
        parse_population(""),
        population_name="default",
        players=players,
        days=days,
        seed=3,
        start=MONDAY,
    )
    _, html = write(report, tmp)
    return html


def charts_drawn(opened: Opened) -> list[str]:
    """The names of the page's charts, each drawn with a size and its axes and data."""
    charts = opened.page.eval_on_selector_all(
        "svg.chart",
        """els => els.map(e => ({name: e.dataset.chart, width: e.getBoundingClientRect().width,
                                  height: e.getBoundingClientRect().height,
                                  paths: e.querySelectorAll("path").length}))""",
    )
    for chart in charts:
        assert chart["width"] > 200 and chart["height"] > 80, chart
        assert chart["paths"] > 10, chart  # axes, ticks and the data
    return [chart["name"] for chart in charts]


def test_the_report_renders_its_charts_offline(browser: Any, tmp_path: Path) -> None:
    html = report_of(tmp_path, [("season.toml", SEASON)], players=40, days=1)
    opened = Opened(browser, html)
    page = opened.page
    assert page.title() == "Simulation report: arena"
    headings = page.locator("h2").all_inner_texts()
    for section in ("Warnings", "Economy", "Events", "Shared leaderboards", "Lobbies", "Teams", "Guilds"):
        assert section in headings
    names = charts_drawn(opened)
    assert {
        "economy-coins",
        "event-sprint",
        "leaderboard-daily",
        "lobby-duel",
        "team-relay",
        "guilds",
    } <= set(names)
    assert page.locator("li.warning").count() >= 1
    page.locator("details summary").first.click()
    assert page.locator("details[open] tbody tr").first.is_visible()
    assert opened.errors == []
    assert opened.fetched == []


def test_a_comparison_renders_both_side_by_side(browser: Any, tmp_path: Path) -> None:
    other = SEASON.replace("threshold = 500", "threshold = 300")
    html = report_of(tmp_path, [("season.toml", SEASON), ("other.toml", other)], players=30, days=1)
    opened = Opened(browser, html)
    assert opened.page.title() == "Simulation comparison: arena"
    assert opened.page.locator("table.differences tbody tr").count() > 20
    assert "compare-economy-coins" in charts_drawn(opened)
    assert opened.errors == [] and opened.fetched == []


@pytest.mark.skipif(not SHOT, reason="screenshots are taken by nox -s screenshots")
def test_the_screenshot_of_a_report_of_the_demo(browser: Any, tmp_path: Path) -> None:
    assert SHOT is not None
    from livecore_server.simulate.run import read_population

    report = simulate(
        [("demo.toml", demo_manifest())],
        read_population(EXAMPLE_POPULATION),
        population_name="population.toml",
        players=1000,
        days=14,
        seed=7,
        start=datetime(2026, 1, 5, tzinfo=UTC),
    )
    _, html = write(report, tmp_path)
    opened = Opened(browser, html)
    charts_drawn(opened)
    assert opened.errors == []
    opened.page.screenshot(path=SHOT, clip={"x": 0, "y": 0, "width": 1280, "height": 1800}, full_page=True)
