"""Many players entering one lobby window at once, through a real server.

    python -m benchmarks.lobby_fill [--players 5000] [--seconds 10] [--db sqlite|postgres] [--json PATH]

``benchmarks/manifest.toml``'s ``bench-lobby-fill`` (lobbies of 10 that start 5 s after they open, bots
taking the empty seats) is applied to a fresh database, ``--players`` players are registered through the
store (``benchmarks/seed.py``, with the server's key so their secrets work), then one ``livecore-server
serve`` starts on it and each player sends one start, the starts spread evenly over ``--seconds`` (a new
start every ``seconds / players``, whatever the answers before it). Reported: the answers by status, the
players seated and the lobbies (read from the database once the last forming lobby's ``fill_by`` passed),
the lobbies over capacity or whose count is not their seats (both must be 0), the start latencies (p50,
p99, max) and the wall time from the first start to the last answer. Figures are reported; only a lobby
over capacity or a player not seated makes the exit status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp

from benchmarks import postgres
from benchmarks.report import write_json
from benchmarks.seed import seed_players
from benchmarks.server import ServerProcess, apply_manifest, fresh_secret_key, manifest_vars, server_env
from livecore_server.crypto import ServerKeys

MANIFEST = Path(__file__).parent / "manifest.toml"
EVENT = "bench-lobby-fill"
FILL_SECONDS = 5  # the event's lobby.fill_seconds
CONNECTIONS = 64  # starts in flight at most (a client's connection pool)


def _rows(db: str, query: str) -> list[tuple[Any, ...]]:
    if db.startswith("postgresql"):
        import psycopg

        with psycopg.connect(db) as conn:
            return [tuple(r) for r in conn.execute(query).fetchall()]
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return [tuple(r) for r in conn.execute(query).fetchall()]


def seating(db: str) -> dict[str, Any]:
    """What the database holds: players seated, lobbies by status, lobbies over capacity or miscounted."""
    per_lobby = (
        "SELECT l.id, l.status, l.capacity, l.participant_count, COUNT(s.seat_id) AS seats,"
        " SUM(CASE WHEN s.source = 'bot' THEN 1 ELSE 0 END) AS bots"
        " FROM lobbies l LEFT JOIN lobby_seats s ON s.lobby_id = l.id"
        " GROUP BY l.id, l.status, l.capacity, l.participant_count"
    )
    lobbies = _rows(db, per_lobby)
    [(seated, players)] = _rows(
        db, "SELECT COUNT(*), COUNT(DISTINCT seat_id) FROM lobby_seats WHERE source != 'bot'"
    )
    return {
        "seated": int(players),
        "playerSeats": int(seated),
        "lobbies": len(lobbies),
        "lobbiesByStatus": dict(Counter(str(status) for _, status, *_ in lobbies)),
        "botSeats": sum(int(bots or 0) for *_, bots in lobbies),
        "overCapacity": sum(1 for _, _, capacity, _, seats, _ in lobbies if seats > capacity),
        "miscounted": sum(1 for _, _, _, count, seats, _ in lobbies if count != seats),
    }


async def start_all(
    base_url: str, client_key: str, players: list[tuple[str, str]], seconds: float
) -> dict[str, Any]:
    """Each player's start, the i-th sent at ``i * seconds / len(players)`` from the first."""
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    gap = seconds / len(players)
    connector = aiohttp.TCPConnector(limit=CONNECTIONS)
    async with aiohttp.ClientSession(
        base_url, connector=connector, timeout=aiohttp.ClientTimeout(total=120)
    ) as http:
        t0 = time.monotonic()

        async def one(i: int, name: str, secret: str) -> None:
            await asyncio.sleep(max(0.0, t0 + i * gap - time.monotonic()))
            headers = {"Authorization": f"Bearer {client_key}", "X-Player-Secret": secret}
            sent = time.monotonic()
            async with http.post(
                f"/sdk/v1/players/{name}/events/{EVENT}/start", json={}, headers=headers
            ) as r:
                await r.read()
                statuses[r.status] += 1
            latencies.append((time.monotonic() - sent) * 1000)

        await asyncio.gather(*(one(i, name, secret) for i, (name, secret) in enumerate(players)))
        wall = time.monotonic() - t0
    ordered = sorted(latencies)
    return {
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "startMs": {
            "p50": statistics.median(ordered),
            "p99": ordered[int(0.99 * (len(ordered) - 1))],
            "max": ordered[-1],
        },
        "wallSeconds": wall,
    }


def run(players: int, seconds: float, db_kind: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="lc-lobby-fill-") as tmp, contextlib.ExitStack() as stack:
        secret_key = fresh_secret_key()
        env = server_env({"LIVECORE_SECRET_KEY": secret_key})
        if db_kind == "postgres":
            db: str = stack.enter_context(postgres.BenchDatabase(postgres.default_server())).url
        else:
            db = str(Path(tmp) / "bench.db")
        keys = manifest_vars(apply_manifest(MANIFEST, db, env))
        started = time.monotonic()
        hasher = ServerKeys(base64.urlsafe_b64decode(secret_key)).hasher
        secrets = seed_players(db, keys["studio_id"], keys["game_id"], players, "filler", hasher)
        if db_kind == "sqlite":
            with sqlite3.connect(db) as conn:  # the seeding's WAL, now rather than at the first commit
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        seeded = time.monotonic() - started
        named = [(f"filler-{i}", s) for i, s in enumerate(secrets)]
        with ServerProcess(db, Path(tmp) / "server.log", env) as server:
            result = asyncio.run(start_all(server.base_url, keys["client_key"], named, seconds))
            # The last lobby opened at most FILL_SECONDS ago: once its fill_by passed (the scheduler looks
            # every second), every lobby has started.
            deadline = time.monotonic() + FILL_SECONDS + 10
            while True:
                seats = seating(db)
                if seats["lobbiesByStatus"].get("forming", 0) == 0 or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
        return {
            "db": db_kind,
            "players": players,
            "seconds": seconds,
            "seedSeconds": seeded,
            **result,
            **seats,
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.lobby_fill", description=__doc__)
    parser.add_argument("--players", type=int, default=5_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    result = run(args.players, args.seconds, args.db)
    print(json.dumps(result, indent=2))
    if args.json is not None:
        write_json(args.json, result)
    ok = result["overCapacity"] == 0 and result["miscounted"] == 0 and result["seated"] == args.players
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
