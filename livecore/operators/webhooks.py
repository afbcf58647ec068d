"""Operator actions on a game's webhooks (docs/operators.md#webhook-endpoints,
docs/reference/webhooks.md#delivery): list its endpoints and an endpoint's deliveries, replay a delivery,
unpause an endpoint, send a sample event. One transaction each; the server's CLI runs the same
functions on an endpoint or delivery id. The rules are in :mod:`livecore.webhooks.delivery`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from livecore.area import Area
from livecore.commands import Runtime
from livecore.errors import CONFLICT, LivecoreError, invalid_request
from livecore.events import DomainEvent
from livecore.ids import Prefix, new_id
from livecore.operators import api
from livecore.operators.audit import record
from livecore.operators.errors import DELIVERY_NOT_FOUND, WEBHOOK_ENDPOINT_NOT_FOUND
from livecore.operators.request import AnyOperatorRequest, OperatorRequest
from livecore.operators.store import OperatorsTx
from livecore.players.webhooks import PlayerRegistered
from livecore.webhooks.delivery import Delivery, DeliveryStatus, Endpoint, replay, unpause
from livecore.webhooks.payload import WebhookPayload

#: The kind a sample event is of when the operator names none.
DEFAULT_SAMPLE_KIND = PlayerRegistered.KIND


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


def find_endpoint(tx: OperatorsTx, endpoint_id: str, game_id: str | None, *, lock: bool = False) -> Endpoint:
    """The endpoint, of the game ``game_id`` when it is given (any game's for the CLI)."""
    endpoint = tx.webhooks.get_endpoint(endpoint_id, lock=lock)
    if endpoint is None or (game_id is not None and endpoint.game_id != game_id):
        raise LivecoreError(
            WEBHOOK_ENDPOINT_NOT_FOUND, "No such webhook endpoint.", {"endpointId": endpoint_id}
        )
    return endpoint


def replay_delivery(tx: OperatorsTx, rt: Runtime, delivery_id: str, game_id: str | None) -> Delivery:
    """A new delivery of a delivered or failed delivery's event."""
    now = rt.clock.now()
    delivery = tx.webhooks.get_delivery(delivery_id)
    if delivery is not None and game_id is not None and _endpoint_game(tx, delivery.endpoint_id) != game_id:
        delivery = None
    if delivery is None:
        raise LivecoreError(DELIVERY_NOT_FOUND, "No such delivery.", {"deliveryId": delivery_id})
    try:
        fresh = replay(delivery, new_id(Prefix.DELIVERY, now, rt.rng), now)
    except ValueError as exc:
        raise LivecoreError(CONFLICT, str(exc), {"deliveryId": delivery_id}) from None
    tx.webhooks.insert_delivery_like(delivery_id, fresh)
    return fresh


def _endpoint_game(tx: OperatorsTx, endpoint_id: str) -> str | None:
    endpoint = tx.webhooks.get_endpoint(endpoint_id)
    return None if endpoint is None else endpoint.game_id


def resume(tx: OperatorsTx, rt: Runtime, endpoint: Endpoint) -> Endpoint:
    """The endpoint unpaused: its held deliveries go out oldest first."""
    resumed = unpause(endpoint)
    tx.webhooks.resume(resumed, rt.clock.now())
    return resumed


def sample_kinds(served: Sequence[Area]) -> dict[str, WebhookPayload | dict[str, Any]]:
    """Each webhook kind of the ``served`` areas (a studio's own included), with its placeholder payload:
    the area's declared sample, else an empty object."""
    samples = {sample.KIND: sample for area in served for sample in area.samples}
    return {payload.KIND: samples.get(payload.KIND) or {} for area in served for payload in area.webhooks}


def send_sample(tx: OperatorsTx, rt: Runtime, endpoint: Endpoint, kind: str, served: Sequence[Area]) -> str:
    """A placeholder event of ``kind`` to this endpoint only; its id."""
    now = rt.clock.now()
    game = tx.games.get(endpoint.game_id)
    assert game is not None  # an endpoint belongs to its game
    event = DomainEvent(
        id=new_id(Prefix.EVENT, now, rt.rng),
        kind=kind,
        studio_id=game.studio_id,
        game_id=endpoint.game_id,
        env=endpoint.env,
        occurred_at=now,
        payload=sample_kinds(served).get(kind) or {},
    )
    tx.outbox.insert_sample(event, endpoint.id)
    return event.id


# --- the admin routes ----------------------------------------------------------------------------------


def endpoints(request: OperatorRequest[None, None], tx: OperatorsTx) -> api.EndpointsResponse:
    found = sorted(tx.webhooks.endpoints_of_game(request.scope.game_id), key=lambda e: e.name)
    return api.EndpointsResponse(endpoints=[endpoint_view(e) for e in found])


def deliveries(
    request: OperatorRequest[None, api.DeliveriesQuery], tx: OperatorsTx
) -> api.DeliveriesResponse:
    endpoint = find_endpoint(tx, request.params["endpointId"], request.scope.game_id)
    rows = tx.webhooks.list_deliveries(endpoint.id, status=request.query.status, limit=request.query.limit)
    return api.DeliveriesResponse(deliveries=[delivery_view(d, kind) for d, kind in rows])


def replay_route(request: OperatorRequest[None, None], tx: OperatorsTx) -> api.ReplayResponse:
    fresh = replay_delivery(tx, request.rt, request.params["deliveryId"], request.scope.game_id)
    kind = tx.webhooks.event_kind(fresh.id) or ""
    record(tx, request, f"delivery:{request.params['deliveryId']}", metadata={"newDeliveryId": fresh.id})
    return api.ReplayResponse(delivery=delivery_view(fresh, kind))


def unpause_route(request: OperatorRequest[None, None], tx: OperatorsTx) -> api.EndpointResponse:
    endpoint = find_endpoint(tx, request.params["endpointId"], request.scope.game_id)
    resumed = resume(tx, request.rt, endpoint)
    applied = resumed != endpoint
    record(
        tx,
        request,
        f"webhook:{endpoint.id}",
        before={"status": endpoint.status.value, "consecutiveFailures": endpoint.consecutive_failures},
        after={"status": resumed.status.value, "consecutiveFailures": resumed.consecutive_failures},
        metadata={"applied": applied},
    )
    return api.EndpointResponse(applied=applied, endpoint=endpoint_view(resumed))


def send_sample_route(
    request: OperatorRequest[api.SendSampleRequest | None, None], tx: OperatorsTx
) -> api.SendSampleResponse:
    body = request.body
    kind = body.kind if body is not None and body.kind else DEFAULT_SAMPLE_KIND
    served = request.services.areas
    if kind not in sample_kinds(served):
        raise invalid_request("Unknown webhook kind.", {"kind": "is not a webhook kind"})
    endpoint = find_endpoint(tx, request.params["endpointId"], request.scope.game_id)
    event_id = send_sample(tx, request.rt, endpoint, kind, served)
    record(tx, request, f"webhook:{endpoint.id}", metadata={"kind": kind, "eventId": event_id})
    return api.SendSampleResponse(event_id=event_id, event_name=kind)


def player_deliveries(
    request: AnyOperatorRequest, tx: OperatorsTx, player_id: str, limit: int
) -> list[api.DeliveryView]:
    """The game's recent deliveries whose event names the player (``playerId`` in its data)."""
    found = []
    for d, kind, data in tx.webhooks.game_deliveries(request.scope.game_id, 1_000):
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
