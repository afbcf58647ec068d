"""The guilds' error codes, each with its status and meaning (docs/reference/errors.md), and the
exception a refusal of each raises, in the core and in the typed clients (:mod:`livecore.exceptions`)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from livecore.errors import Code
from livecore.exceptions import (
    ConflictError,
    Detail,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
)

GUILDS_DISABLED = Code("guilds_disabled", 403, "The game's guilds are off (`guilds.enabled = false`).")
GUILD_NOT_FOUND = Code("guild_not_found", 404, "No such guild in the key's game and environment.")
GUILD_DISBANDED = Code(
    "guild_disbanded", 409, "The guild is disbanded: readable, but nobody joins it and nothing changes it."
)
ALREADY_IN_GUILD = Code("already_in_guild", 409, "The player is already a member of a guild.")
GUILD_FULL = Code("guild_full", 409, "The guild has `max_members` members.")
GUILD_NAME_TAKEN = Code(
    "guild_name_taken",
    409,
    (
        "Another guild of the game and environment that is not disbanded has that name, compared by "
        "fold (NFKC, case folding, white space runs as one space, trimmed)."
    ),
)
GUILD_NAME_REJECTED = Code(
    "guild_name_rejected",
    400,
    "A player-chosen guild name contains an entry of the game's `name_filter`, compared by fold.",
)
GUILD_PERMISSION_DENIED = Code(
    "guild_permission_denied", 403, "The caller's guild role is too low for the operation."
)
GUILD_MEMBER_NOT_FOUND = Code("guild_member_not_found", 404, "The named player is not a member of the guild.")
NOT_IN_GUILD = Code(
    "not_in_guild", 404, "A route of the caller's own guild (`{G}`) for a player in no guild."
)
JOIN_REQUEST_PENDING = Code(
    "join_request_pending", 409, "The player has a pending join request to that guild already."
)
JOIN_REQUEST_NOT_FOUND = Code(
    "join_request_not_found", 404, "No pending join request of that id (or of the caller to that guild)."
)
HELP_REQUEST_OPEN = Code("help_request_open", 409, "The player has an open help request already.")
HELP_COOLDOWN = Code(
    "help_cooldown",
    409,
    "The player asked this guild for help less than `cooldown_seconds` ago (`details.retryAt`).",
)
HELP_REQUEST_NOT_FOUND = Code(
    "help_request_not_found", 404, "No help request of that id in the caller's guild."
)
HELP_REQUEST_CLOSED = Code("help_request_closed", 409, "The help request is filled, expired or closed.")


#: The codes the area adds to the table, in the reference's order (:attr:`livecore.area.Area.errors`).
CODES = (
    GUILDS_DISABLED,
    GUILD_NOT_FOUND,
    GUILD_DISBANDED,
    ALREADY_IN_GUILD,
    GUILD_FULL,
    GUILD_NAME_TAKEN,
    GUILD_NAME_REJECTED,
    GUILD_PERMISSION_DENIED,
    GUILD_MEMBER_NOT_FOUND,
    NOT_IN_GUILD,
    JOIN_REQUEST_PENDING,
    JOIN_REQUEST_NOT_FOUND,
    HELP_REQUEST_OPEN,
    HELP_COOLDOWN,
    HELP_REQUEST_NOT_FOUND,
    HELP_REQUEST_CLOSED,
)


__all__ = [
    "AlreadyInGuildError",
    "GuildDisbandedError",
    "GuildFullError",
    "GuildMemberNotFoundError",
    "GuildNameRejectedError",
    "GuildNameTakenError",
    "GuildNotFoundError",
    "GuildPermissionDeniedError",
    "GuildsDisabledError",
    "HelpCooldownError",
    "HelpRequestClosedError",
    "HelpRequestNotFoundError",
    "HelpRequestOpenError",
    "JoinRequestNotFoundError",
    "JoinRequestPendingError",
    "NotInGuildError",
]


class GuildsDisabledError(PermissionDeniedError, code=GUILDS_DISABLED):
    """403: the game's guilds are off (``guilds.enabled = false``): every guild route answers this."""


class GuildNotFoundError(NotFoundError, code=GUILD_NOT_FOUND):
    """404: no guild of that id in the key's game and environment (a malformed id included)."""


class GuildDisbandedError(ConflictError, code=GUILD_DISBANDED):
    """409: the guild is disbanded: it stays readable, but nobody joins it and the studio changes
    nothing of it."""


class AlreadyInGuildError(ConflictError, code=ALREADY_IN_GUILD):
    """409: the player (the founder, the joiner, or the requester being accepted) is a member of a guild
    already."""


class GuildFullError(ConflictError, code=GUILD_FULL):
    """409: the guild has the game's ``max_members`` members (``details["maxMembers"]``)."""


class GuildNameTakenError(ConflictError, code=GUILD_NAME_TAKEN):
    """409: another guild of the game and environment that is not disbanded has that name, compared by
    fold (NFKC, case folding, white space runs as one space, trimmed)."""


class GuildNameRejectedError(InvalidRequestError, code=GUILD_NAME_REJECTED):
    """400: a player-chosen guild name contains an entry of the game's ``name_filter`` (compared by
    fold: NFKC, case folding, white space runs as one space);
    ``details["name"]`` is the name refused. The studio's edit skips the filter."""


class GuildPermissionDeniedError(PermissionDeniedError, code=GUILD_PERMISSION_DENIED):
    """403: the caller's guild role may not do this (a member editing the profile, a co-leader kicking a
    co-leader or promoting, ...); ``role`` is the caller's role (``None`` if the service did not say)."""

    role: Annotated[str | None, Detail("role")]


class GuildMemberNotFoundError(NotFoundError, code=GUILD_MEMBER_NOT_FOUND):
    """404: the named player is not a member of the guild (``details["externalPlayerId"]``)."""


class NotInGuildError(NotFoundError, code=NOT_IN_GUILD):
    """404: a route of the caller's own guild for a player in no guild."""


class JoinRequestPendingError(ConflictError, code=JOIN_REQUEST_PENDING):
    """409: the player's join request to that guild is pending already (cancel it to ask again)."""


class JoinRequestNotFoundError(NotFoundError, code=JOIN_REQUEST_NOT_FOUND):
    """404: no pending join request of that id to the caller's guild (answered, cancelled, or to another
    guild included), or, cancelling, none of the caller's pending to that guild."""


class HelpRequestOpenError(ConflictError, code=HELP_REQUEST_OPEN):
    """409: the player's own help request is open still; ``request_id`` is its id (``None`` if the service
    did not say)."""

    request_id: Annotated[str | None, Detail("requestId")]


class HelpCooldownError(ConflictError, code=HELP_COOLDOWN):
    """409: the player asked this guild for help less than the game's ``help.cooldown_seconds`` ago;
    ``retry_at`` is when it may ask again (``None`` if the service did not say)."""

    retry_at: Annotated[datetime | None, Detail("retryAt")]


class HelpRequestNotFoundError(NotFoundError, code=HELP_REQUEST_NOT_FOUND):
    """404: no help request of that id in the caller's guild."""


class HelpRequestClosedError(ConflictError, code=HELP_REQUEST_CLOSED):
    """409: the help request is not open: filled, expired or closed (``details["status"]``), whatever the
    amount offered."""
