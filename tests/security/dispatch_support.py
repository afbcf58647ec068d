"""Webhook endpoints on a store with no server, events put straight into the outbox, and a dispatcher
run over them (the pattern of tests/server/test_dispatch_claims.py), for the webhook probes."""

from __future__ import annotations

import asyncio
from typing import Any

import attrs
from aiohttp.abc import AbstractResolver

from livecore.commands import emit
from livecore.events import DomainEvent
from livecore.ids import Prefix, new_id
from livecore.players.webhooks import PlayerRegistered
from livecore.webhooks.delivery import Delivery, Endpoint
from livecore_server.manifest import parse_manifest
from livecore_server.operators.apply import apply_manifest
from livecore_server.workers.dispatcher import Dispatcher
from tests.conftest import TEST_MANIFEST, make_services, webhook_manifest
from tests.server.test_dispatch_claims import Hooks


@attrs.define
class Hooked(Hooks):
    """The claims tests' endpoints, named by the test, with their deliveries by event."""

    def endpoint_id(self, name: str) -> str:
        return str(self.applied["games"]["space-race"]["webhooks"][name]["id"])

    async def registered(self, external_id: str) -> str:
        """Emit a ``player.registered`` event; its id."""
        s = self.services
        payload = PlayerRegistered(
            player_id=f"plr_{external_id}",
            external_player_id=external_id,
            first_seen_at=s.clock.now(),
            context_snapshot={},
        )
        return str((await s.store.run_async(lambda tx: emit(tx, s.runtime, self.scope, payload))).id)

    async def raw(self, kind: str, data: dict[str, Any]) -> str:
        """Put an event of ``kind`` with ``data`` straight into the outbox, as the store port takes it."""
        s, scope = self.services, self.scope
        event = DomainEvent(
            id=new_id(Prefix.EVENT, s.clock.now(), s.rng),
            kind=kind,
            studio_id=scope.studio_id,
            game_id=scope.game_id,
            env=scope.env,
            occurred_at=s.clock.now(),
            payload=data,
        )
        await s.store.run_async(lambda tx: tx.outbox.emit(event))
        return event.id

    def deliveries(self, name: str) -> dict[str, Delivery]:
        """The endpoint's deliveries by event id."""
        endpoint_id = self.endpoint_id(name)
        rows = self.services.store.run(lambda tx: tx.webhooks.list_deliveries(endpoint_id), write=False)
        return {d.event_id: d for d, _ in rows}

    def endpoint(self, name: str) -> Endpoint:
        endpoint_id = self.endpoint_id(name)
        found = self.services.store.run(lambda tx: tx.webhooks.get_endpoint(endpoint_id), write=False)
        assert found is not None
        return found

    async def dispatch(self, resolver: AbstractResolver | None = None) -> None:
        """Start a dispatcher, let it send everything due and wait for the answers, stop it."""
        dispatcher = Dispatcher(self.services, resolver=resolver)
        await dispatcher.start()
        try:
            await dispatcher.drain_due()
        finally:
            await dispatcher.stop()


async def hooked(
    db_url: str, endpoints: dict[str, str], *, apply_private: bool = False, serve_private: bool = False
) -> Hooked:
    """Services (no server) with the test manifest and one test-env endpoint per name and URL, taking
    every kind; ``apply_private`` and ``serve_private``: ``--allow-private-webhooks`` given to ``apply``,
    and to the server whose dispatcher sends."""
    services = await asyncio.to_thread(make_services, db_url, allow_private_webhooks=serve_private)
    extra = webhook_manifest(**{name: ("test", url, '["*"]') for name, url in endpoints.items()})
    manifest = parse_manifest(TEST_MANIFEST + extra, allow_private_webhooks=apply_private)
    return Hooked(
        services,
        await asyncio.to_thread(apply_manifest, services.store, services.keys, services.runtime, manifest),
    )
