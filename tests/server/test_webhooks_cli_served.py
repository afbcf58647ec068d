"""Operator commands beside a running server (docs/webhooks.md#waking-a-running-server): what
`livecore-server webhooks sample`, `replay` and `unpause` write from a process of their own goes out from a
`serve` process at once, on both stores, with no request to the server to wake it. The sample is the
command itself; the replay and the unpause run the same functions from the test's process (one more
process beside the server), which spares a command's start-up each."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from livecore_server.operators.webhooks import replay_delivery, send_sample, unpause_endpoint
from livecore_server.storage.sqlite import SqliteStore
from tests.conftest import Receiver, apply_test_manifest, make_services, webhook_manifest
from tests.server.test_scale_out import _cli, _env, _ready, _serve, _stop
from tests.waiting import until

# Generous: the rule is "within a second"; a delivery that waits for the next request never comes here.
WITHIN = 10.0


def _run(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(_cli(*args), env=env, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


@contextlib.asynccontextmanager
async def _serving(db: str, env: dict[str, str], log: Path) -> AsyncIterator[None]:
    """A `serve` process on ``db``, once it answers."""
    base, proc = _serve(db, env, log)
    try:
        await _ready(base, proc, log)
        yield
    finally:
        await asyncio.to_thread(_stop, [proc])


async def _arrives(receiver: Receiver, event_id: str, times: int) -> None:
    """Until ``event_id`` reached the receiver ``times`` times."""
    await until(
        lambda: sum(r.envelope["id"] == event_id for r in receiver.received) >= times,
        lambda: f"{event_id} received {times} times: {[r.envelope['id'] for r in receiver.received]}",
        within=WITHIN,
    )


async def test_deliveries_operator_commands_make_go_out_from_a_running_server_at_once(
    db_url: str, receiver: Receiver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = _env()  # the server key of the test's own services too
    monkeypatch.setenv("LIVECORE_SECRET_KEY", env["LIVECORE_SECRET_KEY"])
    # The test's own services stand for one more process beside the server and the commands.
    services = await asyncio.to_thread(make_services, db_url, manual=False)
    try:
        applied = await asyncio.to_thread(
            apply_test_manifest, services, webhook_manifest(hook=("test", receiver.url, '["*"]'))
        )
        endpoint_id = applied["games"]["space-race"]["webhooks"]["hook"]["id"]

        def deliveries(status: str) -> list[str]:
            rows = services.store.run(lambda tx: tx.webhooks.list_deliveries(endpoint_id), write=False)
            return [d.id for d, _ in rows if d.status.value == status]

        async with _serving(db_url, env, tmp_path / "server.log"):
            # A sample, by the command.
            sample = ("webhooks", "sample", endpoint_id, "--db", db_url)
            event_id = (await asyncio.to_thread(_run, env, *sample)).strip()
            await _arrives(receiver, event_id, 1)

            # A replay of its delivery, once the server recorded it.
            (delivery_id,) = await until(lambda: deliveries("delivered"), "the sample recorded delivered")
            await asyncio.to_thread(replay_delivery, services, delivery_id)
            await _arrives(receiver, event_id, 2)

            # An unpause: the delivery the paused endpoint held goes out.
            pause = "UPDATE webhook_endpoints SET status = 'paused' WHERE id = ?"
            await services.store.run_async(lambda tx: tx.execute(pause, (endpoint_id,)))
            held_id = await asyncio.to_thread(send_sample, services, endpoint_id)
            await until(lambda: deliveries("pending"), "the held sample fanned out")
            assert held_id not in {r.envelope["id"] for r in receiver.received}
            await asyncio.to_thread(unpause_endpoint, services, endpoint_id)
            await _arrives(receiver, held_id, 1)
    finally:
        services.close()


async def test_another_process_commit_tells_a_watching_sqlite_store(tmp_path: Path) -> None:
    """The SQLite store's watch tells the commit listeners of another connection's commit (an operator
    command's process)."""
    from livecore_server.registry import storage

    store = SqliteStore(str(tmp_path / "watched.db"), storage())
    heard: list[None] = []
    store.on_events_committed(lambda: heard.append(None))
    up = asyncio.Event()
    task = asyncio.create_task(store.watch(lambda _: None, lambda on: up.set()))
    try:
        await asyncio.wait_for(up.wait(), 5)
        other = sqlite3.connect(store.path)
        with other:
            other.execute("INSERT INTO server_meta VALUES ('other', 'x', 0)")
        other.close()
        await until(lambda: heard, "the other connection's commit heard", within=WITHIN)
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        store.close()
