"""The player actions of a simulation, each its client method's builder (:mod:`livecore.players.calls`)
run in memory (:mod:`livecore.simulation.calls`): a player setting its own display identity
(``ada.players``, as ``sdk.players`` without the external id; its registration is the handle's making,
:class:`~livecore.simulation.player.SimPlayer`) and the studio's backend setting a player's identity
(``sim.server.players``, beside which the simulation puts the player tools' actions,
:mod:`livecore.player_tools.simulation`)."""

from __future__ import annotations

from livecore.players.calls import PlayersCalls, ServerPlayersCalls
from livecore.simulation.calls import Actions, ServerActions, player_method, server_method


class Players(Actions, PlayersCalls):
    """``player.players``: the player's own record."""

    set_identity = player_method(PlayersCalls._set_identity)


class ServerPlayers(ServerActions, ServerPlayersCalls):
    """``sim.server.players``: the studio's backend on any player."""

    set_identity = server_method(ServerPlayersCalls._set_identity)
