"""Everything a request handler may use, built once per server, and the typed app keys."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import attrs
from aiohttp import web

from livecore.clock import Clock, ManualClock, to_millis
from livecore.commands import Runtime
from livecore.commands.grants import SWEEP_BATCH, expire_grants
from livecore.commands.players import sweep_streaks
from livecore.idempotency import TTL
from livecore.rand import RandomSource, SystemRandomSource
from livecore.webhooks.delivery import RETENTION
from livecore_server.crypto import ServerKeys, load_server_key
from livecore_server.keys import KeyCache, UsageRecorder
from livecore_server.presence import PresenceBoard
from livecore_server.ratelimit import RateLimiter
from livecore_server.scheduler import Scheduler
from livecore_server.storage.sqlite import SqliteStore, sqlite_path
from livecore_server.storage.webhooks import purge_finished


@attrs.frozen
class Config:
    db: str = "livecore.db"
    geo_headers: tuple[str, ...] = ("CF-IPCountry", "CloudFront-Viewer-Country")
    key_cache_ttl: float = 1.0
    bench_baseline: bool = False
    webhook_timeout: float = 10.0  # DECISIONS 6; tests shorten it


@attrs.define
class Services:
    config: Config
    store: SqliteStore
    clock: Clock
    rng: RandomSource
    keys: ServerKeys
    runtime: Runtime
    scheduler: Scheduler
    ratelimiter: RateLimiter
    key_cache: KeyCache
    usage: UsageRecorder
    presence: PresenceBoard
    # Started with the app (it needs the event loop); None outside a running server.
    dispatcher: Any = None

    @property
    def manual_clock(self) -> bool:
        return isinstance(self.clock, ManualClock)

    def close(self) -> None:
        if self.store.closed:
            return
        self.usage.flush(self.store)
        self.presence.flush(self.store)
        self.store.close()


def build_services(config: Config, clock: Clock, rng: RandomSource | None = None) -> Services:
    path = sqlite_path(config.db)
    store = SqliteStore(path)
    keys = ServerKeys(load_server_key(path))
    rng = rng or SystemRandomSource()
    runtime = Runtime(clock=clock, rng=rng, hasher=keys.hasher)
    services = Services(
        config=config,
        store=store,
        clock=clock,
        rng=rng,
        keys=keys,
        runtime=runtime,
        scheduler=Scheduler(clock),
        ratelimiter=RateLimiter(clock),
        key_cache=KeyCache(store, keys.hasher, config.key_cache_ttl),
        usage=UsageRecorder(),
        presence=PresenceBoard(),
    )
    schedule_sweeps(services)
    return services


def schedule_sweeps(s: Services) -> None:
    """The scheduled work of the service; later features add theirs here."""

    async def streaks() -> None:
        s.store.run(lambda tx: sweep_streaks(tx, s.runtime))

    async def idempotency() -> None:
        cutoff = to_millis(s.clock.now() - TTL)
        s.store.run(lambda tx: tx.purge_idempotency(cutoff))

    async def webhook_history() -> None:
        cutoff = s.clock.now() - RETENTION
        s.store.run(lambda tx: purge_finished(tx.conn, cutoff))

    async def grant_expiry() -> None:
        while s.store.run(lambda tx: expire_grants(tx, s.runtime)) == SWEEP_BATCH:
            pass

    s.scheduler.every("grant_expiry_sweep", timedelta(minutes=1), grant_expiry)
    s.scheduler.every("login_streak_sweep", timedelta(hours=1), streaks)
    s.scheduler.every("idempotency_purge", timedelta(hours=1), idempotency)
    s.scheduler.every("webhook_retention", timedelta(hours=1), webhook_history)


SERVICES = web.AppKey("services", Services)
