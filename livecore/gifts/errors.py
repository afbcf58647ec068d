"""The gifts' error codes, each with its status and meaning (docs/reference/errors.md), and the
exception a refusal of each raises, in the core and in the typed clients (:mod:`livecore.exceptions`)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from livecore.errors import Code
from livecore.exceptions import (
    ConflictError,
    Detail,
    GoneError,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
)
from livecore.friends.errors import NOT_FRIENDS

GIFTING_DISABLED = Code(
    "gifting_disabled", 403, "The game has gifting turned off (the server history: never turned on)."
)
GIFT_NOT_ALLOWED = Code(
    "gift_not_allowed", 403, "The resource is not giftable, or it costs the sender in a studio-managed game."
)
GIFT_AMOUNT_INVALID = Code(
    "gift_amount_invalid", 400, "The amount is below 1 or above the resource's cap per gift."
)
GIFT_COOLDOWN = Code(
    "gift_cooldown", 409, "Too soon to gift this friend again; `details.cooldownUntil` says when."
)
GIFT_LIMIT_REACHED = Code(
    "gift_limit_reached", 409, "The sender reached the game's daily send limit; `details.resetsAt`."
)
GIFT_INSUFFICIENT_BALANCE = Code(
    "gift_insufficient_balance", 409, "The gift costs the sender, who holds too little."
)
GIFT_EXPIRED = Code("gift_expired", 410, "The gift was not claimed before it expired.")
GIFT_NOT_FOUND = Code("gift_not_found", 404, "No such gift among those the caller received.")
GIFT_ALREADY_CLAIMED = Code(
    "gift_already_claimed", 409, "The gift (or the grant delivering it) was claimed already."
)


#: The codes the area adds to the table, in the reference's order (:attr:`livecore.area.Area.errors`).
CODES = (
    GIFTING_DISABLED,
    GIFT_NOT_ALLOWED,
    GIFT_AMOUNT_INVALID,
    GIFT_COOLDOWN,
    GIFT_LIMIT_REACHED,
    GIFT_INSUFFICIENT_BALANCE,
    GIFT_EXPIRED,
    GIFT_NOT_FOUND,
    GIFT_ALREADY_CLAIMED,
)


__all__ = [
    "GiftAlreadyClaimedError",
    "GiftAmountInvalidError",
    "GiftCooldownError",
    "GiftExpiredError",
    "GiftInsufficientBalanceError",
    "GiftLimitReachedError",
    "GiftNotAllowedError",
    "GiftNotFoundError",
    "GiftNotFriendsError",
    "GiftingDisabledError",
]


class GiftingDisabledError(PermissionDeniedError, code=GIFTING_DISABLED):
    """403: the game has not enabled gifting (on the server gift history: has never enabled it)."""


class GiftNotFriendsError(PermissionDeniedError, code=NOT_FRIENDS):
    """403 ``not_friends``: a gift to a player who is not an accepted friend (a stranger, a pending
    request, a block, or the sender themself), and a partner invite to a player who is not a friend.
    Not :class:`NotFriendsError`, which is the 404 ``not_friends_yet`` of removing a friend."""


class GiftNotAllowedError(PermissionDeniedError, code=GIFT_NOT_ALLOWED):
    """403: the resource is not giftable in this game (not on the allowlist, or it costs the sender in a
    studio-managed game); the gift catalog lists what is."""


class GiftAmountInvalidError(InvalidRequestError, code=GIFT_AMOUNT_INVALID):
    """400: a gift amount below 1 or above the resource's ``maxAmount`` (see the gift catalog);
    ``details`` carries ``amount`` and ``maxAmount``."""


class GiftCooldownError(ConflictError, code=GIFT_COOLDOWN):
    """409: the sender gifted this friend less than the game's cooldown ago. ``cooldown_until`` is when
    they may gift this friend again (``None`` if the service did not say); the friends list shows the
    same time as ``gift_cooldown_until``."""

    cooldown_until: Annotated[datetime | None, Detail("cooldownUntil")]


class GiftLimitReachedError(ConflictError, code=GIFT_LIMIT_REACHED):
    """409: the sender already sent the game's daily number of gifts (the UTC day)."""


class GiftInsufficientBalanceError(ConflictError, code=GIFT_INSUFFICIENT_BALANCE):
    """409: the gift costs the sender and their balance is lower than the amount; nothing was taken.
    ``details`` carries ``resource``, ``needed`` and ``have``."""


class GiftExpiredError(GoneError, code=GIFT_EXPIRED):
    """410: the gift passed its ``expires_at`` unclaimed and can no longer be claimed."""


class GiftNotFoundError(NotFoundError, code=GIFT_NOT_FOUND):
    """404: no such gift received by this player (its sender cannot claim it either)."""


class GiftAlreadyClaimedError(ConflictError, code=GIFT_ALREADY_CLAIMED):
    """409: the gift was already claimed (through the gift, or through its delivering grant)."""
