"""What an area's actions (``livecore/<area>/simulation.py``) need of a simulation and of a simulated
player, and no more: the game's runtime and scopes, a transaction, the clock, and a player's way to act
authenticated. An area's actions are typed against these, so they import nothing of the simulation
that lists the areas (:mod:`livecore.simulation.player`), a studio's area as much as a built-in one."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from livecore.api.request import Handler, PathIds
    from livecore.api.route import Route
    from livecore.clock import ManualClock
    from livecore.commands import Runtime
    from livecore.games import Game
    from livecore.memory import MemoryStore
    from livecore.scope import Scope

T = TypeVar("T")


class World(Protocol):
    """A simulation, as an area's actions use it: :class:`livecore.Simulation` is one."""

    @property
    def rt(self) -> Runtime: ...

    @property
    def scope(self) -> Scope:
        """The client key's scope: what a player's request runs under."""
        ...

    @property
    def server_scope(self) -> Scope:
        """The server key's scope: what the studio's backend runs under."""
        ...

    @property
    def clock(self) -> ManualClock: ...

    @property
    def store(self) -> MemoryStore: ...

    @property
    def game(self) -> Game: ...

    @property
    def handlers(self) -> Mapping[Route, Handler]:
        """The handler of each route of the areas it plays (:attr:`livecore.area.Area.handlers`)."""
        ...

    #: Whether a builder's call is read through its wire form, as a stranger's request is
    #: (:mod:`livecore.simulation.calls`).
    checked: bool

    @property
    def paths(self) -> PathIds:
        """How the ids in a route's path are checked, with the areas' record ids."""
        ...

    def run(self, op: Callable[[Any], T]) -> T:
        """``op`` in one transaction (a :class:`~livecore.memory.MemoryTransaction` with the ports of every
        area the simulation plays, which ``op`` types against those it uses); a refusal raised as the
        client's exception class."""
        ...


class Handle(Protocol):
    """A simulated player, as an area's actions use it: :class:`livecore.simulation.SimPlayer` is one."""

    @property
    def sim(self) -> World: ...

    @property
    def id(self) -> str: ...

    @property
    def external_id(self) -> str: ...

    @property
    def player_secret(self) -> str:
        """The secret its calls send, as a client's ``player_secret``."""
        ...

    def act(
        self,
        op: Callable[[Any, Any], T],
        *,
        write: bool = False,
        route: Route | None = None,
        secret: str | None = None,
    ) -> T:
        """``op(tx, me)`` with the player authenticated by ``secret`` (its own, when None) as the server
        authenticates a player-scoped request (``me`` its record) and admitted as ``route`` admits it (a
        banned player's own write refused first), or as a write when ``write``."""
        ...
