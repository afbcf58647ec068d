"""Server lobby routes: the studio's push and a lobby's read (docs/lobbies.md)."""

from __future__ import annotations

from livecore.lobbies import api, commands
from livecore_server.http.endpoint import Binding, Call, Reply, bind


def push(call: Call[api.LobbyPushRequest, None], tx: commands.LobbiesTx) -> api.LobbyResponse | Reply:
    body = call.body
    pushed = commands.push(
        tx,
        call.rt,
        call.scope,
        call.params["gameId"],
        call.params["eventKey"],
        body.key,
        body.external_player_ids,
        capacity=body.capacity,
        fill_bots=body.fill_bots,
        metadata=body.metadata,
    )
    answer = api.LobbyResponse.of(commands.lobby_read(tx, pushed.lobby))
    return answer if pushed.created else Reply(answer, 200, replayed=True)


def read(call: Call[None, None], tx: commands.LobbiesTx) -> api.LobbyResponse:
    return api.LobbyResponse.of(
        commands.read_lobby(tx, call.scope, call.params["lobbyId"], call.params["gameId"])
    )


BINDINGS: list[Binding] = [bind(api.SERVER_PUSH, push), bind(api.SERVER_LOBBY, read)]
