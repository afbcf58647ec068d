"""The operators area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from livecore.area import Area
from livecore.errors import ErrorCode
from livecore.operators import api
from livecore.webhooks.endpoints import WebhookEndpointFailed

AREA = Area(
    name="operators",
    summary="Operators: members, API and personal keys, webhooks and deliveries, the audit log.",
    page="admin",
    routes=api.ROUTES,
    record_ids={"gameId": ErrorCode.NOT_FOUND},
    webhooks=(WebhookEndpointFailed,),
)
