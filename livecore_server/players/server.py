"""Server player routes."""

from __future__ import annotations

from livecore.api.views import display_view
from livecore.players import api
from livecore.players.commands import PlayersTx, get_player, set_identity
from livecore_server.http.endpoint import Binding, Call, bind


def set_player_identity(call: Call[api.SetIdentityRequest, None], tx: PlayersTx) -> api.IdentityResponse:
    player = get_player(tx, call.scope, call.external_id)
    player = set_identity(tx, call.rt, player, name=call.body.name, avatar=call.body.avatar, by_player=False)
    return api.IdentityResponse(display_identity=display_view(player))


BINDINGS: list[Binding] = [bind(api.SERVER_SET_IDENTITY, set_player_identity)]
