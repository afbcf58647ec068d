"""The presence board: heartbeats held in memory, written to the database in batches.

A heartbeat arrives about every 30 seconds from every online player; making each one a durable write would
make presence the heaviest write of the service, for data that expires on its own
(docs/reference/friends-and-presence.md#presence). The board keeps the latest heartbeat of each player in
memory and writes what changed every few seconds (``flush``), before an advance of the manual clock
(``Services.flush_buffers``), and on shutdown. Reads overlay the board on the
stored rows, so a heartbeat is visible at once. A heartbeat that opens a session or a new streak day is
written at once instead, since sessions and streaks are durable facts.

The board also holds what authenticated client requests say of the player beyond a heartbeat, so that a
read costs no write: a ``lastSeenAt`` due to move (once an hour at most) and a platform or app version
that differs from the row (once per change); both are written with the next flush.

One board per server process. Several processes on PostgreSQL share presence through the database: each
writes its board every second (``Config.flush_seconds``) and reads the others' heartbeats from the player
rows, so a heartbeat is visible at once on the process that took it and within about a second on the
others (docs/deployment.md). Writes never move presence or activity back in time, whichever process
writes last.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

import attrs

from livecore.area import PortKey
from livecore.clock import to_millis
from livecore.platforms import ClientBuild
from livecore.players.presence import Presence, Present
from livecore.players.rules import SEEN_EVERY, Activity, Player, seen_is_due
from livecore_server.area_service import AreaService, ServiceKey
from livecore_server.players.sql_presence import SqlPresence
from livecore_server.storage.server_store import ServerStore, ServerTransaction

#: The board's port, as a transaction reaches it (``tx.ports.of(PRESENCE)``).
PRESENCE: PortKey[SqlPresence] = PortKey("presence")

#: The board, as the server's services hold it (``services.of(PRESENCE_BOARD)``).
PRESENCE_BOARD: ServiceKey[PresenceBoard] = ServiceKey("presence_board")


@attrs.define
class PresenceBoard(AreaService):
    """The heartbeats, ``lastSeenAt`` and builds this process holds between flushes: the players area's
    service (:mod:`livecore_server.area_service`), through which the runtime reads presence."""

    _beats: dict[str, Presence] = attrs.Factory(dict)
    _dirty: set[str] = attrs.Factory(set)
    # Players whose lastSeenAt is due to move (livecore.players.rules.seen_is_due), with the time they were
    # seen.
    _seen: dict[str, int] = attrs.Factory(dict)
    # What players reported of their build (platform, app version) that differs from their rows: each
    # player's values sent since the last flush, the latest of each.
    _builds: dict[str, ClientBuild] = attrs.Factory(dict)

    def record(self, player_id: str, presence: Presence) -> None:
        self._beats[player_id] = presence
        self._dirty.add(player_id)

    def saw(self, player: Player, now: datetime, build: ClientBuild | None) -> None:
        """``player`` made an authenticated client request at ``now`` that reported ``build``: its
        ``lastSeenAt`` is written with the next flush when the stored one is
        :data:`~livecore.players.rules.SEEN_EVERY` old, and the build as :meth:`reported` says."""
        if seen_is_due(player.last_seen_at, now):
            self._seen[player.id] = to_millis(now)
        if build is not None:
            self.reported(player, build)

    def reported(self, player: Player, build: ClientBuild) -> None:
        """``player``'s request sent ``build``: written with the next flush when it changes the player's
        row, or when a change is already waiting (the last value sent wins); else nothing is."""
        waiting = self._builds.get(player.id)
        if waiting is not None:
            self._builds[player.id] = waiting.reported(build)
        elif player.build.reported(build) != player.build:
            self._builds[player.id] = build

    def gives_runtime(self) -> Mapping[str, Any]:
        return {"presence_of": self.presence_of}

    def presence_of(self, player: Present) -> Presence:
        """The player's presence: the board's when it is newer than the stored one."""
        stored = player.presence
        beat = self._beats.get(player.id)
        if beat is None or beat.last_active_at is None:
            return stored
        if stored.last_active_at is None or beat.last_active_at >= stored.last_active_at:
            return beat
        return stored

    def activity_of(self, player: Player) -> Activity:
        """The player's activity with the board's last-active time, when a heartbeat moved it later."""
        presence = self.presence_of(player)
        activity = player.activity
        if presence is player.presence or presence.last_active_at is None:
            return activity
        if activity.last_active_at is None or presence.last_active_at > activity.last_active_at:
            return attrs.evolve(activity, last_active_at=presence.last_active_at)
        return activity

    def flush(self, store: ServerStore) -> int:
        """Write what changed now, on this thread (at shutdown)."""
        beats, seen, builds = self._take(), self._take_seen(), self._take_builds()
        if beats or seen or builds:
            store.run(lambda tx: self._write(tx, beats, seen, builds))
        return len(beats)

    async def flush_async(self, store: ServerStore) -> int:
        beats, seen, builds = self._take(), self._take_seen(), self._take_builds()
        if beats or seen or builds:
            try:
                await store.run_async(lambda tx: self._write(tx, beats, seen, builds))
            except BaseException:
                # Written next time (unless a newer heartbeat replaced it, which is written instead).
                self._dirty.update(player_id for player_id, _, _ in beats)
                for player_id, at in seen:
                    self._seen.setdefault(player_id, at)
                for player_id, build in builds:
                    newer = self._builds.get(player_id)
                    self._builds[player_id] = build if newer is None else build.reported(newer)
                raise
        return len(beats)

    @staticmethod
    def _write(
        tx: ServerTransaction,
        beats: list[tuple[str, int, str | None]],
        seen: list[tuple[str, int]],
        builds: list[tuple[str, ClientBuild]],
    ) -> None:
        presence = tx.ports.of(PRESENCE)
        if beats:
            presence.record(beats)
        if seen:
            presence.seen(seen, SEEN_EVERY // timedelta(milliseconds=1))
        if builds:
            presence.builds(builds)

    def _take_seen(self) -> list[tuple[str, int]]:
        seen, self._seen = list(self._seen.items()), {}
        return seen

    def _take_builds(self) -> list[tuple[str, ClientBuild]]:
        builds, self._builds = list(self._builds.items()), {}
        return builds

    def _take(self) -> list[tuple[str, int, str | None]]:
        beats = []
        for player_id in self._dirty:
            beat = self._beats[player_id]
            assert beat.last_active_at is not None
            beats.append((player_id, to_millis(beat.last_active_at), beat.status))
        self._dirty = set()
        return beats
