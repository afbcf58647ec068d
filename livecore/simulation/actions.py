"""What every area's actions share: acting as one player, authenticated as the server authenticates a
player-scoped request (docs/simulation.md#players).

An area's actions are a subclass of :class:`Actions` in its own package (``livecore/<area>/simulation.py``),
one method per action the SDK offers, each calling the area's command and answering the wire model the
client's method answers. :class:`~livecore.simulation.player.SimPlayer` lists the built-in areas' ones. They
hold a player and a simulation as :mod:`livecore.simulation.handle` describes them, so this module and theirs
import nothing that lists the areas.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from livecore.api.convert import ABSENT, camel, check_declared, structure, unstructure
from livecore.errors import LivecoreError
from livecore.exceptions import api_error
from livecore.simulation.handle import Handle, World

if TYPE_CHECKING:
    from livecore.memory.store import MemoryTransaction

T = TypeVar("T")

#: The idempotency key a simulated request carries where the route requires one: a simulation makes
#: each call once, so no replay is ever looked up.
SIMULATED_KEY = "simulated"


def external_id_of(someone: Handle | str | None) -> str | None:
    """Who an action names besides its player: a handle, or an external id."""
    return someone if someone is None or isinstance(someone, str) else someone.external_id


def body(model: type[T], **fields: Any) -> T:
    """The request model as the server reads it from a JSON body: the same bounds and refusals (400
    ``invalid_request`` naming each offending field, raised as the client's
    :class:`~livecore.exceptions.InvalidRequestError`). A field left None is left out, as the client
    leaves it out."""
    return _structured(model, {k: v for k, v in fields.items() if v is not None})


def query(model: type[T], **fields: Any) -> T:
    """A query model as the server reads it from a query string: as :func:`body` reads one, then the
    limits its given fields declare (:func:`~livecore.api.convert.check_declared`)."""
    given = {k: v for k, v in fields.items() if v is not None}
    return _structured(model, given, lambda q: check_declared(q, map(camel, given)))


def patch(model: type[T], **fields: Any) -> T:
    """The body of a partial edit (a PATCH), read as :func:`body` reads one: a field left ``ABSENT`` is
    left out (kept as it is), while None is sent as null (cleared), as the client sends them."""
    return _structured(model, {k: v for k, v in fields.items() if v is not ABSENT})


def _wire(value: Any) -> Any:
    # A JSON scalar is its own wire form; anything else (an enum, a time, a record) as the converter
    # writes it.
    return value if value is None or type(value) in (str, int, float, bool) else unstructure(value)


def _structured(model: type[T], fields: dict[str, Any], then: Callable[[T], T] = lambda value: value) -> T:
    try:
        return then(structure({camel(k): _wire(v) for k, v in fields.items()}, model))
    except LivecoreError as err:
        # Read before any transaction, so outside Simulation.run: translated here, as it would be there.
        raise api_error(err) from None


class Actions:
    """One area's actions for one player."""

    def __init__(self, player: Handle) -> None:
        self._player = player
        self._sim: World = player.sim

    def _read(self, op: Callable[[MemoryTransaction, Any], T]) -> T:
        """A read by the player; ``op`` is given the transaction and the player's record (the players
        area's ``Player``, which this module, naming no area, leaves untyped)."""
        return self._player.act(op, write=False)

    def _write(self, op: Callable[[MemoryTransaction, Any], T]) -> T:
        """A write by the player: refused for a banned player before anything else, as on the server."""
        return self._player.act(op, write=True)


class ServerActions:
    """One area's actions for the studio's backend (the server key's routes), on any player."""

    def __init__(self, sim: World) -> None:
        self._sim = sim

    def _run(self, op: Callable[[MemoryTransaction], T]) -> T:
        return self._sim.run(op)
