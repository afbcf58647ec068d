"""The presence port in SQL (server-only): what the presence board writes in batches (heartbeats, the
lastSeenAt of client requests, the platform and app version they report)."""

from __future__ import annotations

from livecore.platforms import ClientBuild
from livecore_server.storage.sqlport import SqlPort


class SqlPresence(SqlPort):
    __slots__ = ()

    def record(self, beats: list[tuple[str, int, str | None]]) -> None:
        """(player id, heartbeat time in ms, status) per player: presence and last activity, never
        moving either back (another process may have written a later heartbeat)."""
        greatest = self.db.GREATEST
        self.db.executemany(
            "UPDATE players SET presence_status = CASE WHEN COALESCE(presence_at, 0) <= ? THEN ?"
            f" ELSE presence_status END, presence_at = {greatest}(COALESCE(presence_at, 0), ?),"
            f" last_active_at = {greatest}(COALESCE(last_active_at, 0), ?),"
            f" last_seen_at = {greatest}(last_seen_at, ?) WHERE id = ?",
            [(at, status, at, at, at, player_id) for player_id, at, status in beats],
        )

    def seen(self, seen: list[tuple[str, int]], every_ms: int) -> None:
        """(player id, time in ms) per player who made an authenticated client request: ``last_seen_at``
        moves to it, unless a write less than ``every_ms`` before it (another process's) already did."""
        self.db.executemany(
            "UPDATE players SET last_seen_at = ? WHERE id = ? AND last_seen_at <= ?",
            [(at, player_id, at - every_ms) for player_id, at in seen],
        )

    def builds(self, builds: list[tuple[str, ClientBuild]]) -> None:
        """(player id, what its requests sent) per player whose platform or app version changed: each
        value sent replaces the stored one (one not sent, None, keeps it). Player caches forget the rows,
        so that a heartbeat decides on the new values."""
        self.db.executemany(
            "UPDATE players SET platform = COALESCE(?, platform), app_version = COALESCE(?, app_version)"
            " WHERE id = ?",
            [(b.platform, b.app_version, player_id) for player_id, b in builds],
        )
        for player_id, _ in builds:
            self.db.player_written(player_id)
