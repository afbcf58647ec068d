"""The operators' own admin routes (``/admin/v1``, docs/operators.md): who is asking, the studio's members,
the unified player look-up, the games' webhook endpoints and deliveries, API keys, personal keys and the
audit log. The other areas declare theirs (a player's ban in ``livecore.player_tools.admin``, a manual
grant in ``livecore.grants.admin``, ...: :mod:`livecore.api.admin`).

Every route takes a member credential (``Auth.MEMBER``) and names its operator action (``Route.action``);
the portal and ``/mcp`` run these same routes. Studio and game path segments take a key (``demo``,
``space-race``) or an id (``std_...``, ``gam_...``). The look-up acts in one environment: ``?env=test|live``;
left out, the one the game has API keys in (live when it has both:
:func:`livecore.operators.rules.default_environment`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import attrs

from livecore.api.admin import GAME_PATH, STUDIO_PATH, EnvQuery, admin_route
from livecore.economy.api import CurrencyBalance, ItemHolding
from livecore.errors import CONFLICT, NOT_FOUND
from livecore.friends.api import FriendRow
from livecore.limits import FREE_TEXT, ID, PAGE, limited
from livecore.operators.errors import (
    API_KEY_NOT_FOUND,
    DASHBOARD_ONLY,
    DELIVERY_NOT_FOUND,
    PERSONAL_KEY_NOT_FOUND,
    WEBHOOK_ENDPOINT_NOT_FOUND,
)
from livecore.operators.rules import KEY_LIFETIME, Action
from livecore.player_tools.admin import PlayerCountryView
from livecore.player_tools.api import BanState, PlayerProfileResponse
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.roles import Role
from livecore.scope import Environment, Permission
from livecore.webhooks.delivery import DEFAULT_OVERLAP, OVERLAP, DeliveryStatus, EndpointStatus

# --- queries ---------------------------------------------------------------------------------------------


@attrs.frozen
class LookupQuery(EnvQuery):
    limit: int = attrs.field(default=20, metadata=limited(PAGE))


@attrs.frozen
class DeliveriesQuery:
    status: DeliveryStatus | None = None
    limit: int = attrs.field(default=50, metadata=limited(PAGE))


@attrs.frozen
class GameAuditQuery:
    """The game's log narrowed to an action, a target or a member's id; ``before`` is the keyset: the
    ``nextBefore`` of the page before."""

    action: str | None = attrs.field(default=None, metadata=limited(ID))
    target: str | None = attrs.field(default=None, metadata=limited(FREE_TEXT))
    member: str | None = attrs.field(default=None, metadata=limited(ID))
    before: int | None = None
    limit: int = attrs.field(default=50, metadata=limited(PAGE))


@attrs.frozen
class AuditQuery(GameAuditQuery):
    """The studio's log, as :class:`GameAuditQuery`, and narrowed to a game (key or id) when ``game`` is
    given."""

    game: str | None = attrs.field(default=None, metadata=limited(ID))


# --- records ---------------------------------------------------------------------------------------------


@attrs.frozen
class MemberView:
    member_id: str
    key: str
    email: str
    role: Role


@attrs.frozen
class GameView:
    game_id: str
    key: str
    name: str


@attrs.frozen
class AuditEntryView:
    """One audit entry (docs/operators.md#the-audit-log)."""

    id: str
    at: datetime
    game_id: str | None
    actor: dict[str, Any]
    action: str
    target: str
    metadata: dict[str, Any]
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    ip: str | None


@attrs.frozen
class EndpointView:
    endpoint_id: str
    name: str
    env: Environment
    url: str
    events: list[str]
    status: EndpointStatus
    consecutive_failures: int
    #: While the secret rotated last still signs beside the new one: until then, else null.
    previous_secret_expires_at: datetime | None = None


@attrs.frozen
class DeliveryView:
    delivery_id: str
    event_id: str
    event_name: str
    endpoint_id: str
    status: DeliveryStatus
    attempts: int
    next_attempt_at: datetime | None
    last_status: int | None
    last_error: str | None
    created_at: datetime
    delivered_at: datetime | None


@attrs.frozen
class ApiKeyView:
    """An API key as operators see it (never its secret). ``status``: ``active``, ``retiring`` (rotated:
    works until ``retiresAt``) or ``revoked``."""

    key_id: str
    name: str
    env: Environment
    permission: Permission
    prefix: str
    status: str
    created_at: datetime
    retires_at: datetime | None
    revoked_at: datetime | None
    last_used_at: datetime | None
    last_operation: str | None


@attrs.frozen
class PersonalKeyView:
    key_id: str
    member_id: str
    member_key: str
    prefix: str
    role: Role | None
    read_only: bool
    created_at: datetime
    expires_at: datetime
    revoked_at: datetime | None
    last_used_at: datetime | None


# --- requests and responses ------------------------------------------------------------------------------


@attrs.frozen
class MeResponse:
    """Who is asking. ``csrfToken``: what a session's writes send as ``X-CSRF-Token`` (null for a key)."""

    member: MemberView
    studio_id: str
    studio_key: str
    via: str
    key_id: str | None
    read_only: bool
    csrf_token: str | None
    games: list[GameView]


@attrs.frozen
class MembersResponse:
    members: list[MemberView]


@attrs.frozen
class PlayerLookupResponse:
    """Everything an operator looks at about one player (docs/operators.md#player-look-up)."""

    profile: PlayerProfileResponse
    ban: BanState
    country: PlayerCountryView
    friends: list[FriendRow]
    wallet: list[CurrencyBalance]
    inventory: list[ItemHolding]
    audit: list[AuditEntryView]
    deliveries: list[DeliveryView]


@attrs.frozen
class EndpointsResponse:
    endpoints: list[EndpointView]


@attrs.frozen
class CreateEndpointRequest:
    name: str = attrs.field(metadata=limited(ID))
    env: Environment
    url: str = attrs.field(metadata=limited(FREE_TEXT))
    events: list[str] = attrs.field(metadata=limited(ID))


@attrs.frozen
class CreateEndpointResponse:
    """The endpoint and its signing secret, shown once (a new endpoint's, or a rotated one's new secret)."""

    endpoint: EndpointView
    secret: str


@attrs.frozen
class RotateEndpointSecretRequest:
    """How long the secret being replaced keeps signing beside the new one: 0 (it stops at once) to 604800
    seconds (7 days)."""

    overlap_seconds: int = attrs.field(
        default=int(DEFAULT_OVERLAP.total_seconds()), metadata=limited(OVERLAP)
    )


@attrs.frozen
class DeliveriesResponse:
    deliveries: list[DeliveryView]


@attrs.frozen
class ReplayResponse:
    delivery: DeliveryView


@attrs.frozen
class EndpointResponse:
    applied: bool
    endpoint: EndpointView


@attrs.frozen
class SendSampleRequest:
    kind: str | None = attrs.field(default=None, metadata=limited(ID))


@attrs.frozen
class SendSampleResponse:
    event_id: str
    event_name: str


@attrs.frozen
class ApiKeysResponse:
    keys: list[ApiKeyView]


@attrs.frozen
class CreateApiKeyRequest:
    name: str = attrs.field(metadata=limited(ID))
    env: Environment
    permission: Permission


@attrs.frozen
class ApiKeySecretResponse:
    """A new key and its secret, shown once; a rotation also shows the key it replaces, now retiring."""

    key: ApiKeyView
    secret: str
    retiring: ApiKeyView | None = None


@attrs.frozen
class ApiKeyResponse:
    key: ApiKeyView


@attrs.frozen
class PersonalKeysResponse:
    keys: list[PersonalKeyView]


@attrs.frozen
class CreatePersonalKeyRequest:
    expires_in_days: int = attrs.field(metadata=limited(KEY_LIFETIME))
    read_only: bool = False
    role: Role | None = None


@attrs.frozen
class PersonalKeySecretResponse:
    """The member's new personal key and its secret, shown once; the key it had before is revoked."""

    key: PersonalKeyView
    secret: str


@attrs.frozen
class PersonalKeyResponse:
    key: PersonalKeyView


@attrs.frozen
class AuditResponse:
    entries: list[AuditEntryView]
    next_before: int | None


# --- routes ----------------------------------------------------------------------------------------------

ME = admin_route(
    "admin.me", "GET", "/me", "Who is asking: the member, its studio and games.", MeResponse, Action.READ
)
MEMBERS = admin_route(
    "admin.members", "GET", f"{STUDIO_PATH}/members", "The studio's members.", MembersResponse, Action.READ
)
PLAYER_LOOKUP = admin_route(
    "admin.players.lookup",
    "GET",
    f"{GAME_PATH}/players/{{externalId}}",
    "Unified player look-up: profile, ban, friends, wallet, inventory, grants, audit and deliveries.",
    PlayerLookupResponse,
    Action.READ,
    query=LookupQuery,
    errors=(NOT_FOUND, PLAYER_NOT_FOUND),
)
WEBHOOKS = admin_route(
    "admin.webhooks.list",
    "GET",
    f"{GAME_PATH}/webhooks",
    "The game's webhook endpoints.",
    EndpointsResponse,
    Action.READ,
    errors=(NOT_FOUND,),
)
WEBHOOK_CREATE = admin_route(
    "admin.webhooks.create",
    "POST",
    f"{GAME_PATH}/webhooks",
    "Create a webhook endpoint; its signing secret is shown once. Live endpoints are dashboard-only.",
    CreateEndpointResponse,
    Action.WEBHOOK_CREATE,
    status=201,
    request=CreateEndpointRequest,
    errors=(NOT_FOUND, DASHBOARD_ONLY, CONFLICT),
)
WEBHOOK_DELIVERIES = admin_route(
    "admin.webhooks.deliveries",
    "GET",
    f"{GAME_PATH}/webhooks/{{endpointId}}/deliveries",
    "An endpoint's deliveries, newest first.",
    DeliveriesResponse,
    Action.READ,
    query=DeliveriesQuery,
    errors=(NOT_FOUND, WEBHOOK_ENDPOINT_NOT_FOUND),
)
WEBHOOK_UNPAUSE = admin_route(
    "admin.webhooks.unpause",
    "POST",
    f"{GAME_PATH}/webhooks/{{endpointId}}/unpause",
    "Resume a paused endpoint; its held deliveries go out oldest first.",
    EndpointResponse,
    Action.WEBHOOK_UNPAUSE,
    errors=(NOT_FOUND, WEBHOOK_ENDPOINT_NOT_FOUND),
)
WEBHOOK_SEND_SAMPLE = admin_route(
    "admin.webhooks.send_sample",
    "POST",
    f"{GAME_PATH}/webhooks/{{endpointId}}/send-sample",
    "A placeholder event through the signed pipeline to this endpoint, marked X-Svc-Webhook-Test: 1.",
    SendSampleResponse,
    Action.WEBHOOK_SEND_SAMPLE,
    status=202,
    request=SendSampleRequest,
    request_optional=True,
    errors=(NOT_FOUND, WEBHOOK_ENDPOINT_NOT_FOUND),
)
WEBHOOK_ROTATE_SECRET = admin_route(
    "admin.webhooks.rotate_secret",
    "POST",
    f"{GAME_PATH}/webhooks/{{endpointId}}/rotate-secret",
    "Mint a new signing secret, shown once; the old one signs beside it for overlapSeconds (default 24 h)."
    " Dashboard-only for a live endpoint.",
    CreateEndpointResponse,
    Action.WEBHOOK_ROTATE_SECRET,
    request=RotateEndpointSecretRequest,
    request_optional=True,
    errors=(NOT_FOUND, WEBHOOK_ENDPOINT_NOT_FOUND, DASHBOARD_ONLY),
)
DELIVERY_REPLAY = admin_route(
    "admin.deliveries.replay",
    "POST",
    f"{GAME_PATH}/deliveries/{{deliveryId}}/replay",
    "Send a delivered or failed delivery's event again, as a new delivery.",
    ReplayResponse,
    Action.WEBHOOK_REPLAY,
    status=202,
    errors=(NOT_FOUND, DELIVERY_NOT_FOUND, CONFLICT),
)
API_KEYS = admin_route(
    "admin.api_keys.list",
    "GET",
    f"{GAME_PATH}/api-keys",
    "The game's API keys (never their secrets).",
    ApiKeysResponse,
    Action.READ,
    errors=(NOT_FOUND,),
)
API_KEY_CREATE = admin_route(
    "admin.api_keys.create",
    "POST",
    f"{GAME_PATH}/api-keys",
    "Create an API key; its secret is shown once. Dashboard-only.",
    ApiKeySecretResponse,
    Action.API_KEY_CREATE,
    status=201,
    request=CreateApiKeyRequest,
    errors=(NOT_FOUND, DASHBOARD_ONLY, CONFLICT),
)
API_KEY_ROTATE = admin_route(
    "admin.api_keys.rotate",
    "POST",
    f"{GAME_PATH}/api-keys/{{keyId}}/rotate",
    "Mint a successor; the old key keeps working for 60 days of service time. Dashboard-only.",
    ApiKeySecretResponse,
    Action.API_KEY_ROTATE,
    status=201,
    errors=(NOT_FOUND, DASHBOARD_ONLY, API_KEY_NOT_FOUND, CONFLICT),
)
API_KEY_REVOKE = admin_route(
    "admin.api_keys.revoke",
    "POST",
    f"{GAME_PATH}/api-keys/{{keyId}}/revoke",
    "Revoke an API key at once. Dashboard-only.",
    ApiKeyResponse,
    Action.API_KEY_REVOKE,
    errors=(NOT_FOUND, DASHBOARD_ONLY, API_KEY_NOT_FOUND),
)
PERSONAL_KEYS = admin_route(
    "admin.personal_keys.list",
    "GET",
    f"{STUDIO_PATH}/personal-keys",
    "Personal keys: the member's own; every member's for owners and admins.",
    PersonalKeysResponse,
    Action.READ,
)
PERSONAL_KEY_CREATE = admin_route(
    "admin.personal_keys.create",
    "POST",
    f"{STUDIO_PATH}/personal-keys",
    "Make the member's personal key (shown once); the one before is revoked. Dashboard-only.",
    PersonalKeySecretResponse,
    Action.PERSONAL_KEY_CREATE,
    status=201,
    request=CreatePersonalKeyRequest,
    errors=(DASHBOARD_ONLY,),
)
PERSONAL_KEY_REVOKE = admin_route(
    "admin.personal_keys.revoke",
    "POST",
    f"{STUDIO_PATH}/personal-keys/{{keyId}}/revoke",
    "Revoke a personal key: the member's own, or any for owners and admins. Dashboard-only.",
    PersonalKeyResponse,
    Action.PERSONAL_KEY_REVOKE,
    errors=(DASHBOARD_ONLY, PERSONAL_KEY_NOT_FOUND),
)
AUDIT = admin_route(
    "admin.audit",
    "GET",
    f"{STUDIO_PATH}/audit",
    "The studio's audit log, every game's and the studio's own entries, newest first, filtered and paged"
    " by keyset.",
    AuditResponse,
    Action.READ,
    query=AuditQuery,
    errors=(NOT_FOUND,),
)
GAME_AUDIT = admin_route(
    "admin.game_audit",
    "GET",
    f"{GAME_PATH}/audit",
    "The game's audit log, newest first, filtered and paged by keyset as the studio's.",
    AuditResponse,
    Action.READ,
    query=GameAuditQuery,
    errors=(NOT_FOUND,),
)

ROUTES = (
    ME,
    MEMBERS,
    PLAYER_LOOKUP,
    WEBHOOKS,
    WEBHOOK_CREATE,
    WEBHOOK_DELIVERIES,
    WEBHOOK_UNPAUSE,
    WEBHOOK_SEND_SAMPLE,
    WEBHOOK_ROTATE_SECRET,
    DELIVERY_REPLAY,
    API_KEYS,
    API_KEY_CREATE,
    API_KEY_ROTATE,
    API_KEY_REVOKE,
    PERSONAL_KEYS,
    PERSONAL_KEY_CREATE,
    PERSONAL_KEY_REVOKE,
    AUDIT,
    GAME_AUDIT,
)
