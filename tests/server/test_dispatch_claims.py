"""Webhook dispatch with several server processes on one database (docs/reference/webhooks.md#delivery; issue:
scale out).

The fan-out takes outbox rows ``FOR UPDATE SKIP LOCKED``; a delivery is claimed (``claimed_until``,
wall-clock ms) before it is attempted, so one process attempts it at a time, and a claim that runs out
(its process died mid-attempt) lets another process take it over. On SQLite, a single process, claims
are released when the dispatcher starts. Two Services on one PostgreSQL schema stand for two processes.
"""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import attrs
import pytest
from aiohttp.test_utils import TestClient, TestServer

from livecore.commands import emit
from livecore.ids import Prefix, new_id
from livecore.players.webhooks import PlayerRegistered
from livecore.scope import Environment, Scope
from livecore_server.app import DISPATCHER
from livecore_server.services import SERVICES, Services
from livecore_server.storage.sql.webhooks import DueDelivery, SqlWebhooks
from livecore_server.workers.dispatcher import PASS_GAP, PER_ENDPOINT, Dispatcher
from tests.conftest import Receiver, apply_test_manifest, make_app, make_services, webhook_manifest
from tests.waiting import until

FAR = 2**62  # a claim that does not run out during the test


def _wall_ms() -> int:
    return time.time_ns() // 1_000_000


async def close_app(client: TestClient[Any, Any]) -> None:
    """Close an in-process server. Its dispatcher's loop is cancelled until it has stopped first:
    ``Dispatcher.stop()`` alone can wait forever when the cancellation meets a wake-up (see
    :func:`test_dispatcher_stop_returns_when_a_wake_up_coincides`)."""
    task = getattr(client.app.get(DISPATCHER), "_loop_task", None)
    while task is not None and not task.done():
        task.cancel()
        await asyncio.wait([task], timeout=0.2)
    await client.close()


@attrs.define
class Hooks:
    """A store with the test manifest and two webhook endpoints; events are emitted straight into the
    outbox and fanned out here (no server runs)."""

    services: Services
    applied: dict[str, Any]

    @property
    def scope(self) -> Scope:
        game = self.applied["games"]["space-race"]["id"]
        return Scope(studio_id=self.applied["studio"]["id"], game_id=game, env=Environment.TEST)

    def emit(self, n: int) -> None:
        s, scope = self.services, self.scope

        def one(tx: Any, i: int) -> None:
            registered = PlayerRegistered(
                player_id=f"plr_{i}",
                external_player_id=f"p{i}",
                first_seen_at=s.clock.now(),
                context_snapshot={},
            )
            emit(tx, s.runtime, scope, registered)

        for i in range(n):
            s.store.run(functools.partial(one, i=i))

    def fan_out(self, services: Services | None = None) -> int:
        s = services or self.services
        now = s.clock.now()
        return int(
            s.store.run(
                lambda tx: tx.webhooks.fan_out(now, lambda: new_id(Prefix.DELIVERY, now, s.rng)),
                row_locked=True,
            )
        )

    def delivery_ids(self) -> set[str]:
        rows = self.services.store.run(
            lambda tx: list(tx.execute("SELECT id FROM webhook_deliveries")), write=False
        )
        return {r[0] for r in rows}

    def claims(self) -> dict[str, int | None]:
        rows = self.services.store.run(
            lambda tx: list(tx.execute("SELECT id, claimed_until FROM webhook_deliveries")), write=False
        )
        return {r[0]: r[1] for r in rows}


def _hooks(
    url: str, seed: int = 1, urls: tuple[str, str] = ("http://127.0.0.1:9/a", "http://127.0.0.1:9/b")
) -> Hooks:
    services = make_services(url, seed=seed)
    extra = webhook_manifest(
        all=("test", urls[0], '["*"]'), players=("test", urls[1], '["player.registered"]')
    )
    return Hooks(services, apply_test_manifest(services, extra))


def claim(services: Services, wall_ms: int, until_ms: int, *, limit: int = 200, fn: Any = None) -> list[str]:
    """Claim what is due for ``services`` as its dispatcher does (a row-locked transaction, retried
    when it loses a race); delivery ids."""
    now = services.clock.now()

    def run(tx: Any) -> list[str]:
        due = tx.webhooks.claim_due(now, wall_ms, until_ms, limit=limit, busy={}, per_endpoint=1000)
        if fn is not None:
            fn()
        return [d.delivery.id for d in due]

    return list(services.store.run(run, row_locked=True))


# --- (1) concurrent claimers never get the same delivery ---------------------------------------------


def test_concurrent_fan_outs_create_each_delivery_once(pg_url: str) -> None:
    hooks = _hooks(pg_url)
    other = make_services(pg_url, seed=2)
    try:
        hooks.emit(30)
        with ThreadPoolExecutor(6) as pool:
            created = list(pool.map(lambda i: hooks.fan_out(other if i % 2 else None), range(6)))
        assert sum(created) == 60  # 30 events to "all", 30 to "players"
        pairs = hooks.services.store.run(
            lambda tx: list(tx.execute("SELECT event_seq, endpoint_id FROM webhook_deliveries")), write=False
        )
        assert len(pairs) == 60 and len(set(pairs)) == 60
        assert hooks.fan_out() == 0
    finally:
        hooks.services.close()
        other.close()


def test_concurrent_claimers_never_share_a_delivery(pg_url: str) -> None:
    """Four claimers (two per process) racing over 80 due deliveries, a few at a time: each delivery is
    claimed by exactly one, and no claiming pass fails."""
    hooks = _hooks(pg_url)
    other = make_services(pg_url, seed=2)
    try:
        hooks.emit(40)
        assert hooks.fan_out() == 80
        every = hooks.delivery_ids()
        start = threading.Barrier(4)

        def claimer(i: int) -> list[str]:
            services = other if i % 2 else hooks.services
            got: list[str] = []
            start.wait()
            while True:
                batch = claim(services, _wall_ms(), FAR, limit=3)
                if not batch and all(v is not None for v in hooks.claims().values()):
                    return got
                got += batch

        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(claimer, range(4)))
        counted = Counter(d for r in results for d in r)
        assert set(counted) == every
        assert max(counted.values()) == 1, [d for d, n in counted.items() if n > 1]
        assert claim(hooks.services, _wall_ms(), FAR) == []  # every claim is live
    finally:
        hooks.services.close()
        other.close()


def test_a_claim_in_progress_is_skipped_not_waited_for(pg_url: str) -> None:
    """While one process's claiming transaction holds rows, another claims other rows at once (SKIP
    LOCKED, no waiting), and both commit at their first attempt: no delivery ends up claimed by both.
    (Claims at SERIALIZABLE formed a read/write cycle here, each claimer reading rows the other writes:
    one of the two was aborted and ran its pass again, and with a few processes the store's retries
    ran out and dispatch passes failed.)"""
    hooks = _hooks(pg_url)
    other = make_services(pg_url, seed=2)
    try:
        hooks.emit(10)
        assert hooks.fan_out() == 20
        holding = threading.Event()
        release = threading.Event()
        attempts: list[int] = []

        def hold() -> None:
            attempts.append(1)
            if len(attempts) == 1:  # only the first attempt waits; a re-run goes straight on
                holding.set()
                assert release.wait(20)

        with ThreadPoolExecutor(2) as pool:
            slow = pool.submit(claim, hooks.services, _wall_ms(), FAR, limit=5, fn=hold)
            assert holding.wait(20)
            quick = pool.submit(claim, other, _wall_ms(), FAR, limit=5)
            try:
                second = quick.result(timeout=20)  # not blocked by the rows the first one holds
            finally:
                release.set()
            first = slow.result(timeout=20)
        assert len(first) == len(second) == 5
        assert not set(first) & set(second)
        live = {d for d, until in hooks.claims().items() if until is not None}
        assert live == set(first) | set(second)
        assert len(attempts) == 1, "the first claimer's transaction was aborted by the second's and re-run"
    finally:
        hooks.services.close()
        other.close()


# --- (2) a claim holds a delivery until it runs out --------------------------------------------------


def test_a_claimed_delivery_is_not_claimable_until_its_claim_runs_out(db_url: str) -> None:
    """On either store (on SQLite the claim is the same rule, one process)."""
    hooks = _hooks(db_url)
    try:
        hooks.emit(3)
        assert hooks.fan_out() == 6
        wall = 1_000_000
        taken = claim(hooks.services, wall, wall + 40_000, limit=4)
        assert len(taken) == 4
        rest = claim(hooks.services, wall + 1, wall + 40_001)
        assert len(rest) == 2 and not set(rest) & set(taken)
        assert claim(hooks.services, wall + 39_999, wall + 80_000) == []  # all claimed, claims live
        # The first claims run out at wall + 40_000 (a claim is live while claimed_until > now).
        again = claim(hooks.services, wall + 40_000, wall + 80_000)
        assert sorted(again) == sorted(taken)
        # Recording an attempt's outcome ends the claim: a retry is claimable when due.
        s = hooks.services
        done = s.store.run(lambda tx: tx.webhooks.get_delivery(again[0]), write=False)
        assert done is not None
        s.store.run(lambda tx: tx.webhooks.save_delivery(done, s.clock.now()))
        assert hooks.claims()[again[0]] is None
        assert claim(hooks.services, wall + 40_000, wall + 80_000) == [again[0]]
    finally:
        hooks.services.close()


async def test_sqlite_dispatcher_start_releases_claims(tmp_path: Any) -> None:
    """A SQLite server is the only process: claims left by its previous run (it died mid-attempt) are
    released when it starts, and the deliveries go out at once."""
    receivers = [await Receiver().start() for _ in range(2)]
    hooks = await asyncio.to_thread(_hooks, str(tmp_path / "w.db"), urls=(receivers[0].url, receivers[1].url))
    await asyncio.to_thread(hooks.emit, 2)
    assert await asyncio.to_thread(hooks.fan_out) == 4
    claimed = await asyncio.to_thread(claim, hooks.services, _wall_ms(), FAR)
    assert len(claimed) == 4  # the previous run's claims
    client = TestClient(TestServer(make_app(str(tmp_path / "w.db"))))
    await client.start_server()
    try:
        assert all(v is None for v in hooks.claims().values())
        await client.app[DISPATCHER].drain_due()
        assert len(receivers[0].received) == 2 and len(receivers[1].received) == 2
    finally:
        await close_app(client)
        hooks.services.close()
        for r in receivers:
            await r.stop()


async def test_postgres_dispatcher_start_keeps_other_processes_claims(pg_url: str) -> None:
    """On PostgreSQL another process may be attempting a claimed delivery: a starting dispatcher leaves
    the claim alone and sends the delivery only once the claim has run out."""
    receivers = [await Receiver().start() for _ in range(2)]
    hooks = await asyncio.to_thread(_hooks, pg_url, urls=(receivers[0].url, receivers[1].url))
    await asyncio.to_thread(hooks.emit, 1)
    assert await asyncio.to_thread(hooks.fan_out) == 2
    claimed = await asyncio.to_thread(claim, hooks.services, _wall_ms(), FAR)
    assert len(claimed) == 2  # "another process" holds both
    client = TestClient(TestServer(make_app(pg_url, seed=2)))
    await client.start_server()
    starting: Dispatcher = client.app[DISPATCHER]
    try:
        assert set(hooks.claims().values()) == {FAR}
        assert await starting.run_once() == 0
        await starting.drain_due()
        assert receivers[0].received == [] and receivers[1].received == []
        # The other process died: its claims run out (moved into the past here), and this one sends.
        await hooks.services.store.run_async(
            lambda tx: tx.execute("UPDATE webhook_deliveries SET claimed_until = 1")
        )
        await starting.drain_due()
        assert len(receivers[0].received) == 1 and len(receivers[1].received) == 1
        rows = hooks.services.store.run(
            lambda tx: list(tx.execute("SELECT status, attempts, claimed_until FROM webhook_deliveries")),
            write=False,
        )
        # The dead process's claims counted an attempt each: this one sent the second.
        assert [tuple(r) for r in rows] == [("delivered", 2, None)] * 2
    finally:
        await close_app(client)
        hooks.services.close()
        for r in receivers:
            await r.stop()


async def test_a_delivery_re_sent_after_its_process_died_carries_the_next_delivery_attempt(
    db_url: str,
) -> None:
    """A process dies mid-attempt (its request reached the receiver, no answer was recorded); once its
    claim has run out another process sends the delivery again: with the same event id and
    ``deliveryAttempt`` 2, so the receiver can tell the re-send from the first send."""
    receivers = [await Receiver(gate=asyncio.Event()).start() for _ in range(2)]
    hooks = await asyncio.to_thread(_hooks, db_url, urls=(receivers[0].url, receivers[1].url))
    dying = Dispatcher(hooks.services)
    taking_over = Dispatcher(hooks.services)
    try:
        await dying.start()
        await asyncio.to_thread(hooks.emit, 1)
        for r in receivers:
            await r.wait_for(1)  # the first attempts hang at the receivers
        # The process dies: its tasks end, nothing is recorded and its claims stay.
        assert dying._loop_task is not None and dying._session is not None
        for task in [dying._loop_task, *dying._inflight.values()]:
            task.cancel()
        await asyncio.gather(dying._loop_task, *dying._inflight.values(), return_exceptions=True)
        await dying._session.close()
        assert all(until_ms is not None for until_ms in hooks.claims().values())
        for r in receivers:
            assert r.gate is not None
            r.gate.set()
        # Its claims run out (moved into the past here), and another process sends the deliveries.
        await hooks.services.store.run_async(
            lambda tx: tx.execute("UPDATE webhook_deliveries SET claimed_until = 1")
        )
        await taking_over.start()
        await taking_over.drain_due()
        for r in receivers:
            await r.wait_for(2)
            first, again = (got.envelope for got in r.received)
            assert first["id"] == again["id"]
            assert (first["deliveryAttempt"], again["deliveryAttempt"]) == (1, 2)
        rows = hooks.services.store.run(
            lambda tx: list(tx.execute("SELECT status, attempts FROM webhook_deliveries")), write=False
        )
        assert [tuple(r) for r in rows] == [("delivered", 2)] * 2
    finally:
        await taking_over.stop()
        hooks.services.close()
        for r in receivers:
            await r.stop()


# --- one process runs one dispatch pass at a time ----------------------------------------------------


async def test_one_process_runs_one_dispatch_pass_at_a_time(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The background loop and ``drain_due`` (the scheduler's, a test's) may both call ``run_once``, and a
    pass awaits its fan-out and its claim (on PostgreSQL on worker threads, on SQLite a group commit): the
    passes of one dispatcher take turns, each fanning out and claiming before the next begins. Else two
    passes would count the same attempts in flight and start up to twice ``PER_ENDPOINT`` per endpoint."""
    receivers = [await Receiver().start() for _ in range(2)]
    hooks = await asyncio.to_thread(_hooks, db_url, urls=(receivers[0].url, receivers[1].url))
    passes = {"open": 0, "most": 0}  # passes between the start of their fan-out and the end of their claim
    attempts: dict[str, int] = Counter()
    most_attempts = 0
    fan_out, claim_due, attempt = SqlWebhooks.fan_out, SqlWebhooks.claim_due, Dispatcher._attempt

    def counted_fan_out(*args: Any, **kwargs: Any) -> int:
        passes["open"] += 1
        passes["most"] = max(passes["most"], passes["open"])
        time.sleep(0.005)  # a pass that would start meanwhile gets the time to begin
        return fan_out(*args, **kwargs)

    def counted_claim_due(*args: Any, **kwargs: Any) -> list[DueDelivery]:
        due = claim_due(*args, **kwargs)
        passes["open"] -= 1
        return due

    async def counted_attempt(self: Dispatcher, item: DueDelivery) -> None:
        nonlocal most_attempts
        attempts[item.endpoint.id] += 1
        most_attempts = max(most_attempts, attempts[item.endpoint.id])
        try:
            await attempt(self, item)
        finally:
            attempts[item.endpoint.id] -= 1

    monkeypatch.setattr(SqlWebhooks, "fan_out", counted_fan_out)
    monkeypatch.setattr(SqlWebhooks, "claim_due", counted_claim_due)
    monkeypatch.setattr(Dispatcher, "_attempt", counted_attempt)
    dispatcher = Dispatcher(hooks.services)
    try:
        await asyncio.to_thread(
            hooks.emit, 12
        )  # 12 deliveries to each endpoint: several passes of PER_ENDPOINT each
        await dispatcher.start()  # its background loop makes a pass at once
        await asyncio.gather(
            dispatcher.drain_due(), dispatcher.drain_due(), dispatcher.run_once(), dispatcher.run_once()
        )
        await dispatcher.drain_due()
        assert passes["most"] == 1, "two dispatch passes of one process overlapped"
        assert 1 <= most_attempts <= PER_ENDPOINT  # without the turns: up to 12
        for r in receivers:  # each event once
            assert len(r.received) == len({got.envelope["id"] for got in r.received}) == 12
    finally:
        await dispatcher.stop()
        hooks.services.close()
        for r in receivers:
            await r.stop()


async def test_a_stream_of_wake_ups_costs_one_pass_per_pass_gap_not_one_per_commit(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every commit with events wakes the dispatcher; under a steady stream the background loop still
    makes at most one pass per PASS_GAP, each taking everything committed meanwhile."""
    hooks = await asyncio.to_thread(_hooks, db_url)
    passes = [0]
    fan_out = SqlWebhooks.fan_out

    def counted_fan_out(*args: Any, **kwargs: Any) -> int:
        passes[0] += 1
        return fan_out(*args, **kwargs)

    monkeypatch.setattr(SqlWebhooks, "fan_out", counted_fan_out)
    dispatcher = Dispatcher(hooks.services)
    try:
        await dispatcher.start()
        started = time.monotonic()
        while time.monotonic() - started < 0.5:
            dispatcher.wake()  # as a commit with events does
            await asyncio.sleep(0.002)
        elapsed = time.monotonic() - started
        assert passes[0] <= elapsed / PASS_GAP + 2, f"{passes[0]} passes in {elapsed:.2f} s"
    finally:
        await dispatcher.stop()
        hooks.services.close()


# --- (3) end to end: two servers, one database, every event delivered once per endpoint ---------------


@attrs.define
class TwoServers:
    services: list[Services]
    clients: list[TestClient[Any, Any]]
    receivers: dict[str, Receiver]
    keys: dict[str, str]


@pytest.fixture
async def two_servers(pg_url: str) -> AsyncIterator[TwoServers]:
    receivers = {"all": await Receiver().start(), "players": await Receiver().start()}
    seeding = await asyncio.to_thread(make_services, pg_url)
    extra = webhook_manifest(
        all=("test", receivers["all"].url, '["*"]'),
        players=("test", receivers["players"].url, '["player.registered"]'),
    )
    applied = await asyncio.to_thread(apply_test_manifest, seeding, extra)
    seeding.close()
    clients = [TestClient(TestServer(make_app(pg_url, manual=False, seed=seed))) for seed in (1, 2)]
    try:
        for c in clients:
            await c.start_server()
        keys = {n: k["secret"] for n, k in applied["games"]["space-race"]["apiKeys"].items()}
        yield TwoServers([c.app[SERVICES] for c in clients], clients, receivers, keys)
    finally:
        for c in clients:
            await close_app(c)
        for r in receivers.values():
            await r.stop()


async def _settled(two: TwoServers) -> list[tuple[Any, ...]]:
    """Wait until no delivery is pending and neither dispatcher has an attempt in flight; the deliveries
    (event id, endpoint name, status, attempts)."""
    store = two.services[0].store
    rows: list[tuple[Any, ...]] = []

    def settled() -> bool:
        # Every event fanned out first, then its deliveries: read the other way round, a fan-out between
        # the two reads leaves deliveries the rows never saw pending.
        unfanned = store.run(
            lambda tx: tx.execute("SELECT count(*) FROM outbox WHERE NOT fanned_out").fetchone()[0],
            write=False,
        )
        rows[:] = store.run(
            lambda tx: [
                tuple(r)
                for r in tx.execute(
                    "SELECT o.id, e.name, d.status, d.attempts FROM webhook_deliveries d"
                    " JOIN outbox o ON o.seq = d.event_seq JOIN webhook_endpoints e ON e.id = d.endpoint_id"
                )
            ],
            write=False,
        )
        idle = all(not c.app[DISPATCHER]._inflight for c in two.clients)
        return unfanned == 0 and idle and all(r[2] != "pending" for r in rows)

    await until(settled, lambda: f"the deliveries to settle: {rows}")
    return rows


async def test_two_servers_deliver_every_event_once_per_endpoint(two_servers: TwoServers) -> None:
    two = two_servers
    auth = {"Authorization": f"Bearer {two.keys['test-client']}"}

    async def register(i: int) -> None:
        resp = await two.clients[i % 2].post(f"/sdk/v1/players/p{i:02d}/register", headers=auth)
        assert resp.status == 201, await resp.text()

    await asyncio.gather(*(register(i) for i in range(24)))
    rows = await _settled(two)

    events = two.services[0].store.run(lambda tx: tx.outbox.events(), write=False)
    by_kind = Counter(e.kind for e in events)
    assert by_kind == {"player.registered": 24, "player.secret_set": 24}
    got_all = Counter(r.envelope["id"] for r in two.receivers["all"].received)
    got_players = Counter(r.envelope["id"] for r in two.receivers["players"].received)
    assert got_all == {e.id: 1 for e in events}
    assert got_players == {e.id: 1 for e in events if e.kind == "player.registered"}
    # The database agrees: one delivery per (event, endpoint), delivered at the first attempt.
    assert len(rows) == 72 and len({(r[0], r[1]) for r in rows}) == 72
    assert {(r[2], r[3]) for r in rows} == {("delivered", 1)}


# --- stopping ----------------------------------------------------------------------------------------


async def test_dispatcher_stop_returns_when_a_wake_up_coincides(tmp_path: Any) -> None:
    """A server stopping (SIGTERM, a rolling deploy) right after an event was committed or an attempt
    finished must still stop. The dispatcher waits for work with ``asyncio.wait_for(event.wait(), 1)``;
    on Python 3.11 a cancellation that arrives once the event is set but before ``wait_for`` has
    resumed is swallowed (``wait_for`` returns the result instead), the loop goes on, and ``stop()``,
    which awaits it, never returns."""
    services = await asyncio.to_thread(make_services, str(tmp_path / "stop.db"))
    dispatcher = Dispatcher(services)
    await dispatcher.start()
    stopping: asyncio.Future[None] | None = None
    try:
        await until(lambda: dispatcher._wake._waiters, "the loop to park, waiting for work")
        dispatcher.wake()  # a commit wrote events, or an attempt finished
        await asyncio.sleep(0)  # the wait has seen the wake-up; the loop has not resumed yet
        stopping = asyncio.ensure_future(dispatcher.stop())
        done, _ = await asyncio.wait([stopping], timeout=2)
        assert done, "Dispatcher.stop() did not return: the loop's cancellation was lost in asyncio.wait_for"
    finally:
        task = dispatcher._loop_task
        while task is not None and not task.done():
            task.cancel()
            await asyncio.wait([task], timeout=0.2)
        if stopping is not None:
            await stopping
        services.close()
