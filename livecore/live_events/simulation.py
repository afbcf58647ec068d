"""The live-event actions of a simulation, each its client method's builder
(:mod:`livecore.live_events.calls`) run in memory (:mod:`livecore.simulation.calls`): a player's
(``ada.live_events``, as ``sdk.live_events`` without the external id: the events list and reporting
progress; starting an attempt is the lobbies' :class:`livecore.lobbies.simulation.LobbyStart` beside
these, since a lobby event's start may answer a forming lobby), the client key's board
read, which names no player (:meth:`Simulation.board <livecore.simulation.player.Simulation.board>`), and
the studio's test tool (``sim.server.live_events.end_now``)."""

from __future__ import annotations

from livecore.live_events.calls import LiveEventsCalls, ServerLiveEventsCalls
from livecore.simulation.calls import Actions, ServerActions, player_method, server_method


class LiveEvents(Actions, LiveEventsCalls):
    """``player.live_events``: the events, and the player's attempts in them."""

    list = player_method(LiveEventsCalls._list)
    report_progress = player_method(LiveEventsCalls._report_progress)


class BoardReads(ServerActions, LiveEventsCalls):
    """The client key's event board read, which names no player."""

    leaderboard = server_method(LiveEventsCalls._leaderboard)


class ServerLiveEvents(ServerActions, ServerLiveEventsCalls):
    """``sim.server.live_events``: the studio's test-environment tool on events."""

    end_now = server_method(ServerLiveEventsCalls._end_now)
