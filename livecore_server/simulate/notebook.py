"""Seasons played from Python, as a notebook plays them (docs/simulation.md#in-a-notebook): :func:`play`,
:func:`compare` and :func:`sweep` run what ``livecore-server simulate`` runs and answer a :class:`Report`, and
:meth:`Report.of` gathers a :class:`~livecore.simulation.season.Season` played by hand. A report's
:attr:`~Report.tables` are its CSV files' (:func:`~livecore_server.simulate.tables.tables_of`), by the
files' names: each is rows of dicts keyed by the files' headings, or a pandas or polars frame, whichever
is installed (neither is a dependency of livecore)."""

from __future__ import annotations

import importlib
import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from livecore_server.manifest import read_manifest
from livecore_server.simulate import DAYS, PLAYERS, START, section, shipped
from livecore_server.simulate.gather import gather
from livecore_server.simulate.gather import parts as report_parts
from livecore_server.simulate.render import as_shown, write
from livecore_server.simulate.run import (
    Sources,
    areas_played,
    parse,
    population_of,
    population_text,
    simulate,
)
from livecore_server.simulate.tables import tables_of

if TYPE_CHECKING:
    from livecore.manifest import Manifest
    from livecore.simulation.population import Population
    from livecore.simulation.season import Season
    from livecore_server.area import ServerArea

#: A manifest or a population as the notebook takes it: its path, a shipped name (``demo``), or its TOML
#: text itself (a string of more than one line).
Source = str | os.PathLike[str]
T = TypeVar("T")


def _package(name: str) -> ModuleType:
    """The module ``name``, or an ImportError saying to install it."""
    try:
        return importlib.import_module(name)
    except ImportError:
        raise ImportError(
            f"a table as a frame needs {name}, which is not installed: pip install {name}", name=name
        ) from None


@attrs.frozen
class Table:
    """A table of a report, as its CSV file ``<name>.csv`` has it: :attr:`headings`, and :attr:`rows`
    keyed by them. Its values are the report's: numbers as numbers, None where the file's cell is empty,
    texts without the file's guard against spreadsheet formulas."""

    name: str
    table: section.Table = attrs.field(repr=False)

    @property
    def headings(self) -> list[str]:
        return [c.heading for c in self.table.columns]

    @property
    def rows(self) -> list[dict[str, Any]]:
        headings = self.headings
        return [dict(zip(headings, row, strict=True)) for row in self.table.rows]

    def to_pandas(self) -> Any:
        """A pandas ``DataFrame``: a column per heading, in order."""
        return _package("pandas").DataFrame(list(self.table.rows), columns=self.headings)

    def to_polars(self) -> Any:
        """A polars ``DataFrame``: a column per heading, in order, each typed from all of its values (a
        column of whole numbers and fractions is of floats)."""
        return _package("polars").DataFrame(
            list(self.table.rows), schema=self.headings, orient="row", strict=False, infer_schema_length=None
        )

    def _repr_html_(self) -> str | None:
        """A notebook shows the table as its frame (None: as its repr, neither package installed)."""
        try:
            found: str | None = self.frame()._repr_html_()
        except ImportError:
            return None
        return found

    def frame(self) -> Any:
        """The table as a pandas ``DataFrame``, else as a polars one, whichever is installed."""
        try:
            return self.to_pandas()
        except ImportError:
            pass
        try:
            return self.to_polars()
        except ImportError:
            raise ImportError(
                "a table as a frame needs pandas or polars, and neither is installed: pip install pandas",
                name="pandas",
            ) from None


def _tables(report: Report) -> dict[str, Table]:
    return {name: Table(name, found) for name, found in tables_of(report.json, report.parts).items()}


@attrs.frozen(repr=False)
class Report:
    """A report: :attr:`json`, its data as ``report.json`` holds it; :attr:`tables`, its tables by name,
    as the CSV files are named (``economy.coins.daily``; a comparison's ``differences``); ``parts``, the
    report's parts (the built-in areas', then a studio's)."""

    json: dict[str, Any] = attrs.field(converter=as_shown)
    parts: tuple[section.ReportPart, ...] = attrs.field(factory=report_parts)
    tables: dict[str, Table] = attrs.field(init=False, repr=False, default=attrs.Factory(_tables, True))

    @classmethod
    def of(
        cls,
        season: Season,
        *,
        manifest: str = "manifest",
        population: str = "population",
        areas: Sequence[ServerArea] = (),
    ) -> Report:
        """The report of ``season``, every day of it played, its run named by ``manifest`` and
        ``population``; ``areas``: a studio's areas (their server sides) whose parts the report has too."""
        if season.played < season.days:
            raise ValueError(
                f"a report is of a season played to its end: {season.played} of its {season.days} days are"
                " played (season.play() plays the rest)"
            )
        run = {"manifest": manifest, "population": population, "seed": season.seed}
        return cls(gather(season.sim, season, run=run, areas=areas), report_parts(areas))

    def write(self, out: str | os.PathLike[str]) -> tuple[Path, Path]:
        """Write ``report.json``, ``report.html`` and the CSV files into ``out`` (made if missing), as
        ``simulate --out`` does; answers the first two paths."""
        return write(self.json, Path(out), self.parts)

    def __repr__(self) -> str:
        return f"Report(tables: {', '.join(self.tables)})"


def play(
    manifest: Source,
    population: Source | None = None,
    *,
    players: int = PLAYERS,
    days: int = DAYS,
    seed: int = 0,
    seeds: int = 1,
    start: datetime | str = START,
    game: str | None = None,
    areas: Sequence[str] = (),
    check: bool = False,
) -> Report:
    """The report of ``manifest`` played by ``population`` (the default population when None), as
    ``livecore-server simulate MANIFEST`` with the same options writes it. ``areas``: a studio's own
    areas by package name (``--area``); several ``seeds`` are played side by side, a process per core."""
    options = _Options(players, days, seed, seeds, start, game, tuple(areas), check)
    return _run([manifest], [population], options)


def compare(
    manifest: Source,
    other: Source | None = None,
    *,
    population: Source | None = None,
    other_population: Source | None = None,
    players: int = PLAYERS,
    days: int = DAYS,
    seed: int = 0,
    seeds: int = 1,
    start: datetime | str = START,
    game: str | None = None,
    areas: Sequence[str] = (),
    check: bool = False,
) -> Report:
    """The comparison of ``manifest`` with ``other``, of ``population`` with ``other_population``, or of
    both, as ``simulate MANIFEST --compare OTHER --compare-population OTHER_POPULATION`` writes it: its
    table ``differences`` says how each headline number moved. Both seasons are played side by side."""
    if other is None and other_population is None:
        raise ValueError("a comparison needs another manifest, another population or both")
    manifests = [manifest, *([other] if other is not None else [])]
    populations = [population, *([other_population] if other_population is not None else [])]
    options = _Options(players, days, seed, seeds, start, game, tuple(areas), check)
    return _run(manifests, populations, options)


@attrs.frozen
class _Options:
    """The options :func:`play` and :func:`compare` share, as ``simulate`` has them."""

    players: int
    days: int
    seed: int
    seeds: int
    start: datetime | str
    game: str | None
    areas: tuple[str, ...]
    check: bool

    @property
    def when(self) -> datetime:
        """The season's start: in UTC where it names no offset."""
        when = datetime.fromisoformat(self.start) if isinstance(self.start, str) else self.start
        return when.replace(tzinfo=UTC) if when.tzinfo is None else when


def sweep(
    manifest: Source,
    field: str,
    *,
    population: Source | None = None,
    rows: Sequence[str] = (),
    expect: Sequence[str] = (),
    players: int = PLAYERS,
    days: int = DAYS,
    seed: int = 0,
    seeds: int = 1,
    start: datetime | str = START,
    game: str | None = None,
    areas: Sequence[str] = (),
    check: bool = False,
) -> Report:
    """``field`` (``"population:studio.offers.bronze-chest.price.coins=60..140/20"``, as ``--sweep``
    takes it) played at each value on the same seeds as ``manifest`` and ``population`` as given, as
    ``simulate --sweep`` writes it: its table ``sweep`` gives each value's effect on each row (those
    ``rows`` names, every one by default), and ``limits`` the ``expect`` limits judged at every value. A
    row or a limit naming no row is a warning, as the command's exit 2 is."""
    from livecore_server.simulate import limits as stated
    from livecore_server.simulate import sweep as sweeping

    swept = sweeping.parse(field)
    limits = [stated.parse(text) for text in expect]
    if swept.of == "population" and population is None:
        raise ValueError(f"{field}: a population: field is one of the population file: give population")
    options = _Options(players, days, seed, seeds, start, game, tuple(areas), check)
    run = _Prepared.of([manifest], [population], options)
    name, text = run.texts[0] if swept.of == "manifest" else run.population_texts[0]
    plan, added = sweeping.planned(swept, name, text)
    for value, changed in added:
        run.add(swept.of, sweeping.named(name, swept, value), changed)
    report = sweeping.simulate(run.manifests, run.populations, plan=plan, **run.arguments(options))
    for line in sweeping.finish(report, rows, limits):
        warnings.warn(f"names no row: {line}", stacklevel=2)
    return Report(report, report_parts(run.served))


def _run(manifests: Sequence[Source], populations: Sequence[Source | None], options: _Options) -> Report:
    """The report of ``manifests`` played by ``populations`` (one or two each), read as ``simulate``
    reads its own."""
    run = _Prepared.of(manifests, populations, options)
    report = simulate(run.manifests, run.populations, **run.arguments(options))
    return Report(report, report_parts(run.served))


@attrs.define
class _Prepared:
    """What a run plays, read as ``simulate`` reads it: the manifests (each ``texts`` too: what a worker
    process parses again) and the populations (each its text where it was given one), by the names the
    report gives them, and the studio's areas by name and served."""

    texts: list[tuple[str, str]]
    manifests: list[tuple[str, Manifest]]
    population_texts: list[tuple[str, str]]
    populations: list[tuple[str, Population]]
    named: tuple[str, ...]
    served: tuple[ServerArea, ...]
    areas: tuple[str, ...]

    @classmethod
    def of(
        cls, manifests: Sequence[Source], populations: Sequence[Source | None], options: _Options
    ) -> _Prepared:
        texts = [
            _read(m, shipped.MANIFESTS, read_manifest, str, "manifest", i) for i, m in enumerate(manifests)
        ]
        parsed = [(name, parse(text, options.areas)) for name, text in texts]
        named, served = areas_played(options.areas, [m for _, m in parsed])
        given = [
            ("default", "")
            if p is None
            else _read(p, shipped.POPULATIONS, population_text, str, "population", i)
            for i, p in enumerate(populations)
        ]
        read = []
        for name, text in given:
            population = population_of(text, served)
            if (idle := population.idle()) is not None:
                warnings.warn(f"population {name}: {idle}", stacklevel=4)
            read.append((name, population))
        return cls(texts, parsed, given, read, named, served, options.areas)

    def add(self, of: str, name: str, text: str) -> None:
        """Another configuration: a manifest's (``of``: ``manifest``) or a population's, by its text."""
        if of == "manifest":
            self.texts.append((name, text))
            self.manifests.append((name, parse(text, self.areas)))
        else:
            self.population_texts.append((name, text))
            self.populations.append((name, population_of(text, self.served)))

    def arguments(self, options: _Options) -> dict[str, Any]:
        """The arguments of :func:`~livecore_server.simulate.run.simulate` but the configurations."""
        return {
            "players": options.players,
            "days": options.days,
            "seed": options.seed,
            "start": options.when,
            "game": options.game,
            "areas": self.served,
            "seeds": options.seeds,
            "check": options.check,
            "sources": Sources(tuple(self.texts), self.areas, self.named),
        }


def _read(
    given: Source,
    shipped_names: Mapping[str, str],
    by_path: Callable[[str], T],
    by_text: Callable[[str], T],
    what: str,
    index: int,
) -> tuple[str, T]:
    """A manifest or a population (``what``), by the name the report gives it: given as its path or a
    shipped name, its file's name, read ``by_path``; given as its text (more than one line), ``what``
    (``other <what>`` the second of a comparison), read ``by_text``."""
    if isinstance(given, str) and "\n" in given:
        return (what if index == 0 else f"other {what}"), by_text(given)
    path = shipped.resolve(os.fspath(given), shipped_names)
    return os.path.basename(path), by_path(path)
