"""The players area's admin route (docs/operators.md#player-look-up): an operator mints a player's new
secret, shown once (how a player who lost it recovers)."""

from __future__ import annotations

import attrs

from livecore.api.admin import AreaAction, EnvQuery, game_admin_route
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.roles import Role

ROTATE_SECRET_ACTION = AreaAction("player.secret_rotate", frozenset({Role.GAME_ADMIN, Role.GAME_DEVELOPER}))


@attrs.frozen
class RotateSecretResponse:
    """The player's new secret, shown once: hand it to the player's client."""

    external_player_id: str
    player_secret: str


ROTATE_SECRET = game_admin_route(
    "admin.players.rotate_secret",
    "POST",
    "/players/{externalId}/rotate-secret",
    "Mint a new player secret (player.secret_rotated via admin_rotate); the old one stops working.",
    RotateSecretResponse,
    ROTATE_SECRET_ACTION,
    query=EnvQuery,
    errors=(PLAYER_NOT_FOUND,),
)

ROUTES = (ROTATE_SECRET,)
