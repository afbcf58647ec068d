"""What a write of a game waits for on PostgreSQL: a route declares it where it is bound
(``livecore_server.http.endpoint.bind``); SQLite runs one write at a time whatever it is."""

from __future__ import annotations

import enum


class Concurrency(enum.Enum):
    """What a write of a game waits for, across processes (docs/architecture.md, "Concurrency")."""

    # Every other write of its game: it holds the game's lock alone.
    QUEUED = "queued"
    # Only a write of one of the players its reads declare (its caller, the players its path and body
    # name): it shares the game's lock and holds theirs. For a write that changes, and decides on, only
    # what belongs to those players.
    PLAYERS = "players"
    # Nothing but the game's queued writes: it shares the game's lock and holds no other. For a write that
    # only adds rows of its own (a grant for a player) and decides on nothing another write changes.
    SHARED = "shared"


class GameAloneNeeded(Exception):
    """A write running beside its game's others found, as it ran, that it changes rows they share
    (:meth:`~livecore_server.storage.sqlport.SqlTransaction.hold_game_alone`): its transaction is rolled
    back, and it runs again holding its game alone. Its declaration (``Reads.alone``) is read from the
    game's manifest before the write reads anything; what the write then finds (a live-event window keeps
    the settings it opened with) has the last word."""
