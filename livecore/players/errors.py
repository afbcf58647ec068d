"""The players' error codes, each with its status and meaning (docs/reference/errors.md), and the
exception a refusal of each raises, in the core and in the typed clients (:mod:`livecore.exceptions`)."""

from __future__ import annotations

from livecore.errors import Code
from livecore.exceptions import AuthenticationError, ConflictError, NotFoundError, PermissionDeniedError

PLAYER_NOT_FOUND = Code("player_not_found", 404, "No such player in the key's game and environment.")
PLAYER_SECRET_INVALID = Code(
    "player_secret_invalid",
    401,
    (
        "Wrong, missing or malformed `X-Player-Secret` on a player-scoped route (also for a player "
        "that does not exist)."
    ),
)
PLAYER_ALREADY_REGISTERED = Code(
    "player_already_registered", 409, "Register on a player that already has a secret."
)
PLAYER_BANNED = Code("player_banned", 403, "A banned player's register or player-scoped write.")


#: The codes the area adds to the table, in the reference's order (:attr:`livecore.area.Area.errors`).
CODES = (
    PLAYER_NOT_FOUND,
    PLAYER_SECRET_INVALID,
    PLAYER_ALREADY_REGISTERED,
    PLAYER_BANNED,
)


__all__ = [
    "PlayerAlreadyRegisteredError",
    "PlayerBannedError",
    "PlayerNotFoundError",
    "PlayerSecretInvalidError",
]


class PlayerNotFoundError(NotFoundError, code=PLAYER_NOT_FOUND):
    """404: no such player in this game and environment; ``details["externalPlayerId"]`` names it, and
    ``details["existsIn"]`` the game's other environment when the player is there."""


class PlayerSecretInvalidError(AuthenticationError, code=PLAYER_SECRET_INVALID):
    """401: wrong or missing player secret on a player-scoped route."""


class PlayerAlreadyRegisteredError(ConflictError, code=PLAYER_ALREADY_REGISTERED):
    """409: the player already has a secret; recover with the admin rotate-secret route."""


class PlayerBannedError(PermissionDeniedError, code=PLAYER_BANNED):
    """403: the player is banned; registration and player-scoped writes are refused."""
