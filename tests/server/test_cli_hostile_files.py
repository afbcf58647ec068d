"""`livecore-server apply` and `simulate` on hostile files and paths (docs/server.md#manifest,
docs/simulation.md#livecore-server-simulate): each is refused in one line with exit status 2, never a
traceback; a refusal echoing a name from the file escapes its control characters; the report is never
written through a planted symlink; a million players are announced, with their memory, before the first
is made; a manifest of thousands of resources no player touches costs no chart each. A file over 4 MiB or
with a key of more than 64 dotted parts is refused before tomllib reads it; a season beyond its windows or
its report's resource-days, and a population period outside the calendar, are refused in one line; the
report shows names' control and bidi characters escaped."""

from __future__ import annotations

import json
import re
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from livecore.manifest import ManifestError
from livecore.simulation.season import Season
from livecore_server.cli import main
from livecore_server.manifest import parse_manifest
from tests.conftest import TEST_MANIFEST
from tests.season_support import SEASON

DEEP = "[" * 5000 + "]" * 5000


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def simulate(tmp_path: Path, *args: str, manifest: str = SEASON, out: str | None = None) -> Result:
    path = tmp_path / "season.toml"
    path.write_text(manifest)
    where = out if out is not None else str(tmp_path / "out")
    return run("simulate", str(path), "--out", where, "--start", "2026-03-02", *args)


def refused_in_one_line(result: Result, fragment: str) -> str:
    """Exit status 2, nothing on stdout, one line on stderr (no traceback) holding ``fragment``."""
    assert result.exit_code == 2, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert fragment in lines[0], lines[0]
    return lines[0]


def test_apply_refuses_a_manifest_of_5000_nested_arrays_in_one_line(tmp_path: Path) -> None:
    manifest = tmp_path / "m.toml"
    manifest.write_text(f'studio = "acme"\nx = {DEEP}\n')
    result = run("apply", str(manifest), "--db", str(tmp_path / "c.db"))
    refused_in_one_line(result, "manifest: nests arrays or inline tables too deeply to be read")
    assert not (tmp_path / "c.db").exists()


def test_simulate_refuses_a_manifest_of_5000_nested_arrays_in_one_line(tmp_path: Path) -> None:
    result = simulate(tmp_path, manifest=f'studio = "acme"\nx = {DEEP}\n')
    refused_in_one_line(result, "manifest: nests arrays or inline tables too deeply to be read")


def test_simulate_refuses_a_population_of_5000_nested_arrays_in_one_line(tmp_path: Path) -> None:
    population = tmp_path / "pop.toml"
    population.write_text(f"[segments.all]\nshare = {DEEP}\n")
    result = simulate(tmp_path, "--population", str(population))
    refused_in_one_line(result, "population: nests arrays or inline tables too deeply to be read")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("out", ["/proc/nope", "/dev/null", "/dev/null/report"])
def test_an_out_that_cannot_be_a_directory_is_refused_in_one_line(tmp_path: Path, out: str) -> None:
    result = simulate(tmp_path, "--players", "5", "--days", "1", out=out)
    refused_in_one_line(result, f"Error: --out {out} cannot be a directory to write into")


def test_an_out_that_is_a_file_is_refused_before_the_season_is_played(tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.write_text("mine\n")
    result = simulate(tmp_path, "--players", "5", "--days", "1", out=str(taken / "deeper"))
    refused_in_one_line(result, "cannot be a directory to write into")
    assert taken.read_text() == "mine\n"


@pytest.mark.parametrize(
    ("start", "days"), [("9999-12-31", "366"), ("8999-12-01", "366"), ("0001-01-01", "1")]
)
def test_a_season_outside_the_calendar_is_refused_in_one_line(tmp_path: Path, start: str, days: str) -> None:
    path = tmp_path / "season.toml"
    path.write_text(SEASON)
    out = tmp_path / "out"
    result = run("simulate", str(path), "--out", str(out), "--start", start, "--days", days, "--players", "5")
    refused_in_one_line(result, "Error: ")
    assert "1970-01-01" in result.stderr or "9000-01-01" in result.stderr
    assert not out.exists()


def test_a_refused_season_leaves_no_out_directory_behind(tmp_path: Path) -> None:
    result = simulate(tmp_path, "--game", "nope", out=str(tmp_path / "a" / "b"))
    refused_in_one_line(result, "declares no game 'nope'")
    assert not (tmp_path / "a").exists()


def test_the_report_replaces_a_symlink_planted_at_its_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    planted = ("report.json", "report.html", "warnings.csv")
    for name in planted:
        (out / name).symlink_to(victim)
    result = simulate(tmp_path, "--players", "5", "--days", "1", out=str(out))
    assert result.exit_code == 0, result.output
    assert victim.read_text() == "precious\n"
    for name in planted:
        assert not (out / name).is_symlink() and (out / name).stat().st_size > 0
    written = sorted(p.name for p in out.iterdir())
    assert {"report.html", "report.json", "segments.csv", "warnings.csv"} <= set(written)
    assert all(name.endswith((".csv", ".json", ".html")) for name in written)  # no temporary file left


def _item(parameters: str) -> str:
    return TEST_MANIFEST + f'\n[games.space-race.resources.sword]\ntype = "item"\nparameters = {parameters}\n'


@pytest.mark.parametrize(
    ("parameters", "path", "problem"),
    [
        ("{ r = inf, n = 1 }", "parameters.r", "must be a finite number"),
        ("{ n = nan }", "parameters.n", "must be a finite number"),
        ("{ n = -inf }", "parameters.n", "must be a finite number"),
        (f'{{ s = "{"x" * 5000}" }}', "parameters", "must be at most 4 KiB as compact JSON"),
        ("{ a = " * 40 + "1" + " }" * 40, "parameters", "must not nest deeper than 32 levels"),
    ],
    ids=["infinity", "nan", "minus-infinity", "5000-characters", "40-levels"],
)
def test_item_parameters_follow_the_apis_limits(
    tmp_path: Path, parameters: str, path: str, problem: str
) -> None:
    manifest = tmp_path / "m.toml"
    manifest.write_text(_item(parameters))
    result = run("apply", str(manifest), "--db", str(tmp_path / "c.db"))
    refused_in_one_line(result, f"games.space-race.resources.sword.{path}: {problem}")
    assert not (tmp_path / "c.db").exists()


def test_reward_parameters_follow_the_apis_limits(tmp_path: Path) -> None:
    bad = SEASON.replace(
        '{ type = "item", key = "potion", amount = 1 }',
        '{ type = "item", key = "potion", amount = 1, parameters = { r = inf } }',
        1,
    )
    assert bad != SEASON
    result = simulate(tmp_path, manifest=bad)
    refused_in_one_line(result, ".parameters.r: must be a finite number")


def test_item_parameters_within_the_limits_are_applied(tmp_path: Path) -> None:
    manifest = tmp_path / "m.toml"
    manifest.write_text(_item('{ level = 3, ratio = 0.5, tags = ["a", "b"] }'))
    result = run("apply", str(manifest), "--db", str(tmp_path / "c.db"))
    assert result.exit_code == 0, result.output


def test_a_refusal_escapes_the_control_characters_of_names_from_the_file(tmp_path: Path) -> None:
    manifest = tmp_path / "m.toml"
    manifest.write_text(
        TEST_MANIFEST + '\n[games."bell\\u0007rlo\\u202enul\\u0000"]\nname = "x"\n'
        '[members."tab\\tnewline\\n"]\nemail = "a@b.test"\nrole = "VIEWER"\n'
    )
    result = run("apply", str(manifest), "--db", str(tmp_path / "c.db"))
    assert result.exit_code == 2
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\u202e]", result.stderr), repr(result.stderr)
    assert "games.bell\\x07rlo\\u202enul\\x00" in result.stderr
    assert "members.tab\\tnewline\\n:" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 3  # the header, then one line per problem


def test_simulate_escapes_the_control_characters_of_names_from_the_population(tmp_path: Path) -> None:
    population = tmp_path / "pop.toml"
    population.write_text('[events."\\u0007\\u202e"]\nworst = 0\nbest = 1\n')
    result = simulate(tmp_path, "--players", "5", "--days", "1", "--population", str(population))
    line = refused_in_one_line(result, "must be a key")
    assert "events.\\x07\\u202e" in line


def test_simulate_states_its_memory_need_before_making_a_player(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[int] = []

    def making(season: Season, on_players: object = None) -> None:
        made.append(season.players)
        raise RuntimeError("stop before making any player")

    monkeypatch.setattr(Season, "_make_players", making)
    result = simulate(tmp_path, "--players", "1000000", "--days", "28")
    assert made == [1_000_000]
    assert isinstance(result.exception, RuntimeError)
    assert re.search(r"1,000,000 players x 28 days: about \d+(\.\d)? GB of memory", result.stderr), (
        result.stderr
    )


def test_the_progress_counts_players_as_they_are_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Season, "players_step", 2)
    steps: list[tuple[str, int]] = []
    real = Season.play

    def spying(season: Season, on_day: Any, on_players: Any) -> None:
        def day(n: int) -> None:
            steps.append(("day", n))
            on_day(n)

        def made(n: int) -> None:
            steps.append(("players", n))
            on_players(n)

        real(season, day, made)

    monkeypatch.setattr(Season, "play", spying)
    result = simulate(tmp_path, "--players", "5", "--days", "2")
    assert result.exit_code == 0, result.output
    assert steps == [("players", 2), ("players", 2), ("players", 1), ("day", 0), ("day", 1)]


def test_a_page_draws_no_chart_for_the_resources_no_player_touched(tmp_path: Path) -> None:
    # A chart takes a fifth of a second: drawn for each of 3,000 untouched resources, this test would take
    # ten minutes.
    declared = "".join(f'[games.arena.resources.r{i}]\ntype = "item"\n\n' for i in range(3000))
    manifest = SEASON.replace("[games.arena.resources.coins]", declared + "[games.arena.resources.coins]", 1)
    # Two days: a season of one draws a resource minted by a single source in no chart at all.
    result = simulate(tmp_path, "--players", "20", "--days", "2", manifest=manifest)
    assert result.exit_code == 0, result.output
    page = (tmp_path / "out" / "report.html").read_text()
    drawn = re.findall(r'data-chart="economy-([^"]+)"', page)
    assert drawn and not any(re.fullmatch(r"r\d+", key) for key in drawn)
    assert "Nothing minted, sunk or held, so not drawn: r0, r1, r2" in page
    report = (tmp_path / "out" / "report.json").read_text()
    assert '"r2999"' in report  # the report itself still lists every resource


def _resources(count: int) -> str:
    declared = "".join(f'[games.arena.resources.r{i}]\ntype = "item"\n\n' for i in range(count))
    return SEASON.replace("[games.arena.resources.coins]", declared + "[games.arena.resources.coins]", 1)


def test_simulate_refuses_a_manifest_of_a_million_resources_before_reading_it(tmp_path: Path) -> None:
    # 47 MB: tomllib alone would take minutes and a gigabyte to read it, and its report would not fit in
    # memory.
    result = simulate(tmp_path, "--players", "5", "--days", "1", manifest=_resources(1_000_000))
    refused_in_one_line(result, "manifest: is larger than 4 MiB, the most a file may be")
    assert not (tmp_path / "out").exists()


def test_apply_refuses_a_manifest_larger_than_4_mib(tmp_path: Path) -> None:
    manifest = tmp_path / "m.toml"
    manifest.write_text(TEST_MANIFEST + "# " + "x" * (4 * 1024 * 1024) + "\n")
    result = run("apply", str(manifest), "--db", str(tmp_path / "c.db"))
    refused_in_one_line(result, "manifest: is larger than 4 MiB")
    assert not (tmp_path / "c.db").exists()


def test_a_report_holds_at_most_so_many_resource_days(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The bound is 400,000: a manifest of 20,001 resources would take a minute to read; the season's 4
    # resources (coins, gems, potion and the crate's chest) against a bound of 10 say the same.
    from livecore_server.simulate import run as simulate_run

    monkeypatch.setattr(simulate_run, "RESOURCE_DAYS_MAX", 10)
    played = simulate(tmp_path, "--players", "5", "--days", "2", out=str(tmp_path / "played"))
    assert played.exit_code == 0, played.output
    result = simulate(tmp_path, "--players", "5", "--days", "4")
    refused_in_one_line(result, "Error: a report holds each resource on each day, at most 10 in all:")
    assert "resources x 4 days is more" in result.stderr
    assert not (tmp_path / "out").exists()


def _events(count: int, seconds: int) -> str:
    return 'studio = "acme"\n\n[games.g]\nname = "G"\n' + "".join(
        f'\n[games.g.events.e{i}]\nname = "E{i}"\nstarts_at = "2026-03-02T00:00:00Z"\n'
        f"window_seconds = {seconds}\nrepeat_every_seconds = {seconds}\nattempt_seconds = 1\n"
        'score_metric = "s"\n'
        for i in range(count)
    )


def test_a_season_of_200_events_of_one_second_windows_is_refused_in_one_line(tmp_path: Path) -> None:
    # 483,840,000 windows in 28 days, each opened and closed whatever its players do: days of work.
    result = simulate(tmp_path, "--players", "1", "--days", "28", manifest=_events(200, 1))
    line = refused_in_one_line(result, "Error: a season plays at most 20,000 event windows")
    assert "the events open 483,840,000 in 28 days" in line
    assert not (tmp_path / "out").exists()


def test_a_season_within_the_window_bound_plays_each_window(tmp_path: Path) -> None:
    result = simulate(tmp_path, "--players", "1", "--days", "1", manifest=_events(6, 3600))
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert [len(event["windows"]) for event in report["events"].values()] == [24] * 6


DOTTED = ".".join(["a"] * 20_000)  # 40 KB


@pytest.mark.parametrize("header", [False, True], ids=["key", "table-header"])
def test_apply_refuses_a_20000_deep_dotted_key_in_one_line(tmp_path: Path, header: bool) -> None:
    manifest = tmp_path / "m.toml"
    manifest.write_text(
        f'studio = "acme"\n[{DOTTED}]\nb = 1\n' if header else f'studio = "acme"\n{DOTTED} = 1\n'
    )
    result = run("apply", str(manifest), "--db", str(tmp_path / "c.db"))
    refused_in_one_line(result, "manifest: has a key of more than 64 dotted parts (line 2)")
    assert not (tmp_path / "c.db").exists()


def test_simulate_refuses_a_population_with_a_20000_deep_dotted_key_in_one_line(tmp_path: Path) -> None:
    population = tmp_path / "pop.toml"
    population.write_text(f"[segments.all]\nx = {{ {DOTTED} = 1 }}\n")
    result = simulate(tmp_path, "--population", str(population))
    refused_in_one_line(result, "population: has a key of more than 64 dotted parts (line 2)")


def test_a_deep_dotted_key_is_refused_before_its_tables_are_built() -> None:
    # tomllib keeps every prefix of a key as it reads it: 3,000 parts took 36 MB, 20,000 took 2.4 GB.
    text = 'studio = "acme"\n' + ".".join(["a"] * 3000) + " = 1\n"
    tracemalloc.start()
    try:
        with pytest.raises(ManifestError) as refused:
            parse_manifest(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert refused.value.problems == {"manifest": "has a key of more than 64 dotted parts (line 2)"}
    assert peak < 1_000_000, peak


def test_a_key_of_64_dotted_parts_is_read_and_named_by_the_field_rules(tmp_path: Path) -> None:
    manifest = tmp_path / "m.toml"
    manifest.write_text(TEST_MANIFEST + "\n[games.space-race.areas." + ".".join(["a"] * 61) + "]\nb = 1\n")
    result = run("apply", str(manifest), "--db", str(tmp_path / "c.db"))
    assert result.exit_code == 2
    assert "dotted parts" not in result.stderr
    assert "games.space-race.areas.a:" in result.stderr


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--since", "0001-01-01T00:00:00+01:00"),
        ("--until", "9999-12-31T23:00:00-05:00"),
        ("--since", "0001-01-01"),
        ("--until", "9999-12-31"),
        ("--since", "1969-12-31T23:59:59"),
        ("--until", "9000-01-01"),
    ],
)
def test_population_refuses_a_period_outside_the_calendar_in_one_line(
    tmp_path: Path, option: str, value: str
) -> None:
    out = tmp_path / "pop.toml"
    result = run(
        "population", "--db", str(tmp_path / "c.db"), "--game", "g", option, value, "--out", str(out)
    )
    refused_in_one_line(
        result,
        f"Error: {option}: {value!r} is out of range: give a time from 1970-01-01 to before 9000-01-01 (UTC)",
    )
    assert not out.exists() and not (tmp_path / "c.db").exists()


#: Characters a page or a terminal acts on rather than shows: C0 and C1 controls, bidirectional embeddings,
#: overrides and isolates.
ACTING = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def test_the_report_escapes_control_and_bidi_override_characters_of_names(tmp_path: Path) -> None:
    manifest = (
        SEASON.replace('name = "Raid"', 'name = "Raid\\u0007\\u202eevil"', 1)
        .replace('name = "Arena"', 'name = "Are\\u202ena"', 1)
        .replace('name = "Daily League"', 'name = "Daily\\u0007League"', 1)
    )
    result = simulate(tmp_path, "--players", "5", "--days", "2", manifest=manifest)
    assert result.exit_code == 0, result.output
    out = tmp_path / "out"
    for written in out.iterdir():
        assert not ACTING.search(written.read_text()), written.name
    page = (out / "report.html").read_text()
    assert "Raid\\x07\\u202eevil" in page and "Daily\\x07League" in page  # readable, as written
    report = json.loads((out / "report.json").read_text())
    assert report["events"]["raid"]["name"] == "Raid\\x07\\u202eevil"
