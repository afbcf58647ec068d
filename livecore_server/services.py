"""Everything a request handler may use, and the typed app key it is kept under.

A server builds its :class:`Services` when its app starts (``livecore_server.app.create_app``: inside
the app's cleanup context) and closes them when it stops, so the database and the caches open and close
together with the server. Commands of the CLI that serve nothing, and tests of the store, build them with
:func:`build_services` and close them themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime, timedelta

import attrs
from aiohttp import web

from livecore import registry
from livecore.api.request import PathIds
from livecore.area import Area
from livecore.clock import Clock, ManualClock, to_millis
from livecore.commands import Runtime
from livecore.contributions import Contributions
from livecore.idempotency import TTL
from livecore.rand import RandomSource, SystemRandomSource
from livecore.webhooks.delivery import RETENTION, SECRET_SWEEP
from livecore_server.area_service import AreaService, AreaServices, S, ServiceKey, Serving
from livecore_server.config import Config, sqlite_path
from livecore_server.crypto import ServerKeys, check_server_key, load_server_key
from livecore_server.keys import KeyCache, UsageRecorder
from livecore_server.lockouts import AuthThrottle
from livecore_server.ratelimit import RateLimiter, SecretBrake, SharedRateLimiter
from livecore_server.scheduler import Scheduler, schedule_jobs
from livecore_server.storage.area_storage import AreaStorage
from livecore_server.storage.server_store import ServerStore, ServerTransaction, open_store
from livecore_server.storage.sqlite import DatabaseFileLost
from livecore_server.stream_slots import StreamSlots


@attrs.frozen
class Services:
    config: Config
    store: ServerStore
    clock: Clock
    rng: RandomSource
    keys: ServerKeys
    runtime: Runtime
    scheduler: Scheduler
    ratelimiter: RateLimiter | SharedRateLimiter
    secret_brake: SecretBrake
    auth_throttle: AuthThrottle
    key_cache: KeyCache
    usage: UsageRecorder
    # What the areas served run beside their routes (livecore_server.area_service), read services.of(KEY).
    area_services: AreaServices
    stream_slots: StreamSlots
    # The areas served: the installed ones and the studio's own (livecore.registry.areas).
    areas: tuple[Area, ...]
    # The ids in their routes' paths, with the codes of the records they name.
    paths: PathIds
    # Held while the buffers are written: a flush that finds them empty because another one took them
    # waits until that one has committed, so "flushed" means written.
    _flushing: asyncio.Lock = attrs.field(factory=asyncio.Lock, init=False)

    def of(self, key: ServiceKey[S]) -> S:
        """The area service ``key`` names (``services.of(PRESENCE)``)."""
        return self.area_services.of(key)

    @property
    def manual_clock(self) -> bool:
        return isinstance(self.clock, ManualClock)

    async def flush_buffers(self) -> None:
        """Write what this process holds in memory between its periodic flushes (every
        ``Config.flush_seconds``): key usage, heartbeats, ``lastSeenAt`` and reported builds. Once it
        returns, every request answered before it was called is in the database."""
        async with self._flushing:
            await self.usage.flush_async(self.store)
            for service in self.area_services:
                await service.flush_async(self.store)

    def close(self) -> None:
        if self.store.closed:
            return
        # What is left to flush is lost with the database file, if it was lost (already logged).
        with contextlib.suppress(DatabaseFileLost):
            self.usage.flush(self.store)
            for service in self.area_services:
                service.flush(self.store)
        self.store.close()


def build_services(
    config: Config,
    clock: Clock,
    rng: RandomSource | None = None,
    *,
    served: tuple[Serving, ...],
    storage: AreaStorage,
) -> Services:
    """The services of a server of the ``served`` areas (the installed ones and a studio's own,
    ``livecore_server.registry.installed()`` and the plugins), whose tables, migrations and SQL ports
    ``storage`` holds (``livecore_server.registry.storage()``)."""
    core = tuple(area.area for area in served)
    # The server key: beside a SQLite file; for PostgreSQL from the environment (every process of a
    # deployment needs the same one) or ./livecore.key.
    server_key = load_server_key(None if config.postgres else sqlite_path(config.db), config.key_file)
    keys = ServerKeys(server_key.master, server_key.previous)
    store = open_store(config.db, pool_size=config.pool_size, areas=storage)
    try:
        check_server_key(store, server_key, keys, to_millis(clock.now()))
    except BaseException:
        store.close()
        raise
    ratelimiter: RateLimiter | SharedRateLimiter
    if config.postgres:
        from livecore_server.storage.postgres import PostgresStore

        assert isinstance(store, PostgresStore)
        ratelimiter = SharedRateLimiter(store, clock)
        secret_brake = SecretBrake(ratelimiter, config.wrong_secrets_per_minute)
    else:
        ratelimiter = RateLimiter(clock)
        secret_brake = SecretBrake(per_minute=config.wrong_secrets_per_minute)
    auth_throttle = AuthThrottle(
        store,
        ratelimiter if isinstance(ratelimiter, SharedRateLimiter) else None,
        config.auth_failures_per_minute,
        config.client_address_header,
    )
    rng = rng or SystemRandomSource()
    # Made before the runtime, whose commands and views read what they give it (a player's presence).
    made: dict[str, AreaService] = {
        name: build(config, store) for area in served for name, build in area.services.items()
    }
    runtime = Runtime(
        clock=clock,
        rng=rng,
        hasher=keys.hasher,
        checks=registry.checks(core),
        contributions=Contributions(core),
        **{field: value for service in made.values() for field, value in service.gives_runtime().items()},
    )
    for service in made.values():
        service.given(runtime)
        service.follow(store)

    async def claim(job: str, due: datetime) -> bool:
        now = to_millis(clock.now())
        return await store.run_async(lambda tx: tx.schedule.claim(job, to_millis(due), now, flushed=False))

    services = Services(
        config=config,
        store=store,
        clock=clock,
        rng=rng,
        keys=keys,
        runtime=runtime,
        scheduler=Scheduler(clock, claim=claim, store=store),
        ratelimiter=ratelimiter,
        secret_brake=secret_brake,
        auth_throttle=auth_throttle,
        key_cache=KeyCache(store, keys.hasher, config.key_cache_ttl),
        usage=UsageRecorder(),
        area_services=AreaServices(made),
        stream_slots=StreamSlots(store, shared=config.postgres),
        areas=core,
        paths=PathIds(registry.record_ids(core)),
    )
    store.on_config_changed(services.key_cache.changed)
    schedule_work(services)
    return services


def schedule_work(s: Services) -> None:
    """The areas' scheduled work (:mod:`livecore.schedule`), and the server's own housekeeping."""
    schedule_jobs(s.scheduler, s.store, s.runtime, registry.jobs(s.areas))

    async def idempotency() -> None:
        cutoff = to_millis(s.clock.now() - TTL)
        await s.store.run_async(lambda tx: tx.idempotency.purge(cutoff))

    async def webhook_history() -> None:
        cutoff = s.clock.now() - RETENTION
        await s.store.run_async(lambda tx: tx.webhooks.purge_finished(cutoff))

    def overlap_ends(tx: ServerTransaction) -> datetime | None:
        return tx.webhooks.next_previous_secret_expiry()

    async def webhook_secrets() -> None:
        # Read first: nothing is written while no rotated secret's overlap has ended.
        now = s.clock.now()
        ends = await s.store.read(lambda tx: tx.webhooks.next_previous_secret_expiry())
        if ends is None or ends > now:
            return
        if await s.store.run_async(lambda tx: tx.webhooks.forget_previous_secrets(now)):
            s.store.scrub_journal()

    s.scheduler.every("idempotency_purge", timedelta(hours=1), idempotency)
    s.scheduler.every("webhook_retention", timedelta(hours=1), webhook_history)
    # A previous signing secret is deleted when its overlap ends: at that very time under the manual
    # clock, within SECRET_SWEEP under the wall clock.
    if isinstance(s.clock, ManualClock):
        s.scheduler.when("webhook_secret_overlap", overlap_ends, webhook_secrets)
    else:
        s.scheduler.every("webhook_secret_overlap", SECRET_SWEEP, webhook_secrets)


SERVICES = web.AppKey("services", Services)
