"""`livecore-server simulate --compare-population` (docs/simulation.md#comparing-two-populations): the
manifest played by two populations on the same seeds and reported side by side; a population meeting its
own copy changes nothing, one that plays twice as often stands out of the seeds' noise, and a population
the game refuses is named, and one that plays nothing (fitted on too little history) is warned of."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from livecore_server.cli import main
from livecore_server.manifest import demo_manifest_text
from livecore_server.simulate import shipped
from tests.season_support import steady

DEMO = demo_manifest_text()
#: The demo's population, its players there from the start: twice the sessions a day is twice the sessions.
POPULATION = steady(Path(shipped.resolve("demo", shipped.POPULATIONS)).read_text(encoding="utf-8"))
#: The demo's population, each segment playing twice as many sessions a day.
KEENER = (
    POPULATION.replace("sessions_per_day = 3 ", "sessions_per_day = 6 ")
    .replace("sessions_per_day = 1.2", "sessions_per_day = 2.4")
    .replace("sessions_per_day = 0.35", "sessions_per_day = 0.7")
)
SMALL = ("--players", "60", "--days", "2")


def run(tmp_path: Path, out: str, base: str, other: str, *args: str) -> Result:
    (tmp_path / "demo.toml").write_text(DEMO)
    (tmp_path / "base.toml").write_text(base)
    (tmp_path / "other.toml").write_text(other)
    command = [
        "simulate",
        str(tmp_path / "demo.toml"),
        "--out",
        str(tmp_path / out),
        "--population",
        str(tmp_path / "base.toml"),
        "--compare-population",
        str(tmp_path / "other.toml"),
        *SMALL,
        *args,
    ]
    return CliRunner().invoke(main, command)


def report(tmp_path: Path, out: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((tmp_path / out / "report.json").read_text())
    return found


def test_the_copy_plays_twice_the_sessions_only() -> None:
    assert KEENER != POPULATION
    assert KEENER.count("sessions_per_day") == POPULATION.count("sessions_per_day") == 3
    assert "sessions_per_day = 6 " in KEENER and "sessions_per_day = 0.7" in KEENER


def test_a_population_against_its_copy_changes_nothing(tmp_path: Path) -> None:
    result = run(tmp_path, "same", POPULATION, POPULATION, "--seed", "1", "--seeds", "3")
    assert result.exit_code == 0, result.output
    found = report(tmp_path, "same")
    assert found["compare"] is True
    assert (found["base"]["run"]["population"], found["other"]["run"]["population"]) == (
        "base.toml",
        "other.toml",
    )
    assert found["base"]["run"]["manifest"] == found["other"]["run"]["manifest"] == "demo.toml"
    rows = found["differences"]
    assert rows and all(r["changes"] == [0, 0, 0] and r["significant"] is False for r in rows)
    page = (tmp_path / "same" / "report.html").read_text()
    assert "Simulation comparison: base.toml and other.toml" in page
    assert "Two populations played on the same manifest, on the same seeds." in page


def test_twice_the_sessions_stand_out(tmp_path: Path) -> None:
    result = run(tmp_path, "keen", POPULATION, KEENER, "--seed", "5", "--seeds", "3")
    assert result.exit_code == 0, result.output
    rows = {(r["section"], r["subject"], r["metric"]): r for r in report(tmp_path, "keen")["differences"]}
    sessions = rows["players", "", "sessions"]
    assert sessions["significant"] is True and all(c > 0 for c in sessions["changes"])
    assert sessions["interval"][0] > 0
    # What the sessions pay moves with them, but three seeds of other players leave it within the noise
    # of so many rows.
    assert all(c > 0 for c in rows["economy", "coins", "minted"]["changes"])


def test_a_population_the_game_refuses_is_named(tmp_path: Path) -> None:
    other = POPULATION + "\n[events.nope]\nworst = 0\nbest = 10\n"
    result = run(tmp_path, "refused", POPULATION, other)
    assert result.exit_code == 2
    assert f"population {tmp_path / 'other.toml'} refused" in result.output
    assert "events.nope" in result.output
    assert not (tmp_path / "refused").exists()


def test_a_population_that_plays_nothing_is_warned_of_in_one_line(tmp_path: Path) -> None:
    # As a population fitted on players seen in one session each: no session a day.
    idle = POPULATION.replace("sessions_per_day = 1.2", "sessions_per_day = 0").replace(
        "sessions_per_day = 0.35", "sessions_per_day = 0"
    )
    result = run(tmp_path, "idle", POPULATION, idle.replace("sessions_per_day = 3 ", "sessions_per_day = 0 "))
    assert result.exit_code == 0, result.output
    assert [line for line in result.stderr.splitlines() if "warning" in line] == [
        "warning: population other.toml: no segment plays a session (segments.engaged.sessions_per_day = 0,"
        " segments.regular.sessions_per_day = 0, segments.casual.sessions_per_day = 0): a season with this"
        " population plays nothing, and a comparison with it is every row 0 against the other's"
    ]
    some = run(tmp_path, "some", idle, POPULATION)
    assert some.exit_code == 0, some.output
    assert [line for line in some.stderr.splitlines() if "warning" in line] == [
        "warning: population base.toml: segments.regular.sessions_per_day = 0,"
        " segments.casual.sessions_per_day = 0: those segments play no session in a season"
    ]


def test_with_another_manifest_too_each_run_plays_its_own_pair(tmp_path: Path) -> None:
    (tmp_path / "richer.toml").write_text(DEMO)
    result = run(tmp_path, "both", POPULATION, KEENER, "--compare", str(tmp_path / "richer.toml"))
    assert result.exit_code == 0, result.output
    found = report(tmp_path, "both")
    assert found["base"]["run"]["manifest"] == "demo.toml"
    assert found["base"]["run"]["population"] == "base.toml"
    assert found["other"]["run"]["manifest"] == "richer.toml"
    assert found["other"]["run"]["population"] == "other.toml"
    page = (tmp_path / "both" / "report.html").read_text()
    assert "demo.toml with base.toml and richer.toml with other.toml" in page
