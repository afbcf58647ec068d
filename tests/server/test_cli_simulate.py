"""`livecore-server simulate` (docs/simulation.md#livecore-server-simulate): a seeded population played
end to end into report.json and report.html, the same bytes for the same seed, --compare, and refusals
naming the field."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from livecore.economy.season import SPENT
from livecore.simulation.population import check_population
from livecore_server.cli import main
from livecore_server.manifest import demo_manifest
from livecore_server.simulate.run import read_population
from livecore_server.simulate.shipped import POPULATIONS, resolve
from tests.season_support import POPULATION, SEASON

SECTIONS = [
    "run",
    "segments",
    "players",
    "economy",
    "events",
    "leaderboards",
    "lobbies",
    "teams",
    "guilds",
    "gifts",
    "grants",
    "refusals",
    "warnings",
]


def simulate(tmp_path: Path, out: str, *args: str, manifest: str = SEASON) -> Result:
    path = tmp_path / "season.toml"
    path.write_text(manifest)
    command = ["simulate", str(path), "--out", str(tmp_path / out), "--start", "2026-03-02", *args]
    return CliRunner().invoke(main, command)


@pytest.fixture(scope="module")
def season_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("simulate")
    result = simulate(tmp, "first", "--players", "200", "--days", "3", "--seed", "7")
    assert result.exit_code == 0, result.output
    assert "wrote" in result.stdout
    return tmp


def test_the_report_answers_each_section(season_dir: Path) -> None:
    report = json.loads((season_dir / "first" / "report.json").read_text())
    assert list(report) == SECTIONS
    run = report["run"]
    assert (run["manifest"], run["population"], run["players"], run["days"], run["seed"]) == (
        "season.toml",
        "default",
        200,
        3,
        7,
    )
    assert sum(s["players"] for s in run["segments"]) == 200
    coins = report["economy"]["coins"]
    assert [d["day"] for d in coins["days"]] == [1, 2, 3]
    assert {"event_completion", "crate"} <= set(coins["minted"])
    # The default population spends only on what the game prices (its entry costs): it does not say
    # which currencies its players spend.
    assert set(coins["sunk"]) == {"entry_cost"}
    assert set(coins["days"][0]["holdings"]) == {"p10", "p50", "p90", "p99", "max", "mean"}
    sprint = report["events"]["sprint"]
    assert len(sprint["windows"]) == 3 and sprint["windows"][0]["entrants"] > 0
    assert set(sprint["windows"][0]["milestone_rates"]) == {"half", "moon"}
    assert report["leaderboards"]["daily"]["periods"][0]["divisions"]
    assert report["lobbies"]["duel"]["lobbies"] > 0
    assert report["teams"]["relay"]["teams"] > 0 and report["teams"]["raid"]["teams"] > 0
    assert report["guilds"]["guilds"] > 0
    assert report["gifts"]["sent"] > 0
    messages = [w["message"] for w in report["warnings"]]
    assert any("milestone 'moon'" in m for m in messages), messages


def test_the_same_seed_writes_the_same_bytes(season_dir: Path) -> None:
    """Whether or not it reads the season's own calls through their wire form (--check)."""
    again = simulate(season_dir, "second", "--players", "200", "--days", "3", "--seed", "7", "--check")
    assert again.exit_code == 0, again.output
    first, second = season_dir / "first", season_dir / "second"
    names = sorted(p.name for p in first.iterdir())
    assert sorted(p.name for p in second.iterdir()) == names
    assert {"report.json", "report.html", "segments.csv", "economy.coins.daily.csv"} <= set(names)
    for name in names:
        assert (second / name).read_bytes() == (first / name).read_bytes(), name


#: The CSV files of the season's report: one per table of its page.
TABLES = {
    "segments",
    "players",
    "players.cohorts",
    "players.setbacks",
    "economy.net",
    "economy.summary",
    *(f"economy.{k}{what}" for k in ("coins", "gems", "potion") for what in ("", ".daily")),
    *(f"events.{k}{what}" for k in ("sprint", "duel", "relay", "raid") for what in ("", ".windows")),
    "leaderboards.daily",
    "leaderboards.daily.tiers",
    "lobbies.duel",
    "teams.relay",
    "teams.raid",
    "guilds",
    "gifts",
    "gifts.daily",
    "grants",
    "grants.pending",
    "refusals",
    "warnings",
}


def rows_of(path: Path) -> list[list[str]]:
    """A CSV file's rows, the header first; each row as wide as the header."""
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows and all(len(r) == len(rows[0]) for r in rows), path.name
    return rows


def test_each_table_is_a_csv_file_saying_what_the_json_says(season_dir: Path) -> None:
    out = season_dir / "first"
    report = json.loads((out / "report.json").read_text())
    assert {p.name.removesuffix(".csv") for p in out.glob("*.csv")} == TABLES
    for path in out.glob("*.csv"):
        text = path.read_bytes().decode("utf-8")
        assert "\r" not in text and text.endswith("\n")
        rows_of(path)

    coins = report["economy"]["coins"]
    daily = rows_of(out / "economy.coins.daily.csv")
    held = ("p10", "p50", "p90", "p99", "max", "mean")
    assert daily[0] == ["Day", "Minted", "Sunk", "Net", *(f"Held {p}" for p in held)]
    for line, day in zip(daily[1:], coins["days"], strict=True):
        minted, sunk = sum(day["minted"].values()), sum(day["sunk"].values())
        assert day["net"] == minted - sunk
        assert [int(v) for v in line[:4]] == [day["day"], minted, sunk, day["net"]]
        assert [float(v) for v in line[4:]] == [
            day["holdings"][p] for p in ("p10", "p50", "p90", "p99", "max", "mean")
        ]
    assert coins["net"] == sum(d["net"] for d in coins["days"])
    net = rows_of(out / "economy.net.csv")
    assert net[0] == ["Day", "coins net", "gems net", "potion net"]
    assert [int(line[1]) for line in net[1:]] == [d["net"] for d in coins["days"]]
    sources = {line[0]: line[1:] for line in rows_of(out / "economy.coins.csv")[1:]}
    # no value: an empty cell, not a dash
    assert sources["entry_cost"] == ["", str(coins["sunk"]["entry_cost"])]

    segments = rows_of(out / "segments.csv")
    names = [s["name"] for s in report["run"]["segments"]]
    assert segments[0] == ["Section", "Figure", *names]
    assert segments[1] == ["segments", "players", *(str(s["players"]) for s in report["run"]["segments"])]
    figures = report["segments"]["figures"]
    assert len(segments) == 2 + sum(len(f) for f in figures.values())
    for section, figure, *values in segments[2:]:
        given = figures[section][figure]
        assert [float(v) if v else None for v in values] == [given[n] for n in names], figure

    windows = rows_of(out / "events.sprint.windows.csv")
    assert [int(line[1]) for line in windows[1:]] == [
        w["entrants"] for w in report["events"]["sprint"]["windows"]
    ]
    refusals = {f"{a}:{c}": int(n) for a, c, n in rows_of(out / "refusals.csv")[1:]}
    assert refusals == report["refusals"]
    warnings = [
        dict(zip(("area", "subject", "message"), line, strict=True))
        for line in rows_of(out / "warnings.csv")[1:]
    ]
    assert warnings == report["warnings"]


def test_the_page_holds_its_charts_and_fetches_nothing(season_dir: Path) -> None:
    page = (season_dir / "first" / "report.html").read_text()
    assert page.count('class="chart"') >= 10
    assert "<script" not in page
    for fetching in ('src="', 'href="http', "url(http", "@import", "<link"):
        assert fetching not in page


def test_compare_plays_one_population_on_two_manifests(tmp_path: Path) -> None:
    population = tmp_path / "pop.toml"
    population.write_text(POPULATION)
    other = tmp_path / "cheaper.toml"
    other.write_text(SEASON.replace("threshold = 500", "threshold = 300"))
    result = simulate(
        tmp_path,
        "cmp",
        "--players",
        "40",
        "--days",
        "1",
        "--population",
        str(population),
        "--compare",
        str(other),
    )
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "cmp" / "report.json").read_text())
    assert list(report) == ["compare", "base", "other", "differences"]
    assert report["base"]["run"]["manifest"] == "season.toml"
    assert report["other"]["run"]["manifest"] == "cheaper.toml"
    assert report["base"]["run"]["segments"] == report["other"]["run"]["segments"]
    half = next(
        r
        for r in report["differences"]
        if (r["section"], r["subject"], r["metric"]) == ("events", "sprint", "milestone half rate")
    )
    assert half["other"] > half["base"] and half["change"] > 0
    page = (tmp_path / "cmp" / "report.html").read_text()
    assert "Differences" in page and 'data-chart="compare-event-sprint"' in page
    # A milestone's threshold moved the gems it pays (and, through the draws after, other resources): a
    # resource or an event none of whose rows changed is not drawn (its chart would draw one line twice),
    # but named: the team events, which no milestone of the sprint moves.
    changed = {r["subject"] for r in report["differences"] if r["section"] == "economy" and r["change"]}
    assert "gems" in changed
    for key in ("coins", "gems", "potion"):
        assert (f'data-chart="compare-economy-{key}"' in page) == (key in changed), key
    assert "No row of theirs changed, so not drawn: relay, raid" in page
    assert 'data-chart="compare-event-relay"' not in page
    assert sorted(p.name for p in (tmp_path / "cmp").glob("*.csv")) == ["differences.csv", "warnings.csv"]
    differences = rows_of(tmp_path / "cmp" / "differences.csv")
    assert differences[0][:6] == ["Section", "Subject", "Metric", "Base", "Other", "Change"]
    assert len(differences) == 1 + len(report["differences"])
    warned = rows_of(tmp_path / "cmp" / "warnings.csv")
    assert len(warned) == 1 + len(report["base"]["warnings"]) + len(report["other"]["warnings"])
    assert {line[0] for line in warned[1:]} <= {"base", "other"}


def test_a_population_is_refused_by_its_fields(tmp_path: Path) -> None:
    population = tmp_path / "pop.toml"
    population.write_text("[segments.all]\nshare = 1\ngifts = 21\n[events.marathon]\nworst = 0\nbest = 1\n")
    result = simulate(tmp_path, "out", "--players", "5", "--days", "1", "--population", str(population))
    assert result.exit_code == 2
    assert "segments.all.gifts: must be a number from 0 to 20" in result.stderr
    assert not (tmp_path / "out").exists()
    population.write_text("[events.marathon]\nworst = 0\nbest = 1\n")
    result = simulate(tmp_path, "out", "--players", "5", "--days", "1", "--population", str(population))
    assert result.exit_code == 2
    assert "events.marathon: is not an event of the game" in result.stderr


def test_the_example_population_fits_the_demo() -> None:
    population = read_population(resolve("demo", POPULATIONS))
    check_population(population, demo_manifest().games["space-race"].settings())
    assert [s.name for s in population.segments] == ["engaged", "regular", "casual"]
    assert population.table(SPENT) == ("coins", "gems")


def test_a_manifest_is_refused_by_its_fields(tmp_path: Path) -> None:
    result = simulate(
        tmp_path, "out", manifest=SEASON.replace("window_seconds = 86400", "window_seconds = -1", 1)
    )
    assert result.exit_code == 2
    assert "games.arena.events.sprint.window_seconds" in result.stderr


#: The season's game with the example studio area (examples/studio_quests) configured.
QUESTS = SEASON + '\n[games.arena.areas.quests]\nreward_resource = "coins"\nreward_amount = 50\n'


def test_a_studios_area_named_by_area_is_played_and_reported(tmp_path: Path) -> None:
    population = tmp_path / "population.toml"
    population.write_text("[segments.all]\nshare = 1.0\nsessions_per_day = 2\nquests = 1.0\n")
    args = ("--players", "20", "--days", "2", "--population", str(population), "--area", "studio_quests")
    result = simulate(tmp_path, "out", *args, manifest=QUESTS)
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    # The area's section, after the built-in ones: every player checked in on each day it played.
    assert list(report)[-4:] == ["grants", "quests", "refusals", "warnings"]
    assert report["quests"]["players"] == 20
    assert report["quests"]["check_ins"] > 20
    assert report["refusals"]["quests.check_in:quest_already_checked_in"] > 0
    assert '<h2 id="quests">quests</h2>' in (tmp_path / "out" / "report.html").read_text()


def test_a_studios_area_the_manifest_names_is_played_and_compared(tmp_path: Path) -> None:
    named = QUESTS.replace("[games.arena]", '[plugins]\nareas = ["studio_quests"]\n\n[games.arena]', 1)
    other = tmp_path / "other.toml"
    other.write_text(named.replace("reward_amount = 50", "reward_amount = 80"))
    args = ("--players", "20", "--days", "1", "--compare", str(other))
    result = simulate(tmp_path, "out", *args, manifest=named)
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["base"]["quests"]["players"] > 0
    assert "quests" in {row["section"] for row in report["differences"]}


def test_an_area_without_a_season_part_is_played_with_a_warning_that_says_so(tmp_path: Path) -> None:
    daily = SEASON + '\n[games.arena.areas.daily]\nresource = "coins"\namount = 5\n'
    args = ("--players", "5", "--days", "1", "--area", "studio_daily")
    result = simulate(tmp_path, "out", *args, manifest=daily)
    assert result.exit_code == 0, result.output
    assert "warning: area daily has no season part (Area.season)" in result.stderr
    assert "daily" not in json.loads((tmp_path / "out" / "report.json").read_text())
    quests = simulate(
        tmp_path, "quests", "--players", "5", "--days", "1", "--area", "studio_quests", manifest=QUESTS
    )
    assert quests.exit_code == 0, quests.output
    assert "season part" not in quests.stderr


def test_an_area_that_cannot_be_loaded_is_refused(tmp_path: Path) -> None:
    result = simulate(tmp_path, "out", "--players", "5", "--days", "1", "--area", "no_such_area")
    assert result.exit_code == 2
    assert "area no_such_area: no module named 'no_such_area' can be imported" in result.stderr
    assert not (tmp_path / "out").exists()


def test_the_demo_and_its_population_are_played_by_name_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # From a directory with no checkout, as from an installed package.
    monkeypatch.chdir(tmp_path)
    args = ["simulate", "demo", "--population", "demo", "--players", "20", "--days", "1", "--out", "out"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    run = json.loads((tmp_path / "out" / "report.json").read_text())["run"]
    assert (run["manifest"], run["population"], run["game"]) == (
        "demo.toml",
        "demo_population.toml",
        "space-race",
    )
    # A name is a path first: a file called demo here is the manifest played.
    (tmp_path / "demo").write_text(SEASON)
    result = CliRunner().invoke(main, ["simulate", "demo", "--players", "20", "--days", "1", "--out", "mine"])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "mine" / "report.json").read_text())["run"]["manifest"] == "demo"


def test_a_name_that_is_neither_a_file_nor_shipped_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["simulate", str(tmp_path / "nope"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "is neither a file nor a shipped manifest (demo)" in result.stderr
    result = simulate(tmp_path, "out", "--population", "casual")
    assert result.exit_code == 2
    assert "is neither a file nor a shipped population (demo)" in result.stderr
    assert not (tmp_path / "out").exists()


def test_the_default_season_is_a_first_run_of_a_week_of_1000_players_as_documented() -> None:
    """A first run plays in well under a minute (about 20 s: docs/simulation.md); the month of 10,000
    players it used to be took minutes, with no warning."""
    command = main.commands["simulate"]
    defaults = {p.name: p.default for p in command.params}
    assert (defaults["players"], defaults["days"]) == (1_000, 7)
    root = Path(__file__).resolve().parents[2]
    assert "[--days 7] [--players 1000]" in (root / "docs/reference/manifest-and-cli.md").read_text()
    page = (root / "docs/simulation.md").read_text()
    assert "| `--days` | 7 |" in page and "| `--players` | 1,000 |" in page
