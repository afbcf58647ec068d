"""Operator actions on webhooks (docs/reference/webhooks.md#delivery): list an endpoint's deliveries,
replay a delivery, unpause an endpoint, send a sample event. The CLI exposes them today; the admin API
will call the same functions. The rules are in :mod:`livecore.webhooks.delivery`."""

from __future__ import annotations

from typing import Any

from livecore.clock import format_ts
from livecore.events import DomainEvent
from livecore.ids import Prefix, new_id
from livecore.webhooks.delivery import DeliveryStatus, replay, unpause
from livecore.webhooks.samples import DEFAULT_SAMPLE_KIND, sample_payload
from livecore_server.services import Services
from livecore_server.storage.server_store import ServerTransaction


class OperationError(LookupError):
    """The operator named something that does not exist or cannot take the action."""


def list_deliveries(
    services: Services, endpoint_id: str, *, status: DeliveryStatus | None = None, limit: int = 100
) -> list[dict[str, Any]]:
    def run(tx: ServerTransaction) -> list[dict[str, Any]]:
        if tx.webhooks.get_endpoint(endpoint_id) is None:
            raise OperationError(f"no webhook endpoint {endpoint_id}")
        return [
            {
                "deliveryId": d.id,
                "eventId": d.event_id,
                "eventName": kind,
                "status": d.status.value,
                "attempts": d.attempts,
                "nextAttemptAt": format_ts(d.next_attempt_at) if d.status is DeliveryStatus.PENDING else None,
                "lastStatus": d.last_status,
                "lastError": d.last_error,
                "createdAt": format_ts(d.created_at),
                "deliveredAt": format_ts(d.delivered_at) if d.delivered_at else None,
            }
            for d, kind in tx.webhooks.list_deliveries(endpoint_id, status=status, limit=limit)
        ]

    return services.store.run(run, write=False)


def replay_delivery(services: Services, delivery_id: str) -> str:
    """Send a delivered or failed delivery's event again; returns the new delivery id."""
    now = services.clock.now()

    def run(tx: ServerTransaction) -> str:
        delivery = tx.webhooks.get_delivery(delivery_id)
        if delivery is None:
            raise OperationError(f"no delivery {delivery_id}")
        try:
            fresh = replay(delivery, new_id(Prefix.DELIVERY, now, services.rng), now)
        except ValueError as exc:
            raise OperationError(str(exc)) from None
        tx.webhooks.insert_delivery_like(delivery_id, fresh)
        return fresh.id

    new = services.store.run(run)
    services.deliveries_due.notify()
    return new


def unpause_endpoint(services: Services, endpoint_id: str) -> bool:
    """Resume a paused endpoint; its held deliveries go out oldest first. False when it was not paused."""
    now = services.clock.now()

    def run(tx: ServerTransaction) -> bool:
        endpoint = tx.webhooks.get_endpoint(endpoint_id)
        if endpoint is None:
            raise OperationError(f"no webhook endpoint {endpoint_id}")
        resumed = unpause(endpoint)
        tx.webhooks.save_endpoint(resumed, now)
        return resumed != endpoint

    changed = services.store.run(run)
    services.deliveries_due.notify()
    return changed


def send_sample(services: Services, endpoint_id: str, kind: str = DEFAULT_SAMPLE_KIND) -> str:
    """A placeholder event of ``kind`` through the normal signed pipeline, to this endpoint only, marked
    with ``X-Svc-Webhook-Test: 1``. Returns the event id."""
    now = services.clock.now()

    def run(tx: ServerTransaction) -> str:
        endpoint = tx.webhooks.get_endpoint(endpoint_id)
        if endpoint is None:
            raise OperationError(f"no webhook endpoint {endpoint_id}")
        game = tx.games.get(endpoint.game_id)
        assert game is not None  # an endpoint belongs to its game
        event = DomainEvent(
            id=new_id(Prefix.EVENT, now, services.rng),
            kind=kind,
            studio_id=game.studio_id,
            game_id=endpoint.game_id,
            env=endpoint.env,
            occurred_at=now,
            payload=sample_payload(kind),
        )
        tx.outbox.insert_sample(event, endpoint_id)
        return event.id

    event_id = services.store.run(run)
    services.deliveries_due.notify()
    return event_id
