"""Several ``livecore-server serve`` processes on one PostgreSQL database (issue: scale out): requests
alternating between two real server processes apply the rules as one server would, and every committed
event reaches a webhook endpoint once.

The processes share the server key (``LIVECORE_SECRET_KEY``), the database and nothing else. The kill
tests need a short claim (webhook timeout + ``CLAIM_MARGIN``): ``serve --webhook-timeout`` shortens the
timeout, but no flag sets ``CLAIM_MARGIN``. One kill test runs the ``serve`` command in a process whose
``CLAIM_MARGIN`` is patched before it starts, and kills it with SIGKILL; the other runs two in-process
servers, one of them stopped dead mid-delivery.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import attrs
import httpx
import psycopg
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from livecore_server.app import DISPATCHER
from livecore_server.workers import dispatcher as dispatcher_module
from tests.conftest import Receiver, apply_test_manifest, make_app, make_services, webhook_manifest
from tests.waiting import until

BIG = "{ sdk_read = 100000, sdk_write = 100000, server_api = 100000 }"

MANIFEST = f"""
studio = "scale"

[games.arena]
name = "Arena"
economy = "platform"

[games.arena.gifting]
enabled = true

[games.arena.resources.gold]
type = "currency"
giftable = true
max_per_gift = 100

[games.arena.api_keys.client]
env = "test"
permission = "client_sdk"
rate_limits = {BIG}

[games.arena.api_keys.server]
env = "test"
permission = "server_integration"
rate_limits = {BIG}

[games.arena.webhooks.hook]
env = "test"
url = "{{url}}"
events = ["*"]

# The windows' and boards' events fire live: kept only for an endpoint of the live environment.
[games.arena.webhooks.live]
env = "live"
url = "{{url}}"
events = ["*"]
"""


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rows(url: str, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return [tuple(r) for r in conn.execute(query, params).fetchall()]


# --- two real server processes ------------------------------------------------------------------------


@attrs.define
class Cluster:
    """Two ``livecore-server serve`` processes on one schema, and the manifest's keys."""

    url: str
    bases: list[str]
    procs: list[subprocess.Popen[bytes]]
    logs: list[Path]
    keys: dict[str, str]
    http: httpx.AsyncClient
    secrets: dict[str, str] = attrs.Factory(dict)
    turn: int = 0

    def base(self, i: int | None = None) -> str:
        """Server ``i``, or the next one in turn (requests alternate between the two)."""
        if i is None:
            i, self.turn = self.turn, self.turn + 1
        return self.bases[i % len(self.bases)]

    def log_tail(self) -> str:
        return "\n".join(f"--- {p.name}\n{_tail(p)}" for p in self.logs)

    async def sdk(
        self, method: str, who: str, path: str = "", body: Any = None, *, at: int | None = None
    ) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.keys['client']}", "X-Player-Secret": self.secrets[who]}
        return await self.http.request(
            method, f"{self.base(at)}/sdk/v1/players/{who}{path}", json=body, headers=headers
        )

    async def server(
        self, method: str, path: str, body: Any = None, *, idem: str | None = None, at: int | None = None
    ) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.keys['server']}"}
        if idem is not None:
            headers["Idempotency-Key"] = idem
        return await self.http.request(method, f"{self.base(at)}/server/v1{path}", json=body, headers=headers)

    async def befriend(self, a: str, b: str) -> None:
        r = await self.sdk("POST", a, "/friends/requests", {"externalPlayerId": b}, at=0)
        assert r.status_code == 201, r.text
        request_id = r.json()["data"]["request"]["requestId"]
        r = await self.sdk("POST", b, f"/friends/requests/{request_id}/accept", at=1)
        assert r.status_code == 200, r.text

    async def balance(self, who: str) -> int:
        r = await self.sdk("GET", who, "/wallet")
        assert r.status_code == 200, r.text
        return int(next(c["balance"] for c in r.json()["data"]["currencies"] if c["key"] == "gold"))

    def rows(self, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return _rows(self.url, query, params)


def _env() -> dict[str, str]:
    key = base64.urlsafe_b64encode(os.urandom(32)).decode()
    return {**os.environ, "LIVECORE_SECRET_KEY": key}


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "livecore_server.cli", *args]


def _tail(log: Path) -> str:
    return log.read_text()[-3000:]


async def _ready(base: str, proc: subprocess.Popen[bytes], log: Path, within: float = 30.0) -> None:
    async with httpx.AsyncClient() as client:

        async def healthy() -> bool:
            assert proc.poll() is None, f"server exited: {_tail(log)}"
            try:
                return (await client.get(f"{base}/admin/v1/health")).status_code == 200
            except httpx.TransportError:
                return False

        await until(healthy, lambda: f"the server to start: {_tail(log)}", within=within)


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    for p in procs:
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(10)


def _apply(url: str, env: dict[str, str], manifest: Path) -> dict[str, str]:
    """``livecore-server apply --json``; the game's API key secrets by name."""
    applied = subprocess.run(
        _cli("apply", str(manifest), "--db", url, "--json"), env=env, capture_output=True, timeout=60
    )
    assert applied.returncode == 0, applied.stderr.decode()
    game = json.loads(applied.stdout)["games"]["arena"]
    return {name: k["secret"] for name, k in game["apiKeys"].items()}


def _serve(url: str, env: dict[str, str], log: Path, *args: str) -> tuple[str, subprocess.Popen[bytes]]:
    port = _port()
    with log.open("wb") as out:
        proc = subprocess.Popen(
            _cli("serve", "--db", url, "--port", str(port), "--db-pool", "4", *args),
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    return f"http://127.0.0.1:{port}", proc


async def _cluster(pg_url: str, manifest_text: str, tmp_path: Path, *args: str) -> AsyncIterator[Cluster]:
    env = _env()  # one server key for every process
    manifest = tmp_path / "scale.toml"
    manifest.write_text(manifest_text)
    keys = await asyncio.to_thread(_apply, pg_url, env, manifest)
    procs: list[subprocess.Popen[bytes]] = []
    logs = [tmp_path / f"server{i}.log" for i in range(2)]
    bases = []
    try:
        for log in logs:
            base, proc = _serve(pg_url, env, log, *args)
            bases.append(base)
            procs.append(proc)
        await asyncio.gather(*(_ready(b, p, log) for b, p, log in zip(bases, procs, logs, strict=True)))
        async with httpx.AsyncClient(timeout=30) as http:
            yield Cluster(pg_url, bases, procs, logs, keys, http)
    finally:
        await asyncio.to_thread(_stop, procs)


@pytest.fixture
async def cluster(pg_url: str, receiver: Receiver, tmp_path: Path) -> AsyncIterator[Cluster]:
    async for c in _cluster(pg_url, MANIFEST.replace("{url}", receiver.url), tmp_path):
        yield c


def _outcome(r: httpx.Response) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"] if r.status_code >= 400 else "ok"


async def test_two_server_processes_apply_the_rules_as_one(cluster: Cluster, receiver: Receiver) -> None:
    c = cluster
    # A burst of registrations on both servers at once: every one succeeds.
    names = ["ann", "bob", "cat", "dan", "eve", "fay"] + [f"p{i:02d}" for i in range(24)]
    answers = await asyncio.gather(
        *(
            c.http.post(
                f"{c.base()}/sdk/v1/players/{name}/register",
                headers={"Authorization": f"Bearer {c.keys['client']}"},
            )
            for name in names
        )
    )
    assert [r.status_code for r in answers] == [201] * len(names), [r.text for r in answers]
    c.secrets.update({n: r.json()["data"]["playerSecret"] for n, r in zip(names, answers, strict=True)})
    await c.befriend("ann", "bob")

    # (a) Gift sends from one sender to one friend, concurrently on both servers: the cooldown lets one
    # through.
    sends = await asyncio.gather(
        *(
            c.sdk(
                "POST",
                "ann",
                "/friends/gifts",
                {"type": "currency", "resourceKey": "gold", "amount": i + 1, "externalPlayerId": "bob"},
            )
            for i in range(8)
        )
    )
    assert Counter(_outcome(r) for r in sends) == {(201, "ok"): 1, (409, "gift_cooldown"): 7}, c.log_tail()
    assert c.rows("SELECT count(*) FROM gifts") == [(1,)]

    # (b) Debits of one wallet beyond its balance: never below zero, no lost update.
    r = await c.server("POST", "/players/cat/wallet/gold/credit", {"amount": 10}, idem=str(uuid.uuid4()))
    assert r.status_code == 200, r.text
    debits = await asyncio.gather(
        *(
            c.server("POST", "/players/cat/wallet/gold/debit", {"amount": 3}, idem=str(uuid.uuid4()))
            for _ in range(8)
        )
    )
    assert Counter(_outcome(r) for r in debits) == {(200, "ok"): 3, (409, "insufficient_balance"): 5}, (
        c.log_tail()
    )
    won = [r.json()["data"] for r in debits if r.status_code == 200]
    assert sorted(d["balance"] for d in won) == [1, 4, 7]  # each debit saw the one before it
    assert sum(-d["delta"] for d in won) == 10 - await c.balance("cat") == 9
    ledger = c.rows(
        "SELECT l.delta, l.balance_after FROM ledger l JOIN players p ON p.id = l.player_id"
        " WHERE p.external_id = 'cat' ORDER BY l.balance_after DESC"
    )
    assert ledger == [(10, 10), (-3, 7), (-3, 4), (-3, 1)]

    # (c) Friend adds in both directions at once: one friendship.
    adds = await asyncio.gather(
        *(
            c.sdk("POST", a, "/friends/requests", {"externalPlayerId": b})
            for a, b in [("dan", "eve"), ("eve", "dan")] * 2
        )
    )
    assert all(r.status_code in (200, 201, 409) for r in adds), [r.text for r in adds]
    statuses = [r.json()["data"].get("status") for r in adds if r.status_code in (200, 201)]
    assert statuses.count("accepted") == 1, [r.text for r in adds]  # one add found the other's request
    for a, b in (("dan", "eve"), ("eve", "dan")):
        r = await c.sdk("GET", a, "/friends")
        assert [f["externalPlayerId"] for f in r.json()["data"]["friends"]] == [b]
    accepted = c.rows("SELECT count(*) FROM outbox WHERE kind = 'friend.request_accepted'")
    assert accepted == [(2,)]  # ann and bob's, and this one
    assert c.rows("SELECT count(*) FROM friend_requests") == [(0,)]

    # (d) One idempotency key on both servers at once: one credit, one answer, replays marked.
    same = await asyncio.gather(
        *(
            c.server("POST", "/players/fay/wallet/gold/credit", {"amount": 5}, idem="fay-once", at=i)
            for i in range(6)
        )
    )
    assert [r.status_code for r in same] == [200] * 6, [r.text for r in same]
    replays = [r.headers.get("Idempotent-Replay") for r in same]
    assert sorted(replays, key=str) == [None] + ["true"] * 5
    assert len({json.dumps(r.json()["data"], sort_keys=True) for r in same}) == 1
    assert await c.balance("fay") == 5
    assert c.rows(
        "SELECT count(*) FROM ledger l JOIN players p ON p.id = l.player_id WHERE p.external_id = 'fay'"
    ) == [(1,)]

    # Every committed event reaches the endpoint exactly once.
    await _all_delivered(c.url, receiver)
    await asyncio.to_thread(_stop, c.procs)  # nothing can send any more
    await until(receiver.idle, "the receiver to read what was already on the wire")
    events = {row[0] for row in c.rows("SELECT id FROM outbox")}
    got = Counter(r.envelope["id"] for r in receiver.received)
    assert set(got) == events
    assert [e for e, n in got.items() if n > 1] == []
    assert c.rows("SELECT DISTINCT status, attempts FROM webhook_deliveries") == [("delivered", 1)]


async def _all_delivered(url: str, receiver: Receiver) -> None:
    """Wait until every outbox event was received and every delivery is delivered."""
    seen: list[Any] = []

    def delivered() -> bool:
        events = {row[0] for row in _rows(url, "SELECT id FROM outbox")}
        received = {r.envelope["id"] for r in receiver.received}
        pending = _rows(url, "SELECT count(*) FROM webhook_deliveries WHERE status != 'delivered'")
        fanned = _rows(url, "SELECT count(*) FROM outbox WHERE NOT fanned_out")
        seen[:] = [events - received, pending]
        return events <= received and pending == [(0,)] and fanned == [(0,)]

    await until(delivered, lambda: f"every event delivered: missing {seen[0]}, pending {seen[1]}")


# --- a server that dies mid-delivery -------------------------------------------------------------------


async def _delivered_by_the_survivor(url: str, receiver: Receiver, events: Any) -> None:
    """Every event arrived twice (the dead server's attempt 1, then the survivor's attempt 2), and every
    delivery is recorded once, delivered at its second attempt, its claim cleared."""
    await _all_delivered(url, receiver)
    got = Counter((r.envelope["id"], r.envelope["deliveryAttempt"]) for r in receiver.received)
    assert got == {(event, attempt): 1 for event in events for attempt in (1, 2)}
    assert _rows(url, "SELECT DISTINCT status, attempts, claimed_until FROM webhook_deliveries") == [
        ("delivered", 2, None)
    ]


async def halt_dispatcher(app: web.Application) -> None:
    """Cancel an in-process server's dispatcher loop until it has stopped, before the server is closed:
    ``Dispatcher.stop()`` alone can wait forever when its cancellation meets a wake-up (Python 3.11
    ``asyncio.wait_for``; test_dispatch_claims.py::test_dispatcher_stop_returns_when_a_wake_up_coincides).
    """
    task = getattr(app.get(DISPATCHER), "_loop_task", None)
    while task is not None and not task.done():
        task.cancel()
        await asyncio.wait([task], timeout=0.2)


@attrs.define
class ThreadServer:
    """A server on its own event loop in a thread, which can be stopped dead: its loop stops with the
    attempt in flight, which neither finishes nor records anything, as if the process were killed."""

    app: web.Application
    loop: asyncio.AbstractEventLoop = attrs.Factory(asyncio.new_event_loop)
    runner: web.AppRunner | None = None
    thread: threading.Thread | None = None
    base: str = ""

    def start(self) -> ThreadServer:
        port = _port()
        self.base = f"http://127.0.0.1:{port}"
        self.runner = web.AppRunner(self.app)
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            assert self.runner is not None
            self.loop.run_until_complete(self.runner.setup())
            self.loop.run_until_complete(web.TCPSite(self.runner, "127.0.0.1", port).start())
            ready.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert ready.wait(20)
        return self

    def kill(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        assert self.thread is not None
        self.thread.join(10)

    def cleanup(self) -> None:
        """After the test: let the dead server's loop run once more to close what it holds."""
        if self.runner is None:
            return

        async def shutdown() -> None:
            assert self.runner is not None
            await halt_dispatcher(self.app)
            await self.runner.cleanup()

        def run() -> None:
            self.loop.run_until_complete(shutdown())
            self.loop.close()

        t = threading.Thread(target=run, daemon=True)
        t.start()
        t.join(20)


async def test_a_server_killed_mid_delivery_leaves_the_event_to_the_other(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One server dies while its attempts hang; its claims run out (timeout 2 s + margin 0.5 s) and the
    other server sends the events. Nothing is recorded for the dead attempts."""
    monkeypatch.setattr(dispatcher_module, "CLAIM_MARGIN", 0.5)
    receiver = await Receiver(gate=asyncio.Event()).start()
    seeding = await asyncio.to_thread(make_services, pg_url)
    applied = await asyncio.to_thread(
        apply_test_manifest, seeding, webhook_manifest(hook=("test", receiver.url, '["*"]'))
    )
    seeding.close()
    key = applied["games"]["space-race"]["apiKeys"]["test-client"]["secret"]
    dying = ThreadServer(make_app(pg_url, manual=False, seed=1, webhook_timeout=2.0)).start()
    survivor: TestClient[Any, Any] | None = None
    try:
        async with httpx.AsyncClient() as http:
            r = await http.post(
                f"{dying.base}/sdk/v1/players/alice/register", headers={"Authorization": f"Bearer {key}"}
            )
            assert r.status_code == 201, r.text
        await receiver.wait_for(2)  # both attempts (registered, secret_set) are hanging in the receiver
        dying.kill()
        assert receiver.answered == []
        events = {row[0] for row in _rows(pg_url, "SELECT id FROM outbox")}
        assert {r.envelope["id"] for r in receiver.received} == events and len(events) == 2
        claims = _rows(pg_url, "SELECT status, attempts, claimed_until IS NOT NULL FROM webhook_deliveries")
        assert claims == [("pending", 1, True)] * 2  # claimed by the dead server (an attempt), no outcome

        receiver.gate.set()  # type: ignore[union-attr]  # the endpoint is healthy again
        survivor = TestClient(TestServer(make_app(pg_url, manual=False, seed=2, webhook_timeout=2.0)))
        await survivor.start_server()
        await _delivered_by_the_survivor(pg_url, receiver, events)
    finally:
        if survivor is not None:
            await halt_dispatcher(survivor.app)
            await survivor.close()
        if receiver.gate is not None:
            receiver.gate.set()
        await receiver.stop()
        await asyncio.to_thread(dying.cleanup)


# The ``serve`` command with a short claim margin (no flag or variable sets it); the short webhook
# timeout is ``--webhook-timeout``.
SHORT_CLAIMS = (
    "import sys;"
    "from livecore_server import cli;"
    "from livecore_server.workers import dispatcher;"
    "dispatcher.CLAIM_MARGIN = 0.5;"
    "cli.main(sys.argv[1:])"
)


def _serve_short_claims(url: str, env: dict[str, str], log: Path) -> tuple[str, subprocess.Popen[bytes]]:
    port = _port()
    args = ["serve", "--db", url, "--port", str(port), "--db-pool", "2", "--webhook-timeout", "2"]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", SHORT_CLAIMS, *args], env=env, stdout=out, stderr=subprocess.STDOUT
        )
    return f"http://127.0.0.1:{port}", proc


async def test_a_server_process_killed_mid_delivery_leaves_the_event_to_the_other(
    pg_url: str, tmp_path: Path
) -> None:
    """SIGKILL a ``serve`` process while its attempts hang in the receiver; once its claims run out
    (2 s timeout + 0.5 s margin) a second process sends the events, and each is marked delivered at
    the one attempt that was answered, its second."""
    receiver = await Receiver(gate=asyncio.Event()).start()
    env = _env()
    manifest = tmp_path / "kill.toml"
    manifest.write_text(MANIFEST.replace("{url}", receiver.url))
    procs: list[subprocess.Popen[bytes]] = []
    try:
        keys = await asyncio.to_thread(_apply, pg_url, env, manifest)
        base, dying = _serve_short_claims(pg_url, env, tmp_path / "dying.log")
        procs.append(dying)
        await _ready(base, dying, tmp_path / "dying.log")
        async with httpx.AsyncClient() as http:
            r = await http.post(
                f"{base}/sdk/v1/players/alice/register", headers={"Authorization": f"Bearer {keys['client']}"}
            )
            assert r.status_code == 201, r.text
        await receiver.wait_for(2)  # both attempts (registered, secret_set) hang in the receiver
        dying.send_signal(signal.SIGKILL)
        await asyncio.to_thread(dying.wait, 10)
        assert receiver.answered == []
        events = {row[0] for row in _rows(pg_url, "SELECT id FROM outbox")}
        assert len(events) == 2 and {r.envelope["id"] for r in receiver.received} == events
        claims = _rows(pg_url, "SELECT status, attempts, claimed_until IS NOT NULL FROM webhook_deliveries")
        assert claims == [("pending", 1, True)] * 2  # claimed by the dead process (an attempt), no outcome

        receiver.gate.set()  # type: ignore[union-attr]  # the endpoint is healthy again
        base, survivor = _serve_short_claims(pg_url, env, tmp_path / "survivor.log")
        procs.append(survivor)
        await _ready(base, survivor, tmp_path / "survivor.log")
        await _delivered_by_the_survivor(pg_url, receiver, events)
    finally:
        await asyncio.to_thread(_stop, procs)
        if receiver.gate is not None:
            receiver.gate.set()
        await receiver.stop()


# --- live events on two processes ---------------------------------------------------------------------

# An event whose one window is open when the servers start (their manual clocks start at the real time)
# and ends an hour later; ranks 1 to 3 are paid.
EVENT = """
[games.arena.events.duel]
name = "Duel"
starts_at = "{starts_at}"
window_seconds = 3600
attempt_seconds = 3600
score_metric = "score"

[[games.arena.events.duel.rank_rewards]]
from = 1
to = 3
rewards = [{{ type = "currency", key = "gold", amount = 10 }}]
"""


@pytest.fixture
async def event_cluster(pg_url: str, receiver: Receiver, tmp_path: Path) -> AsyncIterator[Cluster]:
    """Two ``serve --clock manual`` processes with the ``duel`` event open."""
    starts_at = (datetime.now(UTC) - timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    manifest = MANIFEST.replace("{url}", receiver.url) + EVENT.format(starts_at=starts_at)
    async for c in _cluster(pg_url, manifest, tmp_path, "--clock", "manual"):
        yield c


async def _next_event(lines: AsyncIterator[str]) -> tuple[str, Any]:
    """The next server-sent event of a stream (comments skipped): its name and data."""
    fields: dict[str, str] = {}
    async for line in lines:
        if line == "":
            if "event" in fields:
                return fields["event"], json.loads(fields["data"])
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(": ")
            fields[name] = value
    raise AssertionError("the stream ended")


async def test_two_processes_close_a_window_once_and_a_stream_on_one_hears_the_writes_of_the_other(
    event_cluster: Cluster,
) -> None:
    """A subscriber of process 0 sees the progress written on process 1 (NOTIFY livecore_boards); both
    processes then move their clocks past the window's end at once, and the window closes once: rank
    rewards paid once each, one ``leaderboard.finalized``, one ``window.opened`` and one
    ``window.closed`` (the live window; both processes opened it at start too)."""
    c = event_cluster
    names = ["ann", "bob", "cat", "dan"]
    for name in names:
        r = await c.http.post(
            f"{c.base()}/sdk/v1/players/{name}/register",
            headers={"Authorization": f"Bearer {c.keys['client']}"},
        )
        assert r.status_code == 201, r.text
        c.secrets[name] = r.json()["data"]["playerSecret"]
    attempts = {}
    for name in names:
        r = await c.sdk("POST", name, "/events/duel/start")
        assert r.status_code == 201, (r.text, c.log_tail())
        attempts[name] = r.json()["data"]["attempt"]
    [board] = {a["leaderboardId"] for a in attempts.values()}

    async def progress(name: str, score: int, at: int) -> None:
        r = await c.sdk(
            "POST",
            name,
            f"/events/duel/attempts/{attempts[name]['attemptId']}/progress",
            {"metrics": {"score": score}},
            at=at,
        )
        assert r.status_code == 200, r.text

    headers = {"Authorization": f"Bearer {c.keys['client']}"}
    async with c.http.stream(
        "GET", f"{c.base(0)}/sdk/v1/event-leaderboards/{board}/stream", headers=headers
    ) as stream:
        assert stream.status_code == 200
        lines = stream.aiter_lines()
        name, ready = await _next_event(lines)
        assert (name, ready["entries"]) == ("ready", [])
        seen = []
        for who, score in (("bob", 50), ("ann", 80), ("cat", 30), ("dan", 10)):
            await progress(who, score, at=1)  # on the other process
            name, update = await _next_event(lines)
            assert name == "score_update", update
            seen.append(
                (update["entry"]["externalPlayerId"], update["entry"]["score"], update["entry"]["rank"])
            )
        assert seen == [("bob", 50, 1), ("ann", 80, 1), ("cat", 30, 3), ("dan", 10, 4)]

        # Both clocks past the window's end at once: both processes close it.
        answers = await asyncio.gather(
            *(c.server("POST", "/dev/clock/advance", {"seconds": 3700}, at=i) for i in range(2))
        )
        assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
        name, closed = await _next_event(lines)
        assert (name, closed) == ("closed", {"leaderboardId": board, "reason": "finalized"})

    kinds = dict(c.rows("SELECT kind, COUNT(*) FROM outbox GROUP BY kind"))
    assert (kinds["window.opened"], kinds["window.closed"], kinds["leaderboard.finalized"]) == (1, 1, 1), (
        kinds
    )
    assert kinds["event.attempt_started"] == 4 and kinds["event.expired"] == 4
    paid = c.rows(
        "SELECT p.external_id, COUNT(*) FROM grants g JOIN players p ON p.id = g.player_id"
        " WHERE g.source_kind = 'event_rank' GROUP BY p.external_id ORDER BY p.external_id"
    )
    assert paid == [("ann", 1), ("bob", 1), ("cat", 1)]
    assert c.rows("SELECT status, COUNT(*) FROM windows GROUP BY status") == [("closed", 2)]  # test and live


# --- shared leaderboards on two processes -------------------------------------------------------------

# A daily league: divisions of two, so that 240 players fill 120 divisions and the rollover takes two
# steps (livecore.leaderboards.commands.divisions_per_step: 100 each); rank 1 of each division is paid.
LEAGUE = """
[games.arena.leaderboards.daily]
name = "Daily"
period = "daily"
divisions = { size = 2, tiers = ["low", "high"], promote = 1, relegate = 0 }

[[games.arena.leaderboards.daily.rank_rewards]]
from = 1
to = 1
rewards = [{ type = "currency", key = "gold", amount = 10 }]
"""


@pytest.fixture
async def league_cluster(pg_url: str, receiver: Receiver, tmp_path: Path) -> AsyncIterator[Cluster]:
    """Two ``serve --clock manual`` processes with the ``daily`` shared leaderboard."""
    manifest = MANIFEST.replace("{url}", receiver.url) + LEAGUE
    async for c in _cluster(pg_url, manifest, tmp_path, "--clock", "manual"):
        yield c


async def test_two_processes_roll_a_shared_boards_period_over_once(league_cluster: Cluster) -> None:
    """Scores submitted through both processes; then both move their clocks past midnight at once, and
    both schedulers roll the day's period: it finalizes once (one ``leaderboard.period_finalized``) and
    each division's winner is paid once and promoted."""
    c = league_cluster
    players = [f"p{i:03}" for i in range(240)]

    async def submit(who: str, score: int) -> None:
        body = {"externalPlayerId": who, "score": score, "idempotencyKey": str(uuid.uuid4())}
        r = await c.server("POST", "/leaderboards/daily/scores", body)
        assert r.status_code == 200, (r.text, c.log_tail())

    async def read(query: str) -> Any:
        r = await c.http.get(
            f"{c.base()}/sdk/v1/leaderboards/daily{query}",
            headers={"Authorization": f"Bearer {c.keys['client']}"},
        )
        assert r.status_code == 200, r.text
        return r.json()["data"]

    for i, who in enumerate(players):
        await submit(who, i)
    period_id = (await read(""))["leaderboard"]["periodId"]

    now = datetime.now(UTC)
    midnight = (now + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    seconds = (midnight - now).total_seconds() + 120
    answers = await asyncio.gather(
        *(c.server("POST", "/dev/clock/advance", {"seconds": seconds}, at=i) for i in range(2))
    )
    assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]

    kinds = dict(c.rows("SELECT kind, COUNT(*) FROM outbox GROUP BY kind"))
    assert kinds.get("leaderboard.period_finalized") == 1, (kinds, c.log_tail())
    paid = c.rows(
        "SELECT external_player_id, COUNT(*) FROM grants WHERE source_kind = 'leaderboard_rank'"
        " AND source_ref_id = %s GROUP BY external_player_id",
        (period_id,),
    )
    # Divisions of two filled in turn: the second of each (the higher score) wins, once.
    assert sorted(paid) == [(f"p{i:03}", 1) for i in range(1, 240, 2)]
    previous = await read("?previous=true&around=p239")
    assert previous["leaderboard"]["periodId"] == period_id
    # The next day: each winner plays the high tier, each other the low one.
    for who in ("p000", "p001", "p238", "p239"):
        await submit(who, 1)
    tiers = {
        who: (await read(f"?around={who}"))["leaderboard"]["division"]["tier"]
        for who in ("p000", "p001", "p238", "p239")
    }
    assert tiers == {"p000": "low", "p001": "high", "p238": "low", "p239": "high"}


# --- lobbies on two processes -------------------------------------------------------------------------

# Lobbies of four per region in a window open when the servers start (ending an hour later); at fill_by
# (a minute after a lobby opens) bots take the empty seats.
LOBBY_EVENT = """
[games.arena.events.brawl]
name = "Brawl"
starts_at = "{starts_at}"
window_seconds = 3600
attempt_seconds = 3600
score_metric = "score"
segments = ["region"]

[games.arena.events.brawl.lobby]
capacity = 4
fill_seconds = 60
fill_bots = true
bot_score = {{ min = 10, max = 90 }}
"""


@pytest.fixture
async def lobby_cluster(pg_url: str, receiver: Receiver, tmp_path: Path) -> AsyncIterator[Cluster]:
    """Two ``serve --clock manual`` processes with the ``brawl`` lobby event open."""
    starts_at = (datetime.now(UTC) - timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    manifest = MANIFEST.replace("{url}", receiver.url) + LOBBY_EVENT.format(starts_at=starts_at)
    async for c in _cluster(pg_url, manifest, tmp_path, "--clock", "manual"):
        yield c


async def test_two_processes_seat_players_once_and_start_and_close_each_lobby_once(
    lobby_cluster: Cluster,
) -> None:
    """Each player starts twice at once, once on each process: never a lobby over its capacity, one seat
    per player in the window. Both processes then move their clocks past the lobbies' ``fill_by`` at
    once: each forming lobby is filled with bots and started once; then past the window's end: each
    lobby closes once."""
    c = lobby_cluster
    regions = {"eu": 10, "us": 10, "asia": 6}  # 2, 2 and 1 full lobbies, then one forming in each
    players = [(f"{r}{i:02d}", r) for r, n in regions.items() for i in range(n)]
    answers = await asyncio.gather(
        *(
            c.http.post(
                f"{c.base()}/sdk/v1/players/{name}/register",
                headers={"Authorization": f"Bearer {c.keys['client']}"},
            )
            for name, _ in players
        )
    )
    assert [r.status_code for r in answers] == [201] * len(players), [r.text for r in answers]
    c.secrets.update(
        {n: r.json()["data"]["playerSecret"] for (n, _), r in zip(players, answers, strict=True)}
    )

    starts = await asyncio.gather(
        *(
            c.sdk("POST", name, "/events/brawl/start", {"playerContext": {"region": region}}, at=i)
            for name, region in players
            for i in range(2)
        )
    )
    # 202 while a lobby forms, 201 once it is active; a second start beside an attempt in progress is
    # refused (attempts.md: one in progress at a time).
    assert {r.status_code for r in starts} <= {201, 202, 409}, [r.text for r in starts]

    def lobbies() -> dict[str, tuple[str, int, int, int, str]]:
        rows = c.rows(
            "SELECT l.id, l.status, l.participant_count, l.bot_count, l.segment_values->>'region',"
            " (SELECT COUNT(*) FROM lobby_seats s WHERE s.lobby_id = l.id) FROM lobbies l"
        )
        found = {}
        for lobby_id, status, count, bots, region, seats in rows:
            assert count == seats <= 4, (lobby_id, count, seats)
            found[lobby_id] = (status, count, bots, seats, region)
        return found

    def kinds_per_lobby(kind: str) -> Counter[str]:
        rows = c.rows("SELECT data->>'lobbyId' FROM outbox WHERE kind = %s", (kind,))
        return Counter(lobby_id for (lobby_id,) in rows)

    found = lobbies()
    assert sorted((s, n, r) for s, n, _, _, r in found.values()) == sorted(
        [("active", 4, "eu")] * 2
        + [("active", 4, "us")] * 2
        + [("active", 4, "asia")]
        + [("forming", 2, "eu"), ("forming", 2, "us"), ("forming", 2, "asia")]
    ), c.log_tail()
    one_seat = c.rows("SELECT window_id, seat_id, COUNT(*) FROM lobby_seats GROUP BY window_id, seat_id")
    assert len(one_seat) == len(players) and {n for *_, n in one_seat} == {1}
    forming = {i for i, (s, *_) in found.items() if s == "forming"}
    assert kinds_per_lobby("lobby.started") == dict.fromkeys(set(found) - forming, 1)

    # Both clocks past every fill_by at once (the processes' clocks started a moment apart).
    answers = await asyncio.gather(
        *(c.server("POST", "/dev/clock/advance", {"seconds": 120}, at=i) for i in range(2))
    )
    assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
    found = lobbies()
    assert {i: (s, n, b) for i, (s, n, b, *_) in found.items() if i in forming} == dict.fromkeys(
        forming, ("active", 4, 2)
    ), c.log_tail()
    assert kinds_per_lobby("lobby.started") == dict.fromkeys(found, 1)
    assert kinds_per_lobby("lobby.fill_timeout") == dict.fromkeys(forming, 1)
    assert kinds_per_lobby("lobby.bot_filled") == dict.fromkeys(forming, 1)
    assert c.rows("SELECT COUNT(*) FROM lobby_seats WHERE source = 'bot'") == [(6,)]

    # Both past the window's end at once: each lobby closes once.
    answers = await asyncio.gather(
        *(c.server("POST", "/dev/clock/advance", {"seconds": 3700}, at=i) for i in range(2))
    )
    assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
    assert {s for s, *_ in lobbies().values()} == {"closed"}
    assert kinds_per_lobby("lobby.closed") == dict.fromkeys(found, 1)
