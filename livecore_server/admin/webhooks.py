"""Operator actions on webhooks (docs/operators.md#webhook-endpoints, docs/reference/webhooks.md#delivery):
list a game's endpoints, create one, list an endpoint's deliveries, replay a delivery, unpause an
endpoint, send a sample event, rotate an endpoint's signing secret. The admin API, the portal and
``/mcp`` run the route handlers; the CLI runs the same transaction functions on an endpoint or delivery
id. The rules are in :mod:`livecore.webhooks.delivery`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import orjson

from livecore import areas
from livecore.clock import format_ts, to_millis
from livecore.errors import CONFLICT, LivecoreError, invalid_request
from livecore.events import DomainEvent
from livecore.ids import Prefix, new_id, new_secret
from livecore.limits import FREE_TEXT, ID
from livecore.manifest import webhook_problems
from livecore.operators import api
from livecore.operators.errors import DELIVERY_NOT_FOUND, WEBHOOK_ENDPOINT_NOT_FOUND
from livecore.operators.rules import Action, authorize
from livecore.scope import Environment
from livecore.webhooks.delivery import (
    DEFAULT_OVERLAP,
    Delivery,
    DeliveryStatus,
    Endpoint,
    replay,
    rolled,
    unpause,
)
from livecore.webhooks.samples import DEFAULT_SAMPLE_KIND, sample_payload
from livecore_server.admin.audit import record
from livecore_server.http.endpoint import AnyCall, Binding, Call, bind
from livecore_server.services import Services
from livecore_server.storage.server_store import ServerTransaction


class OperationError(LookupError):
    """The operator named something that does not exist or cannot take the action (the CLI's error)."""


def endpoint_view(e: Endpoint) -> api.EndpointView:
    return api.EndpointView(
        endpoint_id=e.id,
        name=e.name,
        env=e.env,
        url=e.url,
        events=list(e.events),
        status=e.status,
        consecutive_failures=e.consecutive_failures,
        previous_secret_expires_at=e.previous_secret_until,
    )


def delivery_view(d: Delivery, kind: str) -> api.DeliveryView:
    return api.DeliveryView(
        delivery_id=d.id,
        event_id=d.event_id,
        event_name=kind,
        endpoint_id=d.endpoint_id,
        status=d.status,
        attempts=d.attempts,
        next_attempt_at=d.next_attempt_at if d.status is DeliveryStatus.PENDING else None,
        last_status=d.last_status,
        last_error=d.last_error,
        created_at=d.created_at,
        delivered_at=d.delivered_at,
    )


# --- the actions, one transaction each ----------------------------------------------------------------


def _endpoint(
    tx: ServerTransaction, endpoint_id: str, game_id: str | None, *, lock: bool = False
) -> Endpoint:
    endpoint = tx.webhooks.get_endpoint(endpoint_id, lock=lock)
    if endpoint is None or (game_id is not None and endpoint.game_id != game_id):
        raise LivecoreError(
            WEBHOOK_ENDPOINT_NOT_FOUND, "No such webhook endpoint.", {"endpointId": endpoint_id}
        )
    return endpoint


def _replay(tx: ServerTransaction, services: Services, delivery_id: str, game_id: str | None) -> Delivery:
    now = services.clock.now()
    delivery = tx.webhooks.get_delivery(delivery_id)
    if delivery is not None and game_id is not None and _endpoint_game(tx, delivery.endpoint_id) != game_id:
        delivery = None
    if delivery is None:
        raise LivecoreError(DELIVERY_NOT_FOUND, "No such delivery.", {"deliveryId": delivery_id})
    try:
        fresh = replay(delivery, new_id(Prefix.DELIVERY, now, services.rng), now)
    except ValueError as exc:
        raise LivecoreError(CONFLICT, str(exc), {"deliveryId": delivery_id}) from None
    tx.webhooks.insert_delivery_like(delivery_id, fresh)
    return fresh


def _endpoint_game(tx: ServerTransaction, endpoint_id: str) -> str | None:
    endpoint = tx.webhooks.get_endpoint(endpoint_id)
    return None if endpoint is None else endpoint.game_id


def _unpause(tx: ServerTransaction, services: Services, endpoint: Endpoint) -> Endpoint:
    resumed = unpause(endpoint)
    tx.webhooks.resume(resumed, services.clock.now())
    return resumed


def _send_sample(tx: ServerTransaction, services: Services, endpoint: Endpoint, kind: str) -> str:
    now = services.clock.now()
    game = tx.games.get(endpoint.game_id)
    assert game is not None  # an endpoint belongs to its game
    event = DomainEvent(
        id=new_id(Prefix.EVENT, now, services.rng),
        kind=kind,
        studio_id=game.studio_id,
        game_id=endpoint.game_id,
        env=endpoint.env,
        occurred_at=now,
        payload=sample_payload(kind, services.areas),
    )
    tx.outbox.insert_sample(event, endpoint.id)
    return event.id


def _rotate_secret(
    tx: ServerTransaction, services: Services, endpoint: Endpoint, overlap_seconds: int
) -> tuple[Endpoint, str]:
    """The endpoint with a new signing secret, and that secret (to show once)."""
    now = services.clock.now()
    after = rolled(endpoint, now, overlap_seconds)
    secret = new_secret(services.rng, prefix="whsec_")
    tx.webhooks.rotate_secret(
        endpoint.id, services.keys.encrypt(secret, context=endpoint.id), after.previous_secret_until, now
    )
    return after, secret


# --- the CLI's wrappers ----------------------------------------------------------------------------------


def _refused(exc: LivecoreError) -> OperationError:
    """The CLI's one line for a refusal, naming what was not found."""
    details = exc.details or {}
    if "deliveryId" in details and exc.code is DELIVERY_NOT_FOUND:
        return OperationError(f"no delivery {details['deliveryId']}")
    if "endpointId" in details and exc.code is WEBHOOK_ENDPOINT_NOT_FOUND:
        return OperationError(f"no webhook endpoint {details['endpointId']}")
    return OperationError(exc.message)


def _cli(services: Services, run: Any) -> Any:
    try:
        result = services.store.run(run)
    except LivecoreError as exc:
        raise _refused(exc) from None
    return result


def list_deliveries(
    services: Services, endpoint_id: str, *, status: DeliveryStatus | None = None, limit: int = 100
) -> list[dict[str, Any]]:
    def run(tx: ServerTransaction) -> list[dict[str, Any]]:
        _endpoint(tx, endpoint_id, None)
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

    try:
        rows: list[dict[str, Any]] = services.store.run(run, write=False)
    except LivecoreError as exc:
        raise _refused(exc) from None
    return rows


def replay_delivery(services: Services, delivery_id: str) -> str:
    """Send a delivered or failed delivery's event again; returns the new delivery id."""
    fresh: Delivery = _cli(services, lambda tx: _replay(tx, services, delivery_id, None))
    return fresh.id


def unpause_endpoint(services: Services, endpoint_id: str) -> bool:
    """Resume a paused endpoint; its held deliveries go out oldest first. False when it was not paused."""

    def run(tx: ServerTransaction) -> bool:
        endpoint = _endpoint(tx, endpoint_id, None)
        return _unpause(tx, services, endpoint) != endpoint

    changed: bool = _cli(services, run)
    return changed


def send_sample(services: Services, endpoint_id: str, kind: str = DEFAULT_SAMPLE_KIND) -> str:
    """A placeholder event of ``kind`` through the normal signed pipeline, to this endpoint only, marked
    with ``X-Svc-Webhook-Test: 1``. Returns the event id."""
    event_id: str = _cli(
        services, lambda tx: _send_sample(tx, services, _endpoint(tx, endpoint_id, None), kind)
    )
    return event_id


def rotate_secret(
    services: Services, endpoint_id: str, overlap_seconds: int = int(DEFAULT_OVERLAP.total_seconds())
) -> tuple[Endpoint, str]:
    """Give the endpoint a new signing secret; the old one signs beside it for ``overlap_seconds``.
    Returns the endpoint and the new secret."""

    def run(tx: ServerTransaction) -> tuple[Endpoint, str]:
        endpoint = _endpoint(tx, endpoint_id, None, lock=True)
        return _rotate_secret(tx, services, endpoint, overlap_seconds)

    result: tuple[Endpoint, str] = _cli(services, run)
    return result


# --- the admin routes ----------------------------------------------------------------------------------


def endpoints(call: Call[None, None], tx: ServerTransaction) -> api.EndpointsResponse:
    found = sorted(tx.webhooks.endpoints_of_game(call.scope.game_id), key=lambda e: e.name)
    return api.EndpointsResponse(endpoints=[endpoint_view(e) for e in found])


def create(call: Call[api.CreateEndpointRequest, None], tx: ServerTransaction) -> api.CreateEndpointResponse:
    body = call.body
    assert call.operator is not None
    if body.env is Environment.LIVE:
        authorize(call.operator, call.scope.studio_id, Action.WEBHOOK_CREATE, live_webhook=True)
    ID.check(body.name, "name")
    FREE_TEXT.check(body.url, "url")
    problems = webhook_problems(
        body.url, body.events, allow_private=call.services.config.allow_private_webhooks
    )
    if problems:
        raise invalid_request(f"The request is invalid: {', '.join(sorted(problems))}.", problems)
    if tx.webhooks.endpoint_id(call.scope.game_id, body.name) is not None:
        raise LivecoreError(CONFLICT, "The game has an endpoint of that name.", {"name": body.name})
    now = call.rt.clock.now()
    endpoint = Endpoint(
        new_id(Prefix.WEBHOOK_ENDPOINT, now, call.rt.rng),
        call.scope.game_id,
        body.name,
        body.env,
        body.url,
        tuple(body.events),
    )
    secret = new_secret(call.rt.rng, prefix="whsec_")
    tx.webhooks.insert_endpoint(
        endpoint, call.services.keys.encrypt(secret, context=endpoint.id), to_millis(now)
    )
    record(
        tx, call, f"webhook:{endpoint.id}", after={"name": body.name, "env": body.env.value, "url": body.url}
    )
    return api.CreateEndpointResponse(endpoint=endpoint_view(endpoint), secret=secret)


def deliveries(call: Call[None, api.DeliveriesQuery], tx: ServerTransaction) -> api.DeliveriesResponse:
    endpoint = _endpoint(tx, call.params["endpointId"], call.scope.game_id)
    rows = tx.webhooks.list_deliveries(endpoint.id, status=call.query.status, limit=call.query.limit)
    return api.DeliveriesResponse(deliveries=[delivery_view(d, kind) for d, kind in rows])


def replay_route(call: Call[None, None], tx: ServerTransaction) -> api.ReplayResponse:
    fresh = _replay(tx, call.services, call.params["deliveryId"], call.scope.game_id)
    kind = tx.webhooks.event_kind(fresh.id) or ""
    record(tx, call, f"delivery:{call.params['deliveryId']}", metadata={"newDeliveryId": fresh.id})
    return api.ReplayResponse(delivery=delivery_view(fresh, kind))


def unpause_route(call: Call[None, None], tx: ServerTransaction) -> api.EndpointResponse:
    endpoint = _endpoint(tx, call.params["endpointId"], call.scope.game_id)
    resumed = _unpause(tx, call.services, endpoint)
    applied = resumed != endpoint
    record(
        tx,
        call,
        f"webhook:{endpoint.id}",
        before={"status": endpoint.status.value, "consecutiveFailures": endpoint.consecutive_failures},
        after={"status": resumed.status.value, "consecutiveFailures": resumed.consecutive_failures},
        metadata={"applied": applied},
    )
    return api.EndpointResponse(applied=applied, endpoint=endpoint_view(resumed))


def send_sample_route(
    call: Call[api.SendSampleRequest | None, None], tx: ServerTransaction
) -> api.SendSampleResponse:
    kind = call.body.kind if call.body is not None and call.body.kind else DEFAULT_SAMPLE_KIND
    if kind not in areas.webhook_kinds(call.services.areas):
        raise invalid_request("Unknown webhook kind.", {"kind": "is not a webhook kind"})
    endpoint = _endpoint(tx, call.params["endpointId"], call.scope.game_id)
    event_id = _send_sample(tx, call.services, endpoint, kind)
    record(tx, call, f"webhook:{endpoint.id}", metadata={"kind": kind, "eventId": event_id})
    return api.SendSampleResponse(event_id=event_id, event_name=kind)


def player_deliveries(
    call: AnyCall, tx: ServerTransaction, player_id: str, limit: int
) -> list[api.DeliveryView]:
    """The game's recent deliveries whose event names the player (``playerId`` in its data)."""
    found = []
    for d, kind, data in tx.webhooks.game_deliveries(call.scope.game_id, 1_000):
        payload = orjson.loads(data)
        if player_id in (payload.get(k) for k in _PLAYER_FIELDS):
            found.append(delivery_view(d, kind))
            if len(found) == limit:
                break
    return found


# The data fields that name a player an event is about.
_PLAYER_FIELDS = (
    "playerId",
    "fromPlayerId",
    "toPlayerId",
    "requesterPlayerId",
    "targetPlayerId",
    "friendPlayerId",
    "senderPlayerId",
    "recipientPlayerId",
    "donorPlayerId",
)


def rotate_secret_route(
    call: Call[api.RotateEndpointSecretRequest | None, None], tx: ServerTransaction
) -> api.CreateEndpointResponse:
    body = call.body or api.RotateEndpointSecretRequest()
    endpoint = _endpoint(tx, call.params["endpointId"], call.scope.game_id, lock=True)
    if endpoint.env is Environment.LIVE:
        assert call.operator is not None
        authorize(call.operator, call.scope.studio_id, Action.WEBHOOK_ROTATE_SECRET, live_webhook=True)
    rotated, secret = _rotate_secret(tx, call.services, endpoint, body.overlap_seconds)
    record(
        tx,
        call,
        f"webhook:{endpoint.id}",
        metadata={
            "overlapSeconds": body.overlap_seconds,
            # An earlier rotation's secret still signing was dropped by this one.
            "droppedPreviousSecret": endpoint.previous_secret_until is not None,
        },
        before={"previousSecretExpiresAt": _ts(endpoint.previous_secret_until)},
        after={"previousSecretExpiresAt": _ts(rotated.previous_secret_until)},
    )
    return api.CreateEndpointResponse(endpoint=endpoint_view(rotated), secret=secret)


def _ts(at: datetime | None) -> str | None:
    return None if at is None else format_ts(at)


BINDINGS: list[Binding] = [
    bind(api.WEBHOOKS, endpoints),
    bind(api.WEBHOOK_CREATE, create),
    bind(api.WEBHOOK_DELIVERIES, deliveries),
    bind(api.WEBHOOK_UNPAUSE, unpause_route),
    bind(api.WEBHOOK_SEND_SAMPLE, send_sample_route),
    bind(api.WEBHOOK_ROTATE_SECRET, rotate_secret_route),
    bind(api.DELIVERY_REPLAY, replay_route),
]
