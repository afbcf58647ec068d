"""Server shared-leaderboard routes: a studio's score submission and the test environment's rollover-now
(docs/leaderboards.md)."""

from __future__ import annotations

from livecore.leaderboards import api, commands
from livecore.leaderboards.area import rollover
from livecore.leaderboards.commands import LeaderboardsTx
from livecore.live_events.api import EntryView
from livecore_server.http.endpoint import Binding, Call, bind, bind_direct
from livecore_server.scheduler import run_task
from livecore_server.storage.server_store import ServerTransaction, game_queue


def submit_score(call: Call[api.SubmitScoreRequest, None], tx: LeaderboardsTx) -> api.ScoreResponse:
    body = call.body
    period, entry, player = commands.submit(
        tx, call.rt, call.scope, call.params["leaderboardKey"], body.external_player_id, body.score
    )
    return api.ScoreResponse(entry=EntryView.of(commands.standing(tx, period, entry, player)))


async def rollover_now(call: Call[None, None]) -> api.RolloverResponse:
    """The period stops in one transaction; its rollover then runs step by step, as the scheduler's, and
    is finished before the answer."""
    s, game_id, key = call.services, call.scope.game_id, call.params["leaderboardKey"]

    def stop(tx: ServerTransaction) -> str | None:
        return commands.rollover_now(tx, call.rt, call.scope, key)

    period_id = await s.store.run_async(stop, queue=game_queue(game_id))
    if period_id is None:
        return api.RolloverResponse(rolled_over=False)
    await run_task(s.store, rollover(call.rt, game_id, period_id))
    return api.RolloverResponse(rolled_over=True, period_id=period_id)


BINDINGS: list[Binding] = [
    bind(api.SERVER_SUBMIT_SCORE, submit_score),
    bind_direct(api.SERVER_ROLLOVER_NOW, rollover_now),
]
