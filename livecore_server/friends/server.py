"""Server reads of a player's friend graph (docs/reference/friends-and-presence.md)."""

from __future__ import annotations

from livecore.friends import api
from livecore.friends.views import ViewsTx
from livecore.players.commands import get_player
from livecore_server.friends.sdk import blocks_view, friends_view, requests_view
from livecore_server.http.endpoint import Binding, Call, bind


def friends(call: Call[None, None], tx: ViewsTx) -> api.FriendsResponse:
    return friends_view(call, tx, get_player(tx, call.scope, call.external_id), None)


def requests(call: Call[None, None], tx: ViewsTx) -> api.RequestsResponse:
    return requests_view(call, tx, get_player(tx, call.scope, call.external_id), None)


def blocks(call: Call[None, None], tx: ViewsTx) -> api.BlocksResponse:
    return blocks_view(tx, get_player(tx, call.scope, call.external_id))


BINDINGS: list[Binding] = [
    bind(api.SERVER_FRIENDS, friends),
    bind(api.SERVER_FRIEND_REQUESTS, requests),
    bind(api.SERVER_BLOCKS, blocks),
]
