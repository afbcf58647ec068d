"""What a season's report says beyond each area's totals (docs/simulation.md#the-report): the figures of
each segment of the population, the economy's net flow per day, and charts that say something at any
size of season (no chart of one bar, the page saying it in a sentence or a table instead)."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from livecore.manifest import parse_manifest
from livecore.simulation import Simulation
from livecore.simulation.population import parse_population
from livecore.simulation.season import Season
from livecore_server.economy.report import NET, charts, held_by_tenth, moved, source_colours
from livecore_server.economy.report import tables as economy_tables
from livecore_server.live_events.report import MANY_WINDOWS, per_day
from livecore_server.live_events.report import charts as event_charts
from livecore_server.simulate.compare import by_evidence, comparison
from livecore_server.simulate.gather import gather, parts
from livecore_server.simulate.render import to_html
from livecore_server.simulate.section import labeller
from livecore_server.teams.report import REPORT as TEAMS
from tests.season_support import MONDAY, SEASON

#: Two kinds of player: the keen play everything; the quiet never gift, join a guild, enter an event
#: nor spend (they still log in, claim and open crates).
POPULATION = """
[segments.keen]
share = 0.5
sessions_per_day = 3
gifts = 0.8
guilds = 0.8
spend = 0.5

[segments.quiet]
share = 0.5
sessions_per_day = 1
gifts = 0
guilds = 0
events = 0
lobbies = 0
teams = 0
spend = 0

[economy]
spend = ["coins"]

[studio]
login_credit = { coins = 20 }
"""


def play(days: int, players: int = 120, population: str = POPULATION) -> dict[str, Any]:
    sim = Simulation(parse_manifest(SEASON), seed=5, start=MONDAY)
    season = Season(sim, parse_population(population), players=players, days=days, seed=5)
    season.play()
    return gather(sim, season, run={"manifest": "season.toml", "population": "two", "seed": 5})


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return play(days=2)


@pytest.fixture(scope="module")
def one_day() -> dict[str, Any]:
    return play(days=1)


def test_the_segments_section_stands_after_the_run(report: dict[str, Any]) -> None:
    assert list(report)[:4] == ["run", "segments", "players", "economy"]
    segments = report["segments"]
    assert segments["players"] == {"keen": 60, "quiet": 60}
    assert sum(segments["players"].values()) == report["run"]["players"]
    assert list(segments["figures"]) == ["players", "economy", "events", "teams", "guilds", "gifts", "grants"]
    for figures in segments["figures"].values():
        for values in figures.values():
            assert list(values) == ["keen", "quiet"]  # every segment, in the population's order


def test_a_segment_that_never_gifts_sends_no_gift(report: dict[str, Any]) -> None:
    gifts = report["segments"]["figures"]["gifts"]
    assert gifts["gifts sent per player"]["quiet"] == 0
    assert gifts["gifts sent per player"]["keen"] > 0
    # The keen send to friends of both segments: the quiet claim some.
    assert gifts["gifts claimed per player"]["quiet"] > 0
    sent = sum(v * report["segments"]["players"][s] for s, v in gifts["gifts sent per player"].items())
    assert sent == pytest.approx(report["gifts"]["sent"], abs=0.01)


def test_the_segments_figures_add_up_to_the_areas_totals(report: dict[str, Any]) -> None:
    players = report["segments"]["players"]
    economy = report["segments"]["figures"]["economy"]
    for key, resource in report["economy"].items():
        if f"{key} minted per player" not in economy:
            assert not resource["minted"] and not resource["sunk"]
            continue
        for flow in ("minted", "sunk"):
            total = sum(v * players[s] for s, v in economy[f"{key} {flow} per player"].items())
            assert total == pytest.approx(sum(resource[flow].values()), rel=1e-3), (key, flow)
    assert economy["coins sunk per player"]["keen"] > 0
    guilds = report["segments"]["figures"]["guilds"]["share in a guild at the end"]
    assert guilds["quiet"] == 0 and 0 < guilds["keen"] <= 1
    assert guilds["keen"] * players["keen"] == pytest.approx(report["guilds"]["members"], abs=0.01)


def test_a_segment_that_enters_no_event_has_no_completion_rate(report: dict[str, Any]) -> None:
    events = report["segments"]["figures"]["events"]
    for key in ("sprint", "duel", "relay", "raid"):
        assert events[f"{key}: share who entered"]["quiet"] == 0
        assert events[f"{key}: attempts per player"]["quiet"] == 0
        assert events[f"{key}: completion rate"]["quiet"] is None  # none entered: no rate, not 0
        assert 0 < events[f"{key}: share who entered"]["keen"] <= 1
        assert 0 <= events[f"{key}: completion rate"]["keen"] <= 1
    attempts = sum(w["attempts"] for w in report["events"]["sprint"]["windows"])
    assert events["sprint: attempts per player"]["keen"] * 60 == pytest.approx(attempts, abs=0.01)


def test_the_net_flow_of_a_day_is_what_was_minted_minus_what_was_sunk(report: dict[str, Any]) -> None:
    for resource in report["economy"].values():
        for day in resource["days"]:
            assert day["net"] == sum(day["minted"].values()) - sum(day["sunk"].values())
        assert resource["net"] == sum(resource["minted"].values()) - sum(resource["sunk"].values())
    page = to_html(report)
    assert 'data-chart="economy-net"' in page
    assert '<table data-table="segments">' in page


def bars(svg: str) -> list[int]:
    """The categories each axes of a chart draws bars at (those with a value), by the bars' paths:
    matplotlib writes each bar as a ``patch`` of its axes, a filled rectangle (the axes' background is
    white, its spines unfilled)."""
    found = []
    root = ET.fromstring(re.sub(r' xmlns="[^"]+"', "", svg, count=1))
    for axes in root.iter("g"):
        if not axes.get("id", "").startswith("axes_"):
            continue
        rectangles = []
        for patch in axes.findall("g"):
            path = patch.find("path")
            if not patch.get("id", "").startswith("patch_") or path is None:
                continue
            if re.search(r"fill: (none|#ffffff)", path.get("style", "")):
                continue
            numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", path.get("d", ""))]
            xs, ys = numbers[0::2], numbers[1::2]
            rectangles.append((min(xs), max(xs), min(ys), max(ys)))
        drawn = [r for r in rectangles if r[1] - r[0] > 0.01 and r[3] - r[2] > 0.01]
        if not drawn:
            continue
        upright = len({round(r[1] - r[0], 2) for r in drawn}) == 1  # bars of one width stand up
        centres = {round((r[0] + r[1]) / 2 if upright else (r[2] + r[3]) / 2, 1) for r in drawn}
        found.append(len(centres))
    return found


def charts_of(report: dict[str, Any]) -> dict[str, str]:
    label = labeller(parts())
    drawn: dict[str, str] = {}
    for part in parts():
        if part.charts is not None and part.key in report:
            made = part.charts(report[part.key], label)
            for subject, chart in made.items() if isinstance(made, dict) else [("", made)]:
                if chart is not None:
                    drawn[f"{part.key}:{subject}"] = chart
    return drawn


@pytest.mark.parametrize("season", ["report", "one_day"])
def test_no_chart_draws_a_single_bar(season: str, request: pytest.FixtureRequest) -> None:
    drawn = charts_of(request.getfixturevalue(season))
    assert drawn
    for name, chart in drawn.items():
        assert all(n >= 2 for n in bars(chart)), (name, bars(chart))


def test_the_bar_counter_sees_a_single_bar() -> None:
    from livecore_server.simulate import charts as c

    chart = c.svg("one", lambda fig: fig.subplots().bar(["a", "b"], [3, 0]))
    assert bars(chart) == [1]
    stacked = c.svg("two", lambda fig: [fig.subplots().bar(["a", "b"], [3, 4], bottom=[1, 1])])
    assert bars(stacked) == [2]


def test_a_season_of_one_day_says_in_tables_what_a_chart_of_one_point_would(one_day: dict[str, Any]) -> None:
    drawn = charts_of(one_day)
    # One window, one period, one day: no line of one point, no bar of one period.
    assert "events:sprint" not in drawn and "events:duel" in drawn  # the duel's windows are hours
    assert "leaderboards:daily" not in drawn
    assert "gifts:" not in drawn
    assert f"economy:{NET}" not in drawn
    # What each source minted or sank on the day, a bar each, in place of a bar per day.
    assert "economy:coins" in drawn and bars(drawn["economy:coins"]) == [
        len(one_day["economy"]["coins"]["minted"]) + len(one_day["economy"]["coins"]["sunk"])
    ]
    page = to_html(one_day)
    for table in ("events.sprint.windows", "leaderboards.daily", "economy.net", "gifts.daily"):
        assert f'<table data-table="{table}">' in page


def test_teams_all_of_one_size_are_a_sentence() -> None:
    section = {"relay": {"name": "Relay", "sizes": {"2": 40}}}
    assert TEAMS.charts is not None
    assert TEAMS.charts(section, str) == {"relay": None}
    section["relay"]["sizes"] = {"1": 3, "2": 40}
    drawn = TEAMS.charts(section, str)["relay"]
    assert drawn is not None and bars(drawn) == [2]


def test_a_title_wider_than_its_axes_is_wrapped_between_words() -> None:
    from livecore_server.simulate import charts as c

    text = "best score, p10 to p90 (lower is better), a title wider than a third of the chart"

    def draw(fig: Any) -> None:
        for ax in fig.subplots(1, 3):
            c.title(ax, text)

    chart = c.svg("wrapped", draw, size=(9.0, 3.0))
    lines = re.findall(r'<text style="font-size: 10.8px[^>]*>([^<]*)</text>', chart)
    assert len(lines) == 3 * 3  # three lines over each of the three axes
    assert " ".join(lines[:3]) == text
    # The axes stand lower, under the title's three lines: none is cut off at the top.
    assert all(float(y) > 10 for y in re.findall(r'<text style="font-size: 10.8px[^>]*y="([\d.]+)"', chart))


def test_a_debits_reason_is_its_sink_as_written() -> None:
    """A studio's debit with ``reason="shop"`` is sunk by the shop, not by the players' spending; the
    season is played in two steps, the studio's debit between them."""
    sim = Simulation(parse_manifest(SEASON), seed=5, start=MONDAY)
    season = Season(sim, parse_population(POPULATION), players=20, days=2, seed=5)
    season.play(days=1)

    def coins(member: Any) -> int:
        return sum(c.balance for c in member.handle.wallet.get().currencies if c.key == "coins")

    rich = max(season.members, key=coins)
    sim.server.wallet.debit(rich.handle.external_id, "coins", 3, reason="shop")
    season.play()
    economy = gather(sim, season, run={"manifest": "season.toml", "population": "two", "seed": 5})["economy"]
    assert economy["coins"]["sunk"]["shop"] == 3


def test_a_source_has_one_colour_on_every_chart(report: dict[str, Any]) -> None:
    """Completions are one colour on the coins' chart and the xp's, not the colour of their rank in each."""
    economy = {k: r for k, r in report["economy"].items() if moved(r)}
    colours = source_colours(economy)
    drawn = charts(report["economy"], labeller(parts()))
    others = [r for k, r in economy.items() if k != "coins"]
    shared = [s for s in economy["coins"]["minted"] if any(s in r["minted"] for r in others)]
    assert shared, "a source that mints two resources"
    for key, resource in economy.items():
        fills = set(re.findall(r"fill: (#[0-9a-f]{6})", drawn[key] or "", flags=re.IGNORECASE))
        fills = {f.lower() for f in fills}
        for source in resource["minted"]:
            assert colours[source].lower() in fills, (key, source)


def test_every_y_axis_starts_at_zero_unless_marked() -> None:
    from matplotlib.figure import Figure

    from livecore_server.simulate import charts as c

    fig = Figure()
    counts, times, free, below = fig.subplots(1, 4)
    counts.plot([1, 2, 3], [40, 45, 50])
    times.plot([1, 2, 3], [60, 65, 70])
    times.invert_yaxis()  # lower is better
    free.plot([1, 2, 3], [40, 45, 50])
    c.free_y(free)
    below.plot([1, 2, 3], [-9, -7, -8])
    c.y_from_zero(fig)
    assert counts.get_ylim()[0] == 0 and counts.get_ylim()[1] >= 50
    assert times.get_ylim()[1] == 0 and times.get_ylim()[0] >= 70  # still inverted, to 0
    assert free.get_ylim()[0] > 0
    assert below.get_ylim()[1] == 0


def test_an_event_nobody_entered_is_one_line_not_a_chart_of_nothing() -> None:
    quiet = POPULATION.replace(
        "share = 0.5\nsessions_per_day = 3\n", "share = 0.5\nsessions_per_day = 3\nevents = 0\n"
    )
    quiet = quiet.replace("gifts = 0.8\n", "gifts = 0.8\nlobbies = 0\nteams = 0\n", 1)
    sim = Simulation(parse_manifest(SEASON), seed=5, start=MONDAY)
    season = Season(sim, parse_population(quiet), players=20, days=2, seed=5)
    season.play()
    report = gather(sim, season, run={"manifest": "season.toml", "population": "quiet", "seed": 5})
    opened = [k for k, e in report["events"].items() if e["windows"]]
    assert opened and not any(w["entrants"] for k in opened for w in report["events"][k]["windows"])
    assert not any(name.startswith("events:") for name in charts_of(report))
    page = to_html(report)
    assert page.count("Nobody entered it in its") == len(opened)
    assert 'data-table="events.' not in page


def _window(hour: int, entrants: int, completion: float, p50: float) -> dict[str, Any]:
    scores = {"p10": p50 - 1, "p50": p50, "p90": p50 + 1}
    day, hour = divmod(hour, 24)
    return {
        "starts_at": f"2026-01-{5 + day:02d}T{hour:02d}:00:00Z",
        "entrants": entrants,
        "completion_rate": completion,
        "milestone_rates": {"gold": completion / 2},
        "scores": scores,
    }


def test_a_day_of_windows_is_their_entrants_summed_and_their_rates_weighted() -> None:
    days = per_day([_window(0, 10, 0.5, 10), _window(1, 30, 0.1, 20), _window(24, 0, 0, 0)])
    first, second = days
    assert first["entrants"] == 40
    assert first["completion_rate"] == pytest.approx((10 * 0.5 + 30 * 0.1) / 40)
    assert first["milestone_rates"]["gold"] == pytest.approx((10 * 0.25 + 30 * 0.05) / 40)
    assert first["scores"]["p50"] == pytest.approx((10 * 10 + 30 * 20) / 40)
    assert (
        second["entrants"] == 0
        and math.isnan(second["completion_rate"])
        and math.isnan(second["scores"]["p50"])
    )


def test_an_event_of_many_windows_is_drawn_per_day() -> None:
    hourly = [_window(h, 5, 0.5, 10) for h in range(MANY_WINDOWS + 12)]
    event = {"windows": hourly, "milestones": {"gold": 5}, "order": "desc"}
    drawn = event_charts({"hourly": event}, labeller(parts()))["hourly"]
    assert drawn is not None and "entrants per day" in drawn and "entrants per window" not in drawn
    few = {"windows": hourly[:MANY_WINDOWS], "milestones": {"gold": 5}, "order": "desc"}
    assert "entrants per window" in (event_charts({"few": few}, labeller(parts()))["few"] or "")


def test_the_top_tenth_share_is_of_every_player_those_holding_none_included() -> None:
    assert held_by_tenth({"a": 90, "b": 10}, players=10) == [0] * 8 + [0.1, 0.9]
    assert sum(held_by_tenth({"a": 5, "b": 5, "c": 5, "d": 5}, players=4) or []) == pytest.approx(1)
    assert held_by_tenth({}, players=10) is None and held_by_tenth({"a": 0}, players=3) is None


def test_each_resource_says_what_its_top_tenth_held(report: dict[str, Any]) -> None:
    coins = report["economy"]["coins"]
    assert len(coins["held_by_tenth"]) == 10 and sum(coins["held_by_tenth"]) == pytest.approx(1, abs=1e-3)
    assert coins["top_10_share"] == coins["held_by_tenth"][-1] >= max(coins["held_by_tenth"][:-1])


def test_each_segment_s_holdings_are_followed_day_by_day(report: dict[str, Any]) -> None:
    days = report["economy"]["coins"]["days"]
    assert [list(d["holdings_by_segment"]) for d in days] == [["keen", "quiet"]] * len(days)
    # The quiet never spend what they are credited: their coins only grow.
    quiet = [d["holdings_by_segment"]["quiet"] for d in days]
    assert quiet == sorted(quiet) and quiet[-1] > 0


def test_one_table_sums_up_every_source_and_sink_across_the_resources(report: dict[str, Any]) -> None:
    economy = report["economy"]
    summary = economy_tables(economy)["economy.summary"]
    moving = [k for k, r in economy.items() if moved(r)]
    header = [c.heading for c in summary.columns]
    assert header == ["Source", *(f"{k} {way}" for k in moving for way in ("minted", "sunk"))]
    by_source = {row[0]: row[1:] for row in summary.rows}
    for i, key in enumerate(moving):
        assert {s: v[2 * i] for s, v in by_source.items() if v[2 * i] is not None} == economy[key]["minted"]
        assert {s: v[2 * i + 1] for s, v in by_source.items() if v[2 * i + 1] is not None} == economy[key][
            "sunk"
        ]


def test_the_net_flow_chart_draws_its_running_sum(report: dict[str, Any]) -> None:
    drawn = charts(report["economy"], labeller(parts()))[NET]
    assert drawn is not None and "cumulative" in drawn


def _resource(
    minted: dict[str, int], sunk: dict[str, int], segments: tuple[str, ...], days: int = 3
) -> dict[str, Any]:
    """A resource's section of the report, as the economy gathers it, its amounts spread over ``days``."""
    held = {"p10": 0, "p50": 5, "p90": 9, "p99": 12, "max": 15, "mean": 6}
    return {
        "type": "currency",
        "minted": minted,
        "sunk": sunk,
        "net": sum(minted.values()) - sum(sunk.values()),
        "days": [
            {
                "day": day,
                "minted": {s: n // days for s, n in minted.items()},
                "sunk": {s: n // days for s, n in sunk.items()},
                "net": 0,
                "holdings": held,
                "holdings_by_segment": dict.fromkeys(segments, 4),
            }
            for day in range(1, days + 1)
        ],
    }


def _strokes(svg: str) -> set[str]:
    """The colours of a chart's lines (matplotlib's ``line2d`` elements)."""
    root = ET.fromstring(re.sub(r' xmlns="[^"]+"', "", svg, count=1))
    found = set()
    for group in root.iter("g"):
        if group.get("id", "").startswith("line2d_"):
            for path in group.iter("path"):
                found.update(re.findall(r"stroke: (#[0-9a-f]{6})", path.get("style", "")))
    return found


def test_many_sources_never_share_a_colour_and_a_name_keeps_its_own() -> None:
    """Eleven sources of coins, and thirty more of gems: each its own colour, on every chart of the page."""
    from livecore_server.simulate import charts as c

    assert len(set(c.distinct(200))) == 200 and not set(c.distinct(200)) & set(c.HELD)
    assert len({c.nth(i) for i in range(40)}) == 40  # a board's tiers, an event's milestones: no wrap either
    coins = {f"source-{i:02d}": 30 * (i + 1) for i in range(11)}
    gems = {f"gem-source-{i:02d}": 30 for i in range(30)} | {"source-03": 60}
    economy = {
        "coins": _resource(coins, {"shop": 60, "offer:chest": 90}, ("keen", "quiet")),
        "gems": _resource(gems, {"shop": 30}, ("keen", "quiet")),
    }
    colours = source_colours(economy)
    assert len(set(colours.values())) == len(colours) == 11 + 30 + 2 + 2  # the segments' holdings too
    with c.page():
        drawn = charts(economy, str)
        again = source_colours(economy)
    assert again == colours  # by the names' order: the same names, the same colours
    for key in economy:
        # A bar's fill, or a hatched one's pattern's.
        fills = {f.lower() for f in re.findall(r'fill(?::|=") ?(#[0-9a-f]{6})', drawn[key] or "", flags=re.I)}
        for way in ("minted", "sunk"):
            for source in economy[key][way]:
                assert colours[source] in fills, (key, source)


def test_holdings_are_grey_and_dashed_apart_from_the_sources() -> None:
    from livecore_server.simulate import charts as c

    economy = {"coins": _resource({f"s{i}": 30 for i in range(12)}, {"shop": 30}, ("keen", "quiet"))}
    colours = source_colours(economy)
    sources = {colours[s] for s in [*economy["coins"]["minted"], *economy["coins"]["sunk"]]}
    drawn = charts(economy, str)["coins"]
    assert drawn is not None
    lines = _strokes(drawn)
    assert set(c.HELD[:4]) <= lines  # the percentiles and the mean, greys
    assert not lines & sources
    assert "held: p50" in drawn and "held: mean, keen" in drawn
    assert drawn.count("stroke-dasharray") >= 3  # the held lines dashed, each its own way


OFFERS = """
[studio.offers.chest]
price = { coins = 10 }
gives = [{ type = "crate", key = "chest", amount = 1 }]
buy = 0.3

[studio.offers.potion]
price = { coins = 5 }
gives = [{ type = "item", key = "potion", amount = 1 }]
buy = 0.2
"""


def test_each_offer_s_purchases_are_told_per_day_and_per_segment() -> None:
    sim = Simulation(parse_manifest(SEASON), seed=5, start=MONDAY)
    season = Season(sim, parse_population(POPULATION + OFFERS), players=40, days=3, seed=5)
    season.play()
    report = gather(sim, season, run={"manifest": "season.toml", "population": "shop", "seed": 5})
    offers = report["grants"]["offers"]
    assert list(offers) == ["chest", "potion"]
    for offer in offers.values():
        assert len(offer["by_day"]) == 3 and sum(offer["by_day"]) == offer["purchases"]
        assert list(offer["by_segment"]) == ["keen", "quiet"]
        assert sum(offer["by_segment"].values()) == offer["purchases"]
    assert offers["chest"]["purchases"] > 0
    page = to_html(report)
    for name in ("grants.offers", "grants.offers.daily", "grants.offers.segments"):
        assert f'<table data-table="{name}">' in page
    assert 'data-chart="grants-offers"' in page
    # An offer is drawn in the colour of its sink on the economy's chart of its currency.
    chest = _strokes(_chart_in(page, "grants-offers"))
    coin_fills = set(re.findall(r'fill(?::|=") ?(#[0-9a-f]{6})', _chart_in(page, "economy-coins")))
    offered = chest - {"#000000", "#dddddd"}  # the ticks and the grid
    assert len(offered) == 2 and offered <= coin_fills


def _chart_in(page: str, name: str) -> str:
    found = re.search(rf'<svg aria-label="{name}".*?</svg>', page, flags=re.S)
    assert found is not None, name
    return found.group(0)


def test_a_comparison_page_shows_its_limits_and_charts_before_its_full_table(report: dict[str, Any]) -> None:
    """A designer reads the limits, the largest changes and their charts first; every row after them,
    folded."""
    richer = play(
        days=2,
        population=POPULATION.replace("login_credit = { coins = 20 }", "login_credit = { coins = 60 }"),
    )
    compared = comparison([report], [richer], parts())
    compared["limits"] = [
        {
            "limit": "economy.coins.minted < +10%",
            "relative": 0.5,
            "other": 30.0,
            "broken": True,
            "why": "changed by +50%",
        }
    ]
    page = to_html(compared)
    moved, still = by_evidence(compared["differences"])
    assert len(moved) > 10 and still
    at = {
        name: page.index(mark)
        for name, mark in (
            ("limits", '<h2 id="limits">'),
            ("moved", '<h2 id="moved">'),
            ("chart", 'data-chart="compare-economy-coins"'),
            ("full", '<h2 id="differences">'),
        )
    }
    assert list(at) == sorted(at, key=at.__getitem__)
    # Above the charts, the ten largest changes; the full table below them, folded.
    largest = page[at["moved"] : at["chart"]]
    assert largest.count("<tr><td>") + largest.count('<tr class="noise"><td>') == 10
    full = page[at["full"] :]
    assert (
        f"<summary>{len(moved)} rows moved</summary>" in full
        and f"<summary>{len(still)} rows did not move</summary>" in full
    )
    assert page.count("<details", at["full"]) == 2 and "<details" not in page[at["limits"] : at["full"]]
    # Every chart drawn names a subject whose rows moved, the largest change's first.
    drawn = re.findall(r'data-chart="compare-(economy|event)-([^"]+)"', page)
    assert drawn
    changed = {(r["section"], r["subject"]) for r in moved}
    sections = {"economy": "economy", "event": "events"}
    assert all((sections[kind], subject) in changed for kind, subject in drawn)
