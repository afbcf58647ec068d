"""How an admin route's action is admitted (docs/operators.md#roles-and-actions). The operators' own routes
take the actions of :class:`livecore.operators.rules.Action`, each with its roles (``ALLOWED``); every
other area's route names an :class:`livecore.api.admin.AreaAction`: its audit name and the roles that may
take it besides owners and admins (who may take every action). Either kind is admitted by
:func:`authorize_action`, with the refusals of :func:`livecore.operators.rules.authorize` in the same order.
"""

from __future__ import annotations

from collections.abc import Iterable

from livecore.api.admin import AreaAction
from livecore.api.route import Route
from livecore.errors import PERMISSION_DENIED, LivecoreError
from livecore.operators.rules import ALLOWED, Action, Operator, authorize
from livecore.roles import Role

#: What an admin route's ``action`` is: the operators' own, or another area's.
AnyAction = Action | AreaAction


def action_of(route: Route) -> AnyAction | None:
    """``route``'s action as the operators admit it: the shared route holds any
    :class:`livecore.roles.OperatorAction`, and only these two kinds are ever declared."""
    action = route.action
    if action is None or isinstance(action, Action | AreaAction):
        return action
    raise TypeError(f"{route.name}: its action {action!r} is neither the operators' nor an area's")


def actions_of(routes: Iterable[Route]) -> dict[str, AnyAction]:
    """The actions of ``routes`` (those of the areas served), by name."""
    return {action.value: action for route in routes if (action := action_of(route)) is not None}


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


__all__ = ["AnyAction", "action_of", "actions_of", "authorize_action", "permits", "roles_of"]
