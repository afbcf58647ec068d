"""Operational webhooks about the webhook endpoints themselves."""

from __future__ import annotations

from typing import ClassVar

import attrs

from livecore.webhooks.delivery import BREAKER_THRESHOLD, ENDPOINT_FAILED, AttemptResult, Endpoint
from livecore.webhooks.payload import WebhookPayload


@attrs.frozen
class WebhookEndpointFailed(WebhookPayload):
    """``webhook.endpoint.failed``: another endpoint of the game tripped its circuit breaker."""

    KIND: ClassVar[str] = ENDPOINT_FAILED

    endpoint_id: str
    endpoint_key: str
    url: str
    consecutive_failures: int
    threshold: int
    last_status: int | None
    last_error: str | None
    reason: str

    @classmethod
    def of(cls, endpoint: Endpoint, result: AttemptResult) -> WebhookEndpointFailed:
        return cls(
            endpoint_id=endpoint.id,
            endpoint_key=endpoint.name,
            url=endpoint.url,
            consecutive_failures=endpoint.consecutive_failures,
            threshold=BREAKER_THRESHOLD,
            last_status=result.status,
            last_error=result.error,
            reason="consecutive_failures",
        )


#: The kinds about endpoints, which the operators' area sends (:attr:`livecore.area.Area.webhooks`).
PAYLOADS: tuple[type[WebhookPayload], ...] = (WebhookEndpointFailed,)
