"""Players recently read for heartbeats, so a heartbeat needs no database round trip (docs/friends.md).

A heartbeat arrives about every 30 seconds from every online player and changes nothing durable most of
the time (the presence board keeps it). What it must read is who the caller is: the player row (secret
hash, ban, lifecycle). Reading it for every heartbeat made the database round trip the heaviest part of
a heartbeat on PostgreSQL, so a process keeps the rows it read.

How long depends on whether the process hears of every write to a player row (``watched``):

- **Watched** (``watched_ttl``, 5 minutes by default): the store tells :meth:`forget` about every
  committed write of every process. On SQLite that is always so: one process serves the database and
  its transactions tell the cache as they write. On PostgreSQL it is so while the process's notification
  connection listens (``PostgresStore.watch``): every transaction that writes a player row sends
  a NOTIFY with the player's id, delivered to every process when it commits. The TTL is then only a
  bound on memory and on what a lost notification could cost.
- **Not watched** (``ttl``, 1 second): on PostgreSQL before the notification connection listens and
  whenever it is lost. A write made by another process then reaches this one within ``ttl``.

A row read while a write was committing could be older than that write and still arrive after the
write's notification: :meth:`put` therefore drops what it is given when anything was forgotten since the
read began (``generation``), rather than cache a row that no notification will correct.

This process also forgets a player as soon as one of its own transactions writes the row (a ban, a
secret rotation, an erasure or merge), before the notification comes back. Nothing but heartbeats uses
this cache: every other route reads the player in its own transaction.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from livecore.players.rules import Player
from livecore.scope import Scope
from livecore_server.area_service import AreaService, ServiceKey

if TYPE_CHECKING:
    from livecore_server.storage.server_store import ServerStore

MAX_ENTRIES = 100_000  # about 30 MB of players at most; past it, expired entries go, then the oldest
EVICT_FRACTION = 4  # when full of fresh entries, the oldest quarter goes

_Key = tuple[str, str, str]


#: The cache, as the server's services hold it (``services.of(PLAYER_CACHE)``).
PLAYER_CACHE: ServiceKey[PlayerCache] = ServiceKey("player_cache")


class PlayerCache(AreaService):
    """The players area's service (:mod:`livecore_server.area_service`) that keeps the rows heartbeats
    read."""

    def __init__(
        self, ttl: float = 1.0, watched_ttl: float = 300.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._ttl = ttl
        self._watched_ttl = watched_ttl
        self._clock = clock
        self._watched = False
        # Oldest first: a put moves its key to the end, so eviction drops the least recently read.
        self._entries: dict[_Key, tuple[float, Player]] = {}
        self._keys: dict[str, _Key] = {}  # player id -> entry key, to forget by id
        self._generation = 0

    @property
    def generation(self) -> int:
        """Changes whenever anything is forgotten: take it before reading a row, give it to :meth:`put`."""
        return self._generation

    @property
    def watched(self) -> bool:
        return self._watched

    def watch(self, watched: bool) -> None:
        """Whether every write to a player row, by any process, now reaches :meth:`forget`. On a change
        everything cached so far is dropped: writes may have gone unheard until now (or, as watching
        stops, the entries were kept for a TTL that no longer holds)."""
        if watched is not self._watched:
            self._watched = watched
            self.clear()

    def follow(self, store: ServerStore) -> None:
        store.on_player_written(self.forget)

    def player_written(self, player_id: str) -> None:
        self.forget(player_id)

    def watching(self, on: bool) -> None:
        self.watch(on)

    def get(self, scope: Scope, external_id: str) -> Player | None:
        hit = self._entries.get((scope.game_id, scope.env.value, external_id))
        ttl = self._watched_ttl if self._watched else self._ttl
        if hit is None or self._clock() - hit[0] >= ttl:
            return None
        return hit[1]

    def put(self, scope: Scope, external_id: str, player: Player, generation: int) -> None:
        """Keep ``player``, read after :attr:`generation` was ``generation``; dropped when something was
        forgotten since (the row may predate that write)."""
        if generation != self._generation:
            return
        key = (scope.game_id, scope.env.value, external_id)
        self._entries.pop(key, None)
        if len(self._entries) >= MAX_ENTRIES:
            self._prune()
        self._entries[key] = (self._clock(), player)
        self._keys[player.id] = key

    def forget(self, player_id: str) -> None:
        """The row of ``player_id`` was written: read it again next time. Called on the event loop (a
        notification) or on a writing transaction's thread (a tool's or a command's); dict
        operations are atomic, and the generation only has to change, not count exactly."""
        self._generation += 1
        key = self._keys.pop(player_id, None)
        if key is not None:
            self._entries.pop(key, None)

    def clear(self) -> None:
        self._generation += 1
        self._entries.clear()
        self._keys.clear()

    def _prune(self) -> None:
        """Make room: every expired entry, and at least the oldest quarter. Entries are in the order they
        were put, so the expired ones are the first ones."""
        now = self._clock()
        ttl = self._watched_ttl if self._watched else self._ttl
        at_least = len(self._entries) // EVICT_FRACTION
        victims = []
        for i, (key, (at, _)) in enumerate(self._entries.items()):
            if i >= at_least and now - at < ttl:
                break
            victims.append(key)
        for key in victims:
            _, player = self._entries.pop(key)
            self._keys.pop(player.id, None)
