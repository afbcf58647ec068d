"""A shared leaderboard's rollover at scale, while requests go on.

    python -m benchmarks.rollover [--entries 100000] [--db sqlite|postgres] [--json PATH]

``benchmarks/manifest.toml``'s ``bench-league`` (weekly, divisions of 30 in three tiers, five promoted
and five relegated, ranks 1 to 3 of each division rewarded) is seeded with ``--entries`` players through
the store (``benchmarks/seed.py``), then one ``livecore-server serve`` starts on it. While a prober sends
a read of another board and a score submission every 20 ms, ``POST /server/v1/dev/leaderboards/
bench-league/rollover-now`` finalizes the period: every division paid and moved, in steps. Reported: the
rollover's wall time (the call answers once it is done), and the prober's latencies during it (p50, p99,
max). Targets (docs/leaderboards.md#rollover): under 60 s for 100,000 entries, and no request waiting more
than 200 ms because of it. Figures are reported, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import aiohttp

from benchmarks import postgres
from benchmarks.report import write_json
from benchmarks.seed import seed_board
from benchmarks.server import ServerProcess, apply_manifest, fresh_secret_key, manifest_vars, server_env

MANIFEST = Path(__file__).parent / "manifest.toml"
BOARD = "bench-league"
TARGET_SECONDS = 60.0
MAX_WAIT_MS = 200.0
PROBE_EVERY = 0.02


async def _probe(
    base_url: str, keys: dict[str, str], latencies: list[float], stop: asyncio.Event, warm: asyncio.Event
) -> None:
    """A read and a write, one after the other, every PROBE_EVERY seconds until ``stop``; ``warm`` once
    ten requests were answered."""
    client = {"Authorization": f"Bearer {keys['client_key']}"}
    server = {"Authorization": f"Bearer {keys['server_key']}"}
    async with aiohttp.ClientSession(base_url) as http:
        k = 0
        while not stop.is_set():
            k += 1
            started = time.monotonic()
            async with http.get("/sdk/v1/leaderboards/bench-alltime?limit=10", headers=client) as r:
                await r.read()
            latencies.append((time.monotonic() - started) * 1000)
            body = {"externalPlayerId": f"probe-{k % 50}", "score": k, "idempotencyKey": uuid.uuid4().hex}
            started = time.monotonic()
            async with http.post(
                "/server/v1/leaderboards/bench-weekly/scores", json=body, headers=server
            ) as r:
                await r.read()
            latencies.append((time.monotonic() - started) * 1000)
            if len(latencies) >= 10:
                warm.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=PROBE_EVERY)


async def measure(base_url: str, keys: dict[str, str]) -> dict[str, Any]:
    latencies: list[float] = []
    stop = asyncio.Event()
    warm = asyncio.Event()
    prober = asyncio.create_task(_probe(base_url, keys, latencies, stop, warm))
    await warm.wait()  # the prober's first requests (a new server's first writes) are not counted
    before = len(latencies)
    started = time.monotonic()
    async with (
        aiohttp.ClientSession(base_url, timeout=aiohttp.ClientTimeout(total=600)) as http,
        http.post(
            f"/server/v1/dev/leaderboards/{BOARD}/rollover-now",
            headers={"Authorization": f"Bearer {keys['server_key']}"},
        ) as r,
    ):
        answer = await r.json()
    seconds = time.monotonic() - started
    stop.set()
    await prober
    during = sorted(latencies[before:])
    return {
        "rollover": answer.get("data", answer),
        "rolloverSeconds": seconds,
        "probes": len(during),
        "probeMs": {
            "p50": statistics.median(during) if during else None,
            "p99": during[int(0.99 * (len(during) - 1))] if during else None,
            "max": during[-1] if during else None,
        },
        "targets": {"rolloverSeconds": TARGET_SECONDS, "maxWaitMs": MAX_WAIT_MS},
    }


def run(entries: int, db_kind: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="lc-rollover-") as tmp, contextlib.ExitStack() as stack:
        env = server_env({"LIVECORE_SECRET_KEY": fresh_secret_key()})
        if db_kind == "postgres":
            db: str = stack.enter_context(postgres.BenchDatabase(postgres.default_server())).url
        else:
            db = str(Path(tmp) / "bench.db")
        keys = manifest_vars(apply_manifest(MANIFEST, db, env))
        started = time.monotonic()
        seed_board(db, keys["studio_id"], keys["game_id"], BOARD, entries, "league")
        if db_kind == "sqlite":
            # The seeding's WAL, copied into the database now rather than by the server's first commit.
            with sqlite3.connect(db) as conn:
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        seeded = time.monotonic() - started
        with ServerProcess(db, Path(tmp) / "server.log", env) as server:
            result = asyncio.run(measure(server.base_url, keys))
        return {"db": db_kind, "entries": entries, "seedSeconds": seeded, **result}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.rollover", description=__doc__)
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    result = run(args.entries, args.db)
    print(json.dumps(result, indent=2))
    if args.json is not None:
        write_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
