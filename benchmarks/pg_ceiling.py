"""How many gift sends PostgreSQL alone takes on this machine, against the bare baseline.

    python -m benchmarks.pg_ceiling [--pg-server URL] [--rounds 3] [--slice 10] [--json PATH]

The target for gift sends on PostgreSQL is 0.10 of the bare baseline. This measures what the database
leaves for that on this machine, with no livecore server at all:

- the **baseline**: ``GET /bench/baseline`` of a real ``livecore-server`` (the harness's yardstick), with
  wrk, 8 connections;
- the **database's share**: ``pgbench`` (C, prepared statements, 8 clients) running
  ``sql/gift_group.sql`` on a fresh database with livecore's schema: the reads and inserts of a commit
  group of four sends, one transaction, nothing decided in between. Reported as sends a second and
  PostgreSQL's CPU per send (its backends, read from the postmaster's reaped children, so this needs
  PostgreSQL on this machine).

Slices alternate, so each round's two figures share the machine's state. From them: the ratio
PostgreSQL alone reaches, and the CPU a send may cost everything else (the server process and the load
generator) for the target to be reachable at all on this machine's cores:
``cores / (target x baseline) - PostgreSQL's CPU per send``.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg

from benchmarks import postgres, wrk
from benchmarks.harness import Log
from benchmarks.report import write_json
from benchmarks.server import ServerProcess, clock_ticks, proc_stat, server_env

SCRIPT = Path(__file__).parent / "sql" / "gift_group.sql"
SENDS_PER_GROUP = 4  # the script's commit group
PLAYERS = 80  # the script's player numbers: p0 ... p79, all friends (as send_gift's clique)
CLIENTS = 8  # pgbench clients, as the harness's wrk connections
TARGET = 0.10  # send_gift on PostgreSQL
GAME = "gam_ceiling"


class CeilingError(RuntimeError):
    """The measurement could not run (no pgbench, PostgreSQL not on this machine, a failed slice)."""


def seed(url: str) -> None:
    """livecore's schema (its migrations) and the players the script sends between: all friends, each with
    coins."""
    from livecore_server.registry import storage
    from livecore_server.storage.postgres import migrate

    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn, storage())
        conn.execute(
            "INSERT INTO games (id, studio_id, key, name, settings, created_at, updated_at)"
            " VALUES (%s, 'std_ceiling', 'ceiling', 'ceiling', '{}', 0, 0)",
            (GAME,),
        )
        conn.execute(
            "INSERT INTO players (id, game_id, env, external_id, first_seen_at, last_seen_at, anon_name)"
            " SELECT 'ply_' || i, %s, 'live', 'p' || i, 0, 0, 'player' FROM generate_series(0, %s) i",
            (GAME, PLAYERS - 1),
        )
        conn.execute(
            "INSERT INTO friendships (player_id, friend_id, since)"
            " SELECT 'ply_' || i, 'ply_' || j, 0 FROM generate_series(0, %s) i, generate_series(0, %s) j"
            " WHERE i <> j",
            (PLAYERS - 1, PLAYERS - 1),
        )
        conn.execute(
            "INSERT INTO holdings (player_id, resource_key, amount)"
            " SELECT 'ply_' || i, 'coins', 1000000000 FROM generate_series(0, %s) i",
            (PLAYERS - 1,),
        )
        conn.execute("ANALYZE")


def _children_cpu_seconds(pid: int) -> float:
    """User + system CPU of ``pid``'s children that have exited and been reaped (``/proc``)."""
    found = proc_stat(pid)
    if found is None:
        raise CeilingError(f"the PostgreSQL server's process {pid} is gone")
    return clock_ticks(found[1][13:15])  # cutime, cstime


def _reaped_children_cpu_seconds() -> float:
    """User + system CPU of this process's children that have exited (pgbench, once it has)."""
    times = os.times()
    return times.children_user + times.children_system


def postmaster_pid(url: str) -> int:
    """The PostgreSQL server's main process: the parent of a backend, which reaps every backend."""
    # Read while the connection is open: its backend exits with it.
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
        assert row is not None
        found = proc_stat(row[0])
    if found is None:
        raise CeilingError("PostgreSQL does not run on this machine: its CPU cannot be read")
    return int(found[1][1])  # field 4, the parent


def pgbench_slice(url: str, seconds: int, postmaster: int) -> dict[str, float]:
    """One pgbench run of the script: sends a second, and CPU per send of PostgreSQL and of pgbench."""
    binary = shutil.which("pgbench")
    if binary is None:
        raise CeilingError("pgbench not found on PATH (Debian: package postgresql-15 or postgresql-client)")
    command = [
        binary,
        "--no-vacuum",
        f"--client={CLIENTS}",
        "--jobs=1",
        f"--time={seconds}",
        "--protocol=prepared",
        f"--file={SCRIPT}",
        url,
    ]
    db_before = _children_cpu_seconds(postmaster)
    client_before = _reaped_children_cpu_seconds()
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60, check=False)
    client_spent = _reaped_children_cpu_seconds() - client_before
    # pgbench's backends have exited when it has; the postmaster reaps them within moments.
    time.sleep(0.2)
    db_spent = _children_cpu_seconds(postmaster) - db_before
    found = re.search(r"number of transactions actually processed: (\d+)", done.stdout)
    tps = re.search(r"tps = ([\d.]+)", done.stdout)
    if done.returncode != 0 or found is None or tps is None:
        raise CeilingError(f"pgbench exited {done.returncode}:\n{done.stderr}{done.stdout}")
    sends = int(found.group(1)) * SENDS_PER_GROUP
    return {
        "sendsPerSecond": round(float(tps.group(1)) * SENDS_PER_GROUP, 1),
        "dbCpuUsPerSend": round(db_spent / sends * 1e6, 1),
        "pgbenchCpuUsPerSend": round(client_spent / sends * 1e6, 1),
    }


def baseline_slice(server: ServerProcess, work: Path, seconds: int) -> float:
    """Requests a second of the bare baseline route, as the harness measures it."""
    script = work / "baseline.lua"
    request = wrk.Request(method="GET", path="/bench/baseline", headers={}, body=None)
    script.write_text(wrk.build_script(request, nonce=secrets.token_hex(4), variables={}, extra_lua=None))
    result = wrk.run(server.base_url, script, seconds=seconds, connections=CLIENTS)
    if result.failed:
        raise CeilingError(f"the baseline slice failed: {result.errors}")
    return result.rps


def measure(pg_server: str, rounds: int, slice_s: int, log: Log = print) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="livecore-ceiling-") as tmp:
        work = Path(tmp)
        with (
            postgres.BenchDatabase(pg_server) as db,
            ServerProcess(work / "baseline.db", work / "server.log", server_env({})) as server,
        ):
            seed(db.url)
            postmaster = postmaster_pid(db.url)
            baselines: list[float] = []
            groups: list[dict[str, float]] = []
            for round_no in range(1, rounds + 1):
                baselines.append(baseline_slice(server, work, slice_s))
                groups.append(pgbench_slice(db.url, slice_s, postmaster))
                last = groups[-1]
                log(
                    f"round {round_no}/{rounds}: baseline {baselines[-1]:.0f} req/s; PostgreSQL alone "
                    f"{last['sendsPerSecond']:.0f} sends/s, {last['dbCpuUsPerSend']:.0f} µs of its CPU a send"
                )
    return summarize(baselines, groups, os.cpu_count() or 1)


def summarize(baselines: list[float], groups: list[dict[str, float]], cores: int) -> dict[str, Any]:
    """Medians, and what the target leaves for everything but the database."""
    baseline = statistics.median(baselines)
    sends = statistics.median(g["sendsPerSecond"] for g in groups)
    db_cpu = statistics.median(g["dbCpuUsPerSend"] for g in groups)
    budget = cores * 1e6 / (TARGET * baseline)
    return {
        "cores": cores,
        "baselineRps": round(baseline, 1),
        "dbAloneSendsPerSecond": round(sends, 1),
        "dbAloneRatio": round(sends / baseline, 3),
        "dbCpuUsPerSend": round(db_cpu, 1),
        "pgbenchCpuUsPerSend": round(statistics.median(g["pgbenchCpuUsPerSend"] for g in groups), 1),
        "target": TARGET,
        "cpuUsPerSendAtTarget": round(budget, 1),
        "cpuUsPerSendLeftForServer": round(budget - db_cpu, 1),
        "rounds": {"baselineRps": [round(b, 1) for b in baselines], "groups": groups},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.pg_ceiling", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--pg-server", default=postgres.default_server())
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--slice", type=int, default=10, help="seconds per slice (default 10)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    try:
        result = measure(args.pg_server, args.rounds, args.slice)
    except (CeilingError, postgres.PostgresError, wrk.WrkError) as exc:
        print(f"pg_ceiling: {exc}", file=sys.stderr)
        return 1
    print(
        f"\n{result['cores']} cores. Baseline {result['baselineRps']:.0f} req/s; PostgreSQL alone takes "
        f"{result['dbAloneSendsPerSecond']:.0f} sends/s ({result['dbAloneRatio']:.2f} of the baseline) at "
        f"{result['dbCpuUsPerSend']:.0f} µs of its CPU a send.\nAt {TARGET:.2f} of the baseline a send may "
        f"cost {result['cpuUsPerSendAtTarget']:.0f} µs of CPU in all, which leaves "
        f"{result['cpuUsPerSendLeftForServer']:.0f} µs for the server process and the load generator."
    )
    if args.json is not None:
        write_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
