"""An area's part of a season's report (docs/simulation.md#the-report): :class:`ReportPart`, declared by
the area's server side (``ServerArea.report``, in ``livecore_server/<area>/report.py``), a studio's area as
a built-in one. The report's modules know the areas through their parts only: :mod:`~.gather` reads each
part's section, :mod:`~.warnings` its warnings, :mod:`~.compare` its rows, :mod:`~.render` its charts.

Also here: the numbers every section writes the same way (:func:`percentiles`, :func:`number`, ...), so
a part imports nothing of the report's other modules.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import attrs

from livecore.games import GameSettings

if TYPE_CHECKING:
    from livecore.simulation import Simulation
    from livecore.simulation.season import Season

T = TypeVar("T")

#: A season of more than this many days groups its install cohorts by week.
COHORT_DAYS = 14
#: The percentiles a report gives of a distribution.
PERCENTILES = (10, 50, 90, 99)

#: A warning: ``{"area": ..., "subject": ..., "message": ...}``.
Warning = dict[str, str]
#: A row of a comparison: section, subject, metric, base, other, change.
Row = dict[str, Any]
#: What the report calls a source kind (a grant's ``sourceKind``, or a ledger reason's name).
Label = Callable[[str], str]
#: Per-player figures of a part by segment: ``{figure: {segment: value}}`` (:attr:`ReportPart.by_segment`).
Figures = Mapping[str, Mapping[str, float | None]]


@attrs.frozen
class Column:
    """A column of a :class:`Table`: its heading, and how the page shows its values: ``number``
    (thousands separated), ``share`` (0.25 as 25.0%), ``money`` (an amount of money, thousands separated
    and to the cent, 1,234.50, or under a dime to two significant digits, 0.0042), ``text`` (as it is,
    left-aligned) or ``source`` (a source kind, as the report calls it). The CSV file writes each value
    plainly."""

    heading: str
    kind: Literal["number", "share", "money", "text", "source"] = "number"


@attrs.frozen
class Table:
    """A table of the page and its CSV file: its columns and its rows, each a value per column (a number,
    a string, or None where there is none)."""

    columns: tuple[Column, ...]
    rows: tuple[tuple[Any, ...], ...]


def table(columns: Iterable[Column | str], rows: Iterable[Iterable[Any]]) -> Table:
    """A :class:`Table`; a column given as a string is a ``number`` column of that heading."""
    return Table(
        tuple(c if isinstance(c, Column) else Column(c) for c in columns), tuple(tuple(r) for r in rows)
    )


class Gathering:
    """What a part's section is read from: the simulation (its clock at the season's end, or at a day's
    end while the season plays and the parts fold), the season, the game's settings, the facts parts
    share (:meth:`memo`, read again at each fold), and what each part has folded (:meth:`kept`, kept
    from one fold to the next)."""

    def __init__(self, sim: Simulation, season: Season, parts: Sequence[ReportPart]) -> None:
        self.sim = sim
        self.season = season
        self.settings: GameSettings = sim.game.settings
        self.game_id = sim.game.id
        self.env = sim.env
        self.start = season.start
        self.days = season.days
        #: The report's parts, in their order.
        self.parts = parts
        self._memo: dict[str, Any] = {}
        self._kept: dict[str, Any] = {}

    @property
    def segments(self) -> dict[str, int]:
        """The population's segments, by name in the population's order, and each one's players."""

        def count() -> dict[str, int]:
            found = {s.name: 0 for s in self.season.population.segments}
            for name in self.season.segment_of.values():
                found[name] += 1
            return found

        return self.memo("segments", count)

    @property
    def end(self) -> datetime:
        """The simulation's time: the season's end once it is played."""
        return self.sim.now()

    def day(self, when: datetime) -> int:
        """The season's day of ``when`` (1 the first), within the season."""
        return min(self.days, max(1, int((when - self.start) / timedelta(days=1)) + 1))

    @property
    def by_week(self) -> bool:
        """Whether the install cohorts are weeks (a season of more than two weeks) rather than days."""
        return self.days > COHORT_DAYS

    def cohort(self, installed: int) -> str:
        """The install cohort of a player who installed on that day of the season (0 the first):
        ``day 3``, or ``week 2`` in a season of more than :data:`COHORT_DAYS` days."""
        return f"week {installed // 7 + 1}" if self.by_week else f"day {installed + 1}"

    def cohorts(self) -> list[str]:
        """Every install cohort of the season, in order."""
        return list(dict.fromkeys(self.cohort(day) for day in range(self.days)))

    def memo(self, name: str, make: Callable[[], T]) -> T:
        """``make()``, made once per reading of the store: a fact several parts read (the game's grants, by
        id), made again at each fold and at the end (:meth:`read_again`), the store having changed."""
        if name not in self._memo:
            self._memo[name] = make()
        found: T = self._memo[name]
        return found

    def kept(self, name: str, make: Callable[[], T]) -> T:
        """``make()``, made once per report and kept from one fold to the next: what a part has folded."""
        if name not in self._kept:
            self._kept[name] = make()
        found: T = self._kept[name]
        return found

    def read_again(self) -> None:
        """Forget the facts read of the store (:meth:`memo`): it has changed since."""
        self._memo.clear()

    def segment(self, player_id: str) -> str | None:
        """The segment of the player of that id (None for a player the season did not make)."""
        member = self.season.member_of(player_id)
        return None if member is None else member.segment.name

    def per_player(self, totals: Mapping[str, float]) -> dict[str, float | None]:
        """``totals`` by segment divided by each segment's players (a count of players so becomes their
        share), every segment in order: 0 where it has no total, None where it has no player."""
        return {
            name: number(totals.get(name, 0) / players) if players else None
            for name, players in self.segments.items()
        }

    def ledger_sources(self) -> dict[str, str]:
        """The source kind of each record a ledger entry names as its source (its ``source_ref_id``), by
        record id: what the parts declaring :attr:`ReportPart.ledger_sources` say."""
        found: dict[str, str] = {}
        for part in self.parts:
            if part.ledger_sources is not None:
                found.update(part.ledger_sources(self))
        return found


def _no_warnings(data: Any, settings: GameSettings, label: Label) -> list[Warning]:
    return []


def _no_refusal_warnings(refusals: Mapping[str, int]) -> list[Warning]:
    return []


def _no_rows(base: Any, other: Any) -> list[Row]:
    return []


@attrs.frozen
class ReportPart:
    """An area's part of the report:

    - ``key``: its section's key in the report (None: a part with labels only), and ``gather``, the
      section's plain data (dicts, lists, numbers and strings, in a fixed order) read from a
      :class:`Gathering`, or None where the part has nothing to say (the revenue of a season in which
      nobody paid): the report then has no such section, and the part's ``compare`` is given None for it;
      ``place``: where the section stands, the report's parts ordered by it (the built-in ones from 5 to
      85, so a studio's, at 100 by default, comes after them) and then as their areas are registered;
    - ``warnings``: the warnings its section's numbers call for (:func:`warning`), given the section,
      the game's settings and what each source kind is called; ``refusal_warnings``: those the season's
      refusals (``{"<action>:<code>": times}``) call for, after every section's;
    - ``compare``: its rows of a comparison (:func:`row`), given both reports' sections (None where a
      report has none); ``labelled_compare``, in its place for a part whose rows name source kinds, is
      given too what the report calls each (the economy's ``minted by gifts``);
    - ``charts``: the page's charts of its section (SVG text, or a dict of them by subject, a subject's None
      where a sentence or a table says what its chart would; None: none),
      ``compare_charts`` those of a comparison; each imports matplotlib (``livecore_server.simulate.charts``)
      when it draws, so declaring a part loads none;
    - ``page``: the Jinja template of its section of the page, named ``<package>:<path>``, rendered with
      ``report``, ``charts`` (by section key), ``tables`` (by name), the macro ``table(name)`` and the
      filters ``fmt``, ``pct`` and ``source`` (None: the section's data shown as its JSON, after its
      tables); ``compare_page``: its section of a comparison's page (None: none), where ``charts`` holds
      only the subjects whose rows moved, the largest change's first, and ``unmoved`` (by section key)
      those left undrawn, which the macro ``unchanged(subjects)`` names in a line;
    - ``tables``: the page's tables of its section, by name (a :class:`Table` each; the part's ``page``
      draws them with the ``table`` macro, and the report writes each as ``<name>.csv``): names are unique
      in a report, ``<key>`` or ``<key>.<subject>[.<what>]`` (``economy.coins.daily``), the dots keeping
      apart what the manifest's keys (letters, digits, ``-`` and ``_``) name;
    - ``by_segment``: per-player figures of the area for the report's ``segments`` section, read from a
      :class:`Gathering`: ``{figure: {segment: value}}``, keyed by figure (a name saying what it counts,
      ``coins minted per player``) then by segment, every segment of :attr:`Gathering.segments`
      (:meth:`Gathering.per_player` divides totals by each segment's players);
    - ``labels``: what the report calls each source kind the area names;
    - ``ledger_sources``: the source kind of each record of the area a ledger entry names as its source;
    - ``fold``: what the part takes from the store at each day's end while the season plays
      (:func:`~livecore_server.simulate.gather.fold`), of the records the report would otherwise read at
      the end: it keeps what it took in the :class:`Gathering` (:meth:`Gathering.kept`) and answers how to
      drop those records from the store (None: nothing to drop), so that a long season's memory does not
      grow with them; its ``gather`` then reads what it kept and what the store still holds. The drops
      run once every part has folded: a part may read another's records the day they are dropped (the
      grants' source kinds, for the ledger);
    - ``within``: the key of another part whose section ``gather``'s fields are added to (the crates'
      count of pending crates, in the grants' section), instead of a section of its own; that part's
      ``parts_before`` names the field of its section the added fields stand before (None: at its end).
    """

    key: str | None = None
    place: int = 100
    gather: Callable[[Gathering], Any] | None = None
    warnings: Callable[[Any, GameSettings, Label], list[Warning]] = _no_warnings
    refusal_warnings: Callable[[Mapping[str, int]], list[Warning]] = _no_refusal_warnings
    compare: Callable[[Any, Any], list[Row]] = _no_rows
    labelled_compare: Callable[[Any, Any, Label], list[Row]] | None = None
    charts: Callable[[Any, Label], Any] | None = None
    compare_charts: Callable[[Any, Any, Label], Any] | None = None
    page: str | None = None
    compare_page: str | None = None
    tables: Callable[[Any], Mapping[str, Table]] | None = None
    by_segment: Callable[[Gathering], Figures] | None = None
    labels: Mapping[str, str] = attrs.field(factory=dict)
    ledger_sources: Callable[[Gathering], Mapping[str, str]] | None = None
    fold: Callable[[Gathering], Callable[[], None] | None] | None = None
    within: str | None = None
    parts_before: str | None = None


def with_fields(section: Mapping[str, Any], added: Mapping[str, Any], before: str | None) -> dict[str, Any]:
    """``section`` with the fields another part adds (:attr:`ReportPart.within`), before its field
    ``before`` (None: at its end)."""
    fields = list(section.items())
    at = next((i for i, (name, _) in enumerate(fields) if name == before), len(fields))
    return dict([*fields[:at], *added.items(), *fields[at:]])


def labeller(parts: Iterable[ReportPart]) -> Label:
    """What the report calls each source kind, as the parts name them (the kind itself when none does)."""
    labels = {k: v for part in parts for k, v in part.labels.items()}
    return lambda source: labels.get(source, source)


# --- the numbers of a report -----------------------------------------------------------------------------


def percentiles(values: Sequence[float], *, ps: Iterable[int] = PERCENTILES) -> dict[str, float]:
    """``p<n>`` (nearest rank), ``max`` and ``mean`` of ``values``; all 0 when there are none."""
    ordered = sorted(values)
    n = len(ordered)
    out: dict[str, float] = {}
    for p in ps:
        out[f"p{p}"] = number(ordered[max(0, math.ceil(p / 100 * n) - 1)]) if n else 0
    out["max"] = number(ordered[-1]) if n else 0
    out["mean"] = number(sum(ordered) / n) if n else 0
    return out


def number(value: float) -> float:
    """A number as a report writes it: whole numbers as integers, others to 4 significant decimals."""
    if float(value).is_integer():
        return int(value)
    return round(value, 4)


def share(part: float, whole: float) -> float:
    return number(part / whole) if whole else 0


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def iso(when: datetime | None) -> str | None:
    return None if when is None else when.isoformat().replace("+00:00", "Z")


def histogram(values: Sequence[float], edges: Sequence[float]) -> list[dict[str, Any]]:
    """Counts of ``values`` in ``[edges[i], edges[i+1])``, the last bin open above."""
    bins = [{"from": number(edges[i]), "count": 0} for i in range(len(edges))]
    for value in values:
        index = 0
        for i, edge in enumerate(edges):
            if value >= edge:
                index = i
        bins[index]["count"] += 1
    return bins


def pct(share: float) -> str:
    """A share as a warning writes it (``42%``)."""
    return f"{share * 100:.0f}%"


def warning(area: str, subject: str, message: str) -> Warning:
    return {"area": area, "subject": subject, "message": message}


def row(
    section: str,
    subject: str,
    metric: str,
    base: float | None,
    other: float | None,
    *,
    absent: float | None = None,
) -> Row:
    """A comparison's row; ``change`` is other - base (None where either has none). ``absent``: what the
    row's number is, in both configurations, on a seed whose comparison has no such row (a source that
    minted nothing on that seed: 0); None: no number there."""
    change: float | None = None
    if base is not None and other is not None:
        change = number(other - base)
    found: Row = {
        "section": section,
        "subject": subject,
        "metric": metric,
        "base": base,
        "other": other,
        "change": change,
    }
    if absent is not None:
        found["absent"] = absent
    return found


def get(data: Any, *path: str) -> Any:
    """``data[path[0]][path[1]]...``, None where a step is missing."""
    value: Any = data
    for part in path:
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def keys(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """The keys of ``a``, then those only ``b`` has."""
    return [*a, *(k for k in b if k not in a)]
