"""Server player routes."""

from __future__ import annotations

from livecore.api import models as m
from livecore.api import routes
from livecore.commands.players import get_player, set_identity
from livecore_server.http.endpoint import Binding, Call, bind
from livecore_server.storage.server_store import ServerTransaction


def set_player_identity(call: Call, tx: ServerTransaction) -> m.IdentityResponse:
    body: m.SetIdentityRequest = call.body
    player = get_player(tx, call.scope, call.external_id)
    player = set_identity(tx, call.rt, player, name=body.name, avatar=body.avatar, by_player=False)
    return m.IdentityResponse(display_identity=m.display_view(player))


BINDINGS: list[Binding] = [bind(routes.SERVER_SET_IDENTITY, set_player_identity)]
