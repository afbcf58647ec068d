"""The driver benchmark runs (its figures are reported, never asserted)."""

from __future__ import annotations

from benchmarks.pg_drivers import measure
from tests.postgres_support import require_postgres


def test_both_drivers_complete_the_workload() -> None:
    results = measure(require_postgres(), 20)
    assert set(results) == {"psycopg-threads", "asyncpg"}
    assert all(r["transactionsPerSecond"] > 0 for r in results.values())
