"""Client team routes: the player's own team, partner invites and their acceptance (docs/teams.md)."""

from __future__ import annotations

from livecore.players.rules import Player
from livecore.teams import api, commands
from livecore_server.http.endpoint import AnyCall, Binding, Call, bind


def _player(call: AnyCall) -> Player:
    assert call.player is not None  # player-scoped: authenticated before the handler runs
    return call.player


def my_team(call: Call[None, None], tx: commands.TeamsTx) -> api.MyTeamResponse:
    found = commands.my_team(tx, call.rt, call.scope, _player(call), call.params["eventKey"])
    return api.MyTeamResponse.of(found)


def invite(call: Call[api.InviteRequest, None], tx: commands.TeamsTx) -> api.InviteResponse:
    sent = commands.invite(
        tx, call.rt, call.scope, _player(call), call.params["eventKey"], call.body.external_player_id
    )
    return api.InviteResponse(invite=api.InviteView.of(sent))


def accept(call: Call[None, None], tx: commands.TeamsTx) -> api.TeamResponse:
    return api.TeamResponse.of(
        commands.accept(
            tx, call.rt, call.scope, _player(call), call.params["eventKey"], call.params["inviteId"]
        )
    )


BINDINGS: list[Binding] = [
    bind(api.SDK_MY_TEAM, my_team),
    bind(api.SDK_INVITE, invite),
    bind(api.SDK_ACCEPT, accept),
]
