"""What every area's actions share: acting as one player, authenticated as the server authenticates a
player-scoped request (docs/simulation.md#players).

An area's actions are a subclass of :class:`Actions` in its own package (``livecore/<area>/simulation.py``),
one method per action the SDK offers, each calling the area's command and answering the wire model the
client's method answers. :class:`~livecore.simulation.player.SimPlayer` lists them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from livecore.api.convert import ABSENT, camel, check_declared, structure, unstructure
from livecore.commands.actor import check_actor
from livecore.errors import LivecoreError
from livecore.exceptions import LivecoreAPIError, api_error
from livecore.memory.store import MemoryTransaction
from livecore.players.commands import authenticate
from livecore.players.rules import Player, seen_is_due

if TYPE_CHECKING:
    from livecore.simulation.player import SimPlayer
    from livecore.simulation.world import Simulation

T = TypeVar("T")

#: The idempotency key a simulated request carries where the route requires one: a simulation makes
#: each call once, so no replay is ever looked up.
SIMULATED_KEY = "simulated"


def external_id_of(someone: SimPlayer | str | None) -> str | None:
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

    def __init__(self, player: SimPlayer) -> None:
        self._player = player
        self._sim: Simulation = player.sim

    def _read(self, op: Callable[[MemoryTransaction, Player], T]) -> T:
        """A read by the player."""
        return self._act(op, write=False)

    def _write(self, op: Callable[[MemoryTransaction, Player], T]) -> T:
        """A write by the player: refused for a banned player before anything else, as on the server."""
        return self._act(op, write=True)

    def _act(self, op: Callable[[MemoryTransaction, Player], T], *, write: bool) -> T:
        sim, handle = self._sim, self._player
        seen: list[Player] = []

        def run(tx: MemoryTransaction) -> T:
            me = authenticate(tx, sim.rt, sim.scope, handle.external_id, handle.secret)
            now = sim.clock.now()
            # The server moves lastSeenAt on any authenticated client request, refused or not, at most
            # once per SEEN_EVERY (livecore.players.rules.seen_is_due); so does a simulated player's.
            if seen_is_due(me.last_seen_at, now):
                me = attrs.evolve(me, last_seen_at=now)
                tx.players.update(me)
                seen.append(me)
            return op(tx, check_actor(me) if write else me)

        try:
            return sim.run(run)
        except LivecoreAPIError:
            if seen:
                sim.run(lambda tx: tx.players.update(seen[0]))
            raise


class ServerActions:
    """One area's actions for the studio's backend (the server key's routes), on any player."""

    def __init__(self, sim: Simulation) -> None:
        self._sim = sim

    def _run(self, op: Callable[[MemoryTransaction], T]) -> T:
        return self._sim.run(op)
