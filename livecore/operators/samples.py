"""Placeholder payloads of the operators area's webhook kinds, for sample deliveries
(:attr:`livecore.area.Area.samples`)."""

from __future__ import annotations

from livecore.webhooks.endpoints import WebhookEndpointFailed
from livecore.webhooks.payload import WebhookPayload

SAMPLES: tuple[WebhookPayload, ...] = (
    WebhookEndpointFailed(
        endpoint_id="whe_sample000000000000000000",
        endpoint_key="sample-endpoint",
        url="https://example.invalid/hooks",
        consecutive_failures=5,
        threshold=5,
        last_status=503,
        last_error=None,
        reason="consecutive_failures",
    ),
)
