"""The studio's webhook endpoints and deliveries: ``admin.webhooks``; each method is its route's builder
(:mod:`livecore.operators.calls`) sent over HTTP. (Verifying a delivery's signature is
:mod:`livecore_client.webhooks`.)"""

from __future__ import annotations

from livecore.operators.calls import AdminWebhooksCalls

from ..._client import AsyncResource, SyncResource, async_method, sync_method
from .surface import AdminSurface, AsyncAdminSurface

__all__ = ["AdminWebhooks", "AsyncAdminWebhooks"]


class AdminWebhooks(SyncResource[AdminSurface], AdminWebhooksCalls):
    """``admin.webhooks``: the ``/admin/v1`` webhook calls."""

    endpoints = sync_method(AdminWebhooksCalls._endpoints)
    create_endpoint = sync_method(AdminWebhooksCalls._create_endpoint)
    deliveries = sync_method(AdminWebhooksCalls._deliveries)
    unpause_endpoint = sync_method(AdminWebhooksCalls._unpause_endpoint)
    send_sample = sync_method(AdminWebhooksCalls._send_sample)
    rotate_secret = sync_method(AdminWebhooksCalls._rotate_secret)
    replay_delivery = sync_method(AdminWebhooksCalls._replay_delivery)


class AsyncAdminWebhooks(AsyncResource[AsyncAdminSurface], AdminWebhooksCalls):
    """The methods of :class:`AdminWebhooks`, awaited."""

    endpoints = async_method(AdminWebhooksCalls._endpoints)
    create_endpoint = async_method(AdminWebhooksCalls._create_endpoint)
    deliveries = async_method(AdminWebhooksCalls._deliveries)
    unpause_endpoint = async_method(AdminWebhooksCalls._unpause_endpoint)
    send_sample = async_method(AdminWebhooksCalls._send_sample)
    rotate_secret = async_method(AdminWebhooksCalls._rotate_secret)
    replay_delivery = async_method(AdminWebhooksCalls._replay_delivery)
