"""What an area adds to the tables another area owns, as declarations on its :class:`~livecore.area.Area`.

An area that others build on declares a :class:`Point` where they may add to it: live events' steps of a
finishing attempt, the grants' kinds and the records a grant delivers, the fields of a friend row, the
refusals of a route, the values of a set of wire values. An area that builds on it lists what it adds in its
declaration, ``Area(contributes=(FINISH(feed), ...))``; nothing is added as a module is imported, so a
process behaves the same whichever of the areas' modules it loaded.

What a point holds is resolved for a set of areas (:class:`Contributions`):

- a runtime's (:attr:`livecore.commands.Runtime.contributions`), for what its commands do: the areas a
  server or a simulation registers;
- the process's (:func:`served`), for what is read without a runtime (the wire converters, a client, the
  documents): the built-in areas, resolved the first time a point is read, and every studio area registered
  since (:func:`livecore.areas.registered`).

The built-in areas are found through the package's entry point ``livecore`` / ``areas`` (pyproject.toml),
as Datasette and pytest find their plugins: the list is the top layer of the core, which imports every area,
and this module stands below them all.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib.metadata import entry_points
from typing import Any, Generic, Protocol, TypeVar

import attrs

T = TypeVar("T")


@attrs.frozen(eq=False)
class Point(Generic[T]):
    """A table of an area that the areas building on it add to: ``FINISH = Point[FinishStep]("...")``.
    Compared by identity: two points are one only if they are the same object."""

    name: str

    def __call__(self, value: T) -> Contribution[T]:
        """What an area adds here, for its ``contributes``."""
        return Contribution(self, value)


@attrs.frozen
class Contribution(Generic[T]):
    """One thing an area adds to another's :class:`Point`."""

    point: Point[T]
    value: T


class Contributes(Protocol):
    """An area, as far as its contributions go."""

    @property
    def contributes(self) -> tuple[Contribution[Any], ...]: ...


class Contributions:
    """What the points hold for one set of areas, in the areas' order and then the order each lists them."""

    __slots__ = ("_by_point", "areas")

    def __init__(self, areas: Iterable[Contributes]) -> None:
        #: The areas, in their order.
        self.areas = tuple(areas)
        self._by_point: dict[Point[Any], list[Any]] = {}
        for area in self.areas:
            for contribution in area.contributes:
                self._by_point.setdefault(contribution.point, []).append(contribution.value)

    def of(self, point: Point[T]) -> tuple[T, ...]:
        return tuple(self._by_point.get(point, ()))


# The process's areas: None until a point is first read without a runtime; then the built-in areas and the
# studio's areas registered since, each once.
_served: list[Contributes] | None = None
_resolved: Contributions | None = None
# Set while the built-in areas are imported for the first resolution: a module that reads a point as it is
# imported then sees what is resolved so far instead of importing the areas again.
_resolving = False


def served() -> Contributions:
    """What the points hold for the areas this process serves (see the module's description)."""
    global _served, _resolved, _resolving
    if _resolved is not None:
        return _resolved
    if _resolving:
        return Contributions(_served or ())
    _resolving = True
    try:
        built_in = _built_in()
    finally:
        _resolving = False
    _served = [*built_in, *(area for area in _served or () if area not in built_in)]
    _resolved = Contributions(_served)
    return _resolved


def _built_in() -> tuple[Contributes, ...]:
    found = entry_points(group="livecore", name="areas")
    if not found:
        raise RuntimeError(
            "livecore's built-in areas are not found: the package's metadata (its entry point livecore/areas)"
            " is missing; install it (pip install -e . in a checkout)"
        )
    areas: tuple[Contributes, ...] = next(iter(found)).load()
    return areas


def serve(areas: Iterable[Contributes]) -> None:
    """Adds ``areas`` (a studio's, as a runtime registers them) to what this process serves."""
    global _served, _resolved
    new = [area for area in areas if area not in (_served or ())]
    if new:
        _served = [*(_served or ()), *new]
        _resolved = None


__all__ = ["Contribution", "Contributions", "Point", "serve", "served"]
