"""Open event-board streams per process and API key (table ``open_streams``, PostgreSQL only): what each
process holds open, under a lease it renews (livecore_server/stream_slots.py)."""

from __future__ import annotations

from livecore_server.storage.sqlport import SqlPort


class SqlOpenStreams(SqlPort):
    __slots__ = ()

    def put(self, process: str, counts: dict[str, int], gone: set[str], until_ms: int) -> None:
        """The process's open streams by key now, leased until ``until_ms``; ``gone``: keys it holds none
        of any more."""
        if counts:
            self.db.executemany(
                "INSERT INTO open_streams (process_id, key_id, streams, lease_until_ms) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (process_id, key_id) DO UPDATE SET streams = excluded.streams,"
                " lease_until_ms = excluded.lease_until_ms",
                [(process, key, n, until_ms) for key, n in sorted(counts.items())],
            )
        if gone:
            where, params = self.db.in_list("key_id", sorted(gone))
            self.db.execute(f"DELETE FROM open_streams WHERE process_id = ? AND {where}", (process, *params))

    def others(self, process: str, now_ms: int) -> dict[str, int]:
        """The streams other processes hold open by key, as their unexpired leases say."""
        rows = self.db.read(
            "SELECT key_id, SUM(streams) FROM open_streams WHERE process_id != ? AND lease_until_ms > ?"
            " GROUP BY key_id",
            (process, now_ms),
        )
        return {str(key_id): int(streams) for key_id, streams in rows}

    def forget(self, process: str) -> None:
        self.db.execute("DELETE FROM open_streams WHERE process_id = ?", (process,))

    def expire(self, now_ms: int) -> int:
        """Drop the rows whose lease ran out (a process that was killed)."""
        return int(self.db.execute("DELETE FROM open_streams WHERE lease_until_ms <= ?", (now_ms,)).rowcount)
