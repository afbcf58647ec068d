"""The webhook actions only the server takes (docs/operators.md#webhook-endpoints): creating an endpoint
and rotating its signing secret, which is sealed under the server's keys and whose URL the deployment's
address policy checks; and the CLI's wrappers, which run the core's actions
(:mod:`livecore.operators.webhooks`) on an endpoint or delivery id of any game."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from livecore.clock import format_ts, to_millis
from livecore.errors import CONFLICT, LivecoreError, invalid_request
from livecore.ids import Prefix, new_id, new_secret
from livecore.limits import FREE_TEXT, ID
from livecore.manifest import webhook_problems
from livecore.operators import api
from livecore.operators import webhooks as actions
from livecore.operators.audit import record
from livecore.operators.errors import DELIVERY_NOT_FOUND, WEBHOOK_ENDPOINT_NOT_FOUND
from livecore.operators.request import operator_of
from livecore.operators.rules import Action, authorize
from livecore.operators.webhooks import DEFAULT_SAMPLE_KIND, endpoint_view, find_endpoint, resume
from livecore.scope import Environment
from livecore.webhooks.delivery import DEFAULT_OVERLAP, Delivery, DeliveryStatus, Endpoint, rolled
from livecore_server import shown_secrets
from livecore_server.http.endpoint import Binding, Call, bind
from livecore_server.operators.sql import operators_tx
from livecore_server.services import Services
from livecore_server.storage.server_store import ServerTransaction


class OperationError(LookupError):
    """The operator named something that does not exist or cannot take the action (the CLI's error)."""


def _rotate_secret(
    tx: ServerTransaction, services: Services, endpoint: Endpoint, overlap_seconds: int
) -> tuple[Endpoint, str]:
    """The endpoint with a new signing secret, and that secret (to show once). The answers kept that show
    its earlier secrets are withdrawn; a secret dropped at once (no overlap, or the previous one of an
    overlap still running) leaves the WAL too when this commits."""
    now = services.clock.now()
    after = rolled(endpoint, now, overlap_seconds)
    secret = new_secret(services.rng, prefix="whsec_")
    tx.webhooks.rotate_secret(
        endpoint.id, services.keys.encrypt(secret, context=endpoint.id), after.previous_secret_until, now
    )
    dropped = after.previous_secret_until is None or endpoint.previous_secret_until is not None
    shown_secrets.replaced(tx, services.store, shown_secrets.webhook_endpoint(endpoint.id), dropped=dropped)
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


def _cli(services: Services, run: Any, *, write: bool = True) -> Any:
    try:
        result = services.store.run(run, write=write)
    except LivecoreError as exc:
        raise _refused(exc) from None
    return result


def list_deliveries(
    services: Services, endpoint_id: str, *, status: DeliveryStatus | None = None, limit: int = 100
) -> list[dict[str, Any]]:
    def run(tx: ServerTransaction) -> list[dict[str, Any]]:
        find_endpoint(operators_tx(tx), endpoint_id, None)
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

    rows: list[dict[str, Any]] = _cli(services, run, write=False)
    return rows


def replay_delivery(services: Services, delivery_id: str) -> str:
    """Send a delivered or failed delivery's event again; returns the new delivery id."""
    rt = services.runtime
    fresh: Delivery = _cli(services, lambda tx: actions.replay_delivery(tx, rt, delivery_id, None))
    return fresh.id


def unpause_endpoint(services: Services, endpoint_id: str) -> bool:
    """Resume a paused endpoint; its held deliveries go out oldest first. False when it was not paused."""

    def run(tx: ServerTransaction) -> bool:
        endpoint = find_endpoint(operators_tx(tx), endpoint_id, None)
        return resume(operators_tx(tx), services.runtime, endpoint) != endpoint

    changed: bool = _cli(services, run)
    return changed


def send_sample(services: Services, endpoint_id: str, kind: str = DEFAULT_SAMPLE_KIND) -> str:
    """A placeholder event of ``kind`` through the normal signed pipeline, to this endpoint only, marked
    with ``X-Svc-Webhook-Test: 1``. Returns the event id."""
    event_id: str = _cli(
        services,
        lambda tx: actions.send_sample(
            tx, services.runtime, find_endpoint(operators_tx(tx), endpoint_id, None), kind, services.areas
        ),
    )
    return event_id


def rotate_secret(
    services: Services, endpoint_id: str, overlap_seconds: int = int(DEFAULT_OVERLAP.total_seconds())
) -> tuple[Endpoint, str]:
    """Give the endpoint a new signing secret; the old one signs beside it for ``overlap_seconds``.
    Returns the endpoint and the new secret."""

    def run(tx: ServerTransaction) -> tuple[Endpoint, str]:
        endpoint = find_endpoint(operators_tx(tx), endpoint_id, None, lock=True)
        return _rotate_secret(tx, services, endpoint, overlap_seconds)

    result: tuple[Endpoint, str] = _cli(services, run)
    return result


# --- the admin routes ----------------------------------------------------------------------------------


def create(call: Call[api.CreateEndpointRequest, None], tx: ServerTransaction) -> api.CreateEndpointResponse:
    body = call.body
    if body.env is Environment.LIVE:
        authorize(operator_of(call), call.scope.studio_id, Action.WEBHOOK_CREATE, live_webhook=True)
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
    shown_secrets.shown(tx, call.idempotency_key, shown_secrets.webhook_endpoint(endpoint.id))
    record(
        operators_tx(tx),
        call,
        f"webhook:{endpoint.id}",
        after={"name": body.name, "env": body.env.value, "url": body.url},
    )
    return api.CreateEndpointResponse(endpoint=endpoint_view(endpoint), secret=secret)


def rotate_secret_route(
    call: Call[api.RotateEndpointSecretRequest | None, None], tx: ServerTransaction
) -> api.CreateEndpointResponse:
    body = call.body or api.RotateEndpointSecretRequest()
    endpoint = find_endpoint(operators_tx(tx), call.params["endpointId"], call.scope.game_id, lock=True)
    if endpoint.env is Environment.LIVE:
        authorize(operator_of(call), call.scope.studio_id, Action.WEBHOOK_ROTATE_SECRET, live_webhook=True)
    rotated, secret = _rotate_secret(tx, call.services, endpoint, body.overlap_seconds)
    shown_secrets.shown(tx, call.idempotency_key, shown_secrets.webhook_endpoint(endpoint.id))
    record(
        operators_tx(tx),
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
    bind(api.WEBHOOK_CREATE, create),
    bind(api.WEBHOOK_ROTATE_SECRET, rotate_secret_route),
]
