"""The lobbies' error codes, each with its status and meaning (docs/reference/errors.md), and the
exception a refusal of each raises, in the core and in the typed clients (:mod:`livecore.exceptions`)."""

from __future__ import annotations

from livecore.errors import Code
from livecore.exceptions import NotFoundError

LOBBY_NOT_FOUND = Code("lobby_not_found", 404, "No such lobby in the key's game and environment.")


#: The codes the area adds to the table, in the reference's order (:attr:`livecore.area.Area.errors`).
CODES = (LOBBY_NOT_FOUND,)


__all__ = ["LobbyNotFoundError"]


class LobbyNotFoundError(NotFoundError, code=LOBBY_NOT_FOUND):
    """404: no lobby of that id in the key's game and environment."""
