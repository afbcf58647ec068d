"""The roles of a studio's members (docs/operators.md#roles): what the manifest gives a member
(``[members.<key>]``), and what every admin route's action names as who may take it, the service's own
actions (:data:`livecore.operators.rules.ALLOWED`) and a studio's area's alike
(docs/extending.md#admin-routes). Who a member is, and how each action is admitted, is the operators area's
(:mod:`livecore.operators.rules`)."""

from __future__ import annotations

import enum


class Role(enum.StrEnum):
    OWNER = "OWNER"
    ADMIN = "ADMIN"
    GAME_ADMIN = "GAME_ADMIN"
    GAME_DEVELOPER = "GAME_DEVELOPER"
    GAME_DEBUGGER = "GAME_DEBUGGER"
    VIEWER = "VIEWER"
