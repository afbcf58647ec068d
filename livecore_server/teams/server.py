"""Server team routes: the studio's roster PUT and a team's read (docs/teams.md)."""

from __future__ import annotations

from livecore.teams import api, commands
from livecore_server.http.endpoint import Binding, Call, bind


def put_roster(call: Call[api.RosterRequest, None], tx: commands.TeamsTx) -> api.TeamResponse:
    body = call.body
    return api.TeamResponse.of(
        commands.put_roster(
            tx,
            call.rt,
            call.scope,
            call.params["eventKey"],
            call.params["teamKey"],
            body.external_player_ids,
            name=body.name,
            attributes=body.attributes,
            window=body.window_id,
        )
    )


def read(call: Call[None, api.TeamQuery], tx: commands.TeamsTx) -> api.TeamResponse:
    return api.TeamResponse.of(
        commands.read_team(
            tx, call.rt, call.scope, call.params["eventKey"], call.params["teamKey"], call.query.window_id
        )
    )


BINDINGS: list[Binding] = [bind(api.SERVER_PUT_ROSTER, put_roster), bind(api.SERVER_TEAM, read)]
