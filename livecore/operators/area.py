"""The operators area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from livecore.area import Area
from livecore.errors import NOT_FOUND
from livecore.operators import api, samples
from livecore.operators.errors import CODES
from livecore.operators.handlers import HANDLERS
from livecore.operators.rules import (
    AUDIT_ENTRY_ID_PREFIX,
    MEMBER_ID_PREFIX,
    PERSONAL_KEY_ID_PREFIX,
    SESSION_ID_PREFIX,
)
from livecore.webhooks import endpoints

AREA = Area(
    name="operators",
    summary="Operators: members, API and personal keys, webhooks and deliveries, the audit log.",
    page="admin",
    builds_on=("crates", "friends", "player_tools", "live_events"),
    routes=api.ROUTES,
    handlers=HANDLERS,
    record_ids={"gameId": NOT_FOUND},
    webhooks=endpoints.PAYLOADS,
    samples=samples.SAMPLES,
    errors=CODES,
    id_prefixes=(MEMBER_ID_PREFIX, SESSION_ID_PREFIX, PERSONAL_KEY_ID_PREFIX, AUDIT_ENTRY_ID_PREFIX),
)
