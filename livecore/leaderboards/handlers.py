"""The shared-leaderboard routes' handlers: a page of a board (the client key's) and the studio's score
submission (docs/leaderboards.md). The test environment's rollover-now is the server's
(:mod:`livecore_server.leaderboards.server`): its rollover runs step by step, as the scheduler runs it."""

from __future__ import annotations

from livecore.api.request import Handler, Request
from livecore.api.route import Route
from livecore.commands.reads import Reads
from livecore.leaderboards import api, commands
from livecore.live_events.api import EntryView


def read(request: Request[None, api.LeaderboardQuery], tx: commands.ReadTx) -> api.LeaderboardResponse:
    q = request.query
    page = commands.read(
        tx,
        request.rt,
        request.scope,
        request.params["leaderboardKey"],
        limit=q.limit,
        cursor=q.cursor,
        around=q.around,
        division=q.division,
        period=q.period,
        previous=q.previous,
    )
    return api.LeaderboardResponse.of(page)


def submit_score(
    request: Request[api.SubmitScoreRequest, None], tx: commands.LeaderboardsTx
) -> api.ScoreResponse:
    body = request.body
    period, entry, player = commands.submit(
        tx, request.rt, request.scope, request.params["leaderboardKey"], body.external_player_id, body.score
    )
    return api.ScoreResponse(entry=EntryView.of(commands.standing(tx, period, entry, player)))


def submit_reads(request: Request[api.SubmitScoreRequest, None], tx: object) -> Reads:
    """A submission changes its player's entry and tier, and its period's shared rows, which the store
    holds as it writes them: it declares its player."""
    return Reads(players=((request.scope.game_id, request.body.external_player_id),))


HANDLERS: dict[Route, Handler] = {
    api.SDK_LEADERBOARD: read,
    api.SERVER_SUBMIT_SCORE: submit_score,
}
