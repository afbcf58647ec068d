"""The lobby actions of a simulation, each its client method's builder (:mod:`livecore.lobbies.calls`)
run in memory (:mod:`livecore.simulation.calls`): the client key's read, which names no player
(:meth:`Simulation.lobby <livecore.simulation.player.Simulation.lobby>`), and the studio's lobbies
(``sim.server.lobbies``: a push of the players it matched, a read). Players are seated in lobbies by
starting an attempt of a lobby event: ``player.live_events.start_attempt``, this area's part of the
events' actions (:class:`LobbyStart`), which the simulated player composes with the events' own."""

from __future__ import annotations

from livecore.lobbies.calls import LobbiesCalls, ServerLobbiesCalls, StartingCalls
from livecore.simulation.calls import Actions, ServerActions, player_method, server_method


class LobbyStart(Actions, StartingCalls):
    """The lobbies' part of ``player.live_events``: the start, which seats the player in a lobby first on
    a lobby event (a :class:`~livecore.lobbies.forming.LobbyForming` while it forms)."""

    start_attempt = player_method(StartingCalls._start_attempt)


class LobbyReads(ServerActions, LobbiesCalls):
    """The client key's lobby read, which names no player."""

    get = server_method(LobbiesCalls._get)


class ServerLobbies(ServerActions, ServerLobbiesCalls):
    """``sim.server.lobbies``: lobbies the studio forms. ``game_id`` is the played game's, ``sim.game.id``
    (the server key's own game, as the client's ``ping()`` tells it); another is refused as the server
    refuses it (:class:`~livecore.exceptions.NotFoundError`)."""

    push = server_method(ServerLobbiesCalls._push)
    get = server_method(ServerLobbiesCalls._get)
