"""Server reads of a player's friend graph (SPEC 4.3)."""

from __future__ import annotations

from livecore.api import models as m
from livecore.api import routes
from livecore.commands.players import get_player
from livecore_server.http.endpoint import Binding, Call, bind
from livecore_server.sdk.friends import blocks_view, friends_view, requests_view
from livecore_server.storage.server_store import ServerTransaction


def friends(call: Call, tx: ServerTransaction) -> m.FriendsResponse:
    return friends_view(call, tx, get_player(tx, call.scope, call.external_id), None)


def requests(call: Call, tx: ServerTransaction) -> m.RequestsResponse:
    return requests_view(call, tx, get_player(tx, call.scope, call.external_id), None)


def blocks(call: Call, tx: ServerTransaction) -> m.BlocksResponse:
    return blocks_view(tx, get_player(tx, call.scope, call.external_id))


BINDINGS: list[Binding] = [
    bind(routes.SERVER_FRIENDS, friends),
    bind(routes.SERVER_FRIEND_REQUESTS, requests),
    bind(routes.SERVER_BLOCKS, blocks),
]
