"""Client lobby route: a lobby's read (docs/lobbies.md#reading-a-lobby)."""

from __future__ import annotations

from livecore.lobbies import api, commands
from livecore_server.http.endpoint import Binding, Call, bind


def read(call: Call[None, None], tx: commands.LobbiesTx) -> api.LobbyResponse:
    return api.LobbyResponse.of(commands.read_lobby(tx, call.scope, call.params["lobbyId"]))


BINDINGS: list[Binding] = [bind(api.SDK_LOBBY, read)]
