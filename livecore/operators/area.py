"""The operators area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from livecore.area import Area
from livecore.operators import api, samples
from livecore.webhooks.endpoints import WebhookEndpointFailed

AREA = Area(
    name="operators",
    summary="Operators: members, API and personal keys, webhooks and deliveries, the audit log.",
    page="admin",
    routes=api.ROUTES,
    webhooks=(WebhookEndpointFailed,),
    samples=samples.SAMPLES,
)
