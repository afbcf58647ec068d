"""The actor policy: a player acting on its own behalf is refused every write while banned.

Every command a player performs as the actor (each player-scoped client write: friend requests and
blocks, gifts, grant claims, client spends, its own identity, purchase reports, heartbeats) is declared
with :func:`player_write`, which refuses a banned actor with 403 ``player_banned`` before the command
reads or writes anything. The rule is therefore the commands', wherever they run: in the server or in an
embedded simulation on the memory store.

The server applies the same :func:`check_actor` when it authenticates the player of a player-scoped
write, because the wire pins that the ban wins over anything the route resolves before its command runs
(a target player, a request, a grant, or a stored answer to a replayed idempotency key).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from livecore.players.rules import Player, ensure_not_banned

P = ParamSpec("P")
R = TypeVar("R")

# Every command declared a player write, by its dotted name.
PLAYER_WRITES: dict[str, Callable[..., Any]] = {}


def check_actor(player: Player) -> Player:
    """The policy: the player may act on its own behalf only while not banned."""
    ensure_not_banned(player)
    return player


def player_write(actor: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Declare a command a write the player passed as ``actor`` performs on its own behalf."""

    def declare(command: Callable[P, R]) -> Callable[P, R]:
        # Found once here, not per call: heartbeats go through this on their hot path.
        index = list(inspect.signature(command).parameters).index(actor)

        @functools.wraps(command)
        def refusing_banned(*args: P.args, **kwargs: P.kwargs) -> R:
            player = kwargs[actor] if actor in kwargs else args[index]
            assert isinstance(player, Player)
            check_actor(player)
            return command(*args, **kwargs)

        PLAYER_WRITES[f"{command.__module__}.{command.__qualname__}"] = refusing_banned
        return refusing_banned

    return declare
