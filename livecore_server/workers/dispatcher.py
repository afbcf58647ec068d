"""The webhook dispatcher: fans committed events out to deliveries and attempts them
(docs/reference/webhooks.md#delivery).

Each pass: fan out the outbox rows that are due, then claim and start an attempt for every due delivery
to an active endpoint, a few at a time per endpoint, so one slow endpoint never holds up the others. One
dispatcher runs one pass at a time (its background loop and ``drain_due`` take turns); the attempts a
pass starts run outside it. An attempt POSTs the envelope signed over the exact bytes sent; its outcome
(delivered only on a 2xx, else the retry schedule) and the endpoint's breaker are written in one
transaction after the answer, so a crash mid-attempt leaves the delivery pending and it is sent again
(at least once). The attempt itself is counted by its claim, before the request goes out, so that
re-send carries the next ``deliveryAttempt``.

Several processes on one PostgreSQL database each run a dispatcher. A delivery is claimed before its
attempt until ``timeout + CLAIM_MARGIN`` from now (wall clock): no other process attempts it meanwhile.
When the claimer dies mid-attempt, the claim runs out and another process (or the same one restarted)
sends it. On SQLite there is one server process, so its claims are released when it starts.

Wall clock: a background loop wakes when there is something to send: a commit that wrote events (this
process's as it commits; another process's as its notification arrives on PostgreSQL, within
``OTHERS_EVERY`` on SQLite: ``ServerStore.watch``), a delivery written outside the outbox (a sample, a
replay, an unpause: the same commit listeners), a free slot of an endpoint, and the due time of the next
retry. Nothing pending, nothing runs. Should a pass leave a delivery due that it could not
take (another process holds its claim), it looks again a second later. Manual clock: the same loop
sends what is due at the service time, and ``clock/advance`` runs each retry at its due time and waits
for the attempts to finish.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from datetime import datetime

import aiohttp

from livecore import __version__
from livecore.commands import emit
from livecore.ids import Prefix, new_id
from livecore.scope import SYSTEM, Scope
from livecore.webhooks.delivery import (
    ATTEMPT_TIMEOUT,
    AttemptResult,
    after_attempt,
    endpoint_after_attempt,
    undeliverable,
)
from livecore.webhooks.endpoints import WebhookEndpointFailed
from livecore.webhooks.envelope import build_envelope
from livecore.webhooks.signing import signature_header
from livecore_server import webhook_targets
from livecore_server.services import Services
from livecore_server.storage.server_store import ServerTransaction
from livecore_server.storage.sql.webhooks import DueDelivery

log = logging.getLogger("livecore_server.webhooks")

PER_ENDPOINT = 4  # attempts in flight per endpoint
BATCH = 200
PASS_GAP = 0.05  # seconds between two passes of the background loop, at least
HELD_RETRY = 1.0  # seconds before looking again at a due delivery another process holds
CLAIM_MARGIN = 30.0  # seconds a claim outlives the attempt's own timeout
TEST_HEADER = "X-Svc-Webhook-Test"


def _error(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"[:500]


class Dispatcher:
    def __init__(
        self,
        services: Services,
        *,
        timeout: float = ATTEMPT_TIMEOUT.total_seconds(),
        resolver: aiohttp.abc.AbstractResolver | None = None,
    ) -> None:
        """``resolver``: how receivers' names are looked up (aiohttp's default when ``None``); whatever it
        answers, the address policy is applied to each address before connecting."""
        self.services = services
        self.timeout = timeout
        self._resolver = resolver
        self._wake = asyncio.Event()
        self._inflight: dict[str, asyncio.Task[None]] = {}
        self._per_endpoint: dict[str, int] = {}
        self._session: aiohttp.ClientSession | None = None
        self._loop_task: asyncio.Task[None] | None = None
        # One pass at a time: the background loop and drain_due (the manual clock's scheduler, tests)
        # both call run_once, and a pass awaits its fan-out and its claim. Two passes at once would
        # both count the same attempts in flight (``busy``) and overrun PER_ENDPOINT.
        self._pass_lock = asyncio.Lock()
        # Whether other processes' commits wake this one (their notifications are heard; SQLite has none).
        self._told = services.store.single_process

    def told(self, on: bool) -> None:
        """The store's watch listens (or stopped): until it does, look for work every HELD_RETRY."""
        self._told = on or self.services.store.single_process
        self.wake()

    # --- lifecycle --------------------------------------------------------------------------------
    async def start(self) -> None:
        # Every connection goes through the address policy (docs/webhooks.md#endpoint-urls), after name
        # resolution: no redirects are followed, and no proxy is taken from the environment.
        allow_private = self.services.config.allow_private_webhooks
        connector = aiohttp.TCPConnector(
            resolver=self._resolver,
            socket_factory=webhook_targets.socket_factory(allow_private=allow_private),
        )
        self._session = aiohttp.ClientSession(
            connector=connector,
            timeout=aiohttp.ClientTimeout(total=self.timeout),
            headers={"User-Agent": f"livecore-webhooks/{__version__}"},
        )
        store = self.services.store
        if store.single_process:
            await store.run_async(lambda tx: tx.webhooks.release_claims(), row_locked=True)
        store.on_events_committed(self.wake)
        if self.services.manual_clock:
            self.services.scheduler.when("webhook_dispatch", self.next_due, self.drain_due)
        self._loop_task = asyncio.create_task(self._run_forever())

    async def stop(self) -> None:
        """Stop attempting. Attempts cut short stay pending, and their claims are given up so that
        another process (or this one restarted) sends them at once rather than when the claims run out."""
        if self._loop_task is not None:
            self._loop_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop_task
        cut_short = list(self._inflight)
        for task in list(self._inflight.values()):
            task.cancel()
        await asyncio.gather(*self._inflight.values(), return_exceptions=True)
        if cut_short:
            try:
                await self.services.store.run_async(
                    lambda tx: tx.webhooks.release_claims(cut_short), row_locked=True
                )
            except Exception:  # the claims run out on their own
                log.exception("could not give up the claims of %d cut-short attempts", len(cut_short))
        if self._session is not None:
            await self._session.close()

    def wake(self) -> None:
        self._wake.set()

    async def _run_forever(self) -> None:
        while True:
            self._wake.clear()
            wait: float | None = HELD_RETRY
            try:
                await self.run_once()
                wait = await self._until_due()
            except Exception:
                log.exception("webhook dispatch pass failed")
            # Under a steady stream of commits every one of them wakes the loop: without a pause each
            # would cost a pass (two transactions) for an event or two. Pausing lets a pass take all the
            # events of the last PASS_GAP at once.
            await asyncio.sleep(PASS_GAP)
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation that
            # arrives as the event is set, and stop() would then wait for this loop forever.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._wake.wait()

    async def _until_due(self) -> float | None:
        """Seconds until the next retry is due (None: nothing pending, sleep until woken). The manual
        clock's scheduler runs what comes due on its own (``drain_due``)."""
        if self.services.manual_clock:
            return None
        due = await self.services.store.run_async(lambda tx: tx.webhooks.next_due(), write=False)
        if due is None:
            return None if self._told else HELD_RETRY
        seconds = (due - self.services.clock.now()).total_seconds()
        # Due already, after a pass: what is due is being attempted (its end wakes the loop) or held by
        # another process's claim.
        return HELD_RETRY if seconds <= 0 or not self._told else seconds

    # --- passes -----------------------------------------------------------------------------------
    def next_due(self, tx: ServerTransaction) -> datetime | None:
        return tx.webhooks.next_due()

    async def drain_due(self) -> None:
        """Start everything due now and wait until every attempt in flight has finished."""
        await self.run_once()
        while self._inflight:
            await asyncio.gather(*self._inflight.values(), return_exceptions=True)
            await self.run_once()

    async def run_once(self) -> int:
        """One pass: fan out what is due, claim due deliveries and start their attempts; how many
        started. Passes of this dispatcher take turns; the attempts run on after the pass."""
        async with self._pass_lock:
            return await self._pass()

    async def _pass(self) -> int:
        s = self.services
        now = s.clock.now()
        rt = s.runtime
        await s.store.run_async(
            lambda tx: tx.webhooks.fan_out(now, lambda: new_id(Prefix.DELIVERY, now, rt.rng)), row_locked=True
        )
        wall_ms = time.time_ns() // 1_000_000
        until_ms = wall_ms + int((self.timeout + CLAIM_MARGIN) * 1000)
        busy = dict(self._per_endpoint)
        # Claimed in a transaction of its own, committed before any attempt starts.
        due = await s.store.run_async(
            lambda tx: tx.webhooks.claim_due(
                now, wall_ms, until_ms, limit=BATCH, busy=busy, per_endpoint=PER_ENDPOINT
            ),
            row_locked=True,
        )
        started = 0
        for item in due:
            endpoint_id = item.endpoint.id
            self._per_endpoint[endpoint_id] = self._per_endpoint.get(endpoint_id, 0) + 1
            task = asyncio.create_task(self._attempt(item))
            self._inflight[item.delivery.id] = task
            task.add_done_callback(functools.partial(self._done, item.delivery.id, endpoint_id))
            started += 1
        return started

    def _done(self, delivery_id: str, endpoint_id: str, task: asyncio.Task[None]) -> None:
        self._inflight.pop(delivery_id, None)
        self._per_endpoint[endpoint_id] -= 1
        if not task.cancelled() and (exc := task.exception()) is not None:
            # Only writing the outcome can fail here (the database): the claim runs out, and it is sent again.
            log.error("the attempt of webhook delivery %s was not recorded", delivery_id, exc_info=exc)
        # A slot is free: look again at once rather than at the next tick.
        self._wake.set()

    # --- one attempt ------------------------------------------------------------------------------
    async def _attempt(self, item: DueDelivery) -> None:
        """One attempt, recorded whatever happens: nothing one event or endpoint does ends the task
        without its delivery being marked (it would stay pending, claimed again and again)."""
        try:
            body = build_envelope(item.event, delivery_attempt=item.delivery.attempts)
        except Exception as exc:
            # The event itself cannot be sent (nested too deep to serialize, say): now or on any retry.
            log.exception("webhook delivery %s of event %s cannot be built", item.delivery.id, item.event.id)
            reason = f"the event cannot be sent: {_error(exc)}"
            await self.services.store.run_async(
                lambda tx: self._record_undeliverable(tx, item, reason), row_locked=True
            )
            return
        result = await self._send(item, body)
        await self.services.store.run_async(lambda tx: self._record(tx, item, result), row_locked=True)

    async def _send(self, item: DueDelivery, body: bytes) -> AttemptResult:
        assert self._session is not None
        try:
            keys = self.services.keys
            secret = keys.decrypt(item.secret_enc, context=item.endpoint.id)
            # During a rotation's overlap (service time) the previous secret signs too, after the new one.
            previous = item.previous_secret_enc
            extra: tuple[str, ...] = ()
            if previous is not None and item.endpoint.signs_with_previous(self.services.clock.now()):
                extra = (keys.decrypt(previous, context=item.endpoint.id),)
            headers = {
                "Content-Type": "application/json",
                # The signature's t is wall-clock time, even under a manual clock
                # (docs/reference/webhooks.md#signing-and-verifying).
                "X-Signature": signature_header(secret, int(time.time()), body, extra_secrets=extra),
            }
            if item.sample:
                headers[TEST_HEADER] = "1"
            async with self._session.post(
                item.endpoint.url, data=body, headers=headers, allow_redirects=False
            ) as response:
                status = response.status
                return AttemptResult(status, None if 200 <= status < 300 else f"HTTP {status}")
        except TimeoutError:
            return AttemptResult(None, f"no answer within {self.timeout:g} s")
        except aiohttp.ClientConnectorError as exc:
            refused = isinstance(exc.os_error, webhook_targets.TargetRefused)
            return AttemptResult(None, f"refused: {exc.os_error.strerror}" if refused else _error(exc))
        except Exception as exc:
            # A client error, or a fault of ours in signing (an undecryptable secret): a failed attempt,
            # retried on the schedule, so the operator sees it in the delivery and in the breaker.
            if not isinstance(exc, aiohttp.ClientError):
                log.exception("webhook attempt of delivery %s failed on our side", item.delivery.id)
            return AttemptResult(None, _error(exc))

    def _record_undeliverable(self, tx: ServerTransaction, item: DueDelivery, reason: str) -> None:
        delivery = tx.webhooks.get_delivery(item.delivery.id, lock=True)
        if delivery is not None:
            tx.webhooks.save_delivery(undeliverable(delivery, reason), self.services.clock.now())

    def _record(self, tx: ServerTransaction, item: DueDelivery, result: AttemptResult) -> None:
        s = self.services
        now = s.clock.now()
        # Locked: another process may record an attempt of this endpoint (its breaker) at the same time.
        delivery = tx.webhooks.get_delivery(item.delivery.id, lock=True)
        endpoint = tx.webhooks.get_endpoint(item.endpoint.id, lock=True)
        if delivery is None or endpoint is None:
            return
        tx.webhooks.save_delivery(after_attempt(delivery, result, now), now)
        endpoint, tripped = endpoint_after_attempt(endpoint, result)
        tx.webhooks.save_endpoint(endpoint, now)
        if tripped:
            log.warning(
                "webhook endpoint %s paused after %d failures", endpoint.id, endpoint.consecutive_failures
            )
            scope = Scope(
                studio_id=item.event.studio_id, game_id=endpoint.game_id, env=endpoint.env, actor=SYSTEM
            )
            emit(tx, s.runtime, scope, WebhookEndpointFailed.of(endpoint, result))
