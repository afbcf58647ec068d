"""The player tools' actions of a simulation, each its client method's builder
(:mod:`livecore.player_tools.calls`) run in memory (:mod:`livecore.simulation.calls`): the studio's backend
reading a player's profile, banning a player and lifting a ban, the debug flag and the export
(``sim.server.players``, which the simulation composes of the players area's own actions,
:class:`livecore.players.simulation.ServerPlayers`, and these, as the client composes
``server.players``). A merge and an erasure are not simulated: their handlers are the server's
(``livecore_server.player_tools.server``)."""

from __future__ import annotations

from livecore.player_tools.calls import PlayerToolsCalls
from livecore.simulation.calls import ServerActions, server_method


class ServerPlayerTools(ServerActions, PlayerToolsCalls):
    """The player tools' part of ``sim.server.players``."""

    profile = server_method(PlayerToolsCalls._profile)
    ban = server_method(PlayerToolsCalls._ban)
    unban = server_method(PlayerToolsCalls._unban)
    flag_debug = server_method(PlayerToolsCalls._flag_debug)
    unflag_debug = server_method(PlayerToolsCalls._unflag_debug)
    export = server_method(PlayerToolsCalls._export)
