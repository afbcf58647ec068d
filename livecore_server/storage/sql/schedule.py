"""The schedule port in SQL (server-only): claims of scheduled runs, so each due time runs once."""

from __future__ import annotations

from livecore_server.storage.sqlport import SqlPort


class SqlSchedule(SqlPort):
    __slots__ = ()

    def claim(self, job: str, due_ms: int, now_ms: int) -> bool:
        """True for the one caller, across every process on this database, that claims ``job``'s run due
        at ``due_ms``; False when that run (or a later one) was already claimed."""
        claimed = self.db.change(
            "scheduled_runs",
            "INSERT INTO scheduled_runs (job, due_at, claimed_at) VALUES (?, ?, ?)"
            " ON CONFLICT (job) DO UPDATE SET due_at = excluded.due_at, claimed_at = excluded.claimed_at"
            " WHERE scheduled_runs.due_at < excluded.due_at",
            (job, due_ms, now_ms),
        ).rowcount
        return claimed == 1
