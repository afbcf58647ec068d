"""The operators area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from livecore.api.auth import DOCUMENTED_CREDENTIALS
from livecore.area import Area, ClientPart
from livecore.errors import NOT_FOUND
from livecore.limits import duration
from livecore.operators import api, samples
from livecore.operators.documents import MEMBER_CREDENTIAL
from livecore.operators.errors import CODES
from livecore.operators.handlers import HANDLERS
from livecore.operators.rules import (
    AUDIT_ENTRY_ID_PREFIX,
    KEY_LIFETIME,
    LOGIN_LINK_TTL,
    MEMBER_ID_PREFIX,
    PERSONAL_KEY_ID_PREFIX,
    SESSION_ID_PREFIX,
    SESSION_TTL,
)
from livecore.webhooks import endpoints


def _limits() -> Mapping[str, Sequence[tuple[str, str]]]:
    return {
        "conventions": [
            ("Personal key lifetime", f"{KEY_LIFETIME.describe()} days"),
            ("Portal session", duration(SESSION_TTL)),
            ("Sign-in link", f"{duration(LOGIN_LINK_TTL)}, once"),
        ],
    }


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
    limits=_limits,
    id_prefixes=(MEMBER_ID_PREFIX, SESSION_ID_PREFIX, PERSONAL_KEY_ID_PREFIX, AUDIT_ENTRY_ID_PREFIX),
    # How the documents describe a member's credential and the area's own surface, /admin/v1 (the server
    # admits a member before the route runs: livecore_server/operators/access.py).
    contributes=(DOCUMENTED_CREDENTIALS(MEMBER_CREDENTIAL),),
    client=(
        ClientPart("admin", "members", "livecore_client.resources.operators.members", "AdminMembers"),
        ClientPart("admin", "players", "livecore_client.resources.operators.players", "AdminPlayers"),
        ClientPart("admin", "grants", "livecore_client.resources.operators.grants", "AdminGrants"),
        ClientPart("admin", "live_events", "livecore_client.resources.operators.attempts", "AdminLiveEvents"),
        ClientPart("admin", "webhooks", "livecore_client.resources.operators.webhooks", "AdminWebhooks"),
        ClientPart("admin", "api_keys", "livecore_client.resources.operators.keys", "AdminApiKeys"),
        ClientPart("admin", "personal_keys", "livecore_client.resources.operators.keys", "AdminPersonalKeys"),
        ClientPart("admin", "audit", "livecore_client.resources.operators.audit", "AdminAudit"),
    ),
)
