"""The shared-leaderboard actions of a simulation: reading a board (``sdk.leaderboards.get``) and the
studio's backend submitting scores (``server.leaderboards.submit_score``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from livecore.leaderboards import api, commands
from livecore.live_events.api import EntryView
from livecore.simulation.actions import SIMULATED_KEY, ServerActions, body, external_id_of

if TYPE_CHECKING:
    from livecore.simulation.player import SimPlayer


class ServerLeaderboards(ServerActions):
    def submit_score(
        self, leaderboard_key: str, external_id: SimPlayer | str, score: int
    ) -> api.ScoreResponse:
        """The player's score joins its entry on the board by the board's aggregation."""
        sim = self._sim
        asked = body(
            api.SubmitScoreRequest,
            external_player_id=external_id_of(external_id),
            score=score,
            idempotency_key=SIMULATED_KEY,
        )

        def op(tx: commands.LeaderboardsTx) -> api.ScoreResponse:
            period, entry, player = commands.submit(
                tx, sim.rt, sim.server_scope, leaderboard_key, asked.external_player_id, asked.score
            )
            return api.ScoreResponse(entry=EntryView.of(commands.standing(tx, period, entry, player)))

        return self._run(op)
