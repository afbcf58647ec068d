"""The live stream under load: many subscribers on one event board while progress writes land.

    python -m benchmarks.stream [--subscribers 1000] [--writes-per-second 20] [--seconds 10] [--json PATH]

One ``livecore-server serve`` process on a fresh SQLite database (``benchmarks/manifest.toml``, whose
``bench-trial`` event is open for the whole run). ``--subscribers`` connections open
``GET /sdk/v1/event-leaderboards/{id}/stream`` on one board and wait for ``ready``; then
``--writers`` players post progress at ``--writes-per-second`` in all, each write a new best score, for
``--seconds``. Every write is one board mutation, so every subscriber should receive one
``score_update`` per write.

Reported: the delivery latency of ``score_update`` (from the moment the write was sent to the moment a
subscriber read the update: p50, p99, max over every subscriber and write), the deliveries missed, and
the subscribers whose stream ended early. Targets (docs/events.md#the-live-stream): p99 at most 200 ms, no
subscriber dropped, nothing missed. Figures are reported, never asserted.

The subscribers are one asyncio process with a bare protocol (no HTTP client library), so that reading
20,000 small events a second costs this side as little as possible on the shared 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import orjson

from benchmarks.report import write_json
from benchmarks.server import HOST, ServerProcess, apply_manifest, fresh_secret_key, manifest_vars, server_env

MANIFEST = Path(__file__).parent / "manifest.toml"
EVENT = "bench-trial"
P99_TARGET_MS = 200.0


class Subscriber(asyncio.Protocol):
    """One stream: collects (receive time, score) of each ``score_update``; ``ready`` and ``ended`` are
    set when the first event arrives and when the connection closes."""

    def __init__(self, request: bytes) -> None:
        self.request = request
        self.buffer = b""
        self.ready = asyncio.Event()
        self.ended = asyncio.Event()
        self.updates: list[tuple[float, float]] = []
        self.expected = 0  # updates to wait for; ``done`` is set once they are in (or the stream ended)
        self.done = asyncio.Event()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        self.buffer += data
        *events, self.buffer = self.buffer.split(b"\n\n")
        for event in events:
            if b"event: score_update" in event:
                line = next(x for x in event.split(b"\n") if x.startswith(b"data:"))
                self.updates.append((now, orjson.loads(line[5:])["entry"]["score"]))
                if self.expected and len(self.updates) >= self.expected:
                    self.done.set()
            elif b"event: ready" in event:
                self.ready.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended.set()
        self.done.set()


async def _setup(base_url: str, client_key: str, writers: int) -> tuple[str, list[tuple[str, str, str]]]:
    headers = {"Authorization": f"Bearer {client_key}"}
    out = []
    async with aiohttp.ClientSession(base_url, headers=headers) as http:
        for i in range(writers):
            name = f"stream-writer-{i}"
            async with http.post(f"/sdk/v1/players/{name}/register") as r:
                secret = (await r.json())["data"]["playerSecret"]
            async with http.post(
                f"/sdk/v1/players/{name}/events/{EVENT}/start", json={}, headers={"X-Player-Secret": secret}
            ) as r:
                attempt = (await r.json())["data"]["attempt"]
            out.append((name, secret, attempt["attemptId"]))
    return attempt["leaderboardId"], out


async def measure(base_url: str, client_key: str, args: argparse.Namespace) -> dict[str, Any]:
    board, writers = await _setup(base_url, client_key, args.writers)
    request = (
        f"GET /sdk/v1/event-leaderboards/{board}/stream HTTP/1.1\r\nHost: {HOST}\r\n"
        f"Authorization: Bearer {client_key}\r\nAccept: text/event-stream\r\n\r\n"
    ).encode()
    loop = asyncio.get_running_loop()
    port = int(base_url.rsplit(":", 1)[1])
    subscribers: list[Subscriber] = []
    for _ in range(args.subscribers):
        _, sub = await loop.create_connection(lambda: Subscriber(request), HOST, port)
        subscribers.append(sub)
    await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in subscribers)), timeout=120)

    sent: dict[float, float] = {}  # score -> monotonic time the write was sent
    interval = 1.0 / args.writes_per_second
    total = int(args.seconds * args.writes_per_second)
    failures = 0
    async with aiohttp.ClientSession(base_url, headers={"Authorization": f"Bearer {client_key}"}) as http:

        async def write(k: int) -> None:
            nonlocal failures
            name, secret, attempt = writers[k % len(writers)]
            score = float(k + 1)  # always a new best, so every write moves the board
            sent[score] = time.monotonic()
            async with http.post(
                f"/sdk/v1/players/{name}/events/{EVENT}/attempts/{attempt}/progress",
                json={"metrics": {"score": k + 1}},
                headers={"X-Player-Secret": secret},
            ) as r:
                failures += r.status != 200
                await r.read()

        start = time.monotonic()
        tasks = []
        for k in range(total):
            await asyncio.sleep(max(0.0, start + k * interval - time.monotonic()))
            tasks.append(asyncio.create_task(write(k)))
        await asyncio.gather(*tasks)
    for sub in subscribers:
        sub.expected = total
        if len(sub.updates) >= total:
            sub.done.set()
    with contextlib.suppress(TimeoutError):  # the last writes' deliveries, up to 5 s
        await asyncio.wait_for(asyncio.gather(*(sub.done.wait() for sub in subscribers)), timeout=5)

    latencies = [
        (received - sent[score]) * 1000 for s in subscribers for received, score in s.updates if score in sent
    ]
    dropped = sum(1 for s in subscribers if s.ended.is_set())
    missed = sum(max(0, total - len(s.updates)) for s in subscribers)
    latencies.sort()
    p99 = latencies[int(0.99 * (len(latencies) - 1))] if latencies else None
    return {
        "subscribers": args.subscribers,
        "writesPerSecond": args.writes_per_second,
        "writes": total,
        "writeFailures": failures,
        "deliveries": len(latencies),
        "missedDeliveries": missed,
        "droppedSubscribers": dropped,
        "latencyMs": {
            "p50": statistics.median(latencies) if latencies else None,
            "p99": p99,
            "max": latencies[-1] if latencies else None,
        },
        "p99TargetMs": P99_TARGET_MS,
        "pass": p99 is not None and p99 <= P99_TARGET_MS and dropped == 0 and missed == 0 and failures == 0,
    }


def _enough_descriptors(subscribers: int) -> None:
    """Each subscriber is a socket here and one in the server (which inherits this limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < subscribers + 256:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, subscribers * 2 + 256)), hard))


def run(args: argparse.Namespace) -> dict[str, Any]:
    _enough_descriptors(args.subscribers)
    with tempfile.TemporaryDirectory(prefix="lc-stream-") as tmp:
        env = server_env({"LIVECORE_SECRET_KEY": fresh_secret_key()})
        db = Path(tmp) / "bench.db"
        keys = manifest_vars(apply_manifest(MANIFEST, db, env))
        with ServerProcess(db, Path(tmp) / "server.log", env) as server:
            return asyncio.run(measure(server.base_url, keys["client_key"], args))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.stream", description=__doc__)
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--writers", type=int, default=20)
    parser.add_argument("--writes-per-second", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    result = run(args)
    print(json.dumps(result, indent=2))
    if args.json is not None:
        write_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
