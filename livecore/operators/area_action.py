"""The operator action of an admin route a studio's area declares, and the route itself
(docs/extending.md#admin-routes).

An area's admin route is made by :func:`game_admin_route`. The service's own operator routes take the
actions of :class:`livecore.operators.rules.Action`, each with its roles (``ALLOWED``). A studio's area
names its own: an :class:`AreaAction` is its audit name and the roles that may take it besides owners and
admins (who may take every action). Either kind is admitted by :func:`authorize_action`, with the refusals
of :func:`livecore.operators.rules.authorize` in the same order, and every write of an area's action is
audited, in its transaction, by the server (:func:`livecore_server.audit.audited`).
"""

from __future__ import annotations

from typing import Any

import attrs

from livecore.api.route import Auth, Idempotency, Route, Surface
from livecore.errors import INVALID_API_KEY, NOT_FOUND, PERMISSION_DENIED, RATE_LIMITED, LivecoreError
from livecore.operators.errors import CSRF_INVALID
from livecore.operators.rules import ALLOWED, Action, Operator, authorize
from livecore.roles import Role

#: Who may take every action, a studio's areas' included.
_STUDIO_ADMINS = frozenset({Role.OWNER, Role.ADMIN})


def _not_the_services(action: AreaAction, _: attrs.Attribute[str], value: str) -> None:
    if value in {a.value for a in Action}:
        raise ValueError(f"area action {value}: the service's own action is named so")


@attrs.frozen
class AreaAction:
    """An action of a studio's area: ``value``, its audit name, prefixed with the area's name
    (``quests.reset_streak``); ``roles``, the roles that may take it besides owners and admins; ``write``,
    False for a read (every role reads; a read-only personal key too); ``target``, the path parameter that
    names the record it acts on, written as its audit entry's target (else the game's id, or the
    studio's)."""

    value: str = attrs.field(validator=_not_the_services)
    roles: frozenset[Role] = frozenset()
    write: bool = True
    target: str | None = None

    @property
    def is_write(self) -> bool:
        return self.write

    @property
    def allowed(self) -> frozenset[Role]:
        return frozenset(Role) if not self.write else _STUDIO_ADMINS | self.roles


#: What an admin route's ``action`` is: the service's own, or a studio's area's.
AnyAction = Action | AreaAction


def action_of(route: Route) -> AnyAction | None:
    """``route``'s action as the operators admit it: the shared route holds any
    :class:`livecore.roles.OperatorAction`, and only these two kinds are ever declared."""
    action = route.action
    if action is None or isinstance(action, Action | AreaAction):
        return action
    raise TypeError(f"{route.name}: its action {action!r} is neither the service's nor an area's")


def roles_of(action: AnyAction) -> frozenset[Role]:
    """The roles that may take ``action``."""
    return action.allowed if isinstance(action, AreaAction) else ALLOWED[action]


def permits(operator: Operator, action: AnyAction) -> bool:
    """Whether the operator may take ``action`` (a read-only key only reads; its role and its key's role
    both allow it): what a list of the operator's actions shows."""
    allowed = roles_of(action)
    return (
        not (operator.read_only and action.is_write)
        and operator.role in allowed
        and (operator.key_role is None or operator.key_role in allowed)
    )


def authorize_action(operator: Operator, studio_id: str, action: AnyAction) -> None:
    """:func:`livecore.operators.rules.authorize` for either kind of action; an area's action is never
    dashboard-only."""
    if isinstance(action, Action):
        authorize(operator, studio_id, action)
        return
    if operator.studio_id != studio_id:
        raise LivecoreError(PERMISSION_DENIED, "This credential belongs to another studio.")
    if operator.read_only and action.is_write:
        raise LivecoreError(PERMISSION_DENIED, "This personal key is read-only.")
    if not permits(operator, action):
        raise LivecoreError(
            PERMISSION_DENIED,
            f"The role {(operator.key_role or operator.role).value} may not take {action.value}.",
            {"action": action.value},
        )


__all__ = ["AnyAction", "AreaAction", "authorize_action", "permits", "roles_of"]


#: Where every game-scoped admin route lives, below the admin surface.
GAME_ADMIN_PATH = "/studios/{studio}/games/{game}"
#: What an admin route can fail with before its handler runs: the credential, its rate limit, its CSRF
#: token on a session's write, the studio and game of its path, the action's roles.
ADMIN_READ_ERRORS = (INVALID_API_KEY, PERMISSION_DENIED, RATE_LIMITED, NOT_FOUND)
ADMIN_WRITE_ERRORS = (*ADMIN_READ_ERRORS, CSRF_INVALID)


def game_admin_route(
    name: str, method: str, path: str, summary: str, response: Any, action: AreaAction, **kw: Any
) -> Route:
    """An admin route of a studio's area (``path`` under :data:`GAME_ADMIN_PATH`): a member allowed
    ``action`` (docs/extending.md#admin-routes); a write takes an optional ``Idempotency-Key``, and the
    server audits it."""
    write = method != "GET"
    if write != action.is_write:
        raise ValueError(f"{name}: a {method} route takes a {'write' if write else 'read'} action")
    errors = (*(ADMIN_WRITE_ERRORS if write else ADMIN_READ_ERRORS), *kw.pop("errors", ()))
    return Route(
        name=name,
        surface=Surface.ADMIN,
        method=method,
        path=f"{GAME_ADMIN_PATH}{path}",
        summary=summary,
        auth=Auth.MEMBER,
        response=response,
        action=action,
        idempotency=Idempotency.OPTIONAL if write else Idempotency.NONE,
        errors=errors,
        **kw,
    )
