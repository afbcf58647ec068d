"""A field played over several values (``livecore-server simulate --sweep PATH=VALUES``,
docs/simulation.md#sweeps): a number of the manifest's TOML (``studio.offers.x.price.coins`` of a
manifest, ``population:segments.casual.return_d1`` of the population file), each value a configuration
of its own played on the same seeds as the file as given (the base), and compared with it as
``--compare`` compares two (:func:`~livecore_server.simulate.compare.comparison`): each value's effect
on each row, with its interval and its mark, by the one rule a comparison has."""

from __future__ import annotations

import copy
import difflib
import math
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import attrs

from livecore.section import read_toml, write_toml

if TYPE_CHECKING:
    from livecore.manifest import Manifest
    from livecore.simulation.population import Population
    from livecore_server.area import ServerArea
    from livecore_server.simulate.engines import Engine
    from livecore_server.simulate.limits import Limit
    from livecore_server.simulate.run import Sources
    from livecore_server.simulate.section import ReportPart, Row

#: The most values one sweep plays: each is a configuration played on every seed.
MOST_VALUES = 50
#: The rows a sweep's page draws when no row is asked for: those beyond the seeds' noise at some value,
#: the strongest evidence first, then the largest change.
CHARTED = 10
#: The prefix of a field of the population file; a path without it is the manifest's.
POPULATION = "population:"

Number = int | float

_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_RANGE = re.compile(rf"\s*(?P<first>{_NUMBER})\s*\.\.\s*(?P<last>{_NUMBER})\s*/\s*(?P<step>{_NUMBER})\s*")
_FORM = (
    'write --sweep "PATH=VALUES": PATH a field of the manifest (population:PATH, of the population file),'
    " dotted as its TOML nests it, and VALUES a range FIRST..LAST/STEP (60..120/10) or a list (60,80,100)"
)


@attrs.frozen
class Sweep:
    """``--sweep`` as written (``text``): the file it changes (``of``: ``manifest`` or ``population``),
    the field's ``path`` in it, and the ``values`` played."""

    text: str
    of: str
    path: tuple[str, ...]
    values: tuple[Number, ...]

    @property
    def field(self) -> str:
        """The field's path, dotted."""
        return ".".join(self.path)


def parse(text: str) -> Sweep:
    """The sweep ``text`` says, or ``ValueError`` saying what is wrong with it."""
    path, equals, given = text.rpartition("=")
    if not equals or not path.strip() or not given.strip():
        raise ValueError(f"{text!r}: {_FORM}")
    path = path.strip()
    of = "manifest"
    if path.startswith(POPULATION):
        of, path = "population", path[len(POPULATION) :]
    parts = tuple(p.strip() for p in path.split("."))
    if not all(parts):
        raise ValueError(f"{text!r}: the path {path!r} has an empty part: {_FORM}")
    return Sweep(text.strip(), of, parts, tuple(values(given)))


def values(text: str) -> list[Number]:
    """The values ``text`` says: a range ``FIRST..LAST/STEP`` (from FIRST up by STEP while not past LAST,
    LAST included when a step lands on it) or a list ``A,B,C``; each a whole number where written as one
    (``60``), else a decimal one (``0.25``, ``1e3``). ``ValueError`` for anything else, a value given
    twice, or more than :data:`MOST_VALUES`."""
    found = _RANGE.fullmatch(text)
    if found is not None:
        first, last, step = (Decimal(found[k]) for k in ("first", "last", "step"))
        whole = all(_whole(found[k]) for k in ("first", "last", "step"))
        if step <= 0 or last < first:
            raise ValueError(f"{text!r}: a range goes up from FIRST to LAST by a STEP above 0 (60..120/10)")
        count = int((last - first) / step) + 1
        if count > MOST_VALUES:
            raise ValueError(f"{text!r} is {count} values: a sweep plays at most {MOST_VALUES}")
        return [_number(first + i * step, whole) for i in range(count)]
    items = [item.strip() for item in text.split(",")]
    if not all(re.fullmatch(_NUMBER, item) for item in items):
        raise ValueError(f"{text!r}: {_FORM}")
    listed = [_number(Decimal(item), _whole(item)) for item in items]
    twice = sorted({str(v) for v in listed if listed.count(v) > 1})
    if twice:
        raise ValueError(f"{text!r} gives {', '.join(twice)} twice")
    if len(listed) > MOST_VALUES:
        raise ValueError(f"{text!r} is {len(listed)} values: a sweep plays at most {MOST_VALUES}")
    return listed


def _whole(written: str) -> bool:
    return not any(c in written for c in ".eE")


def _number(value: Decimal, whole: bool) -> Number:
    return int(value) if whole else float(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _kind(value: Any) -> str:
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, datetime):
        return "a date"
    return "a number" if _is_number(value) else type(value).__name__


def _missing(where: str, path: Sequence[str], depth: int, keys: Sequence[str]) -> str:
    """Why ``where`` has no ``path`` (its ``depth``-th part is not a key of its table there), with the
    keys nearest it, else every key the table has."""
    table = "its top level" if depth == 0 else ".".join(path[:depth])
    near = difflib.get_close_matches(path[depth], keys, n=3, cutoff=0.6)
    if near:
        hint = f"did you mean {' or '.join('.'.join([*path[:depth], k]) for k in near)}?"
    else:
        hint = f"{table} has {', '.join(sorted(keys)) or 'nothing'}"
    return f"{where} has no {'.'.join(path[: depth + 1])}: {hint}"


def field(data: Mapping[str, Any], path: Sequence[str], where: str) -> Number:
    """The number at ``path`` in a file's tables (an array's item by its index from 0: ``gives.0.amount``);
    ``ValueError`` naming what is there instead (the keys nearest a missing one)."""
    node: Any = data
    for depth, part in enumerate(path):
        if isinstance(node, Mapping):
            if part not in node:
                raise ValueError(_missing(where, path, depth, list(node)))
            node = node[part]
        elif isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise ValueError(
                    f"{where} has no {'.'.join(path[: depth + 1])}: {'.'.join(path[:depth])} is an array"
                    f" of {len(node)}, its items numbered from 0"
                )
            node = node[int(part)]
        else:
            raise ValueError(
                f"{where} has no {'.'.join(path[: depth + 1])}: {'.'.join(path[:depth])} is {_kind(node)}"
            )
    if not _is_number(node):
        raise ValueError(f"{where}: {'.'.join(path)} is {_kind(node)}, and a sweep plays a number")
    return node  # type: ignore[no-any-return]


def _with(data: Mapping[str, Any], path: Sequence[str], value: Number) -> dict[str, Any]:
    """A copy of ``data`` with ``value`` at ``path`` (:func:`field` found a number there): a decimal
    number where the file has one, so ``1,2`` plays a rate written ``1.5`` as 1.0 and 2.0."""
    changed = copy.deepcopy(dict(data))
    node: Any = changed
    for part in path[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    last: Any = int(path[-1]) if isinstance(node, list) else path[-1]
    node[last] = float(value) if isinstance(node[last], float) else value
    return changed


def variants(text: str, sweep: Sweep, where: str) -> tuple[Number, list[str | None]]:
    """The field's value in the file ``text`` (``where``: how a refusal names the file) and each of the
    sweep's values as the file's text with that value at the field; None for a value that leaves the file
    as it is (the base's own). ``ValueError`` where the file has no number at the path."""
    data = read_toml(text)
    base = field(data, sweep.path, where)
    out: list[str | None] = []
    for value in sweep.values:
        changed = _with(data, sweep.path, value)
        out.append(None if changed == data else write_toml(changed))
    return base, out


@attrs.frozen
class Plan:
    """What a sweep plays: its :class:`Sweep`, the file it changes (by name) and the field's value there
    (``base``), and for each value the configuration it plays (``runs``: 0, the base's own, for a value
    the file already has; else its index among the configurations)."""

    sweep: Sweep
    file: str
    base: Number
    runs: tuple[int, ...]


def planned(sweep: Sweep, file: str, text: str) -> tuple[Plan, list[tuple[Number, str]]]:
    """The sweep's :class:`Plan` over the file named ``file`` whose text is ``text``, and the
    configurations it adds to the base: each value that changes the file, with the file's text at that
    value, in the values' order (each after the base's, so that its run is its place among them; the
    report names it :func:`named`). ``ValueError`` where the file has no number at the path."""
    base, changed = variants(text, sweep, f"{sweep.of} {file}")
    runs: list[int] = []
    added: list[tuple[Number, str]] = []
    for value, at in zip(sweep.values, changed, strict=True):
        if at is not None:
            added.append((value, at))
        runs.append(len(added) if at is not None else 0)
    return Plan(sweep, file, base, tuple(runs)), added


def named(file: str, sweep: Sweep, value: Number) -> str:
    """A value's configuration as the report names it: ``shop.toml with studio.offers.x.price.coins = 80``."""
    return f"{file} with {sweep.field} = {value}"


def pinned(
    manifests: Sequence[tuple[str, Manifest]],
    populations: Sequence[tuple[str, Population]],
    game: str | None,
    areas: Sequence[ServerArea],
) -> list[tuple[str, Population]]:
    """Each configuration's population as a comparison of it with the base (the first) plays it
    (:func:`~livecore_server.simulate.run.simulate`): a skill placed on the base manifest's score
    ranges, and its offers priced against the base's. The base's own places every range as its season
    would by default, so it plays as the base of each comparison does."""
    from livecore import registry
    from livecore_server.simulate.run import game_settings

    runs = max(len(manifests), len(populations))
    settings = [game_settings(m, game) for _, m in manifests]
    each = settings if len(settings) == runs else settings * runs
    people = list(populations) if len(populations) == runs else list(populations) * runs
    played = registry.areas(a.area for a in areas)
    name, first = people[0]
    base = first.pinned(each[0], each[0], played)
    out = [(name, base)]
    for (name, population), theirs in zip(people[1:], each[1:], strict=True):
        against = first.pinned(each[0], theirs, played)
        out.append((name, population.pinned(each[0], theirs, played).against(against, played)))
    return out


def simulate(
    manifests: list[tuple[str, Manifest]],
    populations: list[tuple[str, Population]],
    *,
    plan: Plan,
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
    """The sweep's report: the configurations (the base first, then each value's that differs from it:
    the manifests or the populations, the one given once serving all) played on the same seeds, as
    :func:`~livecore_server.simulate.run.simulate` plays a comparison's, and each value compared with the
    base (:func:`report`)."""
    from livecore_server.simulate.gather import parts
    from livecore_server.simulate.run import seasons_played

    played = seasons_played(
        manifests,
        pinned(manifests, populations, game, areas),
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
    return report(played, list(range(seed, seed + seeds)), parts(areas), plan)


def report(
    played: list[list[dict[str, Any]]], seeds: list[int], found: Sequence[ReportPart], plan: Plan
) -> dict[str, Any]:
    """The report of a sweep (``played``: each seed's reports, a configuration each, the base's first):
    ``sweep``, the field, its value in the base, the values and every row with, at each value, the
    comparison's row of the value against the base (``at``: :func:`~.compare.paired`'s, with the
    ``value``; its numbers null where that comparison has no such row); and ``base``, the base's report
    of the first seed, whole. ``differences`` holds each value's comparison's rows, every one, for
    :func:`finish`, which takes them out."""
    from livecore_server.simulate.limits import name_of
    from livecore_server.simulate.run import reported

    compared = [reported([[p[0], p[run]] for p in played], seeds, found) for run in plan.runs]
    each = [c["differences"] for c in compared]
    named: dict[str, Row] = {}
    for rows in each:
        for r in rows:
            named.setdefault(name_of(r), r)
    by_value = [{name_of(r): r for r in rows} for rows in each]
    rows_out = []
    for key, first in named.items():
        at = []
        for value, rows in zip(plan.sweep.values, by_value, strict=True):
            found_row = rows.get(key)
            numbers = {k: v for k, v in (found_row or first).items() if k not in _NAMED}
            at.append({"value": value, **(numbers if found_row else dict.fromkeys(numbers))})
        rows_out.append({**{k: first[k] for k in _NAMED}, "at": at})
    sweep = plan.sweep
    return {
        "sweep": {
            "of": sweep.of,
            "file": plan.file,
            "path": sweep.field,
            "base": plan.base,
            "values": list(sweep.values),
            "rows": rows_out,
        },
        "base": compared[0]["base"],
        "differences": each,
    }


_NAMED = ("section", "subject", "metric")


def finish(report: dict[str, Any], asked: Sequence[str], limits: Sequence[Limit]) -> list[str]:
    """The sweep's ``report`` as it is written: only the rows ``asked`` (by name,
    ``section.subject.metric``, in the order asked; every row where none is), and its ``asked``; its
    ``limits`` judged at every value (:func:`~livecore_server.simulate.limits.judged`, each with the
    ``value``); its ``differences`` taken out. Answers a line for each row asked and each limit naming no
    row at any value, with the row names nearest it."""
    from livecore_server.simulate import limits as stated

    each: list[list[Row]] = report.pop("differences")
    sweep = report["sweep"]
    sweep["asked"] = list(asked) or None
    if limits:
        report["limits"] = [
            {"value": value, **found}
            for value, rows in zip(sweep["values"], each, strict=True)
            for found in stated.judged(limits, rows)
        ]
    every = [r for rows in each for r in rows]
    names = list(dict.fromkeys(stated.name_of(r) for r in every))
    unnamed = [f"--row {n}: {stated.nearest(n, names)}" for n in asked if n not in names]
    if asked:
        by_name = {stated.name_of(r): r for r in sweep["rows"]}
        sweep["rows"] = [by_name[n] for n in dict.fromkeys(asked) if n in by_name]
    report["base"] = report.pop("base")  # after the limits: the sweep's findings lead the file
    return unnamed + [f"--expect {line}" for line in stated.unknown(limits, every)]


def charted(sweep: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The rows a sweep's page draws: those asked for; else, of those that moved at some value, the
    :data:`CHARTED` beyond the seeds' noise at some value first, the smallest p-value first, then the
    largest relative change, then the largest change."""
    rows: list[dict[str, Any]] = sweep["rows"]
    if sweep.get("asked"):
        return rows

    def at(row: Mapping[str, Any], key: str) -> list[Any]:
        return [a[key] for a in row["at"] if a[key] is not None]

    moved = [r for r in rows if any(c not in (0, None) for a in r["at"] for c in (a["changes"] or ()))]
    moved.sort(
        key=lambda r: (
            not any(at(r, "significant")),
            min(at(r, "p"), default=math.inf),
            -max((abs(v) for v in at(r, "relative")), default=0),
            -max((abs(v) for v in at(r, "change")), default=0),
        )
    )
    return moved[:CHARTED]


def chart(row: Mapping[str, Any], sweep: Mapping[str, Any], index: int) -> str:
    """A row's effect against the field's value: at each value its relative change (its change, in the
    row's units, where some value has no share), with its interval; filled where the row is beyond the
    seeds' noise, hollow where not; the base's value at 0. An interval longer than the changes' own
    spread runs off the chart (:func:`_bounds`)."""
    from matplotlib.figure import Figure

    from livecore_server.simulate import charts

    points = [a for a in row["at"] if a["change"] is not None]
    shares = all(a["relative"] is not None for a in points)
    scale, key, span = (100.0, "relative", "interval") if shares else (1.0, "change", "change_interval")
    name = f"{row['section']}.{row['subject']}.{row['metric']}"

    bottom, top = _bounds(points, key, span, scale)

    def end(a: Mapping[str, Any], side: int, y: float) -> float:
        """An interval's end on the chart: the value's own where it has none, the chart's edge where
        the interval has no bound on that side (null)."""
        if not a[span]:
            return y
        found = a[span][side]
        return (top if side else bottom) if found is None else found * scale

    def draw(fig: Figure) -> None:
        ax = fig.add_subplot()
        ax.axhline(0, color=charts.HELD[2], linewidth=0.8)
        for marked in (True, False):
            chosen = [a for a in points if bool(a["significant"]) is marked]
            if not chosen:
                continue
            xs = [a["value"] for a in chosen]
            ys = [a[key] * scale for a in chosen]
            low = [max(0, y - end(a, 0, y)) for y, a in zip(ys, chosen, strict=True)]
            high = [max(0, end(a, 1, y) - y) for y, a in zip(ys, chosen, strict=True)]
            ax.errorbar(
                xs,
                ys,
                yerr=[low, high],
                fmt="o",
                color=charts.PALETTE[0],
                markerfacecolor=charts.PALETTE[0] if marked else "white",
                capsize=3,
                label="beyond noise" if marked else "within noise",
            )
        ax.plot([sweep["base"]], [0], "D", color=charts.HELD[0], label="base")
        ax.set_ylim(bottom, top)
        ax.set_xlabel(sweep["path"])
        ax.set_ylabel("change from the base (%)" if shares else "change from the base")
        charts.title(ax, name)
        ax.legend(loc="best")

    return charts.svg(f"sweep-{index}", draw, size=(4.6, 3.0), left=0.75)


def _bounds(points: Sequence[Mapping[str, Any]], key: str, span: str, scale: float) -> tuple[float, float]:
    """A chart's y range: the changes and 0, and their intervals no further than the changes' own spread
    beyond them. A few seeds' intervals can be many times wider than the changes (two seeds': a t of
    one degree of freedom), and would flatten the points into a line at 0."""
    ys = [0.0, *(a[key] * scale for a in points)]
    low, high = min(ys), max(ys)
    room = (high - low) or (10.0 if scale != 1.0 else 1.0)
    ends = [e * scale for a in points if a[span] for e in a[span] if e is not None]
    bottom = max(min(ends, default=low), low - room)
    top = min(max(ends, default=high), high + room)
    pad = ((top - bottom) or room) * 0.05  # a row that moved nowhere still has a range to draw 0 in
    return min(bottom, low) - pad, max(top, high) + pad
