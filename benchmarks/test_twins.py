"""The twins (benchmarks/twins/), the new write scenarios and the alternate runner: ``pytest benchmarks``.

The runs are short (1 s slices, no warm-up) and skipped without wrk; the twins on PostgreSQL are skipped
without PostgreSQL too."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from benchmarks import alternate, postgres, report, scenarios, twins
from benchmarks.harness import MANIFEST, Options, Slicer, prepare, run, select
from benchmarks.scenarios import BASELINE, SCENARIOS
from benchmarks.server import (
    SECRET_KEY_ENV,
    ServerProcess,
    apply_manifest,
    fresh_secret_key,
    manifest_vars,
    server_env,
)
from benchmarks.wrk import WrkResult
from tests.postgres_support import require_postgres

needs_wrk = pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk not installed (apt-get install wrk)")

# Written by livecore's server whatever the request (a key's last use, its schedules, rate buckets) or
# by SQLite itself: not rows of the request.
BACKGROUND = {"api_keys", "scheduled_runs", "rate_buckets", "sqlite_sequence", "server_meta"}
STORES = ("sqlite", "postgres")


def snapshot(db: str) -> dict[str, str]:
    """Each table's rows, as one digest (``db`` a SQLite file or a PostgreSQL URL)."""
    if db.startswith("postgresql://"):
        with psycopg.connect(db) as pg:
            names = "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            tables = [t for (t,) in pg.execute(names)]
            return {t: digest(pg.execute(f'SELECT * FROM "{t}"').fetchall()) for t in tables}
    with sqlite3.connect(db) as conn:
        tables = [t for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: digest(conn.execute(f'SELECT * FROM "{t}"').fetchall()) for t in tables}


def digest(rows: list[Any]) -> str:
    return hashlib.sha1(repr(sorted(map(repr, rows))).encode()).hexdigest()


def settled(db: str, timeout_s: float = 20.0) -> dict[str, str]:
    """The tables once two snapshots in a row agree: the server's dispatcher done with the last slice."""
    deadline = time.monotonic() + timeout_s
    last = snapshot(db)
    while time.monotonic() < deadline:
        now = snapshot(db)
        if now == last:
            return now
        last = now
    raise AssertionError(f"the database of {db} kept changing for {timeout_s} s")


def changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {t for t in after if before.get(t) != after[t]} - BACKGROUND


def test_every_write_scenario_has_a_twin_and_the_new_ones_are_registered() -> None:
    assert set(twins.TWINNED) <= set(SCENARIOS)
    assert all(SCENARIOS[n].method == "POST" for n in twins.WRITES)
    assert all(SCENARIOS[n].method == "GET" for n in twins.READS)
    for name in ("open_crate", "guild_donate"):
        assert SCENARIOS[name].setup is not None and SCENARIOS[name].method == "POST"


def test_twin_ratio_is_a_target_and_lands_in_the_json_and_the_table() -> None:
    latency = {"p50": 500.0, "p90": 900.0, "p99": 2000.0, "max": 3000.0, "mean": 600.0}

    def result(requests: int) -> WrkResult:
        return WrkResult(requests, 1_000_000, 0, {"status": 0}, latency, server_cpu_s=0.5, statements=5)

    scenarios = select(["sdk_register"])
    results = {BASELINE: [result(10_000)], "sdk_register": [result(600)], "sdk_register@twin": [result(1000)]}
    rows = report.figures(scenarios, results)
    doc = report.document({}, rows)["scenarios"]
    assert doc["sdk_register"]["ratio_to_twin"] == 0.6
    assert doc["sdk_register"]["checks"]["twin"] is True
    assert doc["sdk_register"]["twin"]["rps_median"] == 1000.0
    assert "ratio_to_twin" not in doc[BASELINE]
    table = report.markdown(rows)
    assert "| vs twin |" in table and "| sdk_register@twin | 1000 |" in table
    slower = report.figures(scenarios, {**results, "sdk_register": [result(500)]})
    assert slower[1].verdict == "FAIL"


# Counts kept beside other rows: once the first slice has entered every racer on the board, a score that
# moves within one rank page takes one from the page and gives it back, and the table ends as it started.
NET_ZERO = {"board_pages"}


Served = tuple[str, ServerProcess, ServerProcess, dict[str, str]]


#: Milliseconds each side waits before each request of the write comparison's slices (wrk's ``delay()``,
#: benchmarks/lua/unique.lua): on its one connection a side sends at most 250 requests a second.
PACE_MS = 4
#: The cliques and pools the write scenarios' setups make, sized for that pace instead of an unpaced run's
#: thousands a second: both sides' slices take under 500 sends or claims, so a clique of 24 has a fresh
#: pair for each send (552 pairs) and one of 30 a pair for each pending gift of the pool (870 pairs) within
#: the gift cooldown, and the pools keep two chunks' spare (the second slice starts a chunk of its own).
PACED = {"GIFTERS": 24, "CLAIMERS": 30, "CLAIMS_PER_SECOND": 600, "OPENS_PER_SECOND": 600, "CLAIM_SPARE": 200}


@pytest.fixture(params=STORES)
def served(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Served]:
    """livecore's server and the twins on one fresh database of each store, as the harness starts them
    (counting statements on SQLite), with the write scenarios' setups sized for :data:`PACE_MS`."""
    for name, size in PACED.items():
        monkeypatch.setattr(scenarios, name, size)
    if request.param == "sqlite":
        with serving(str(tmp_path / "bench.db"), server_env({}), tmp_path) as out:
            yield out
        return
    env = server_env({SECRET_KEY_ENV: fresh_secret_key()})
    with postgres.BenchDatabase(require_postgres()) as db, serving(db.url, env, tmp_path) as out:
        yield out


@contextmanager
def serving(db: str, env: dict[str, str], tmp_path: Path) -> Iterator[Served]:
    variables = manifest_vars(apply_manifest(MANIFEST, db, env))
    # One second of paced pool, which livecore and the twins share as in the harness (each test slices a
    # scenario once on each side).
    on_sqlite = not db.startswith("postgresql://")
    variables |= {"db": db, "run_seconds": "1", "pace_ms": str(PACE_MS)}
    # Statements are counted on SQLite only.
    with (
        ServerProcess(
            db, tmp_path / "server.log", env, statement_file=tmp_path / "s.json" if on_sqlite else None
        ) as server,
        twins.TwinProcess(
            db, tmp_path / "twins.log", env, tmp_path / "t.json" if on_sqlite else None
        ) as twin,
    ):
        yield db, server, twin, variables


@needs_wrk
def test_each_twin_writes_the_tables_livecore_writes_for_the_same_requests(
    served: Served, tmp_path: Path
) -> None:
    db, server, twin, variables = served
    counted = not db.startswith("postgresql://")
    store = "sqlite" if counted else "postgres"
    options = Options(rounds=1, slice_s=1, warmup_s=0, store=store, connections=1, threads=1)
    with httpx.Client(base_url=server.base_url, timeout=30.0) as client:
        slicer = Slicer(tmp_path, options, server, client, lambda line: None, twin=twin)
        for name in twins.WRITES:
            p = prepare(SCENARIOS[name], server.base_url, client, variables, options.concurrency)
            start = settled(db)
            mine = slicer.slice(p, 1)
            after_livecore = settled(db)
            theirs = slicer.slice(p, 1, twin)
            after_twin = settled(db)
            assert not mine.failed, f"{name}: {mine.errors}"
            assert not theirs.failed, f"{name}@twin: {theirs.errors}"
            assert not counted or (theirs.statements is not None and theirs.statements > 0)
            wrote = changed(start, after_livecore)
            assert wrote, name
            assert changed(after_livecore, after_twin) - NET_ZERO == wrote - NET_ZERO, name


#: The shared board the read twins are compared on: as many entries as the pages and the ranks read need,
#: not the 100,000 a benchmark run seeds (which take a minute on PostgreSQL, and answer the same).
COMPARED_BOARD = 1_000


@needs_wrk
def test_each_read_twin_answers_as_livecore(served: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same body for the same request: the top of each board, and around players at the top, in
    the middle and at the end of each (the end reads the entries ahead of the player again)."""
    monkeypatch.setattr(scenarios, "BIG_BOARD", COMPARED_BOARD)
    db, server, twin, variables = served
    concurrency = Options(store="postgres" if db.startswith("postgresql://") else "sqlite").concurrency
    with httpx.Client(base_url=server.base_url, timeout=30.0) as client:
        for name in twins.READS:
            p = prepare(SCENARIOS[name], server.base_url, client, variables, concurrency)
            paths = [p.request.path]
            if name == "event_board_top":  # the around reading of the same route (event_board_around)
                ranked = p.variables["ranked"].split(",")
                paths += [f"{p.request.path}&around={ranked[i]}" for i in (0, 1, 500, -2, -1)]
            if name == "leaderboard_around":
                names = p.variables["big"].split(",")
                paths = [f"{p.request.path}&around={names[i]}" for i in (0, 400, -1)]
            for path in paths:
                deadline = time.monotonic() + 20
                while True:
                    mine = client.get(path, headers=p.request.headers)
                    theirs = httpx.get(twin.base_url + path, headers=p.request.headers, timeout=30.0)
                    assert mine.status_code == theirs.status_code == 200, (name, path, theirs.text[:300])
                    # livecore writes the setup's heartbeats in batches: the twin reads them once written.
                    if theirs.json() == mine.json() or time.monotonic() > deadline:
                        break
                assert theirs.json() == mine.json(), (name, path)


@needs_wrk
@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_a_short_run_reports_the_ratio_to_each_twin(store: str) -> None:
    """On PostgreSQL one livecore process counts its statements and round trips; its twin counts none."""
    server = require_postgres() if store == "postgres" else None
    options = Options(
        rounds=1, slice_s=1, warmup_s=0, scenarios=["sdk_register"], store=store, pg_server=server
    )
    outcome = run(options, log=lambda line: None)
    assert outcome.errors == []
    doc = report.document(outcome.meta, outcome.rows)["scenarios"]
    assert isinstance(doc["sdk_register"]["ratio_to_twin"], float)
    counted = doc["sdk_register"]["twin"]["statements_per_request_median"]
    if store == "sqlite":
        assert counted >= 5
    else:
        assert counted is None
        assert doc["sdk_register"]["round_trips_per_request_median"] > 0


@needs_wrk
def test_the_alternate_runner_measures_both_sides_in_one_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "alternate.json"
    argv = [
        "--before",
        "HEAD",
        "--rounds",
        "1",
        "--slice",
        "1",
        "--warmup",
        "0",
        "--scenario",
        "sdk_register",
    ]
    assert alternate.main([*argv, "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["sides"]["after"]["code"] == str(alternate.REPO)
    assert doc["sides"]["before"]["code"] != str(alternate.REPO)
    for side in ("before", "after"):
        assert isinstance(doc["summary"]["sdk_register"][side]["ratio_to_twin"], float)
    table = capsys.readouterr().out
    assert "| sdk_register | before |" in table and "| sdk_register | after |" in table


def test_the_alternate_runner_passes_the_games_latency_and_pool_through(tmp_path: Path) -> None:
    options = alternate.parser().parse_args(
        ["--before", "HEAD", "--db", "postgres", "--games", "8", "--db-latency-ms", "0.5", "--db-pool", "4"]
    )
    command = alternate.bench_command(options, tmp_path / "run.json")
    for option, value in (("--games", "8"), ("--db-latency-ms", "0.5"), ("--db-pool", "4")):
        assert command[command.index(option) + 1] == value
    assert "--db-pool" not in alternate.bench_command(
        alternate.parser().parse_args(["--before", "HEAD"]), tmp_path / "run.json"
    )


def test_a_side_names_an_existing_ref() -> None:
    with pytest.raises(alternate.AlternateError):
        alternate.resolve("no-such-ref-anywhere")


def test_the_alternate_summary_takes_medians_and_the_worst_p99() -> None:
    def doc(rps: float, twin: float | None, p99: float) -> dict[str, object]:
        figures = {"rps_median": rps, "ratio": rps / 10_000, "p99_ms_worst": p99, "errored": False}
        return {"scenarios": {"server_grant": {**figures, "ratio_to_twin": twin}}}

    runs = {
        "before": [doc(500, 0.4, 20), doc(700, 0.5, 90), doc(600, 0.45, 30)],
        "after": [doc(900, None, 10)],
    }
    summary = alternate.summarize(runs)["server_grant"]
    assert summary["before"]["rps_median"] == 600
    assert summary["before"]["ratio_to_twin"] == 0.45
    assert summary["before"]["p99_ms_worst"] == 90
    assert summary["after"]["ratio_to_twin"] is None
    table = alternate.markdown(alternate.summarize(runs), ("before", "after"))
    assert "| server_grant | before | 600 | 0.060 | 0.45 |" in table
    assert "| server_grant | after | 900 | 0.090 | — |" in table
