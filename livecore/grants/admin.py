"""The grants' admin routes (docs/operators.md#grants-and-attempts): an operator's manual grant, and the
force-claim of a stuck grant."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import attrs

from livecore.api.admin import AreaAction, EnvQuery, game_admin_route
from livecore.economy.errors import RESOURCE_NOT_FOUND
from livecore.grants.api import GrantView, RewardEntry
from livecore.grants.errors import GRANT_NOT_FOUND
from livecore.grants.rules import ENTRIES, GrantKind
from livecore.limits import FREE_FORM, FREE_TEXT, ID, limited
from livecore.roles import Role

MANUAL_GRANT_ACTION = AreaAction("grant.manual_create", frozenset({Role.GAME_ADMIN}))
FORCE_CLAIM_ACTION = AreaAction("grant.manual_force_claim", frozenset({Role.GAME_ADMIN, Role.GAME_DEBUGGER}))


@attrs.frozen
class ManualGrantRequest:
    external_player_id: str = attrs.field(metadata=limited(ID))
    entries: list[RewardEntry] = attrs.field(metadata=limited(count=ENTRIES))
    kind: GrantKind = GrantKind.REWARD
    expires_at: datetime | None = None
    reason: str | None = attrs.field(default=None, metadata=limited(FREE_TEXT))
    metadata: dict[str, Any] | None = attrs.field(default=None, metadata=limited(FREE_FORM))


@attrs.frozen
class ReasonRequest:
    reason: str | None = attrs.field(default=None, metadata=limited(FREE_TEXT))


@attrs.frozen
class AdminGrantResponse:
    grant: GrantView


MANUAL_GRANT = game_admin_route(
    "admin.grants.create",
    "POST",
    "/grants",
    "Manual grant (grant.manual_create): a pending grant for the player, created on first contact.",
    AdminGrantResponse,
    MANUAL_GRANT_ACTION,
    status=201,
    request=ManualGrantRequest,
    query=EnvQuery,
    errors=(RESOURCE_NOT_FOUND,),
)
# The areas whose grants a claim refuses add their codes (livecore.api.route.REFUSALS): a crate is opened.
FORCE_CLAIM = game_admin_route(
    "admin.grants.force_claim",
    "POST",
    "/grants/{grantId}/force-claim",
    "Operator override for a stuck grant: claimed whatever its status, credited once.",
    AdminGrantResponse,
    FORCE_CLAIM_ACTION,
    request=ReasonRequest,
    request_optional=True,
    query=EnvQuery,
    errors=(GRANT_NOT_FOUND,),
)

ROUTES = (MANUAL_GRANT, FORCE_CLAIM)
