"""The harness on PostgreSQL: per-store targets, options, the run's database, several server
processes on one port. The pure checks always run; the others skip without PostgreSQL (or wrk)."""

from __future__ import annotations

import os
import re
import shutil
import socket
from pathlib import Path

import pytest

from benchmarks import __main__ as cli
from benchmarks import postgres, report
from benchmarks.harness import BenchError, Options, run, select
from benchmarks.scenarios import BASELINE, SCENARIOS
from benchmarks.server import (
    SECRET_KEY_ENV,
    ServerProcess,
    apply_manifest,
    fresh_secret_key,
    not_listening,
    process_cpu_seconds,
    server_env,
    socket_inodes,
)
from benchmarks.wrk import WrkResult
from tests.postgres_support import require_postgres

MANIFEST = Path(__file__).parent / "manifest.toml"


def _targets(name: str, store: str) -> tuple[float | None, float | None]:
    s = SCENARIOS[name].for_store(store)
    return s.target_ratio, s.max_p99_ms


def test_postgres_targets_are_the_issue_8_ratios_and_sqlite_keeps_its_own() -> None:
    assert _targets("send_gift", "postgres") == (0.10, None)
    assert _targets("heartbeat", "postgres") == (0.25, None)
    assert _targets("server_ping", "postgres") == (None, None)  # no PostgreSQL target set
    assert _targets("send_gift", "sqlite") == (0.20, 100)
    assert _targets("heartbeat", "sqlite") == (0.50, 15)
    assert [s.target_ratio for s in select(["heartbeat"], "postgres")] == [None, 0.25]
    with pytest.raises(ValueError, match="unknown store"):
        SCENARIOS["heartbeat"].for_store("mysql")


def _result(
    requests: int, *, cpu: float | None = None, db_cpu: float | None = None, **counted: int
) -> WrkResult:
    latency = {"p50": 500.0, "p90": 900.0, "p99": 2000.0, "max": 3000.0, "mean": 600.0}
    return WrkResult(
        requests, 1_000_000, 0, {"status": 0}, latency, server_cpu_s=cpu, db_cpu_s=db_cpu, **counted
    )


def test_the_report_checks_the_targets_of_the_store_run() -> None:
    results = {BASELINE: [_result(1000)], "send_gift": [_result(150)]}  # ratio 0.15
    on_sqlite = report.figures(select(["send_gift"], "sqlite"), results)
    on_postgres = report.figures(select(["send_gift"], "postgres"), results)
    assert on_sqlite[1].verdict == "FAIL"  # >= 0.20
    assert on_postgres[1].verdict == "PASS"  # >= 0.10
    assert "| ≥ 0.10 | PASS |" in report.markdown(on_postgres)


def test_the_db_cpu_and_round_trip_columns_appear_only_when_measured() -> None:
    scenarios = select(["server_ping"])
    plain = report.markdown(report.figures(scenarios, {BASELINE: [_result(10)], "server_ping": [_result(5)]}))
    assert "DB CPU" not in plain and "round trips" not in plain
    measured = {
        BASELINE: [_result(10, cpu=0.001)],
        "server_ping": [_result(5, cpu=0.002, db_cpu=0.001, statements=75, round_trips=20)],
    }
    figures = report.figures(scenarios, measured)
    table = report.markdown(figures)
    assert "| statements/req | round trips/req | DB CPU µs/req |" in table
    # server 2 ms / 5 requests; 75 statements and 20 round trips / 5 requests; DB 1 ms / 5 requests
    assert "| 400 (0.25) | 15.0 | 4.00 | 200 |" in table
    assert figures[1].to_json(None)["round_trips_per_request_median"] == 4.0


def test_several_processes_need_postgres(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.parse(["--processes", "2"])
    assert "--db postgres" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.parse(["--db-pool", "4"])
    args = cli.parse(["--db", "postgres", "--processes", "2", "--db-pool", "4"])
    assert (args.db, args.processes, args.db_pool) == ("postgres", 2, 4)
    assert cli.parse([]).db == "sqlite"
    with pytest.raises(BenchError, match="PostgreSQL"):
        Options(processes=2).check()


def test_backend_cpu_counts_new_backends_from_zero() -> None:
    assert postgres.BackendCpu.spent({1: 1.0, 2: 2.0}, {1: 1.5, 3: 0.25}) == 0.75
    assert postgres.BackendCpu.spent(None, {1: 1.0}) is None


def test_database_urls() -> None:
    server = "postgresql://postgres:pw@127.0.0.1:5432/test?sslmode=disable"
    assert postgres.with_database(server, "lc_bench_x") == (
        "postgresql://postgres:pw@127.0.0.1:5432/lc_bench_x?sslmode=disable"
    )
    assert postgres.redact(server) == "postgresql://postgres:***@127.0.0.1:5432/test?sslmode=disable"


def test_not_listening_sees_this_process_listen() -> None:
    if not Path("/proc/net/tcp").exists():
        pytest.skip("needs Linux /proc")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        assert not_listening([os.getpid()], port) == [os.getpid()]  # bound, not listening yet
        sock.listen()
        assert not_listening([os.getpid()], port) == []


# --- On PostgreSQL --------------------------------------------------------------------------------


def _answered_by(port: int, pids: list[int], connections: int = 16) -> set[int]:
    """The server pids that accepted ``connections`` new connections, each answering one request."""
    socks = []
    try:
        for _ in range(connections):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(b"GET /bench/baseline HTTP/1.1\r\nHost: bench\r\n\r\n")
            assert sock.recv(4096).startswith(b"HTTP/1.1 200")
            socks.append(sock)
        mine = {int(os.readlink(f"/proc/self/fd/{s.fileno()}")[len("socket:[") : -1]) for s in socks}
        # The server side of each connection: the ESTABLISHED sockets on the server's port.
        theirs: set[int] = set()
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "01" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                theirs.add(int(fields[9]))
        theirs -= mine
        return {pid for pid in pids if socket_inodes(pid) & theirs}
    finally:
        for sock in socks:
            sock.close()


def test_two_server_processes_share_the_port_and_their_cpu_is_summed(tmp_path: Path) -> None:
    server = require_postgres()
    if not Path("/proc/net/tcp").exists():
        pytest.skip("needs Linux /proc")
    env = server_env({SECRET_KEY_ENV: fresh_secret_key()})
    with postgres.BenchDatabase(server) as db:
        apply_manifest(MANIFEST, db.url, env)
        with ServerProcess(db.url, tmp_path / "server.log", env, processes=2) as served:
            pids = served.pids
            assert len(pids) == 2 and not_listening(pids, served.port) == []
            assert [p.name for p in served.log_paths] == ["server-1.log", "server-2.log"]
            assert _answered_by(served.port, pids) == set(pids)  # the kernel spread them: 1 in 2^15
            total = served.cpu_seconds()
            parts = [process_cpu_seconds(pid) for pid in pids]
            assert total is not None and all(p is not None and 0 < p <= total for p in parts)
        assert not any(Path(f"/proc/{pid}").exists() for pid in pids)


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk not installed (apt-get install wrk)")
def test_a_short_run_on_two_processes_leaves_nothing_behind() -> None:
    server = require_postgres()
    lines: list[str] = []
    options = Options(
        rounds=1,
        slice_s=1,
        warmup_s=0,
        scenarios=["server_ping"],
        store="postgres",
        pg_server=server,
        processes=2,
    )
    outcome = run(options, log=lines.append)
    assert outcome.errors == []
    assert outcome.meta["processes"] == 2 and outcome.meta["store"] == "postgres"
    assert [f.scenario.name for f in outcome.rows] == [BASELINE, "server_ping"]
    assert all(r.server_cpu_s is not None for f in outcome.rows for r in f.rounds)
    name = outcome.meta["database"].rsplit("/", 1)[1]  # the run's database, made and dropped by run()
    assert name.startswith(postgres.PREFIX) and not postgres.exists(server, name)
    started = next(line for line in lines if "process(es), pid" in line)
    pids = [int(p) for p in re.findall(r"\d+", started.split("pid", 1)[1])]
    assert len(pids) == 2 and not any(Path(f"/proc/{pid}").exists() for pid in pids)
