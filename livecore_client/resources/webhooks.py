"""The studio's webhook endpoints and deliveries: ``admin.webhooks``. (Verifying a delivery's
signature is :mod:`livecore_client.webhooks`.)"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from livecore.api.call import Call
from livecore.operators import api

from .. import models as m
from .._client import AsyncResource, SyncResource, async_method, sync_method
from .._surfaces import AdminSurface, AsyncAdminSurface
from ..models import DeliveryStatus, Environment
from ._base import AdminCalls

__all__ = ["AdminWebhooks", "AsyncAdminWebhooks"]


class _AdminWebhooksCalls(AdminCalls):
    """The ``/admin/v1`` webhook calls."""

    def _endpoints(self, game: str) -> Call[m.EndpointsResponse]:
        """The game's webhook endpoints (never their secrets)."""
        return Call(api.WEBHOOKS, m.EndpointsResponse, path=self._at(game))

    def _create_endpoint(
        self,
        game: str,
        *,
        name: str,
        env: Environment | str,
        url: str,
        events: Sequence[str],
        idempotency_key: str | None = None,
    ) -> Call[m.CreateEndpointResponse]:
        """Create a webhook endpoint receiving ``events`` (a single string is one kind); its signing
        ``secret`` is shown once. A live endpoint is dashboard-only:
        :class:`~livecore_client.errors.DashboardOnlyError`."""
        kinds = [events] if isinstance(events, str) else list(events)
        return Call(
            api.WEBHOOK_CREATE,
            m.CreateEndpointResponse,
            path=self._at(game),
            body=m.CreateEndpointRequest(name=name, env=Environment(env), url=url, events=kinds),
            idempotency_key=idempotency_key,
        )

    def _deliveries(
        self,
        game: str,
        endpoint_id: str,
        *,
        status: DeliveryStatus | str | None = None,
        limit: int | None = None,
    ) -> Call[m.DeliveriesResponse]:
        """An endpoint's deliveries, newest first, of ``status`` when given (``limit`` 50 by default, 1
        to 200). Raises :class:`~livecore_client.errors.WebhookEndpointNotFoundError`."""
        query = m.DeliveriesQuery(status=None if status is None else DeliveryStatus(status))
        if limit is not None:
            query = attrs.evolve(query, limit=limit)
        return Call(
            api.WEBHOOK_DELIVERIES,
            m.DeliveriesResponse,
            path=self._at(game, endpointId=endpoint_id),
            query=query,
        )

    def _unpause_endpoint(
        self, game: str, endpoint_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.EndpointResponse]:
        """Resume a paused endpoint (``applied=False`` when it was not paused); its held deliveries go
        out oldest first."""
        return Call(
            api.WEBHOOK_UNPAUSE,
            m.EndpointResponse,
            path=self._at(game, endpointId=endpoint_id),
            idempotency_key=idempotency_key,
        )

    def _send_sample(
        self, game: str, endpoint_id: str, *, kind: str | None = None, idempotency_key: str | None = None
    ) -> Call[m.SendSampleResponse]:
        """Send a sample event of ``kind`` (or a placeholder) to the endpoint through the signed
        pipeline, marked ``X-Svc-Webhook-Test: 1``."""
        return Call(
            api.WEBHOOK_SEND_SAMPLE,
            m.SendSampleResponse,
            path=self._at(game, endpointId=endpoint_id),
            body=None if kind is None else m.SendSampleRequest(kind=kind),
            idempotency_key=idempotency_key,
        )

    def _rotate_secret(
        self,
        game: str,
        endpoint_id: str,
        *,
        overlap_seconds: int | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.CreateEndpointResponse]:
        """Mint a new signing ``secret`` for the endpoint, shown once. The old secret signs every delivery
        beside it for ``overlap_seconds`` (0 to 604800; 86400 by default; 0 stops it at once), until
        ``endpoint.previous_secret_expires_at``. A live endpoint is dashboard-only:
        :class:`~livecore_client.errors.DashboardOnlyError`."""
        return Call(
            api.WEBHOOK_ROTATE_SECRET,
            m.CreateEndpointResponse,
            path=self._at(game, endpointId=endpoint_id),
            body=None
            if overlap_seconds is None
            else m.RotateEndpointSecretRequest(overlap_seconds=overlap_seconds),
            idempotency_key=idempotency_key,
        )

    def _replay_delivery(
        self, game: str, delivery_id: str, *, idempotency_key: str | None = None
    ) -> Call[m.ReplayResponse]:
        """Send a delivered or failed delivery's event again, as a new delivery. Raises
        :class:`~livecore_client.errors.DeliveryNotFoundError` and, for a pending one,
        :class:`~livecore_client.errors.ConflictError`."""
        return Call(
            api.DELIVERY_REPLAY,
            m.ReplayResponse,
            path=self._at(game, deliveryId=delivery_id),
            idempotency_key=idempotency_key,
        )


class AdminWebhooks(SyncResource[AdminSurface], _AdminWebhooksCalls):
    """``admin.webhooks``: the ``/admin/v1`` webhook calls."""

    endpoints = sync_method(_AdminWebhooksCalls._endpoints)
    create_endpoint = sync_method(_AdminWebhooksCalls._create_endpoint)
    deliveries = sync_method(_AdminWebhooksCalls._deliveries)
    unpause_endpoint = sync_method(_AdminWebhooksCalls._unpause_endpoint)
    send_sample = sync_method(_AdminWebhooksCalls._send_sample)
    rotate_secret = sync_method(_AdminWebhooksCalls._rotate_secret)
    replay_delivery = sync_method(_AdminWebhooksCalls._replay_delivery)


class AsyncAdminWebhooks(AsyncResource[AsyncAdminSurface], _AdminWebhooksCalls):
    """The methods of :class:`AdminWebhooks`, awaited."""

    endpoints = async_method(_AdminWebhooksCalls._endpoints)
    create_endpoint = async_method(_AdminWebhooksCalls._create_endpoint)
    deliveries = async_method(_AdminWebhooksCalls._deliveries)
    unpause_endpoint = async_method(_AdminWebhooksCalls._unpause_endpoint)
    send_sample = async_method(_AdminWebhooksCalls._send_sample)
    rotate_secret = async_method(_AdminWebhooksCalls._rotate_secret)
    replay_delivery = async_method(_AdminWebhooksCalls._replay_delivery)
