"""``livecore-server simulate`` (docs/simulation.md#livecore-server-simulate): read a manifest and a
population, play the season embedded (:class:`livecore.simulation.season.Season`), gather its report
and write it; with another manifest, play the same population on both and compare. A studio's areas
(``areas``: their server sides, as a server serves them) are played and reported after the built-in ones."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from livecore import areas as core_areas
from livecore.games import GameSettings
from livecore.manifest import Manifest
from livecore.simulation import Simulation
from livecore.simulation.population import Population, parse_population
from livecore.simulation.season import Season
from livecore_server.simulate.compare import comparison
from livecore_server.simulate.gather import gather, parts

if TYPE_CHECKING:
    from livecore_server.area import ServerArea

#: What a season holds per player, measured with the demo manifest and examples/population.toml
#: (docs/simulation.md#memory): once made, and for each day played (its ledger, grants, scores).
BYTES_PER_PLAYER = 5_500
BYTES_PER_PLAYER_DAY = 7_200
#: The command itself: the interpreter, the core, matplotlib.
BYTES_BASE = 125_000_000


def memory_need(players: int, days: int) -> int:
    """About how much memory a season of ``players`` players and ``days`` days takes at its peak (a
    comparison plays its two seasons one after the other: no more)."""
    return BYTES_BASE + players * (BYTES_PER_PLAYER + BYTES_PER_PLAYER_DAY * days)


def read_population(path: str | os.PathLike[str] | None, areas: Sequence[ServerArea] = ()) -> Population:
    """The population file's (UTF-8 TOML), or the default population when no file is named; refusals
    raise :class:`~livecore.simulation.population.PopulationError`. ``areas``: a studio's areas played,
    whose fields and tables the file may set."""
    played = core_areas.registered(a.area for a in areas)
    if path is None:
        return parse_population("", played)
    from livecore.simulation.population import PopulationError

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PopulationError({"population": f"cannot be read from {os.fspath(path)}: {exc}"}) from None
    return parse_population(text, played)


def season(
    manifest: Manifest,
    population: Population,
    *,
    players: int,
    days: int,
    seed: int,
    start: datetime,
    game: str | None = None,
    areas: Sequence[ServerArea] = (),
) -> Season:
    """One season of ``manifest``'s game, ready to play: its game, start, days and population checked
    (``ValueError``, :class:`~livecore.simulation.population.PopulationError`), no player made yet.
    ``areas``: a studio's areas played besides the built-in ones."""
    sim = Simulation(manifest, game=game, seed=seed, start=start, areas=[a.area for a in areas])
    return Season(sim, population, players=players, days=days, seed=seed, forget_webhooks=True)


def play(
    season: Season,
    *,
    run: dict[str, Any],
    on_day: Callable[[int], None] | None = None,
    on_players: Callable[[int], None] | None = None,
    areas: Sequence[ServerArea] = (),
) -> dict[str, Any]:
    """``season`` played and gathered into its report (the callbacks: :meth:`Season.play`), with the
    parts of a studio's ``areas``."""
    season.play(on_day, on_players)
    return gather(season.sim, season, run={**run, "seed": season.seed}, areas=areas)


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
    areas: Sequence[ServerArea] = (),
    on_start: Callable[[], None] | None = None,
    on_day: Callable[[int], None] | None = None,
    on_players: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The report of one manifest, or the comparison of two (the first the base), each played with the
    same population, seed and start (and the base's score ranges: :meth:`Population.pinned`). Every
    season is checked before any is played; ``on_start()`` then, before the first player is made.
    ``areas``: a studio's areas (their server sides) played and reported after the built-in ones."""
    if len(manifests) == 2:
        base, other = (_settings(m, game) for _, m in manifests)
        population = population.pinned(base, other, core_areas.registered(a.area for a in areas))
    seasons = [
        (
            name,
            season(m, population, players=players, days=days, seed=seed, start=start, game=game, areas=areas),
        )
        for name, m in manifests
    ]
    if on_start is not None:
        on_start()
    reports = []
    while seasons:  # each season dropped once played: a comparison holds one season's players at a time
        name, ready = seasons.pop(0)
        run = {"manifest": name, "population": population_name}
        reports.append(play(ready, run=run, on_day=on_day, on_players=on_players, areas=areas))
        del ready
    return reports[0] if len(reports) == 1 else comparison(reports[:1], reports[1:], parts(areas))
