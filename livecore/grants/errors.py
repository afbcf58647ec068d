"""The grants' error codes, each with its status and meaning (docs/reference/errors.md), and the
exception a refusal of each raises, in the core and in the typed clients (:mod:`livecore.exceptions`)."""

from __future__ import annotations

from livecore.errors import Code
from livecore.exceptions import ConflictError, NotFoundError

GRANT_NOT_FOUND = Code("grant_not_found", 404, "No such grant of this player.")
GRANT_ALREADY_CLAIMED = Code("grant_already_claimed", 409, "The grant was claimed already.")
GRANT_EXPIRED = Code("grant_expired", 409, "The grant is past its `expiresAt`.")


#: The codes the area adds to the table, in the reference's order (:attr:`livecore.area.Area.errors`).
CODES = (
    GRANT_NOT_FOUND,
    GRANT_ALREADY_CLAIMED,
    GRANT_EXPIRED,
)


__all__ = ["GrantAlreadyClaimedError", "GrantExpiredError", "GrantNotFoundError"]


class GrantNotFoundError(NotFoundError, code=GRANT_NOT_FOUND):
    """404: no such grant for this player."""


class GrantAlreadyClaimedError(ConflictError, code=GRANT_ALREADY_CLAIMED):
    """409: the grant was already claimed (by the client, a server ack or an operator)."""


class GrantExpiredError(ConflictError, code=GRANT_EXPIRED):
    """409: the grant passed its ``expiresAt`` unclaimed."""
