"""The database-alone measurement: its arithmetic, and its pgbench script against livecore's own
schema (its figures are reported, never asserted)."""

from __future__ import annotations

import shutil

import psycopg
import pytest

from benchmarks import pg_ceiling, postgres
from tests.postgres_support import require_postgres


def test_the_target_leaves_the_cores_time_per_send_minus_the_databases() -> None:
    groups = [{"sendsPerSecond": 6000.0, "dbCpuUsPerSend": 250.0, "pgbenchCpuUsPerSend": 10.0}]
    result = pg_ceiling.summarize([40_000.0], groups, cores=2)
    # 2 cores at 0.10 x 40,000 sends a second: 500 µs of CPU a send in all, 250 of them the database's.
    assert result["cpuUsPerSendAtTarget"] == 500.0
    assert result["cpuUsPerSendLeftForServer"] == 250.0
    assert result["dbAloneRatio"] == 0.15


def test_medians_of_the_rounds_are_reported() -> None:
    groups = [
        {"sendsPerSecond": s, "dbCpuUsPerSend": c, "pgbenchCpuUsPerSend": 1.0}
        for s, c in [(5000.0, 300.0), (7000.0, 200.0), (6000.0, 900.0)]
    ]
    result = pg_ceiling.summarize([30_000.0, 50_000.0, 40_000.0], groups, cores=2)
    assert (result["baselineRps"], result["dbAloneSendsPerSecond"], result["dbCpuUsPerSend"]) == (
        40_000.0,
        6000.0,
        300.0,
    )


def test_the_script_writes_four_sends_a_transaction_in_livecores_schema() -> None:
    if shutil.which("pgbench") is None:
        pytest.skip("pgbench is not on PATH")
    with postgres.BenchDatabase(require_postgres()) as db:
        pg_ceiling.seed(db.url)
        try:
            postmaster = pg_ceiling.postmaster_pid(db.url)
        except pg_ceiling.CeilingError as exc:
            pytest.skip(str(exc))
        figures = pg_ceiling.pgbench_slice(db.url, 1, postmaster)
        with psycopg.connect(db.url) as conn:
            counts = [
                conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]  # type: ignore[index]
                for table in ("gifts", "grants", "idempotency", "outbox", "ledger")
            ]
    gifts, grants, records, events, ledger = counts
    assert gifts > 0 and gifts % pg_ceiling.SENDS_PER_GROUP == 0
    assert grants == records == gifts
    assert events == gifts // pg_ceiling.SENDS_PER_GROUP * 10
    assert ledger == gifts // pg_ceiling.SENDS_PER_GROUP
    assert figures["sendsPerSecond"] > 0 and figures["dbCpuUsPerSend"] > 0
