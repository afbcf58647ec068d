"""The population file's field checks (docs/simulation.md#the-population), shared by the population
(:mod:`livecore.simulation.population`) and the tables the areas add to it
(:class:`~livecore.simulation.part.PopulationTable`): each problem is named by its field path, as the
manifest's are. Also here: :class:`Scale`, a score range on which a skill places a score, which the
events' and the shared boards' tables set. This module imports nothing of the areas."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from livecore.games import Order
from livecore.section import KEY_PATTERN, is_int, is_number

#: Each offending field path (``segments.whales.share``) and what is wrong with it.
Problems = dict[str, str]
#: A chance, from 0 to 1.
CHANCE = (0.0, 1.0)


@attrs.frozen
class Scale:
    """A score range: the scores of a player of skill 0 (``worst``) and of skill 1 (``best``)."""

    worst: float
    best: float

    def score(self, skill: float) -> float:
        return self.worst + skill * (self.best - self.worst)


def describe(kind: str, bounds: tuple[float, float]) -> str:
    low, high = bounds
    noun = "an integer" if kind == "int" else "a number"
    fmt: Callable[[float], str] = (lambda v: f"{v:g}") if kind == "number" else (lambda v: f"{int(v):,}")
    return f"must be {noun} from {fmt(low)} to {fmt(high)}"


def value(found: Any, kind: str, bounds: tuple[float, float], path: str, problems: Problems) -> bool:
    """Whether ``found`` is a finite number (``kind`` "number") or an integer ("int") within ``bounds``;
    else its problem is added."""
    ok = is_int(found) if kind == "int" else is_number(found) and math.isfinite(found)
    if not ok or not bounds[0] <= found <= bounds[1]:
        problems[path] = describe(kind, bounds)
        return False
    return True


def table(found: Any, path: str, problems: Problems) -> dict[str, Any] | None:
    if not isinstance(found, dict):
        problems[path] = "must be a table"
        return None
    return found


def unknown(
    found: Mapping[str, Any], known: set[str] | dict[str, Any], path: str, problems: Problems
) -> None:
    for name in found:
        if name not in known:
            problems[f"{path}.{name}"] = "is not a known field"


def key(name: str, path: str, problems: Problems) -> bool:
    if not KEY_PATTERN.fullmatch(name):
        problems[path] = "must be a key: lower-case letters, digits, '-' and '_', at most 64"
        return False
    return True


def _scale(name: str, raw: Any, path: str, problems: Problems) -> Scale | None:
    found_table = table(raw, path, problems)
    if found_table is None or not key(name, path, problems):
        return None
    unknown(found_table, {"worst", "best"}, path, problems)
    found: dict[str, float] = {}
    for field in ("worst", "best"):
        if field not in found_table:
            problems[f"{path}.{field}"] = "is required"
        elif not (is_number(found_table[field]) and math.isfinite(found_table[field])):
            problems[f"{path}.{field}"] = "must be a finite number"
        else:
            found[field] = float(found_table[field])
    if len(found) < 2:
        return None
    if found["worst"] == found["best"]:
        problems[f"{path}.best"] = "must differ from worst"
        return None
    return Scale(**found)


def scales(raw: Any, path: str, problems: Problems) -> dict[str, Scale]:
    """A table of score ranges by key (``[events.<key>]``: ``worst``, ``best``), those without problems."""
    found: dict[str, Scale] = {}
    for name, each in (table(raw, path, problems) or {}).items():
        scale = _scale(name, each, f"{path}.{name}", problems)
        if scale is not None:
            found[name] = scale
    return found


def written(found: float, whole: bool = False) -> str:
    """A number as a population file writes it: an integer, or a float that reads back the same."""
    return str(int(found)) if whole else repr(float(found))


def write_scales(path: str, found: Mapping[str, Scale]) -> list[str]:
    """Score ranges as TOML lines :func:`scales` reads back: a ``[<path>.<key>]`` table each."""
    lines: list[str] = []
    for key, scale in found.items():
        lines += [f"[{path}.{key}]", f"worst = {written(scale.worst)}", f"best = {written(scale.best)}", ""]
    return lines[:-1]


def check_scales(
    found: Mapping[str, Scale],
    declared: Mapping[str, Any],
    path: str,
    problems: Problems,
    *,
    one: str,
    listed: str,
    own: str,
) -> None:
    """Refuse a range under ``path`` naming what the game does not declare (``declared``: each record by
    key, with its ``order``), and a range whose best is not the better end by that order. The problems
    name one record as ``one`` (``an event``), the game's as ``listed`` (``events``) and a record's order
    as ``own``'s (``event``)."""
    for key, scale in found.items():
        record = declared.get(key)
        if record is None:
            known = ", ".join(sorted(declared)) or "none"
            problems[f"{path}.{key}"] = f"is not {one} of the game (its {listed}: {known})"
        elif (scale.best < scale.worst) != (record.order is Order.ASC):
            better = "below" if record.order is Order.ASC else "above"
            problems[f"{path}.{key}.best"] = (
                f"must be {better} worst: the {own}'s order is {record.order.value}"
            )
