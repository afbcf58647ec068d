"""Every webhook kind with a declared payload, by kind: each area lists its payload classes
(:class:`livecore.area.Area`), and the built-in areas' kinds are collected here."""

from __future__ import annotations

from livecore import areas
from livecore.webhooks.payload import WebhookPayload

PAYLOAD_TYPES: dict[str, type[WebhookPayload]] = areas.webhook_kinds()
