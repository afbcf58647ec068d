"""The shared-leaderboard routes the server binds itself (docs/leaderboards.md): the test environment's
rollover-now, whose period stops in one transaction before its rollover runs step by step on the server's
store, as the scheduler's; and the score submission, which runs beside its game's other writes holding its
player (docs/architecture.md, "Concurrency"). The handlers of both writes but the rollover are the core's
(:mod:`livecore.leaderboards.handlers`)."""

from __future__ import annotations

from livecore.leaderboards import api, commands, handlers
from livecore.leaderboards.area import rollover
from livecore_server.http.endpoint import Binding, Call, bind, bind_direct
from livecore_server.scheduler import run_task
from livecore_server.storage.concurrency import Concurrency
from livecore_server.storage.server_store import ServerTransaction, game_queue


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
    bind_direct(api.SERVER_ROLLOVER_NOW, rollover_now),
    bind(
        api.SERVER_SUBMIT_SCORE,
        handlers.submit_score,
        reads=handlers.submit_reads,
        concurrency=Concurrency.PLAYERS,
    ),
]
