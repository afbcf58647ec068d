"""Operators: the studio's members, their roles, what each role may do, personal keys and the audit entry
(docs/operators.md).

The rules, as a studio's lead would write them on a whiteboard:

1. A member belongs to one studio and has one role: ``OWNER``, ``ADMIN``, ``GAME_ADMIN``,
   ``GAME_DEVELOPER``, ``GAME_DEBUGGER`` or ``VIEWER``.
2. Every role may read (player look-up, grants, attempts, webhook endpoints and deliveries, API keys,
   personal keys, members, the audit log). Each operator action names the roles that may take it
   (:data:`ALLOWED`); owners and admins may take every action.
3. A member acts in the portal (a session) or with a personal key (``svc_pk_...``) on the admin API or
   ``/mcp``. A personal key is one per member and studio, shown once, made in the portal or, on the
   server's machine, by ``livecore-server members personal-key`` (the same action, audited as the
   member's ``via: "cli"``); making a new one revokes the one before. It lives from 7 days to 1 year
   (:data:`KEY_LIFETIME`), may be read-only, may carry a lower role than its member's, and never more
   than the member's *current* role: what it may do is what both roles allow. It stops working when the
   member is removed.
4. Dashboard-only actions (:data:`DASHBOARD_ONLY`: API keys, personal keys, creating a live webhook
   endpoint or rotating its signing secret) are refused to personal keys: 403 ``dashboard_only``.
5. Every action writes an audit entry in the transaction of its effect (:class:`AuditEntry`).

Who may act is decided by :func:`authorize`, whose refusals come in this order:

1. the credential acts for another studio: 403 ``permission_denied``;
2. a personal key and a dashboard-only action: 403 ``dashboard_only``;
3. a read-only personal key and a write: 403 ``permission_denied``;
4. the role (both roles, for a personal key) does not allow the action: 403 ``permission_denied``.

An unknown, expired or revoked credential, or one of a removed member, never gets this far: it is 401
``invalid_api_key`` where it is read. Creating a *live* webhook endpoint, or rotating a live endpoint's
signing secret, is dashboard-only, but whether an endpoint is live is in the request's body or in the
endpoint: the route admits the key first (steps 1, 3, 4 for the action on any endpoint), and its handler
then refuses a live one with ``dashboard_only``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

import attrs

from livecore.errors import PERMISSION_DENIED, LivecoreError, invalid_request
from livecore.limits import Range
from livecore.operators.errors import DASHBOARD_ONLY as DASHBOARD_ONLY_CODE
from livecore.roles import Role
from livecore.scope import Environment

# The id prefixes of the area's records, claimed in its declaration (``Area.id_prefixes``).
MEMBER_ID_PREFIX = "mem"  # an operator of a studio
SESSION_ID_PREFIX = "mss"  # a member's portal session
PERSONAL_KEY_ID_PREFIX = "pk"
AUDIT_ENTRY_ID_PREFIX = "aud"


class Action(enum.StrEnum):
    """What an operator may do. Writes carry their audit action name (docs/operators.md#the-audit-log)."""

    # Reads: every role.
    READ = "read"
    # Writes, each audited under this name.
    WEBHOOK_CREATE = "webhook.create"
    WEBHOOK_REPLAY = "webhook.replay"
    WEBHOOK_UNPAUSE = "webhook.unpause"
    WEBHOOK_SEND_SAMPLE = "webhook.send_sample"
    WEBHOOK_ROTATE_SECRET = "webhook.secret_rotate"
    API_KEY_CREATE = "api_key.create"
    API_KEY_ROTATE = "api_key.rotate"
    API_KEY_REVOKE = "api_key.revoke"
    PERSONAL_KEY_CREATE = "personal_key.create"
    PERSONAL_KEY_REVOKE = "personal_key.revoke"
    MEMBER_SIGN_IN = "member.sign_in"
    MEMBER_SIGN_OUT = "member.sign_out"

    @property
    def is_write(self) -> bool:
        return self is not Action.READ


_EVERYONE = frozenset(Role)
_STUDIO_ADMINS = frozenset({Role.OWNER, Role.ADMIN})


def _roles(*roles: Role) -> frozenset[Role]:
    return _STUDIO_ADMINS | frozenset(roles)


#: The roles that may take each action (docs/operators.md#roles-and-actions).
ALLOWED: dict[Action, frozenset[Role]] = {
    Action.READ: _EVERYONE,
    Action.WEBHOOK_CREATE: _roles(Role.GAME_ADMIN, Role.GAME_DEVELOPER),
    Action.WEBHOOK_REPLAY: _roles(Role.GAME_ADMIN, Role.GAME_DEVELOPER),
    Action.WEBHOOK_UNPAUSE: _roles(Role.GAME_ADMIN, Role.GAME_DEVELOPER),
    Action.WEBHOOK_SEND_SAMPLE: _roles(Role.GAME_ADMIN, Role.GAME_DEVELOPER),
    # Whoever may create an endpoint may give it a new secret.
    Action.WEBHOOK_ROTATE_SECRET: _roles(Role.GAME_ADMIN, Role.GAME_DEVELOPER),
    Action.API_KEY_CREATE: _roles(Role.GAME_ADMIN),
    Action.API_KEY_ROTATE: _roles(Role.GAME_ADMIN),
    Action.API_KEY_REVOKE: _roles(Role.GAME_ADMIN),
    # A member manages its own personal key; owners and admins revoke anyone's (see may_revoke_key).
    Action.PERSONAL_KEY_CREATE: _EVERYONE,
    Action.PERSONAL_KEY_REVOKE: _EVERYONE,
    Action.MEMBER_SIGN_IN: _EVERYONE,
    Action.MEMBER_SIGN_OUT: _EVERYONE,
}

#: Actions a personal key may never take (docs/operators.md#personal-keys): 403 ``dashboard_only``.
#: A webhook endpoint is dashboard-only when it is live (:func:`dashboard_only`).
DASHBOARD_ONLY = frozenset(
    {
        Action.API_KEY_CREATE,
        Action.API_KEY_ROTATE,
        Action.API_KEY_REVOKE,
        Action.PERSONAL_KEY_CREATE,
        Action.PERSONAL_KEY_REVOKE,
    }
)

#: How long a personal key lives, in days (docs/operators.md#personal-keys).
KEY_LIFETIME = Range(7, 365)
#: The lifetime the portal's form and ``livecore-server members personal-key`` offer, in days.
KEY_DAYS_OFFERED = 30
PERSONAL_KEY_PREFIX = "svc_pk_"
#: A portal session's cookie, and the header a session's writes carry its CSRF token in.
SESSION_COOKIE = "livecore_session"
CSRF_HEADER = "X-CSRF-Token"
#: A one-time sign-in link works this long, once; a portal session lasts this long.
LOGIN_LINK_TTL = timedelta(minutes=15)
SESSION_TTL = timedelta(hours=12)


class Via(enum.StrEnum):
    """Where a member acts from (audit ``actor.via``)."""

    PORTAL = "portal"
    API = "api"
    MCP = "mcp"
    # ``livecore-server members personal-key``: the member's own action, taken with the database's access
    # by whoever runs the command on the server's machine, so its entry says so.
    CLI = "cli"


@attrs.frozen
class Operator:
    """Who is acting: a member, through the portal (a session), a personal key (``key_id``) or the CLI."""

    member_id: str
    studio_id: str
    role: Role
    via: Via
    key_id: str | None = None
    key_role: Role | None = None  # a personal key's own role, when lower than its member's
    read_only: bool = False
    session_id: str | None = None  # a portal session's

    @property
    def by_key(self) -> bool:
        return self.key_id is not None

    def actor(self) -> dict[str, Any]:
        """The audit entry's ``actor`` (docs/operators.md#the-audit-log)."""
        if self.key_id is None:
            if self.via is Via.CLI:
                return {"kind": "member", "memberId": self.member_id, "via": self.via.value}
            return {"kind": "member", "memberId": self.member_id}
        return {
            "kind": "personal_key",
            "memberId": self.member_id,
            "keyId": self.key_id,
            "via": self.via.value,
        }


def may(operator: Operator, action: Action) -> bool:
    """Whether the operator's role (and its key's role) allows ``action``; nothing else is checked."""
    allowed = ALLOWED[action]
    return operator.role in allowed and (operator.key_role is None or operator.key_role in allowed)


def permitted(operator: Operator, action: Action) -> bool:
    """Steps 3 and 4 of :func:`authorize` as a yes or no: what a list of the operator's actions shows."""
    return not (operator.read_only and action.is_write) and may(operator, action)


def authorize(operator: Operator, studio_id: str, action: Action, *, live_webhook: bool = False) -> None:
    """The refusals of the module docstring, in order; returns when the operator may act."""
    if operator.studio_id != studio_id:
        raise LivecoreError(PERMISSION_DENIED, "This credential belongs to another studio.")
    if operator.by_key and (action in DASHBOARD_ONLY or live_webhook):
        raise LivecoreError(
            DASHBOARD_ONLY_CODE, f"{action.value} is a dashboard-only action: sign in to the portal."
        )
    if operator.read_only and action.is_write:
        raise LivecoreError(PERMISSION_DENIED, "This personal key is read-only.")
    if not may(operator, action):
        raise LivecoreError(
            PERMISSION_DENIED,
            f"The role {(operator.key_role or operator.role).value} may not take {action.value}.",
            {"action": action.value},
        )


def default_environment(key_environments: Iterable[Environment]) -> Environment:
    """The environment an operator's request acts in when it names none: the one the game has API keys in
    (a game set up for testing has only test keys), live when it has both or none."""
    environments = set(key_environments)
    return Environment.TEST if environments == {Environment.TEST} else Environment.LIVE


def check_key_role(member_role: Role, key_role: Role | None, others: Iterable[frozenset[Role]] = ()) -> None:
    """A personal key carries at most its member's role: every action its role allows (the operators'
    own, and ``others``: the roles of each action the other areas served declare), the member's must
    allow too, and a studio-wide role (an owner's or an admin's: every key of the studio is theirs to see
    and revoke) only on a key of a member who has one."""
    if key_role is None:
        return
    allowed = (*ALLOWED.values(), *others)
    beyond = [roles for roles in allowed if key_role in roles and member_role not in roles]
    if beyond or (key_role in _STUDIO_ADMINS and member_role not in _STUDIO_ADMINS):
        raise invalid_request(
            f"A personal key carries at most its member's role ({member_role.value}).",
            {"role": f"allows more than {member_role.value}"},
        )


def key_expiry(now: datetime, days: int) -> datetime:
    """When a personal key made now for ``days`` days stops working (400 outside :data:`KEY_LIFETIME`)."""
    KEY_LIFETIME.check(days, "expiresInDays")
    return now + timedelta(days=days)


def sees_every_key(operator: Operator) -> bool:
    """Owners and admins see and revoke every key of the studio; with a personal key, only
    when the key's role is one of theirs too."""
    key_role = operator.key_role
    return operator.role in _STUDIO_ADMINS and (key_role is None or key_role in _STUDIO_ADMINS)


def may_revoke_key(operator: Operator, owner_member_id: str) -> bool:
    """A member revokes its own key; owners and admins revoke every key of the studio."""
    return owner_member_id == operator.member_id or sees_every_key(operator)


@attrs.frozen
class AuditEntry:
    """One operator action, written in the transaction of its effect. ``target`` names what it acted on
    (``player:<externalId>``, ``grant:<id>``, ...)."""

    id: str
    studio_id: str
    game_id: str | None
    at: datetime
    actor: dict[str, Any]
    action: str
    target: str
    metadata: dict[str, Any] = attrs.field(factory=dict)
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    ip: str | None = None
