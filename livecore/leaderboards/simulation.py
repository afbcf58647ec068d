"""The shared-leaderboard actions of a simulation: reading a board (``sdk.leaderboards.get``) and the
studio's backend submitting scores and, in the test environment, ending a period now
(``server.leaderboards``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from livecore.leaderboards import api, commands
from livecore.leaderboards.area import rollover
from livecore.live_events.api import EntryView
from livecore.schedule import run_task
from livecore.simulation.actions import SIMULATED_KEY, ServerActions, body, external_id_of

if TYPE_CHECKING:
    from livecore.simulation.handle import Handle


class ServerLeaderboards(ServerActions):
    def submit_score(
        self, leaderboard_key: str, external_player_id: Handle | str, score: int
    ) -> api.ScoreResponse:
        """The player's score joins its entry on the board by the board's aggregation."""
        sim = self._sim
        asked = body(
            api.SubmitScoreRequest,
            external_player_id=external_id_of(external_player_id),
            score=score,
            idempotency_key=SIMULATED_KEY,
        )

        def op(tx: commands.LeaderboardsTx) -> api.ScoreResponse:
            period, entry, player = commands.submit(
                tx, sim.rt, sim.server_scope, leaderboard_key, asked.external_player_id, asked.score
            )
            return api.ScoreResponse(entry=EntryView.of(commands.standing(tx, period, entry, player)))

        return self._run(op)

    def rollover_now(self, leaderboard_key: str) -> api.RolloverResponse:
        """End the board's current period now, as its boundary would: its rank rewards are granted,
        divisions promote and relegate, ``leaderboard.period_finalized`` fires; the next period runs from
        now to the next regular boundary. An all-time board, or a period with no entries, answers
        ``rolled_over`` False and changes nothing. A simulation of the live environment is refused
        (:class:`~livecore.exceptions.PermissionDeniedError`), as a live key is."""
        sim = self._sim
        period_id = self._run(lambda tx: commands.rollover_now(tx, sim.rt, sim.server_scope, leaderboard_key))
        if period_id is None:
            return api.RolloverResponse(rolled_over=False)
        # As the server's route: the period stopped in one transaction, its rollover runs step by step, each
        # in its own, as the scheduler runs it, and is over before the answer.
        run_task(sim.store, rollover(sim.rt, sim.game.id, period_id))
        return api.RolloverResponse(rolled_over=True, period_id=period_id)
