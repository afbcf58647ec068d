"""The player routes' handlers that run on a store transaction alone: a player setting its own display
identity and the studio's backend setting a player's. A registration reads the client's address, its
API key and the server's geo settings, so its handler is the server's (``livecore_server.players.sdk``).
docs/players.md."""

from __future__ import annotations

from livecore.api.admin import AdminRequest, Audited, EnvQuery, player_target
from livecore.api.request import Handler, Request
from livecore.api.route import Route
from livecore.players import admin, api
from livecore.players.actor import player_of
from livecore.players.commands import PlayersTx, get_player, rotate_secret, set_identity
from livecore.players.views import display_view


def set_own_identity(request: Request[api.SetIdentityRequest, None], tx: PlayersTx) -> api.IdentityResponse:
    body = request.body
    player = set_identity(
        tx, request.rt, player_of(request), name=body.name, avatar=body.avatar, by_player=True
    )
    return api.IdentityResponse(display_identity=display_view(player))


def set_player_identity(
    request: Request[api.SetIdentityRequest, None], tx: PlayersTx
) -> api.IdentityResponse:
    body = request.body
    player = get_player(tx, request.scope, request.external_id)
    player = set_identity(tx, request.rt, player, name=body.name, avatar=body.avatar, by_player=False)
    return api.IdentityResponse(display_identity=display_view(player))


def rotate(request: AdminRequest[None, EnvQuery], tx: PlayersTx) -> Audited[admin.RotateSecretResponse]:
    done = rotate_secret(tx, request.rt, request.scope, request.external_id)
    external_id = done.player.external_id
    return Audited(
        admin.RotateSecretResponse(external_player_id=external_id, player_secret=done.secret),
        player_target(external_id),
        # The prefix only: the secret is shown once, in this answer.
        metadata={"secretPrefix": done.player.secret_prefix},
    )


HANDLERS: dict[Route, Handler] = {
    api.SDK_SET_IDENTITY: set_own_identity,
    api.SERVER_SET_IDENTITY: set_player_identity,
    admin.ROTATE_SECRET: rotate,
}
