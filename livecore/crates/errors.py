"""The crates' error codes, each with its status and meaning (docs/reference/errors.md), and the
exception a refusal of each raises, in the core and in the typed clients (:mod:`livecore.exceptions`)."""

from __future__ import annotations

from livecore.errors import Code
from livecore.exceptions import ConflictError

CRATE_MUST_BE_OPENED = Code(
    "crate_must_be_opened",
    409,
    "A crate grant is claimed only by opening it (`POST .../crates/{grantId}/open`).",
)
NOT_A_CRATE = Code("not_a_crate", 409, "Only a grant of kind `crate` can be opened.")


#: The codes the area adds to the table, in the reference's order (:attr:`livecore.area.Area.errors`).
CODES = (
    CRATE_MUST_BE_OPENED,
    NOT_A_CRATE,
)


__all__ = ["CrateMustBeOpenedError", "NotACrateError"]


class CrateMustBeOpenedError(ConflictError, code=CRATE_MUST_BE_OPENED):
    """409: a crate grant is claimed only by opening it (``grants.open_crate``)."""


class NotACrateError(ConflictError, code=NOT_A_CRATE):
    """409: only a grant of kind ``crate`` can be opened."""
