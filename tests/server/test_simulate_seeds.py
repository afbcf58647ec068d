"""`livecore-server simulate --seeds N` (docs/simulation.md#several-seeds): the seeds played side by side in
worker processes and reported together, the same bytes for the same seeds; a comparison over the seeds
marks a change the seeds' noise cannot explain, and nothing when a manifest meets itself."""

from __future__ import annotations

import csv
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from livecore.simulation.population import parse_population
from livecore_server.cli import main
from livecore_server.manifest import demo_manifest_text
from livecore_server.simulate.engines import PROCESSES_ENV, workers
from livecore_server.simulate.run import Sources, memory_need, parse, simulate

#: The demo's daily time trial pays each completion this; the richer copy pays 50 times as much.
COMPLETION = 'completion_rewards = [{ type = "currency", key = "coins", amount = 10 }]'
DEMO = demo_manifest_text()
RICHER = DEMO.replace(COMPLETION, COMPLETION.replace("amount = 10", "amount = 500"))
#: A small season: seconds per seed, and the 50-fold reward stands out of the noise on every seed tried.
SMALL = ("--players", "60", "--days", "2")


def run(tmp_path: Path, out: str, *args: str, other: str | None = None) -> Result:
    demo = tmp_path / "demo.toml"
    demo.write_text(DEMO)
    command = ["simulate", str(demo), "--out", str(tmp_path / out), *SMALL, *args]
    if other is not None:
        path = tmp_path / "other.toml"
        path.write_text(other)
        command += ["--compare", str(path)]
    return CliRunner().invoke(main, command)


def report(tmp_path: Path, out: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((tmp_path / out / "report.json").read_text())
    return found


def test_the_copy_differs_in_the_time_trials_completion_coins_only() -> None:
    assert DEMO.count(COMPLETION) == 1
    assert RICHER != DEMO


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("seeds")
    result = run(tmp, "first", "--seed", "4", "--seeds", "3")
    assert result.exit_code == 0, result.output
    return tmp


def test_several_seeds_write_the_same_bytes(seeded: Path) -> None:
    again = run(seeded, "second", "--seed", "4", "--seeds", "3")
    assert again.exit_code == 0, again.output
    for name in ("report.json", "report.html"):
        assert (seeded / "second" / name).read_bytes() == (seeded / "first" / name).read_bytes()


def test_the_report_holds_the_first_seed_whole_and_the_spread(seeded: Path) -> None:
    found = report(seeded, "first")
    assert list(found)[-3:] == ["refusals", "warnings", "spread"]
    assert found["run"]["seed"] == 4 and found["run"]["seeds"] == [4, 5, 6]
    assert list(found["run"])[:4] == ["manifest", "population", "seed", "seeds"]
    minted = next(
        s
        for s in found["spread"]
        if (s["section"], s["subject"], s["metric"]) == ("economy", "coins", "minted")
    )
    assert list(minted) == ["section", "subject", "metric", "values", "mean", "sd", "min", "max"]
    assert len(minted["values"]) == 3 and minted["values"][0] == sum(
        found["economy"]["coins"]["minted"].values()
    )
    assert minted["min"] <= minted["mean"] <= minted["max"] and minted["sd"] > 0
    assert found["spread"][-1]["metric"] == "warnings"
    page = (seeded / "first" / "report.html").read_text()
    assert '<h2 id="spread">Across seeds</h2>' in page and "3: 4 to 6" in page
    assert "<script" not in page
    rows = list(csv.reader((seeded / "first" / "spread.csv").open(encoding="utf-8")))
    assert rows[0] == [
        "Section",
        "Subject",
        "Metric",
        "Seed 4",
        "Seed 5",
        "Seed 6",
        "Mean",
        "SD",
        "Min",
        "Max",
    ]
    assert ["economy", "coins", "minted", *(json.dumps(v) for v in minted["values"])] == rows[
        1 + found["spread"].index(minted)
    ][:6]


def test_the_first_seed_is_the_report_of_that_seed_alone(seeded: Path) -> None:
    """A seed played in a worker process reports as the command's own process does."""
    alone = run(seeded, "alone", "--seed", "4")
    assert alone.exit_code == 0, alone.output
    first = report(seeded, "first")
    del first["spread"], first["run"]["seeds"]
    assert first == report(seeded, "alone")


def test_a_manifest_against_itself_marks_nothing(tmp_path: Path) -> None:
    result = run(tmp_path, "aa", "--seed", "1", "--seeds", "3", other=DEMO)
    assert result.exit_code == 0, result.output
    found = report(tmp_path, "aa")
    assert found["base"]["run"]["seeds"] == found["other"]["run"]["seeds"] == [1, 2, 3]
    rows = found["differences"]
    # A figure neither side has in a seed (a segment that played no attempt there) changes by None.
    assert rows and all(r["significant"] is not True for r in rows)
    assert all(set(r["changes"]) <= {0, None} and r["change"] in (0, None) for r in rows)
    page = (tmp_path / "aa" / "report.html").read_text()
    assert page.count('<tr class="noise">') == sum(r["significant"] is False for r in rows)
    assert f"<summary>{len(rows)} rows did not move</summary>" in page


def test_fifty_times_the_completion_coins_stands_out(tmp_path: Path) -> None:
    result = run(tmp_path, "rich", "--seed", "9", "--seeds", "5", other=RICHER)
    assert result.exit_code == 0, result.output
    rows = {(r["section"], r["subject"], r["metric"]): r for r in report(tmp_path, "rich")["differences"]}
    minted = rows["economy", "coins", "minted"]
    assert minted["significant"] is True
    assert len(minted["changes"]) == 5 and all(c > 10_000 for c in minted["changes"])
    assert minted["change"] == pytest.approx(sum(minted["changes"]) / 5, abs=1e-4)
    assert minted["p"] < 0.001
    assert minted["other"] - minted["base"] == pytest.approx(minted["change"], abs=1e-3)
    # How big: fifty times the coins of a completion, a multiple of the base, its interval above 0.
    low, high = minted["interval"]
    assert 0 < low < minted["relative"] < high
    # What the coins cannot touch is not marked.
    assert rows["economy", "gems", "minted"]["significant"] is False
    page = (tmp_path / "rich" / "report.html").read_text()
    assert "Beyond noise" in page and '<tr class="noise">' in page
    written = {
        (r["Section"], r["Subject"], r["Metric"]): r
        for r in csv.DictReader((tmp_path / "rich" / "differences.csv").open(encoding="utf-8"))
    }
    coins = written["economy", "coins", "minted"]
    assert coins["Significant"] == "true" and coins["Change, seed 9"] == json.dumps(minted["changes"][0])
    assert coins["p"] == json.dumps(minted["p"])
    assert coins["Relative"] == json.dumps(minted["relative"]) and coins["Interval low"] == json.dumps(low)


def test_a_comparison_of_one_seed_says_nothing_of_noise(tmp_path: Path) -> None:
    result = run(tmp_path, "one", "--players", "20", "--days", "1", other=RICHER)
    assert result.exit_code == 0, result.output
    rows = report(tmp_path, "one")["differences"]
    assert all(r["significant"] is None and r["changes"] == [r["change"]] for r in rows)
    assert all(r["interval"] is None and r["change_interval"] is None for r in rows)
    sized = [r for r in rows if r["base"] and r["change"] is not None]
    assert sized and all(r["relative"] == pytest.approx(r["change"] / r["base"], abs=1e-3) for r in sized)
    page = (tmp_path / "one" / "report.html").read_text()
    assert 'class="noise"' not in page and "Beyond noise" not in page


@pytest.mark.parametrize("seeds", ["0", "101", "-2"])
def test_seeds_outside_1_to_100_are_refused(tmp_path: Path, seeds: str) -> None:
    result = run(tmp_path, "out", "--seeds", seeds)
    assert result.exit_code == 2
    assert "Invalid value for '--seeds'" in result.stderr and "1<=x<=100" in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.fixture
def each_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seasons played in worker processes, a core each, as outside the suite (conftest.py has the suite
    play them in its own process)."""
    monkeypatch.delenv(PROCESSES_ENV, raising=False)


@pytest.mark.usefixtures("each_core")
@pytest.mark.parametrize("seeds", [1, 2])
def test_workers_play_as_this_process_does_and_report_their_steps(seeds: int) -> None:
    """The seasons played in worker processes (with ``sources``: a comparison's two, of each seed) and
    one after the other here (without) give one report; the workers' steps reach the callbacks here,
    each season's all."""
    manifests = [("demo.toml", parse(DEMO)), ("richer.toml", parse(RICHER))]
    sources = Sources(tuple((name, text) for name, text in (("demo.toml", DEMO), ("richer.toml", RICHER))))
    steps: dict[str, list[int]] = {}

    def played(source: Sources | None) -> dict[str, Any]:
        days: list[int] = []
        made: list[int] = []
        found = simulate(
            manifests,
            [("default", parse_population(""))],
            players=15,
            days=2,
            seed=2,
            start=datetime(2026, 1, 5, tzinfo=UTC),
            seeds=seeds,
            sources=source,
            on_day=days.append,
            on_players=made.append,
        )
        steps["here" if source is None else "workers"] = [len(days), sum(made)]
        return found

    assert played(sources) == played(None)
    assert steps["workers"] == steps["here"] == [seeds * 2 * 2, seeds * 2 * 15]


def test_memory_counts_each_worker() -> None:
    one = memory_need(1000, 7)
    assert memory_need(1000, 7, processes=1) == one
    assert memory_need(1000, 7, processes=2) > 2 * one
    assert workers(1) == 1 and 1 <= workers(3) <= 3


# Peak resident memory of demo seasons, measured with /usr/bin/time (docs/simulation.md#memory):
# (players, days) -> bytes.
MEASURED_PEAKS = {(10_000, 28): 1_240_000_000, (100_000, 1): 1_384_000_000, (1_000_000, 1): 12_700_000_000}


@pytest.mark.parametrize(("size", "peak"), MEASURED_PEAKS.items())
def test_the_memory_stated_up_front_is_not_below_a_measured_peak(size: tuple[int, int], peak: int) -> None:
    players, days = size
    assert peak <= memory_need(players, days) <= 1.15 * peak


@pytest.mark.usefixtures("each_core")
def test_a_seed_failing_in_its_worker_fails_the_run() -> None:
    """A refusal's problems do not make it again from its arguments: it is raised here as a RuntimeError
    naming it, rather than breaking the pool."""
    with pytest.raises(RuntimeError, match="seed 0: ManifestError: "):
        simulate(
            [("demo.toml", parse(DEMO))],
            [("default", parse_population(""))],
            players=5,
            days=1,
            seed=0,
            start=datetime(2026, 1, 5, tzinfo=UTC),
            seeds=2,
            sources=Sources((("demo.toml", "not = [a manifest"),)),
        )


def test_the_processes_a_run_may_start_are_bounded_by_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(PROCESSES_ENV, "1")
    assert workers(10) == 1
    monkeypatch.setenv(PROCESSES_ENV, "many")
    with pytest.raises(ValueError, match=PROCESSES_ENV):
        workers(10)


def test_a_bad_processes_bound_is_refused_before_anything_is_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PROCESSES_ENV, "two")
    result = run(tmp_path, "out")
    assert result.exit_code == 2
    assert f"{PROCESSES_ENV} must be a whole number, not 'two'" in result.stderr
    assert not (tmp_path / "out").exists()
