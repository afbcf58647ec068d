"""rank_1m itself, on a small board: the seeding, the requests at uniformly drawn ranks, and the figures
scripts read (``entries``, ``p99_ms``), on SQLite and on PostgreSQL (its figures are reported, never
asserted)."""

from __future__ import annotations

import shutil

import pytest

from benchmarks import report
from benchmarks.harness import Options, run
from benchmarks.scenarios import SCENARIOS, rank_scenario
from tests.postgres_support import require_postgres


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk not installed (apt-get install wrk)")
@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_a_short_rank_run_reads_around_players_of_a_seeded_board(
    store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = require_postgres() if store == "postgres" else None
    monkeypatch.setitem(SCENARIOS, "rank_1m", rank_scenario(2_000))
    options = Options(rounds=1, slice_s=1, warmup_s=0, scenarios=["rank_1m"], store=store, pg_server=server)
    outcome = run(options, log=lambda line: None)
    assert outcome.errors == []
    figures = report.document(outcome.meta, outcome.rows)["scenarios"]["rank_1m"]
    assert figures["entries"] == 2_000
    assert figures["p99_ms"] > 0 and not figures["errored"]
    assert figures["rounds"][0]["requests"] > 0
