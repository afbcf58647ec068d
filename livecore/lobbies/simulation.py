"""The lobby actions of a simulation, each its client method's builder (:mod:`livecore.lobbies.calls`)
run in memory (:mod:`livecore.simulation.calls`): the client key's read, which names no player
(:meth:`Simulation.lobby <livecore.simulation.player.Simulation.lobby>`), and the studio's lobbies
(``sim.server.lobbies``: a push of the players it matched, a read). Players are seated in lobbies by
starting an attempt of a lobby event (``player.live_events.start_attempt``)."""

from __future__ import annotations

from livecore.lobbies.calls import LobbiesCalls, ServerLobbiesCalls
from livecore.simulation.calls import ServerActions, server_method


class LobbyReads(ServerActions, LobbiesCalls):
    """The client key's lobby read, which names no player."""

    get = server_method(LobbiesCalls._get)


class ServerLobbies(ServerActions, ServerLobbiesCalls):
    """``sim.server.lobbies``: lobbies the studio forms. ``game_id`` is the played game's, ``sim.game.id``
    (the server key's own game, as the client's ``ping()`` tells it); another is refused as the server
    refuses it (:class:`~livecore.exceptions.NotFoundError`)."""

    push = server_method(ServerLobbiesCalls._push)
    get = server_method(ServerLobbiesCalls._get)
