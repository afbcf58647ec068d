"""The player tools' error codes, each with its status and meaning (docs/reference/errors.md), and the
exception a refusal of each raises, in the core and in the typed clients (:mod:`livecore.exceptions`)."""

from __future__ import annotations

from livecore.errors import Code
from livecore.exceptions import UnprocessableEntityError

INVALID_MERGE = Code(
    "invalid_merge",
    422,
    (
        "The merge is not possible: the same player twice, or a banned, merged or erased target, or a "
        "source merged elsewhere or erased."
    ),
)


#: The codes the area adds to the table, in the reference's order (:attr:`livecore.area.Area.errors`).
CODES = (INVALID_MERGE,)


__all__ = ["InvalidMergeError"]


class InvalidMergeError(UnprocessableEntityError, code=INVALID_MERGE):
    """422: the merge is not allowed: the same player twice, a source already merged into another
    player or erased, or a target that is banned, merged or erased. Nothing moved."""
