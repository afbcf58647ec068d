"""The schedule port in SQL (server-only): claims of scheduled runs, so each due time runs once."""

from __future__ import annotations

from livecore_server.storage.sqlport import SqlPort


class SqlSchedule(SqlPort):
    __slots__ = ()

    def claim(self, job: str, due_ms: int, now_ms: int, *, flushed: bool = True) -> bool:
        """True for the one caller, across every process on this database, that claims ``job``'s run due
        at ``due_ms``; False when that run (or a later one) was already claimed. ``flushed=False``: the
        transaction may commit before its claim reaches the disk (PostgreSQL); only for a transaction
        that writes nothing else."""
        claimed = self.db.change(
            "scheduled_runs",
            "INSERT INTO scheduled_runs (job, due_at, claimed_at) VALUES (?, ?, ?)"
            " ON CONFLICT (job) DO UPDATE SET due_at = excluded.due_at, claimed_at = excluded.claimed_at"
            " WHERE scheduled_runs.due_at < excluded.due_at",
            (job, due_ms, now_ms),
        ).rowcount
        return claimed == 1


class PostgresSchedule(SqlSchedule):
    __slots__ = ()

    def claim(self, job: str, due_ms: int, now_ms: int, *, flushed: bool = True) -> bool:
        if not flushed:
            # A claim is seen by every process once committed, flushed or not; one a PostgreSQL crash
            # loses lets its due time run again, and each job decides from the state what is left to
            # do. So a minute sweep's claim does not wait for a flush to disk (milliseconds) each time.
            self.db.write("scheduled_runs", "SELECT set_config('synchronous_commit', 'off', true)")
        return super().claim(job, due_ms, now_ms)
