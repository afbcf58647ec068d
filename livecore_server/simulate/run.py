"""``livecore-server simulate`` (docs/simulation.md#livecore-server-simulate): read a manifest and a
population, play the season embedded (:class:`livecore.simulation.season.Season`), gather its report
and write it; with another manifest, another population or both, play both configurations on the same
seeds and compare; with several seeds, play each and report them together. Several seasons (a
comparison's two, or several seeds') are played side by side, in worker processes or on a cluster
(:mod:`~livecore_server.simulate.engines`). A studio's areas
(``areas``: their server sides, as a server serves them) are played and reported after the built-in
ones."""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from livecore import registry
from livecore.games import GameSettings
from livecore.manifest import Manifest
from livecore.simulation import Simulation
from livecore.simulation.population import Population, PopulationError, parse_population
from livecore.simulation.season import Season
from livecore_server.simulate import MOST_SEEDS, engines
from livecore_server.simulate.compare import comparison, spread
from livecore_server.simulate.engines import Engine, Processes, Progress, workers
from livecore_server.simulate.gather import fold, gather, gathering, parts

T = TypeVar("T")

if TYPE_CHECKING:
    from livecore_server.area import ServerArea
    from livecore_server.simulate.section import ReportPart

#: What a season holds per player, measured with the demo manifest and its population (demo_population.toml)
#: (docs/simulation.md#memory): once made, and for each day played (what the report does not fold: its
#: grants, lobbies, teams, gifts, boards' entries).
BYTES_PER_PLAYER = 9_000
BYTES_PER_PLAYER_DAY = 4_000
#: The command itself: the interpreter, the core, matplotlib.
BYTES_BASE = 125_000_000
#: The most resources x days a season reports: the report holds each resource's every day, about 3 KB
#: each while it is written (20,000 resources x 20 days: 1.4 GB and 113 MB of report.json).
RESOURCE_DAYS_MAX = 400_000


def memory_need(players: int, days: int, *, processes: int = 1) -> int:
    """About how much memory a season of ``players`` players and ``days`` days takes at its peak (played
    here, a comparison plays its two seasons one after the other: no more). ``processes``: worker
    processes playing seasons side by side (:func:`workers`), each an interpreter of its own holding one
    season at a time, besides the command's (1: the command plays them itself)."""
    season = players * (BYTES_PER_PLAYER + BYTES_PER_PLAYER_DAY * days)
    if processes <= 1:
        return BYTES_BASE + season
    return BYTES_BASE + processes * (BYTES_BASE + season)


def read_population(path: str | os.PathLike[str] | None, areas: Sequence[ServerArea] = ()) -> Population:
    """The population file's (UTF-8 TOML), or the default population when no file is named; refusals
    raise :class:`~livecore.simulation.population.PopulationError`. ``areas``: a studio's areas played,
    whose fields and tables the file may set."""
    if path is None:
        return population_of("", areas)
    return population_of(population_text(path), areas)


def population_text(path: str | os.PathLike[str]) -> str:
    """A population file's text (UTF-8); an unreadable file is a
    :class:`~livecore.simulation.population.PopulationError` at path ``population``."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PopulationError({"population": f"cannot be read from {os.fspath(path)}: {exc}"}) from None


def population_of(text: str, areas: Sequence[ServerArea] = ()) -> Population:
    """A population file's text (TOML) read against the built-in areas and a studio's ``areas`` played;
    refusals raise :class:`~livecore.simulation.population.PopulationError`."""
    return parse_population(text, registry.areas(a.area for a in areas))


def areas_played(
    names: Sequence[str], manifests: Iterable[Manifest]
) -> tuple[tuple[str, ...], tuple[ServerArea, ...]]:
    """The studio's areas a run plays, as a server serves them: those installed by entry point, those
    ``names`` names, then those the ``manifests`` name in ``[plugins] areas``; answered by name (what a
    worker process loads again, :class:`Sources`) and loaded (``plugins.PluginError`` where one cannot be)."""
    from livecore_server import plugins

    named = (*plugins.installed(), *names, *(n for m in manifests for n in m.plugins.areas))
    return named, plugins.load(named)


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
    check: bool = False,
) -> Season:
    """One season of ``manifest``'s game, ready to play: its game, start, days and population checked
    (``ValueError``, :class:`~livecore.simulation.population.PopulationError`), no player made yet.
    ``areas``: a studio's areas played besides the built-in ones; ``check``: read the season's own calls
    through their wire form (:class:`~livecore.simulation.season.Season`)."""
    resources = len(game_settings(manifest, game).resources)
    if resources * days > RESOURCE_DAYS_MAX:
        raise ValueError(
            f"a report holds each resource on each day, at most {RESOURCE_DAYS_MAX:,} in all:"
            f" {resources:,} resources x {days} days is more"
        )
    sim = Simulation(manifest, game=game, seed=seed, start=start, areas=[a.area for a in areas])
    return Season(sim, population, players=players, days=days, seed=seed, forget_webhooks=True, check=check)


def play(
    season: Season,
    *,
    run: dict[str, Any],
    on_day: Callable[[int], None] | None = None,
    on_players: Callable[[int], None] | None = None,
    areas: Sequence[ServerArea] = (),
) -> dict[str, Any]:
    """``season`` played and gathered into its report (the callbacks: :meth:`Season.play`), with the
    parts of a studio's ``areas``. The report folds each day as it ends (:func:`fold`), so the season's
    memory does not grow with what the parts fold."""
    at = gathering(season.sim, season, areas)

    def day_ended(day: int) -> None:
        fold(at)
        if on_day is not None:
            on_day(day)

    season.play(day_ended, on_players)
    return gather(season.sim, season, run={**run, "seed": season.seed}, at=at)


def game_settings(manifest: Manifest, game: str | None) -> GameSettings:
    """The settings of the game a run plays (``game``, else the manifest's first); ``ValueError`` where
    the manifest declares no such game."""
    key = game if game is not None else next(iter(manifest.games), "")
    if key not in manifest.games:
        raise ValueError(f"the manifest declares no game {key!r}")
    return manifest.games[key].settings()


def parse(text: str, areas: Sequence[str] = ()) -> Manifest:
    """A manifest's text as ``simulate`` reads it (``areas``: the studio's areas named besides those it
    names, ``--area``): as ``apply --allow-private-webhooks`` does, since a season delivers no webhook."""
    from livecore_server.manifest import parse_manifest

    return parse_manifest(text, allow_private_webhooks=True, areas=areas)


@attrs.frozen
class Sources:
    """What a run plays, as the plain data a worker process (one seed of ``--seeds``) makes it again from:
    each manifest's name and text, parsed (:func:`parse`) with the studio's areas ``manifest_areas``, and
    the studio's areas played, by package name (``plugins.load``). A parsed manifest cannot be sent to
    another process (the classes of its records are made as it is parsed), and an area loaded again by
    name is the very object the command loaded, not a copy of it."""

    manifests: tuple[tuple[str, str], ...]
    manifest_areas: tuple[str, ...] = ()
    areas: tuple[str, ...] = ()

    def load(self) -> tuple[list[tuple[str, Manifest]], tuple[ServerArea, ...]]:
        """The manifests, by name, and the areas played."""
        from livecore_server import plugins

        manifests = [(name, parse(text, self.manifest_areas)) for name, text in self.manifests]
        return manifests, plugins.load(self.areas)


class PopulationRefused(PopulationError):
    """A population a run plays refused against the game it plays (an event it names is not there):
    ``name`` says which of the run's populations."""

    def __init__(self, name: str, problems: Mapping[str, str]) -> None:
        super().__init__(problems)
        self.name = name


@attrs.frozen
class _Seeds:
    """What every seed of a run shares: each season's population by name (both pinned for a comparison),
    the season's size and start, and the run's facts the report leads with."""

    populations: tuple[tuple[str, Population], ...]
    players: int
    days: int
    start: datetime
    game: str | None
    check: bool = False

    def seasons(
        self,
        manifests: Sequence[tuple[str, Manifest]],
        seed: int,
        areas: Sequence[ServerArea],
        only: int | None = None,
    ) -> list[tuple[dict[str, str], Season]]:
        """Each season of ``seed`` (of a comparison: the base's, then the other's), or the ``only``-th,
        checked and ready to play, with the run's names: its manifest and its population."""
        ready = []
        runs = list(zip(_each(manifests, len(self.populations)), self.populations, strict=True))
        for (name, m), (population_name, population) in runs if only is None else [runs[only]]:
            try:
                made = season(
                    m,
                    population,
                    players=self.players,
                    days=self.days,
                    seed=seed,
                    start=self.start,
                    game=self.game,
                    areas=areas,
                    check=self.check,
                )
            except PopulationError as exc:
                raise PopulationRefused(population_name, exc.problems) from None
            ready.append(({"manifest": name, "population": population_name}, made))
        return ready

    def played(
        self,
        seasons: list[tuple[dict[str, str], Season]],
        areas: Sequence[ServerArea],
        on_day: Callable[[int], None] | None,
        on_players: Callable[[int], None] | None,
    ) -> list[dict[str, Any]]:
        """The reports of ``seasons``, played one after the other, each dropped once played: a comparison
        holds one season's players at a time."""
        reports = []
        while seasons:
            run, ready = seasons.pop(0)
            reports.append(play(ready, run=run, on_day=on_day, on_players=on_players, areas=areas))
            del ready
        return reports


def _each(items: Sequence[T], runs: int) -> list[T]:
    """One item per run: the items themselves, or the one item every run plays (a comparison of two
    populations plays one manifest twice; one of two manifests, one population on both)."""
    return list(items) if len(items) == runs else [items[0]] * runs


def _play_season(shared: _Seeds, sources: Sources, seed: int, run: int) -> dict[str, Any]:
    """In a worker process (of this machine or of a cluster): the report of one season of one seed (its
    manifest's, or one of a comparison's: ``run``), plain data, its steps told (:func:`engines.step`).
    What fails is raised in the command's process; an exception that cannot be sent there as it is (one
    whose arguments do not make it again, as a refusal's problems) as a :class:`RuntimeError` naming it,
    since one that cannot be would break the pool, and every other season with it."""
    try:
        manifests, areas = sources.load()
        [report] = shared.played(
            shared.seasons(manifests, seed, areas, only=run),
            areas,
            lambda day: engines.step("day", day),
            lambda made: engines.step("players", made),
        )
        return report
    except Exception as exc:
        try:
            pickle.loads(pickle.dumps(exc))
        except Exception:
            raise RuntimeError(f"seed {seed}: {type(exc).__name__}: {exc}") from exc
        raise


def _in_parallel(
    engine: Engine, shared: _Seeds, sources: Sources, seeds: Sequence[int], runs: int, progress: Progress
) -> list[list[dict[str, Any]]]:
    """Each seed's reports, each season of each seed (``runs`` a seed) played by ``engine``, in the seeds'
    order whatever the order they finish in. A season rather than a seed a task: a comparison's two
    seasons take both cores, and five seeds' ten seasons leave no core idle at the end."""
    each = [(shared, sources, seed, run) for seed in seeds for run in range(runs)]
    reports = engine.play(_play_season, each, progress)
    return [reports[i : i + runs] for i in range(0, len(reports), runs)]


def simulate(
    manifests: list[tuple[str, Manifest]],
    populations: list[tuple[str, Population]],
    *,
    players: int,
    days: int,
    seed: int,
    start: datetime,
    game: str | None = None,
    areas: Sequence[ServerArea] = (),
    seeds: int = 1,
    check: bool = False,
    sources: Sources | None = None,
    on_start: Callable[[], None] | None = None,
    on_day: Callable[[int], None] | None = None,
    on_players: Callable[[int], None] | None = None,
    engine: Engine | None = None,
    on_season: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The report of one manifest played by one population (each by name), or the comparison of two
    configurations (the first the base): two manifests, two populations, or both, the one given once
    serving both runs. Each run plays the same seed and start, and places a skill on the base manifest's
    score ranges where its population sets none (:meth:`Population.pinned`), and prices the second
    population's offers against the first's (:meth:`Population.against`). Every season is checked before
    any is played; ``on_start()`` then, before the first player is made. ``areas``: a studio's
    areas (their server sides) played and reported after the built-in ones.

    ``seeds``: how many seeds to play, ``seed`` the first, each played as above and reported together
    (docs/simulation.md#several-seeds): the first seed's report whole, its ``run`` with the ``seeds``, and
    each headline number's ``spread`` over them; or, comparing, the differences over the seeds paired,
    each with whether it stands out of their noise (:mod:`livecore_server.simulate.compare`). With
    ``sources`` (what ``manifests`` and ``areas`` are made from) the seasons (of a comparison, of several
    seeds) are played by ``engine`` (every season, even one), by default in worker processes side by side
    (:class:`~livecore_server.simulate.engines.Processes`, when there are several seasons and cores), else
    one after the other here; the report is the same. ``on_season(done, seasons)``: a season played by an
    engine. ``check``: read
    every season's own calls through their wire form, as the server reads a request (the report is the
    same; a call the wire reads otherwise raises)."""
    if not 1 <= seeds <= MOST_SEEDS:
        raise ValueError(f"a run plays 1 to {MOST_SEEDS} seeds")
    if not (1 <= len(manifests) <= 2 and 1 <= len(populations) <= 2):
        raise ValueError("a run plays one or two manifests, and one or two populations")
    runs = max(len(manifests), len(populations))
    if runs == 2:
        base, other = (game_settings(m, game) for _, m in _each(manifests, 2))
        played_areas = registry.areas(a.area for a in areas)
        populations = [(name, p.pinned(base, other, played_areas)) for name, p in _each(populations, 2)]
        (base_name, first), (name, second) = populations
        populations = [(base_name, first), (name, second.against(first, played_areas))]
    played = seasons_played(
        manifests,
        populations,
        players=players,
        days=days,
        seed=seed,
        start=start,
        game=game,
        areas=areas,
        seeds=seeds,
        check=check,
        sources=sources,
        on_start=on_start,
        on_day=on_day,
        on_players=on_players,
        engine=engine,
        on_season=on_season,
    )
    return reported(played, list(range(seed, seed + seeds)), parts(areas))


def seasons_played(
    manifests: Sequence[tuple[str, Manifest]],
    populations: Sequence[tuple[str, Population]],
    *,
    players: int,
    days: int,
    seed: int,
    start: datetime,
    game: str | None = None,
    areas: Sequence[ServerArea] = (),
    seeds: int = 1,
    check: bool = False,
    sources: Sources | None = None,
    on_start: Callable[[], None] | None = None,
    on_day: Callable[[int], None] | None = None,
    on_players: Callable[[int], None] | None = None,
    engine: Engine | None = None,
    on_season: Callable[[int, int], None] | None = None,
) -> list[list[dict[str, Any]]]:
    """Each seed's reports (in the seeds' order), each of one configuration: the ``i``-th manifest with
    the ``i``-th population, the one given once serving every configuration, as :func:`simulate` plays
    them (its populations already pinned). Every season is checked before any is played."""
    if engine is not None and sources is None:
        raise ValueError("an engine plays a run's sources: give them")
    runs = max(len(manifests), len(populations))
    shared = _Seeds(tuple(_each(populations, runs)), players, days, start, game, check)
    checked = shared.seasons(manifests, seed, areas)  # nothing checked depends on the seed
    if on_start is not None:
        on_start()
    numbers = list(range(seed, seed + seeds))
    if sources is not None and (engine is not None or workers(seeds * runs) > 1):
        checked.clear()
        progress = Progress(on_day, on_players, on_season)
        return _in_parallel(engine or Processes(), shared, sources, numbers, runs, progress)
    if seeds == 1:
        return [shared.played(checked, areas, on_day, on_players)]
    checked.clear()
    return [shared.played(shared.seasons(manifests, s, areas), areas, on_day, on_players) for s in numbers]


def _with_seeds(report: dict[str, Any], seeds: list[int]) -> dict[str, Any]:
    """``report`` with its run's ``seeds`` (after its ``seed``, the first), when there are several."""
    if len(seeds) == 1:
        return report
    run: dict[str, Any] = {}
    for name, value in report["run"].items():
        run[name] = value
        if name == "seed":
            run["seeds"] = seeds
    return {**report, "run": run}


def reported(
    played: list[list[dict[str, Any]]], seeds: list[int], found: Sequence[ReportPart]
) -> dict[str, Any]:
    """The report of the seeds' reports (``played``: each seed's, in the seeds' order), of one
    configuration or the comparison of two."""
    firsts = [reports[0] for reports in played]
    if len(played[0]) == 2:
        others = [reports[1] for reports in played]
        return comparison(
            [_with_seeds(firsts[0], seeds), *firsts[1:]], [_with_seeds(others[0], seeds), *others[1:]], found
        )
    report = _with_seeds(firsts[0], seeds)
    if len(seeds) > 1:
        report["spread"] = spread(firsts, found)
    return report
