"""Migration throughput: importing players, then their wallets, into a real server.

    python -m benchmarks.migration                          # 100,000 players in calls of 1,000 rows
    python -m benchmarks.migration --players 2000 --batch 1000 --json out.json

The target: importing 100,000 players in 100 calls takes seconds, not minutes. The run does what a
studio's import script does: it applies ``benchmarks/manifest.toml`` to a fresh SQLite database, starts
``livecore-server serve`` on a free loopback port (as the wrk harness does), then sends, one call after
the other with httpx,

1. ``POST /server/v1/migrate/players``: every player with a display name, a country and a ``firstSeenAt``;
2. ``POST /server/v1/migrate/wallet``: one ``coins`` balance per player (the players exist by then).

Every call must answer 200 with every row applied, else the run stops (a benchmark of errors is
worthless). Afterwards it checks a sample of players and balances over the API. It reports, per phase,
the wall time, rows per second, per-call latency and the server's CPU time. Timing is reported, never
asserted: this machine is shared.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

from benchmarks.report import write_json
from benchmarks.server import ServerProcess, apply_manifest, manifest_vars, server_env

MANIFEST = Path(__file__).parent / "manifest.toml"
TARGET_SECONDS = 60.0  # "seconds, not minutes": the players phase at full size
FIRST_SEEN = "2024-01-01T00:00:00.000Z"


class MigrationBenchError(RuntimeError):
    """A call did not answer as expected: the figures would be worthless."""


def external_id(i: int) -> str:
    return f"mig-{i:07d}"


def player_rows(start: int, stop: int) -> list[dict[str, Any]]:
    return [
        {
            "externalPlayerId": external_id(i),
            "idempotencyKey": f"player-{i}",
            "name": f"Player {i}",
            "country": ("FR", "DE", "US", "JP", "BR")[i % 5],
            "firstSeenAt": FIRST_SEEN,
        }
        for i in range(start, stop)
    ]


def wallet_rows(start: int, stop: int) -> list[dict[str, Any]]:
    return [
        {
            "externalPlayerId": external_id(i),
            "idempotencyKey": f"wallet-{i}",
            "economyKey": "coins",
            "amount": i % 1000 + 1,
        }
        for i in range(start, stop)
    ]


def batches(total: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, total, size):
        yield start, min(start + size, total)


def tenth(n: int) -> int:
    return max(1, n // 10)


def run_phase(
    client: httpx.Client,
    server: ServerProcess,
    path: str,
    make_rows: Callable[[int, int], list[dict[str, Any]]],
    total: int,
    batch: int,
) -> dict[str, Any]:
    """Send every batch in order; returns the phase's figures."""
    latencies: list[float] = []
    applied = 0
    cpu_before = server.cpu_seconds()
    started = time.perf_counter()
    for number, (start, stop) in enumerate(batches(total, batch)):
        rows = make_rows(start, stop)
        sent = time.perf_counter()
        response = client.post(path, json={"rows": rows}, headers={"Idempotency-Key": f"{path}-{number}"})
        latencies.append(time.perf_counter() - sent)
        if response.status_code != 200:
            raise MigrationBenchError(
                f"POST {path} (call {number}) -> {response.status_code}: {response.text[:500]}"
            )
        outcome = response.json()["data"]
        if outcome["applied"] != len(rows) or outcome["failed"]:
            raise MigrationBenchError(f"POST {path} (call {number}): {json.dumps(outcome)[:500]}")
        applied += outcome["applied"]
    seconds = time.perf_counter() - started
    cpu_after = server.cpu_seconds()
    cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    return {
        "path": path,
        "rows": total,
        "calls": len(latencies),
        "applied": applied,
        "seconds": seconds,
        "rowsPerSecond": total / seconds if seconds else None,
        "callMsP50": statistics.median(latencies) * 1000,
        "callMsMax": max(latencies) * 1000,
        # Whether a call slows down as the tables grow: the first and the last tenth of the calls.
        "callMsP50FirstTenth": statistics.median(latencies[: tenth(len(latencies))]) * 1000,
        "callMsP50LastTenth": statistics.median(latencies[-tenth(len(latencies)) :]) * 1000,
        "callMs": [round(s * 1000, 1) for s in latencies],
        "serverCpuSeconds": cpu,
    }


def verify(client: httpx.Client, players: int) -> dict[str, Any]:
    """A sample of the imported players exists, with the identity and the balance sent."""
    sample = sorted({0, players // 2, players - 1})
    for i in sample:
        response = client.get(f"/server/v1/players/{external_id(i)}/export")
        if response.status_code != 200:
            raise MigrationBenchError(
                f"player {external_id(i)}: {response.status_code} {response.text[:300]}"
            )
        data = response.json()["data"]
        balance = {h["key"]: h["amount"] for h in data["wallet"]}.get("coins")
        player = data["player"]
        expected = (f"Player {i}", FIRST_SEEN, i % 1000 + 1)
        got = (player["displayIdentity"]["name"], player["firstSeenAt"], balance)
        if got != expected:
            raise MigrationBenchError(f"player {external_id(i)}: expected {expected}, got {got}")
    return {"checkedPlayers": [external_id(i) for i in sample]}


def run(players: int = 100_000, batch: int = 1_000, db_dir: Path | None = None) -> dict[str, Any]:
    if players < 1 or not 1 <= batch <= 1_000:
        raise ValueError("players >= 1 and batch from 1 to 1,000")
    work = Path(tempfile.mkdtemp(prefix="livecore-migration-", dir=db_dir))
    try:
        db = work / "bench.db"
        env = server_env({})
        variables = manifest_vars(apply_manifest(MANIFEST, db, env))
        with (
            ServerProcess(db, work / "server.log", env) as server,
            httpx.Client(
                base_url=server.base_url,
                timeout=300.0,
                headers={"Authorization": f"Bearer {variables['server_key']}"},
            ) as client,
        ):
            phases = {
                "players": run_phase(
                    client, server, "/server/v1/migrate/players", player_rows, players, batch
                ),
                "wallet": run_phase(client, server, "/server/v1/migrate/wallet", wallet_rows, players, batch),
            }
            checked = verify(client, players)
    finally:
        if db_dir is None:
            shutil.rmtree(work, ignore_errors=True)
    return {
        "scenario": "migration_import",
        "players": players,
        "batch": batch,
        "phases": phases,
        **checked,
        "targetSeconds": TARGET_SECONDS,
        "met": phases["players"]["seconds"] <= TARGET_SECONDS,
    }


def describe(name: str, phase: dict[str, Any]) -> str:
    cpu = phase["serverCpuSeconds"]
    cpu_text = "" if cpu is None else f", server CPU {cpu:.1f} s"
    return (
        f"{name}: {phase['rows']:,} rows in {phase['calls']} calls, {phase['seconds']:.1f} s, "
        f"{phase['rowsPerSecond']:,.0f} rows/s, call p50 {phase['callMsP50']:.0f} ms, "
        f"max {phase['callMsMax']:.0f} ms (first tenth {phase['callMsP50FirstTenth']:.0f} ms, last tenth "
        f"{phase['callMsP50LastTenth']:.0f} ms){cpu_text}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.migration", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=1_000, help="rows per call (at most 1,000)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument("--db-dir", type=Path, help="keep the database and server log in a folder here")
    args = parser.parse_args(argv)
    try:
        result = run(args.players, args.batch, args.db_dir)
    except MigrationBenchError as exc:
        print(f"migration benchmark: ERROR: {exc}", file=sys.stderr)
        return 1
    for name, phase in result["phases"].items():
        print(describe(name, phase))
    verdict = "met" if result["met"] else "MISSED"
    seconds = result["phases"]["players"]["seconds"]
    print(f"migration: players imported in {seconds:.1f} s (target {TARGET_SECONDS:.0f} s: {verdict})")
    if args.json is not None:
        write_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
