"""Placeholder payloads of the grants area's webhook kinds, for sample deliveries
(:attr:`livecore.area.Area.samples`)."""

from __future__ import annotations

from livecore.grants.webhooks import GrantClaimed, GrantCreated, GrantExpired
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.sample_values import GRANT, SAMPLE_TS

SAMPLES: tuple[WebhookPayload, ...] = (
    GrantCreated(**GRANT, status="pending", claimed_at=None, acked_by=None),
    GrantClaimed(**GRANT, status="claimed", claimed_at=SAMPLE_TS, acked_by="client"),
    GrantExpired(**GRANT, status="expired", claimed_at=None, acked_by=None),
)
