"""How the OpenAPI documents describe a member's credential and the operators' surface (``/admin/v1``):
the operators area's declaration at :data:`livecore.api.auth.DOCUMENTED_CREDENTIALS`, read by
:mod:`livecore.api.openapi` for every ``Auth.MEMBER`` route."""

from __future__ import annotations

from typing import Any

from livecore.api.auth import DocumentedCredential, Security
from livecore.api.route import Auth, Route, Surface
from livecore.operators.area_action import AnyAction, action_of, roles_of
from livecore.operators.rules import CSRF_HEADER, DASHBOARD_ONLY, PERSONAL_KEY_PREFIX, SESSION_COOKIE
from livecore.roles import Role

_DESCRIPTION = (
    "The operators' surface (`/admin/v1`): what the portal and `/mcp` run, and what a studio's scripts "
    "call as one of its members. It is not part of the public contract: it may change between minor "
    "versions, announced in the changelog. Every route but the health probe takes a member's "
    "credential, checked before anything else (401 `invalid_api_key` without a valid one): a personal "
    f"key as `Authorization: Bearer {PERSONAL_KEY_PREFIX}...`, or a portal session's cookie "
    f"(`{SESSION_COOKIE}`, set by the portal's sign-in), whose writes also send the session's CSRF "
    f"token as `{CSRF_HEADER}` (`csrfToken` of `GET /admin/v1/me`; 403 `csrf_invalid` without it). "
    "Each route names the operator action it takes (`x-operator-action`) and the roles that may take "
    "it; a personal key never takes a dashboard-only action (403 `dashboard_only`). `{studio}` and "
    "`{game}` take a key or an id. Writes take an optional idempotency key. Send "
    "`X-Svc-SDK: <name>/<version>` on every request.\n\nNot described here, since they are not JSON "
    "routes of this surface: the portal's HTML pages (`/portal/`, a browser's) and `/mcp` (the Model "
    "Context Protocol over HTTP, whose tools are these same routes)."
)

# How a member authenticates on the admin surface (livecore_server/operators/access.py): a personal key, or a
# portal session whose writes also carry its CSRF token.
_SCHEMES: dict[str, Any] = {
    "personalKey": {
        "type": "http",
        "scheme": "bearer",
        "description": f"A member's personal key (`{PERSONAL_KEY_PREFIX}...`), made in the portal; it acts "
        "with its member's role at most, never on a dashboard-only action.",
    },
    "session": {
        "type": "apiKey",
        "in": "cookie",
        "name": SESSION_COOKIE,
        "description": "A portal session (HTTP-only cookie, set when a member signs in to the portal).",
    },
    "csrfToken": {
        "type": "apiKey",
        "in": "header",
        "name": CSRF_HEADER,
        "description": "The session's CSRF token (`csrfToken` of `GET /admin/v1/me`), on a session's "
        "writes; a personal key sends none.",
    },
}


def _security(route: Route) -> Security:
    session: dict[str, list[str]] = {"session": []}
    if route.is_write:
        session["csrfToken"] = []
    return [{"personalKey": []}, session]


def _needs(route: Route) -> str:
    session = f"a portal session and its `{CSRF_HEADER}`" if route.is_write else "a portal session"
    return f"Needs a member's personal key or {session}{_allowed(action_of(route))}."


def _allowed(action: AnyAction | None) -> str:
    """Who may take a member route's ``action``, in words, for its description."""
    if action is None:
        return ""
    roles = roles_of(action)
    named = ", ".join(f"`{role.value}`" for role in Role if role in roles)
    if roles == frozenset(Role):
        named = "every role"
    if action in DASHBOARD_ONLY:
        named += "; dashboard-only: a personal key gets 403 `dashboard_only`"
    return f", allowed the operator action `{action.value}` ({named})"


MEMBER_CREDENTIAL = DocumentedCredential(
    kinds=frozenset({Auth.MEMBER}),
    surface=Surface.ADMIN,
    title="livecore admin API",
    description=_DESCRIPTION,
    schemes=_SCHEMES,
    security=_security,
    needs=_needs,
)
