"""What an area's actions (``livecore/<area>/simulation.py``) need of a simulation and of a simulated
player, and no more: the game's runtime and scopes, a transaction, the clock, and a player's way to act
authenticated. An area's actions are typed against these, so they import nothing of the simulation
that lists the areas (:mod:`livecore.simulation.player`), a studio's area as much as a built-in one."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from livecore.clock import ManualClock
    from livecore.commands import Runtime
    from livecore.games import Game
    from livecore.memory import MemoryStore
    from livecore.memory.store import MemoryTransaction
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

    def run(self, op: Callable[[MemoryTransaction], T]) -> T:
        """``op`` in one transaction; a refusal raised as the client's exception class."""
        ...


class Handle(Protocol):
    """A simulated player, as an area's actions use it: :class:`livecore.simulation.SimPlayer` is one."""

    @property
    def sim(self) -> World: ...

    @property
    def id(self) -> str: ...

    @property
    def external_id(self) -> str: ...

    def act(self, op: Callable[[MemoryTransaction, Any], T], *, write: bool) -> T:
        """``op(tx, me)`` with the player authenticated as the server authenticates a player-scoped
        request (``me`` its record; a write refused first for a banned player)."""
        ...
