"""The live-event actions of a simulation, each its client method's builder
(:mod:`livecore.live_events.calls`) run in memory (:mod:`livecore.simulation.calls`): a player's
(``ada.live_events``, as ``sdk.live_events`` without the external id: the events list, starting an
attempt, seated in a lobby first on a lobby event, and reporting its progress), the client key's board
read, which names no player (:meth:`Simulation.board <livecore.simulation.player.Simulation.board>`), and
the studio's test tool (``sim.server.live_events.end_now``)."""

from __future__ import annotations

from typing import Any

from livecore.live_events import api
from livecore.live_events.calls import LiveEventsCalls, ServerLiveEventsCalls
from livecore.live_events.commands import live_events as commands
from livecore.live_events.commands.steps import Held, HeldStart
from livecore.players.rules import Player
from livecore.simulation.actions import body
from livecore.simulation.calls import Actions, ServerActions, player_method, server_method


class LiveEvents(Actions, LiveEventsCalls):
    """``player.live_events``: the events, and the player's attempts in them."""

    list = player_method(LiveEventsCalls._list)
    report_progress = player_method(LiveEventsCalls._report_progress)

    def start_attempt(
        self, event_key: str, *, player_context: dict[str, Any] | None = None
    ) -> api.AttemptResponse | HeldStart:
        """Start an attempt in the event's open window, paying its entry cost. An area may hold the start
        back: on a lobby event the player is seated first, and while its lobby forms the answer is the
        lobbies' ``LobbyForming`` (a :class:`HeldStart`) and nothing is paid; start again once the lobby
        is active."""
        # Written here, not run through a builder: the start's builder is the client's, since its 202
        # answer reads into the lobbies' model, of an area built on this one (livecore.live_events.calls).
        sim = self._player.sim
        asked = body(api.StartAttemptRequest, player_context=player_context)

        def op(tx: commands.LiveEventsTx, me: Player) -> api.AttemptResponse | Held[Any]:
            started = commands.start(tx, sim.rt, sim.scope, me, event_key, asked.player_context)
            return (
                started
                if isinstance(started, Held)
                else api.AttemptResponse(attempt=api.AttemptView.of(started))
            )

        started = self._player.act(op, write=True)
        # The server answers a forming lobby 202 with the seat it took (committed), as this does.
        return started.view if isinstance(started, Held) else started


class BoardReads(ServerActions, LiveEventsCalls):
    """The client key's event board read, which names no player."""

    leaderboard = server_method(LiveEventsCalls._leaderboard)


class ServerLiveEvents(ServerActions, ServerLiveEventsCalls):
    """``sim.server.live_events``: the studio's test-environment tool on events."""

    end_now = server_method(ServerLiveEventsCalls._end_now)
