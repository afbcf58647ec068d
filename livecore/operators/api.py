"""The admin API (``/admin/v1``, docs/operators.md): what operators read and do, as members of a studio.

Every route but the health probe takes a member credential (``Auth.MEMBER``) and names its operator action
(``Route.action``); the portal and ``/mcp`` run these same routes. Studio and game path segments take a
key (``demo``, ``space-race``) or an id (``std_...``, ``gam_...``). Routes that name a player, a grant or an
attempt act in one environment: ``?env=test|live``; left out, the one the game has API keys in (live
when it has both: :func:`livecore.operators.rules.default_environment`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import attrs

from livecore.api.convert import DEFAULT_IN_WORDS
from livecore.api.route import Auth, Idempotency, Route, Surface
from livecore.crates.errors import CRATE_MUST_BE_OPENED
from livecore.economy.api import CurrencyBalance, ItemAdjustResponse, ItemHolding
from livecore.economy.errors import INSUFFICIENT_QUANTITY, RESOURCE_NOT_FOUND, SYSTEM_RESOURCE_LOCKED
from livecore.errors import CONFLICT, INVALID_API_KEY, NOT_FOUND, PERMISSION_DENIED, RATE_LIMITED
from livecore.friends.api import FriendRow
from livecore.grants.api import GrantView, RewardEntry
from livecore.grants.errors import GRANT_NOT_FOUND
from livecore.grants.rules import ENTRIES, GrantKind
from livecore.limits import BOARD_NUMBER, FREE_FORM, FREE_TEXT, ID, PAGE, limited
from livecore.live_events.api import AttemptView
from livecore.live_events.errors import (
    ATTEMPT_IN_PROGRESS,
    ATTEMPT_NOT_FOUND,
    ATTEMPT_NOT_IN_PROGRESS,
    REWARDS_ALREADY_GRANTED,
)
from livecore.operators.errors import (
    API_KEY_NOT_FOUND,
    CSRF_INVALID,
    DASHBOARD_ONLY,
    DELIVERY_NOT_FOUND,
    PERSONAL_KEY_NOT_FOUND,
    WEBHOOK_ENDPOINT_NOT_FOUND,
)
from livecore.operators.rules import KEY_LIFETIME, Action
from livecore.player_tools.api import BanPlayerResponse, BanRequest, BanState, PlayerProfileResponse
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.identity import COUNTRY
from livecore.players.rules import Player
from livecore.roles import Role
from livecore.scope import Environment, Permission
from livecore.webhooks.delivery import DEFAULT_OVERLAP, OVERLAP, DeliveryStatus, EndpointStatus

STUDIO_PATH = "/studios/{studio}"
GAME_PATH = f"{STUDIO_PATH}/games/{{game}}"
#: Rows one read of a list answers at most.

# --- queries ---------------------------------------------------------------------------------------------


# ``env`` left out: the environment the game has API keys in, live when it has both or none
# (livecore.operators.rules.default_environment).
_ENV_DEFAULT = {DEFAULT_IN_WORDS: "the environment the game has API keys in; live when both"}


@attrs.frozen
class EnvQuery:
    env: Environment | None = attrs.field(default=None, metadata=_ENV_DEFAULT)


@attrs.frozen
class LookupQuery:
    env: Environment | None = attrs.field(default=None, metadata=_ENV_DEFAULT)
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
class PlayerCountryView:
    """A player's country (docs/operators.md#country-override): ``country`` is the one the service shows
    and plays the player in: ``countryOverride``, an operator's, when set, else ``resolvedCountry``, where
    the player's requests resolve to (``playerContext.country``, else geo)."""

    country: str | None
    resolved_country: str | None
    country_override: str | None

    @classmethod
    def of(cls, player: Player) -> PlayerCountryView:
        return cls(player.country, player.resolved_country, player.country_override)


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
class SetCountryRequest:
    """An ISO 3166-1 alpha-2 code to show the player with whatever its requests resolve to, or null to
    clear the override (the resolved country shows again)."""

    country: str | None = attrs.field(metadata=limited(COUNTRY))
    reason: str | None = attrs.field(default=None, metadata=limited(FREE_TEXT))


@attrs.frozen
class SetCountryResponse:
    """``applied``: whether the override changed."""

    external_player_id: str
    applied: bool
    country: PlayerCountryView


@attrs.frozen
class EditItemAttributesRequest:
    """Values of the item's attributes, key by key (the others keep theirs): each an attribute the catalog
    declares for the item, of the type of its catalog default."""

    attributes: dict[str, Any] = attrs.field(metadata=limited(FREE_FORM))
    reason: str | None = attrs.field(default=None, metadata=limited(FREE_TEXT))


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


@attrs.frozen
class ForceCompleteRequest:
    reason: str = attrs.field(metadata=limited(FREE_TEXT))
    score: float | None = attrs.field(default=None, metadata=limited(BOARD_NUMBER))


@attrs.frozen
class AttemptResponse:
    attempt: AttemptView


@attrs.frozen
class RetryRewardRollResponse:
    grants: list[GrantView]


@attrs.frozen
class RotateSecretResponse:
    """The player's new secret, shown once: hand it to the player's client."""

    external_player_id: str
    player_secret: str


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

_CREDENTIAL = (INVALID_API_KEY, PERMISSION_DENIED, RATE_LIMITED)
_WRITE = (*_CREDENTIAL, CSRF_INVALID)


def admin_route(
    name: str, method: str, path: str, summary: str, response: Any, action: Action, **kw: Any
) -> Route:
    """An operator route: a member credential allowed ``action``; writes take an optional
    ``Idempotency-Key``."""
    write = method != "GET"
    errors = (*(_WRITE if write else _CREDENTIAL), *kw.pop("errors", ()))
    return Route(
        name=name,
        surface=Surface.ADMIN,
        method=method,
        path=path,
        summary=summary,
        auth=Auth.MEMBER,
        response=response,
        action=action,
        idempotency=Idempotency.OPTIONAL if write else Idempotency.NONE,
        errors=errors,
        **kw,
    )


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
PLAYER_BAN = admin_route(
    "admin.players.ban",
    "POST",
    f"{GAME_PATH}/players/{{externalId}}/ban",
    "Ban the player (player.banned on the transition, actor the member).",
    BanPlayerResponse,
    Action.BAN,
    request=BanRequest,
    query=EnvQuery,
    errors=(NOT_FOUND, PLAYER_NOT_FOUND),
)
PLAYER_UNBAN = admin_route(
    "admin.players.unban",
    "POST",
    f"{GAME_PATH}/players/{{externalId}}/unban",
    "Lift the player's ban (player.unbanned on a real unban).",
    BanPlayerResponse,
    Action.UNBAN,
    query=EnvQuery,
    errors=(NOT_FOUND, PLAYER_NOT_FOUND),
)
SET_COUNTRY = admin_route(
    "admin.players.set_country",
    "PUT",
    f"{GAME_PATH}/players/{{externalId}}/country",
    "Set the country the player is shown and played in, over the resolved one, or clear it (null).",
    SetCountryResponse,
    Action.SET_COUNTRY,
    request=SetCountryRequest,
    query=EnvQuery,
    errors=(NOT_FOUND, PLAYER_NOT_FOUND),
)
EDIT_ITEM_ATTRIBUTES = admin_route(
    "admin.players.edit_item_attributes",
    "PATCH",
    f"{GAME_PATH}/players/{{externalId}}/inventory/{{itemKey}}/attributes",
    "Set the player's values of the item's declared attributes, key by key (inventory.changed, delta 0,"
    " in a platform-managed game).",
    ItemAdjustResponse,
    Action.EDIT_ITEM_ATTRIBUTES,
    request=EditItemAttributesRequest,
    query=EnvQuery,
    errors=(
        NOT_FOUND,
        PLAYER_NOT_FOUND,
        RESOURCE_NOT_FOUND,
        SYSTEM_RESOURCE_LOCKED,
        INSUFFICIENT_QUANTITY,
    ),
)
ROTATE_SECRET = admin_route(
    "admin.players.rotate_secret",
    "POST",
    f"{GAME_PATH}/players/{{externalId}}/rotate-secret",
    "Mint a new player secret (player.secret_rotated via admin_rotate); the old one stops working.",
    RotateSecretResponse,
    Action.ROTATE_SECRET,
    query=EnvQuery,
    errors=(NOT_FOUND, PLAYER_NOT_FOUND),
)
MANUAL_GRANT = admin_route(
    "admin.grants.create",
    "POST",
    f"{GAME_PATH}/grants",
    "Manual grant (grant.manual_create): a pending grant for the player, created on first contact.",
    AdminGrantResponse,
    Action.MANUAL_GRANT,
    status=201,
    request=ManualGrantRequest,
    query=EnvQuery,
    errors=(NOT_FOUND, RESOURCE_NOT_FOUND),
)
FORCE_CLAIM = admin_route(
    "admin.grants.force_claim",
    "POST",
    f"{GAME_PATH}/grants/{{grantId}}/force-claim",
    "Operator override for a stuck grant: claimed whatever its status, credited once.",
    AdminGrantResponse,
    Action.FORCE_CLAIM,
    request=ReasonRequest,
    request_optional=True,
    query=EnvQuery,
    errors=(NOT_FOUND, GRANT_NOT_FOUND, CRATE_MUST_BE_OPENED),
)
FORCE_COMPLETE = admin_route(
    "admin.attempts.force_complete",
    "POST",
    f"{GAME_PATH}/attempts/{{attemptId}}/force-complete",
    "Complete an attempt in progress, its score optionally replaced; the board follows, no rewards rolled.",
    AttemptResponse,
    Action.FORCE_COMPLETE,
    request=ForceCompleteRequest,
    query=EnvQuery,
    errors=(NOT_FOUND, ATTEMPT_NOT_FOUND, ATTEMPT_NOT_IN_PROGRESS),
)
RETRY_REWARD_ROLL = admin_route(
    "admin.attempts.retry_reward_roll",
    "POST",
    f"{GAME_PATH}/attempts/{{attemptId}}/retry-reward-roll",
    "Grant a completed attempt's milestone and completion rewards; 409 when grants are already linked.",
    RetryRewardRollResponse,
    Action.RETRY_REWARD_ROLL,
    query=EnvQuery,
    errors=(
        NOT_FOUND,
        ATTEMPT_NOT_FOUND,
        ATTEMPT_IN_PROGRESS,
        REWARDS_ALREADY_GRANTED,
    ),
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
    PLAYER_BAN,
    PLAYER_UNBAN,
    SET_COUNTRY,
    EDIT_ITEM_ATTRIBUTES,
    ROTATE_SECRET,
    MANUAL_GRANT,
    FORCE_CLAIM,
    FORCE_COMPLETE,
    RETRY_REWARD_ROLL,
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
