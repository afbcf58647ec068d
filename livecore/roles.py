"""The roles of a studio's members (docs/operators.md#roles): what the manifest gives a member
(``[members.<key>]``), and what every admin route's action names as who may take it, the service's own
actions (:data:`livecore.operators.rules.ALLOWED`) and a studio's area's alike
(docs/extending.md#admin-routes). Who a member is, and how each action is admitted, is the operators area's
(:mod:`livecore.operators.rules`)."""

from __future__ import annotations

import enum
from typing import Any, Protocol


class Role(enum.StrEnum):
    OWNER = "OWNER"
    ADMIN = "ADMIN"
    GAME_ADMIN = "GAME_ADMIN"
    GAME_DEVELOPER = "GAME_DEVELOPER"
    GAME_DEBUGGER = "GAME_DEBUGGER"
    VIEWER = "VIEWER"


class Member(Protocol):
    """The member acting on an admin route as the shared server reads it: the credential it acts with,
    which the request's idempotency fingerprint names (a personal key's id, else the member's). Who the
    member is, and what it may do, is the operators area's (:class:`livecore.operators.rules.Operator`)."""

    @property
    def member_id(self) -> str: ...

    @property
    def key_id(self) -> str | None: ...

    def actor(self) -> dict[str, Any]:
        """Who acted, as its audit entry names it (docs/operators.md#the-audit-log)."""
        ...


class OperatorAction(Protocol):
    """An admin route's action as the shared core reads it (:attr:`livecore.api.route.Route.action`): its
    name in the audit log and the documents, and whether it writes. The operators' own actions and every
    other area's (:class:`livecore.api.admin.AreaAction`) are both, admitted by role
    (:mod:`livecore.operators.area_action`)."""

    @property
    def value(self) -> str: ...

    @property
    def is_write(self) -> bool: ...
