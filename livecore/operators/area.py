"""The operators area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping

from livecore.area import Area
from livecore.errors import Code, ErrorCode
from livecore.operators import api, samples
from livecore.operators.rules import (
    AUDIT_ENTRY_ID_PREFIX,
    MEMBER_ID_PREFIX,
    PERSONAL_KEY_ID_PREFIX,
    SESSION_ID_PREFIX,
)
from livecore.webhooks.endpoints import WebhookEndpointFailed

_MEANINGS: Mapping[ErrorCode | Code, str] = {
    ErrorCode.DASHBOARD_ONLY: "A personal key asked for a dashboard-only action: sign in to the portal.",
    ErrorCode.CSRF_INVALID: "A portal session's write without its CSRF token (`X-CSRF-Token`).",
    ErrorCode.API_KEY_NOT_FOUND: "No API key of that id in the game.",
    ErrorCode.PERSONAL_KEY_NOT_FOUND: "No personal key of that id the member may see.",
    ErrorCode.WEBHOOK_ENDPOINT_NOT_FOUND: "No webhook endpoint of that id in the game.",
    ErrorCode.DELIVERY_NOT_FOUND: "No webhook delivery of that id in the game.",
}


AREA = Area(
    name="operators",
    summary="Operators: members, API and personal keys, webhooks and deliveries, the audit log.",
    page="admin",
    builds_on=("crates", "friends", "player_tools", "live_events"),
    routes=api.ROUTES,
    record_ids={"gameId": ErrorCode.NOT_FOUND},
    webhooks=(WebhookEndpointFailed,),
    samples=samples.SAMPLES,
    error_meanings=_MEANINGS,
    id_prefixes=(MEMBER_ID_PREFIX, SESSION_ID_PREFIX, PERSONAL_KEY_ID_PREFIX, AUDIT_ENTRY_ID_PREFIX),
)
