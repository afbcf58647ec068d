"""The lobby routes' handlers: a lobby's read (the client key's) and the studio's push and read
(docs/lobbies.md)."""

from __future__ import annotations

from livecore.api.request import Handler, Reply, Request
from livecore.api.route import Route
from livecore.lobbies import api, commands


def read(request: Request[None, None], tx: commands.LobbiesTx) -> api.LobbyResponse:
    return api.LobbyResponse.of(commands.read_lobby(tx, request.scope, request.params["lobbyId"]))


def server_read(request: Request[None, None], tx: commands.LobbiesTx) -> api.LobbyResponse:
    return api.LobbyResponse.of(
        commands.read_lobby(tx, request.scope, request.params["lobbyId"], request.params["gameId"])
    )


def push(request: Request[api.LobbyPushRequest, None], tx: commands.LobbiesTx) -> api.LobbyResponse | Reply:
    body = request.body
    pushed = commands.push(
        tx,
        request.rt,
        request.scope,
        request.params["gameId"],
        request.params["eventKey"],
        body.key,
        body.external_player_ids,
        capacity=body.capacity,
        fill_bots=body.fill_bots,
        metadata=body.metadata,
    )
    answer = api.LobbyResponse.of(commands.lobby_read(tx, pushed.lobby))
    return answer if pushed.created else Reply(answer, 200, replayed=True)


HANDLERS: dict[Route, Handler] = {
    api.SDK_LOBBY: read,
    api.SERVER_LOBBY: server_read,
    api.SERVER_PUSH: push,
}
