"""The teams' error codes, each with its status and meaning (docs/reference/errors.md), and the
exception a refusal of each raises, in the core and in the typed clients (:mod:`livecore.exceptions`)."""

from __future__ import annotations

from typing import Annotated

from livecore.errors import Code
from livecore.exceptions import ConflictError, Detail, GoneError, NotFoundError

LOCKED_ELSEWHERE = Code(
    "locked_elsewhere",
    409,
    (
        "A roster player is already locked to another team of the window (`details.externalPlayerIds` "
        "names them); nothing changed."
    ),
)
TEAM_NOT_FOUND = Code("team_not_found", 404, "No team of that key in the event's window.")
ALREADY_ON_TEAM = Code(
    "already_on_team",
    409,
    (
        "A partner invite or its acceptance when either player is already on a team of the window (or "
        "the invite was accepted already)."
    ),
)
INVITE_PENDING = Code(
    "invite_pending", 409, "An invite between the two players, either way, is still pending."
)
INVITE_EXPIRED = Code(
    "invite_expired", 410, "The partner invite was not accepted within 24 hours of service time."
)
INVITE_NOT_FOUND = Code("invite_not_found", 404, "No such partner invite to the caller.")


#: The codes the area adds to the table, in the reference's order (:attr:`livecore.area.Area.errors`).
CODES = (
    LOCKED_ELSEWHERE,
    TEAM_NOT_FOUND,
    ALREADY_ON_TEAM,
    INVITE_PENDING,
    INVITE_EXPIRED,
    INVITE_NOT_FOUND,
)


__all__ = [
    "AlreadyOnTeamError",
    "InviteExpiredError",
    "InviteNotFoundError",
    "InvitePendingError",
    "LockedElsewhereError",
    "TeamNotFoundError",
]


class LockedElsewhereError(ConflictError, code=LOCKED_ELSEWHERE):
    """409: players of the roster sit on another team of the window; ``external_player_ids`` names them.
    Nothing changed."""

    external_player_ids: Annotated[list[str], Detail("externalPlayerIds")]


class TeamNotFoundError(NotFoundError, code=TEAM_NOT_FOUND):
    """404: no team of that key in the window read (by default the event's window open now)."""


class AlreadyOnTeamError(ConflictError, code=ALREADY_ON_TEAM):
    """409: the inviter or the invitee already sits on a team of the window (also: the invite was
    accepted already)."""


class InvitePendingError(ConflictError, code=INVITE_PENDING):
    """409: an invite between the two players (either way) is pending in this window."""


class InviteExpiredError(GoneError, code=INVITE_EXPIRED):
    """410: the partner invite passed its ``expires_at`` (24 hours after it was sent) unaccepted."""


class InviteNotFoundError(NotFoundError, code=INVITE_NOT_FOUND):
    """404: no partner invite of that id made to this player (an invite to another player included)."""
