"""A server killed mid-delivery loses no committed event, and marks nothing delivered without a 2xx."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import httpx

from livecore_server.clock import SystemClock
from livecore_server.config import Config
from livecore_server.manifest import parse_manifest
from livecore_server.operators.apply import apply_manifest
from livecore_server.registry import installed, storage
from livecore_server.services import build_services
from tests.conftest import TEST_MANIFEST, Receiver, webhook_manifest
from tests.waiting import until


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(db: Path, port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "livecore_server.cli", "serve", "--db", str(db), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=os.environ.copy(),
    )


async def _started(db: Path, server_key: str) -> tuple[subprocess.Popen[bytes], str]:
    """A server on ``db`` on a free port: the process and its base URL, once it answers a ping with
    ``server_key``. Another process may take the port between the look for a free one and the server's
    bind (other test runs share the machine): then this server exits, and whatever answers there does
    not know the key, so it starts again on another port."""
    for _ in range(5):
        port = _port()
        base = f"http://127.0.0.1:{port}"
        proc = _serve(db, port)
        async with httpx.AsyncClient() as client:

            async def answered(proc: subprocess.Popen[bytes] = proc, base: str = base) -> bool:
                if proc.poll() is not None:
                    return True  # it could not bind the port
                try:
                    ping = await client.get(
                        f"{base}/server/v1/ping", headers={"Authorization": f"Bearer {server_key}"}
                    )
                except httpx.TransportError:
                    return False
                return ping.status_code == 200

            await until(answered, "the server to start")
        if proc.poll() is None:
            return proc, base
    raise AssertionError("the server found no free port in five tries")


def _rows(db: Path, query: str) -> list[tuple[object, ...]]:
    import sqlite3

    with sqlite3.connect(db) as conn:
        return conn.execute(query).fetchall()


def _delivered(db: Path) -> set[object]:
    """The events whose delivery is recorded as delivered."""
    query = (
        "SELECT o.id FROM webhook_deliveries d JOIN outbox o ON o.seq = d.event_seq"
        " WHERE d.status = 'delivered'"
    )
    return {row[0] for row in _rows(db, query)}


async def test_kill_mid_delivery_then_restart_delivers_everything(tmp_path: Path) -> None:
    receiver = await Receiver(gate=asyncio.Event()).start()  # hangs: the delivery is in flight
    db = tmp_path / "kill.db"
    services = await asyncio.to_thread(
        build_services, Config(db=str(db)), SystemClock(), served=installed(), storage=storage()
    )
    applied = await asyncio.to_thread(
        apply_manifest,
        services.store,
        services.keys,
        services.runtime,
        parse_manifest(TEST_MANIFEST + webhook_manifest(hook=("test", receiver.url, '["*"]'))),
    )
    services.close()
    keys = applied["games"]["space-race"]["apiKeys"]
    client_key, server_key = keys["test-client"]["secret"], keys["test-server"]["secret"]
    server, base = await _started(db, server_key)
    try:
        async with httpx.AsyncClient() as client:
            for name in ("alice", "bob"):
                r = await client.post(
                    f"{base}/sdk/v1/players/{name}/register",
                    headers={"Authorization": f"Bearer {client_key}"},
                )
                assert r.status_code == 201
        await receiver.wait_for(1)  # at least one attempt is hanging in the receiver
        server.send_signal(signal.SIGKILL)
        server.wait(10)
    finally:
        if server.poll() is None:
            server.kill()
    committed = {row[0] for row in _rows(db, "SELECT id FROM outbox")}
    assert len(committed) == 4  # registered + secret_set, twice
    assert _rows(db, "SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered'") == [(0,)]
    assert receiver.answered == []

    # Restart with a healthy receiver: every committed event arrives, and each delivery marked
    # delivered was answered 2xx.
    receiver.gate.set()  # type: ignore[union-attr]
    await receiver.stop()
    healthy = await Receiver().start(port=int(receiver.url.split(":")[2].split("/")[0]))
    server, base = await _started(db, server_key)
    try:
        await until(
            lambda: {eid for eid, status in healthy.answered if status == 200} >= committed,
            lambda: f"every event answered: {healthy.answered} of {committed}",
        )
        await until(
            lambda: _delivered(db) == committed,
            lambda: f"the server to record every outcome: {_delivered(db)} of {committed}",
        )
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(20)
        await healthy.stop()
    ok = {eid for eid, status in healthy.answered if 200 <= status < 300}
    assert _delivered(db) <= ok
    assert _delivered(db) == committed
