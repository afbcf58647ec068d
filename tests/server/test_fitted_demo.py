"""The demo played by its own population, fitted back, and simulated again (docs/simulation.md#the-demo-
fitted-back): `simulate --compare-population` of the demo with the fitted population against the
population that played the history marks no difference beyond the seeds' noise but the gifts' few
points (:data:`GIFTS_SHORT`)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from livecore.simulation import Simulation, behaviour
from livecore.simulation.season import Season
from livecore_server.cli import main
from livecore_server.simulate import shipped
from livecore_server.simulate.run import parse, read_population
from tests.season_support import steady

START = datetime(2026, 1, 5, tzinfo=UTC)
#: The history: the demo's population, 2,000 players over a week, fitted into its three segments.
HISTORY = {"players": 2_000, "days": 7, "seed": 11}
#: The comparison: a week of 500 players on each of four seeds.
COMPARISON = ("--players", "500", "--days", "7", "--seeds", "4", "--seed", "100")


@pytest.fixture(scope="module")
def steady_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's population without installs or return curves: its players all there from the start and
    coming back every day, so that the comparison is of the economy's rates (the return curves' fit has
    its own test, below)."""
    text = Path(shipped.resolve("demo", shipped.POPULATIONS)).read_text(encoding="utf-8")
    path = tmp_path_factory.mktemp("steady") / "steady.toml"
    path.write_text(steady(text))
    return path


@pytest.fixture(scope="module")
def fitted(tmp_path_factory: pytest.TempPathFactory, steady_file: Path) -> Path:
    """The demo's history fitted into a population file."""
    manifest = parse(Path(shipped.resolve("demo", shipped.MANIFESTS)).read_text(encoding="utf-8"))
    population = read_population(str(steady_file))
    sim = Simulation(manifest, seed=HISTORY["seed"], start=START)
    players, days, seed = HISTORY["players"], HISTORY["days"], HISTORY["seed"]
    Season(sim, population, players=players, days=days, seed=seed, forget_webhooks=True).play()
    path = tmp_path_factory.mktemp("fitted") / "fitted.toml"
    path.write_text(sim.fit_population(3).toml(), encoding="utf-8")
    return path


def test_the_fitted_file_carries_the_populations_tables(fitted: Path) -> None:
    text = fitted.read_text(encoding="utf-8")
    for table in ("[economy]", "[events.time-trial]", "[events.duel]", "[events.relay]", "[studio]"):
        assert table in text
    assert 'spend = ["coins", "gems"]' in text and "login_credit = { coins = 20 }" in text


def test_the_fitted_population_plays_the_demo_within_the_seeds_noise(
    fitted: Path, steady_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "comparison"
    command = ["simulate", "demo", "--population", str(steady_file), "--compare-population", str(fitted)]
    result = CliRunner().invoke(main, [*command, *COMPARISON, "--out", str(out)])
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads((out / "report.json").read_text())
    rows = report["differences"]
    assert len(rows) > 40 and all(r["significant"] is not None for r in rows)
    marked = [
        (r["section"], r["subject"], r["metric"], r["change"], r["p"]) for r in rows if r["significant"]
    ]
    assert not marked


def test_a_launch_is_fitted_with_each_segments_return_curve() -> None:
    """The demo's default population installs over two weeks with a return curve a segment
    (docs/simulation.md#the-default-population); three weeks of it fitted back tell each segment's
    curve and the installs' spread from the days each player played."""
    manifest = parse(Path(shipped.resolve("demo", shipped.MANIFESTS)).read_text(encoding="utf-8"))
    population = read_population(None)
    sim = Simulation(manifest, seed=3, start=START)
    Season(sim, population, players=600, days=21, seed=3, forget_webhooks=True).play()
    fitted = sim.fit_population(3).population
    truth = {s.name: s for s in population.segments}
    # The fitted segments, the most sessions a day first, are the engaged, regular and casual players.
    for fit, name in zip(fitted.segments, ("engaged", "regular", "casual"), strict=True):
        assert fit.rates["installs_over"] == 14
        for day in (behaviour.RETURN_D1, behaviour.RETURN_D7):
            assert fit.rates[day.name] == pytest.approx(truth[name].rate(day), abs=0.08), (name, day)
