"""The live-event actions of a simulation: a player's (``sdk.live_events``: the events list, starting an
attempt, seated in a lobby first on a lobby event, and reporting its progress) and the studio's test tool
(``server.live_events.end_now``)."""

from __future__ import annotations

from typing import Any

from livecore.grants.api import GrantView
from livecore.live_events import api
from livecore.live_events.commands import live_events as commands
from livecore.live_events.commands.steps import Held, HeldStart
from livecore.players.rules import Player
from livecore.simulation.actions import Actions, ServerActions, body


class LiveEvents(Actions):
    def list(self, *, with_attempts: bool = True) -> api.EventListResponse:
        """Every event of the game, with the player's attempts in each open window; ``with_attempts``
        False reads as the client key alone (``attempts`` None), as the client does."""
        sim = self._sim

        def listed(tx: commands.LiveEventsTx, me: Player | None) -> api.EventListResponse:
            listings = commands.list_events(tx, sim.rt, sim.scope, me)
            return api.EventListResponse(events=[api.EventView.of(listing) for listing in listings])

        if not with_attempts:
            return sim.run(lambda tx: listed(tx, None))
        return self._read(listed)

    def start_attempt(
        self, event_key: str, *, player_context: dict[str, Any] | None = None
    ) -> api.AttemptResponse | HeldStart:
        """Start an attempt in the event's open window, paying its entry cost. An area may hold the start
        back: on a lobby event the player is seated first, and while its lobby forms the answer is the
        lobbies' ``LobbyForming`` (a :class:`HeldStart`) and nothing is paid; start again once the lobby
        is active."""
        sim = self._sim
        asked = body(api.StartAttemptRequest, player_context=player_context)

        def op(tx: commands.LiveEventsTx, me: Player) -> api.AttemptResponse | Held[Any]:
            started = commands.start(tx, sim.rt, sim.scope, me, event_key, asked.player_context)
            return (
                started
                if isinstance(started, Held)
                else api.AttemptResponse(attempt=api.AttemptView.of(started))
            )

        started = self._write(op)
        # The server answers a forming lobby 202 with the seat it took (committed), as this does.
        return started.view if isinstance(started, Held) else started

    def report_progress(
        self, event_key: str, attempt_id: str, metrics: dict[str, Any], *, complete: bool = False
    ) -> api.ProgressResponse:
        """Report the attempt's metrics (its score among them); ``complete`` ends it. Milestones reached
        are granted at once and listed."""
        sim = self._sim
        asked = body(api.ProgressRequest, metrics=metrics, complete=complete)

        def op(tx: commands.LiveEventsTx, me: Player) -> api.ProgressResponse:
            attempt, granted = commands.record_progress(
                tx, sim.rt, sim.scope, me, event_key, attempt_id, asked.metrics, asked.complete
            )
            return api.ProgressResponse(
                attempt=api.AttemptView.of(attempt), milestones_granted=[GrantView.of(g) for g in granted]
            )

        return self._write(op)


class ServerLiveEvents(ServerActions):
    """``sim.server.live_events``: the studio's test-environment tool on events."""

    def end_now(self, event_key: str) -> api.EndNowResponse:
        """Close the event's open window now, as its end would: attempts in progress expire, its boards
        are finalized, its rank rewards granted. Answers the windows closed (none when none was open); the
        next window still opens on schedule. A simulation of the live environment is refused
        (:class:`~livecore.exceptions.PermissionDeniedError`), as a live key is."""
        sim = self._sim
        return self._run(
            lambda tx: api.EndNowResponse(
                closed_windows=commands.end_now(tx, sim.rt, sim.server_scope, event_key)
            )
        )
