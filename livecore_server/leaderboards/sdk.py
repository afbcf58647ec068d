"""Client shared-leaderboard route: a page of a board (docs/leaderboards.md)."""

from __future__ import annotations

from livecore.leaderboards import api, commands
from livecore_server.http.endpoint import Binding, Call, bind


def read(call: Call[None, api.LeaderboardQuery], tx: commands.ReadTx) -> api.LeaderboardResponse:
    q = call.query
    page = commands.read(
        tx,
        call.rt,
        call.scope,
        call.params["leaderboardKey"],
        limit=q.limit,
        cursor=q.cursor,
        around=q.around,
        division=q.division,
        period=q.period,
        previous=q.previous,
    )
    return api.LeaderboardResponse.of(page)


BINDINGS: list[Binding] = [bind(api.SDK_LEADERBOARD, read)]
