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
  documents): the installed areas (:func:`livecore.registry.installed`), resolved the first time a point is
  read, and every studio area a server or a simulation serves since (:func:`serve`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, Generic, Protocol, TypeVar

import attrs

from livecore.entry_points import installed_areas

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
    """An area (:class:`livecore.area.Area`) as a runtime reads it: what it adds to other areas' tables,
    and what a merge and an erasure do to its records."""

    @property
    def contributes(self) -> tuple[Contribution[Any], ...]: ...

    @property
    def merge(self) -> Callable[..., None] | None: ...

    @property
    def erase(self) -> Callable[..., None] | None: ...


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
        built_in = installed_areas()
    finally:
        _resolving = False
    _served = [*built_in, *(area for area in _served or () if area not in built_in)]
    _resolved = Contributions(_served)
    return _resolved


@functools.cache
def installed() -> Contributions:
    """What the points hold for the installed areas alone: a runtime's unless it is given its own."""
    return Contributions(installed_areas())


def serve(areas: Iterable[Contributes]) -> None:
    """Adds ``areas`` (a studio's, as a runtime registers them) to what this process serves."""
    global _served, _resolved
    new = [area for area in areas if area not in (_served or ())]
    if new:
        _served = [*(_served or ()), *new]
        _resolved = None


__all__ = ["Contribution", "Contributions", "Point", "installed", "serve", "served"]
