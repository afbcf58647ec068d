"""Which PostgreSQL driver for the server: psycopg 3 on worker threads vs asyncpg.

    python -m benchmarks.pg_drivers [--dsn postgresql://postgres@127.0.0.1:5432/test] [--n 3000]

The workload is the shape of a small write of ours: in one transaction, read a row by primary key, insert
a row, update a row, commit. It runs from an asyncio event loop, as the server does, with 8 transactions
in flight at a time:

- ``psycopg-threads``: synchronous psycopg 3 connections, one per worker thread, each transaction run with
  ``run_in_executor`` (how the synchronous command code would run);
- ``asyncpg``: asyncpg's own pool, the transaction written as coroutines (which our commands are not).

Reported: transactions per second (wall) and process CPU per transaction. asyncpg is an optional
benchmark-only dependency (``pip install asyncpg``); without it only psycopg is measured.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg

from benchmarks.report import write_json

DEFAULT_DSN = "postgresql://postgres@127.0.0.1:5432/test"
IN_FLIGHT = 8


def _prepare(dsn: str, table: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE TABLE {table} (id BIGINT PRIMARY KEY, n BIGINT NOT NULL)")
        conn.execute(f"INSERT INTO {table} SELECT g, 0 FROM generate_series(1, 1000) g")


def _drop(dsn: str, table: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {table}")


WARM_UP = 300


def _clock() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def _since(start: tuple[float, float]) -> tuple[float, float]:
    return time.process_time() - start[0], time.perf_counter() - start[1]


async def _psycopg_threads(dsn: str, table: str, n: int) -> tuple[float, float]:
    local = threading.local()

    def one(i: int) -> None:
        conn = getattr(local, "conn", None)
        if conn is None:
            conn = local.conn = psycopg.connect(dsn)
        with conn.transaction():
            conn.execute(f"SELECT n FROM {table} WHERE id = %s", (i % 1000 + 1,)).fetchone()
            conn.execute(f"INSERT INTO {table} (id, n) VALUES (%s, 1)", (i,))
            conn.execute(f"UPDATE {table} SET n = n + 1 WHERE id = %s", (i % 1000 + 1,))

    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(IN_FLIGHT) as pool:
        sem = asyncio.Semaphore(IN_FLIGHT)

        async def run(i: int) -> None:
            async with sem:
                await loop.run_in_executor(pool, one, i)

        # Warm-up on the same threads and connections, then the measured run.
        await asyncio.gather(*(run(i) for i in range(1_000_000, 1_000_000 + WARM_UP)))
        start = _clock()
        await asyncio.gather(*(run(i) for i in range(2_000_000, 2_000_000 + n)))
        return _since(start)


async def _asyncpg(dsn: str, table: str, n: int) -> tuple[float, float]:
    import asyncpg  # type: ignore[import-not-found,import-untyped,unused-ignore]

    pool = await asyncpg.create_pool(dsn, min_size=IN_FLIGHT, max_size=IN_FLIGHT)
    sem = asyncio.Semaphore(IN_FLIGHT)

    async def run(i: int) -> None:
        async with sem, pool.acquire() as conn, conn.transaction():
            await conn.fetchrow(f"SELECT n FROM {table} WHERE id = $1", i % 1000 + 1)
            await conn.execute(f"INSERT INTO {table} (id, n) VALUES ($1, 1)", i)
            await conn.execute(f"UPDATE {table} SET n = n + 1 WHERE id = $1", i % 1000 + 1)

    try:
        await asyncio.gather(*(run(i) for i in range(1_000_000, 1_000_000 + WARM_UP)))
        start = _clock()
        await asyncio.gather(*(run(i) for i in range(2_000_000, 2_000_000 + n)))
        return _since(start)
    finally:
        await pool.close()


def measure(dsn: str, n: int) -> dict[str, Any]:
    drivers: dict[str, Any] = {"psycopg-threads": _psycopg_threads}
    try:
        import asyncpg  # type: ignore[import-not-found,import-untyped,unused-ignore]  # noqa: F401

        drivers["asyncpg"] = _asyncpg
    except ImportError:
        print("asyncpg is not installed: measuring psycopg only", file=sys.stderr)
    results: dict[str, Any] = {}
    for name, fn in drivers.items():
        table = f"lc_driver_{secrets.token_hex(4)}"
        _prepare(dsn, table)
        try:
            cpu, wall = asyncio.run(fn(dsn, table, n))
        finally:
            _drop(dsn, table)
        results[name] = {"transactionsPerSecond": n / wall, "cpuMicrosPerTransaction": cpu / n * 1e6}
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.pg_drivers", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--dsn", default=DEFAULT_DSN)
    parser.add_argument("--n", type=int, default=3000)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    results = measure(args.dsn, args.n)
    for name, r in results.items():
        print(
            f"{name:16} {r['transactionsPerSecond']:8,.0f} tx/s   "
            f"{r['cpuMicrosPerTransaction']:6,.0f} µs CPU per transaction (this process)"
        )
    if args.json is not None:
        write_json(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
