"""The player tools' actions of a simulation, each its client method's builder
(:mod:`livecore.player_tools.calls`) run in memory (:mod:`livecore.simulation.calls`): the studio's backend
reading a player's profile, banning a player and lifting a ban, the debug flag and the export
(``sim.server.players``, which the client's resource shares with the players area's own actions,
:class:`livecore.players.simulation.ServerPlayers`). A merge and an erasure are not simulated: their
handlers are the server's (``livecore_server.player_tools.server``)."""

from __future__ import annotations

from livecore.player_tools.calls import PlayerToolsCalls
from livecore.players.simulation import ServerPlayers
from livecore.simulation.calls import server_method


class ServerPlayerTools(ServerPlayers, PlayerToolsCalls):
    """``sim.server.players``: the players area's actions and the player tools', as the client's
    ``server.players`` holds both (the player tools build on players)."""

    profile = server_method(PlayerToolsCalls._profile)
    ban = server_method(PlayerToolsCalls._ban)
    unban = server_method(PlayerToolsCalls._unban)
    flag_debug = server_method(PlayerToolsCalls._flag_debug)
    unflag_debug = server_method(PlayerToolsCalls._unflag_debug)
    export = server_method(PlayerToolsCalls._export)
