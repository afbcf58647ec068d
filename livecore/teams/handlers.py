"""The team routes' handlers: the studio's roster PUT and a team's read, the player's own team, partner
invites and their acceptance (docs/teams.md)."""

from __future__ import annotations

from livecore.api.request import Handler, Request
from livecore.api.route import Route
from livecore.players.actor import player_of
from livecore.teams import api, commands


def put_roster(request: Request[api.RosterRequest, None], tx: commands.TeamsTx) -> api.TeamResponse:
    body = request.body
    return api.TeamResponse.of(
        commands.put_roster(
            tx,
            request.rt,
            request.scope,
            request.params["eventKey"],
            request.params["teamKey"],
            body.external_player_ids,
            name=body.name,
            attributes=body.attributes,
            window=body.window_id,
        )
    )


def read(request: Request[None, api.TeamQuery], tx: commands.TeamsTx) -> api.TeamResponse:
    params = request.params
    return api.TeamResponse.of(
        commands.read_team(
            tx, request.rt, request.scope, params["eventKey"], params["teamKey"], request.query.window_id
        )
    )


def my_team(request: Request[None, None], tx: commands.TeamsTx) -> api.MyTeamResponse:
    found = commands.my_team(tx, request.rt, request.scope, player_of(request), request.params["eventKey"])
    return api.MyTeamResponse.of(found)


def invite(request: Request[api.InviteRequest, None], tx: commands.TeamsTx) -> api.InviteResponse:
    sent = commands.invite(
        tx,
        request.rt,
        request.scope,
        player_of(request),
        request.params["eventKey"],
        request.body.external_player_id,
    )
    return api.InviteResponse(invite=api.InviteView.of(sent))


def accept(request: Request[None, None], tx: commands.TeamsTx) -> api.TeamResponse:
    params = request.params
    return api.TeamResponse.of(
        commands.accept(
            tx, request.rt, request.scope, player_of(request), params["eventKey"], params["inviteId"]
        )
    )


HANDLERS: dict[Route, Handler] = {
    api.SERVER_PUT_ROSTER: put_roster,
    api.SERVER_TEAM: read,
    api.SDK_MY_TEAM: my_team,
    api.SDK_INVITE: invite,
    api.SDK_ACCEPT: accept,
}
