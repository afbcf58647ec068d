"""The shared-leaderboard actions of a simulation, each its client method's builder
(:mod:`livecore.leaderboards.calls`) run in memory (:mod:`livecore.simulation.calls`): the client key's
read of a board (:meth:`Simulation.leaderboard <livecore.simulation.player.Simulation.leaderboard>`) and
the studio's backend submitting scores and, in the test environment, ending a period now
(``sim.server.leaderboards``)."""

from __future__ import annotations

from livecore.leaderboards import api, commands
from livecore.leaderboards.area import rollover
from livecore.leaderboards.calls import LeaderboardsCalls, ServerLeaderboardsCalls
from livecore.schedule import run_task
from livecore.simulation.calls import ServerActions, server_method


class LeaderboardReads(ServerActions, LeaderboardsCalls):
    """The client key's board read, which names no player."""

    get = server_method(LeaderboardsCalls._get)


class ServerLeaderboards(ServerActions, ServerLeaderboardsCalls):
    """``sim.server.leaderboards``: the studio's scores and the test environment's rollover."""

    submit_score = server_method(ServerLeaderboardsCalls._submit_score)

    def rollover_now(self, leaderboard_key: str) -> api.RolloverResponse:
        """End the board's current period now, as its boundary would: its rank rewards are granted,
        divisions promote and relegate, ``leaderboard.period_finalized`` fires; the next period runs from
        now to the next regular boundary. An all-time board, or a period with no entries, answers
        ``rolled_over`` False and changes nothing. A simulation of the live environment is refused
        (:class:`~livecore.exceptions.PermissionDeniedError`), as a live key is."""
        # Written here rather than run through the route's handler: the server answers this route itself
        # (livecore_server.leaderboards.server), running the rollover on its own store.
        sim = self._sim
        period_id = sim.run(lambda tx: commands.rollover_now(tx, sim.rt, sim.server_scope, leaderboard_key))
        if period_id is None:
            return api.RolloverResponse(rolled_over=False)
        # As the server's route: the period stopped in one transaction, its rollover runs step by step, each
        # in its own, as the scheduler runs it, and is over before the answer.
        run_task(sim.store, rollover(sim.rt, sim.game.id, period_id))
        return api.RolloverResponse(rolled_over=True, period_id=period_id)
