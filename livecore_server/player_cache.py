"""Players recently read for heartbeats, so a heartbeat needs no database round trip (docs/friends.md).

A heartbeat arrives about every 30 seconds from every online player and changes nothing durable most of
the time (the presence board keeps it). What it must read is who the caller is: the player row (secret
hash, ban, lifecycle) and the game's settings. Reading them for every heartbeat made the database round
trip the heaviest part of a heartbeat on PostgreSQL, so a process keeps what it read for ``ttl`` seconds
(1 s, like API keys and game settings).

This process forgets a player as soon as one of its own transactions writes the player row (a ban, a
secret rotation, an erasure or merge), so its next heartbeat reads the row again. A write made by
another process reaches this one within ``ttl``: for that long a heartbeat may still be taken from a
player that process just banned or whose secret it just rotated. Nothing else uses this cache: every
other route reads the player in its own transaction.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from livecore.games import Game
from livecore.players import Player
from livecore.scope import Scope

MAX_ENTRIES = 100_000  # about 30 MB of players at most; past it, expired entries go, then everything

_Key = tuple[str, str, str]


class PlayerCache:
    def __init__(self, ttl: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._ttl = ttl
        self._clock = clock
        self._entries: dict[_Key, tuple[float, Player, Game]] = {}
        self._keys: dict[str, _Key] = {}  # player id -> entry key, to forget by id

    def get(self, scope: Scope, external_id: str) -> tuple[Player, Game] | None:
        hit = self._entries.get((scope.game_id, scope.env.value, external_id))
        if hit is None or self._clock() - hit[0] >= self._ttl:
            return None
        return hit[1], hit[2]

    def put(self, scope: Scope, external_id: str, player: Player, game: Game) -> None:
        if len(self._entries) >= MAX_ENTRIES:
            self._prune()
        key = (scope.game_id, scope.env.value, external_id)
        self._entries[key] = (self._clock(), player, game)
        self._keys[player.id] = key

    def forget(self, player_id: str) -> None:
        """The row of ``player_id`` was written by this process: read it again next time. Called on the
        writing transaction's thread (a worker thread on PostgreSQL); dict operations are atomic."""
        key = self._keys.pop(player_id, None)
        if key is not None:
            self._entries.pop(key, None)

    def clear(self) -> None:
        self._entries.clear()
        self._keys.clear()

    def _prune(self) -> None:
        now = self._clock()
        for key, (at, player, _) in list(self._entries.items()):
            if now - at >= self._ttl:
                del self._entries[key]
                self._keys.pop(player.id, None)
        if len(self._entries) >= MAX_ENTRIES:
            self.clear()
