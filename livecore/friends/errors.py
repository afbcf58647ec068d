"""The friends' error codes, each with its status and meaning (docs/reference/errors.md), and the
exception a refusal of each raises, in the core and in the typed clients (:mod:`livecore.exceptions`)."""

from __future__ import annotations

from livecore.errors import Code
from livecore.exceptions import ConflictError, InvalidRequestError, NotFoundError, PermissionDeniedError

CANNOT_FRIEND_SELF = Code(
    "cannot_friend_self", 400, "A player named itself as the other side of a friends operation."
)
ALREADY_FRIENDS = Code("already_friends", 409, "The target is already a friend.")
FRIEND_CODE_INVALID = Code("friend_code_invalid", 404, "No player has that friend code.")
PLAYER_BLOCKED = Code("player_blocked", 403, "A block exists between the two players, either way.")
FRIEND_LIMIT_REACHED = Code(
    "friend_limit_reached", 409, "Either player already has the game's maximum number of friends."
)
FRIEND_REQUEST_NOT_FOUND = Code(
    "friend_request_not_found", 404, "No such request, or the caller is not the side that may act on it."
)
NOT_FRIENDS_YET = Code("not_friends_yet", 404, "Remove a player who is not a friend.")
NOT_BLOCKED = Code("not_blocked", 404, "Unblock a player the caller has not blocked.")

NOT_FRIENDS = Code("not_friends", 403, "The gift's target is not an accepted friend.")

#: The codes the area adds to the table, in the reference's order (:attr:`livecore.area.Area.errors`).
CODES = (
    CANNOT_FRIEND_SELF,
    ALREADY_FRIENDS,
    FRIEND_CODE_INVALID,
    PLAYER_BLOCKED,
    FRIEND_LIMIT_REACHED,
    FRIEND_REQUEST_NOT_FOUND,
    NOT_FRIENDS_YET,
    NOT_BLOCKED,
    NOT_FRIENDS,
)


__all__ = [
    "AlreadyFriendsError",
    "CannotFriendSelfError",
    "FriendCodeInvalidError",
    "FriendLimitReachedError",
    "FriendRequestNotFoundError",
    "NotBlockedError",
    "NotFriendsError",
    "PlayerBlockedError",
]


class CannotFriendSelfError(InvalidRequestError, code=CANNOT_FRIEND_SELF):
    """400: a player tried to befriend, request, block or unblock themself."""


class AlreadyFriendsError(ConflictError, code=ALREADY_FRIENDS):
    """409: the two players are already friends."""


class FriendCodeInvalidError(NotFoundError, code=FRIEND_CODE_INVALID):
    """404: no player of this game and environment has that friend code."""


class PlayerBlockedError(PermissionDeniedError, code=PLAYER_BLOCKED):
    """403: a block stands between the two players (either way), so neither can add the other."""


class FriendLimitReachedError(ConflictError, code=FRIEND_LIMIT_REACHED):
    """409: either player is at the game's ``max_friends`` (checked on send and again on accept)."""


class FriendRequestNotFoundError(NotFoundError, code=FRIEND_REQUEST_NOT_FOUND):
    """404: no such pending request for this player: unknown, already answered, or not theirs to
    accept or decline (incoming) or cancel (outgoing)."""


class NotFriendsError(NotFoundError, code=NOT_FRIENDS_YET):
    """404 ``not_friends_yet``: removing a player who is not a friend. (The gift refusal ``not_friends``,
    403, is a different code: :class:`GiftNotFriendsError`.)"""


class NotBlockedError(NotFoundError, code=NOT_BLOCKED):
    """404: unblocking a player this player has not blocked."""
