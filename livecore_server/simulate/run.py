"""``livecore-server simulate`` (docs/simulation.md#livecore-server-simulate): read a manifest and a
population, play the season embedded (:class:`livecore.simulation.season.Season`), gather its report
and write it; with another manifest, play the same population on both and compare."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from livecore.games import GameSettings
from livecore.manifest import Manifest
from livecore.simulation import Simulation
from livecore.simulation.population import Population, parse_population
from livecore.simulation.season import Season
from livecore_server.simulate.compare import comparison
from livecore_server.simulate.gather import gather


def read_population(path: str | os.PathLike[str] | None) -> Population:
    """The population file's (UTF-8 TOML), or the default population when no file is named; refusals
    raise :class:`~livecore.simulation.population.PopulationError`."""
    if path is None:
        return parse_population("")
    from livecore.simulation.population import PopulationError

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PopulationError({"population": f"cannot be read from {os.fspath(path)}: {exc}"}) from None
    return parse_population(text)


def play(
    manifest: Manifest,
    population: Population,
    *,
    players: int,
    days: int,
    seed: int,
    start: datetime,
    game: str | None = None,
    run: dict[str, Any],
    on_day: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """One season of ``manifest``'s game, played and gathered into its report."""
    sim = Simulation(manifest, game=game, seed=seed, start=start)
    season = Season(sim, population, players=players, days=days, seed=seed, forget_webhooks=True)
    season.play(on_day)
    return gather(sim, season, run={**run, "seed": seed})


def _settings(manifest: Manifest, game: str | None) -> GameSettings:
    key = game if game is not None else next(iter(manifest.games), "")
    if key not in manifest.games:
        raise ValueError(f"the manifest declares no game {key!r}")
    return manifest.games[key].settings()


def simulate(
    manifests: list[tuple[str, Manifest]],
    population: Population,
    *,
    population_name: str,
    players: int,
    days: int,
    seed: int,
    start: datetime,
    game: str | None = None,
    on_day: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The report of one manifest, or the comparison of two (the first the base), each played with the
    same population, seed and start (and the base's score ranges: :meth:`Population.pinned`)."""
    if len(manifests) == 2:
        base, other = (_settings(m, game) for _, m in manifests)
        population = population.pinned(base, other)
    reports = [
        play(
            manifest,
            population,
            players=players,
            days=days,
            seed=seed,
            start=start,
            game=game,
            run={"manifest": name, "population": population_name},
            on_day=on_day,
        )
        for name, manifest in manifests
    ]
    return reports[0] if len(reports) == 1 else comparison(reports[0], reports[1])
