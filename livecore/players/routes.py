"""A route of one player (``/sdk/v1/players/{externalId}/...``), as every area that serves a player's own
calls declares it: the player's secret is its credential (:data:`livecore.api.auth.AUTHENTICATION`), and
it answers the players area's refusals before its own."""

from __future__ import annotations

from typing import Any

from livecore.api.route import Auth, Idempotency, Route, Surface
from livecore.players.errors import PLAYER_BANNED, PLAYER_NOT_FOUND, PLAYER_SECRET_INVALID

#: Where every player-scoped route lives.
PLAYER_PATH = "/players/{externalId}"
#: What a player-scoped client read and write can fail with.
PLAYER_READ_ERRORS = (PLAYER_SECRET_INVALID, PLAYER_NOT_FOUND)
PLAYER_WRITE_ERRORS = (PLAYER_SECRET_INVALID, PLAYER_BANNED, PLAYER_NOT_FOUND)


def player_route(name: str, method: str, path: str, summary: str, response: Any, **kw: Any) -> Route:
    """A client route of one player (``path`` under :data:`PLAYER_PATH`), taking the player's secret."""
    write = method != "GET"
    return Route(
        name=name,
        surface=Surface.SDK,
        method=method,
        path=f"{PLAYER_PATH}{path}",
        summary=summary,
        auth=Auth.PLAYER,
        response=response,
        idempotency=kw.pop("idempotency", Idempotency.OPTIONAL if write else Idempotency.NONE),
        errors=kw.pop("errors", PLAYER_WRITE_ERRORS if write else PLAYER_READ_ERRORS),
        **kw,
    )
