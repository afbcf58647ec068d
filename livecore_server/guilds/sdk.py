"""Client guild routes: found, search, read, the player's own guild, join, leave, edit, join requests,
member actions, the leadership, help requests and donations (docs/guilds.md)."""

from __future__ import annotations

from livecore.guilds import api, commands
from livecore.players.rules import Player
from livecore_server.http.endpoint import AnyCall, Binding, Call, Reply, bind


def _player(call: AnyCall) -> Player:
    assert call.player is not None  # player-scoped: authenticated before the handler runs
    return call.player


def create(call: Call[api.CreateGuildRequest, None], tx: commands.GuildsTx) -> api.GuildResponse:
    found = commands.create(tx, call.rt, call.scope, _player(call), call.body.profile())
    return api.GuildResponse.of(found.read)


def search(call: Call[None, api.GuildSearchQuery], tx: commands.GuildsTx) -> api.GuildSearchResponse:
    query = call.query
    found = commands.search(tx, call.scope, query.q, query.limit, query.offset)
    return api.GuildSearchResponse(guilds=[api.GuildView.of(g) for g in found])


def read(call: Call[None, None], tx: commands.GuildsTx) -> api.GuildResponse:
    return api.GuildResponse.of(commands.read_guild(tx, call.scope, call.params["guildId"]))


def mine(call: Call[None, None], tx: commands.GuildsTx) -> api.OwnGuildResponse:
    return api.OwnGuildResponse.of(commands.my_guild(tx, call.scope, _player(call)))


def join(call: Call[api.JoinGuildRequest | None, None], tx: commands.GuildsTx) -> api.JoinResponse | Reply:
    message = None if call.body is None else call.body.message
    joined = commands.join(tx, call.rt, call.scope, _player(call), call.params["guildId"], message)
    answer = api.JoinResponse.of(joined)
    return answer if joined.own is not None else Reply(answer, 201)


def cancel_join_request(call: Call[None, None], tx: commands.GuildsTx) -> api.CancelledResponse:
    commands.cancel_join_request(tx, call.rt, call.scope, _player(call), call.params["guildId"])
    return api.CancelledResponse(cancelled=True)


def leave(call: Call[None, None], tx: commands.GuildsTx) -> api.LeftResponse:
    commands.leave(tx, call.rt, call.scope, _player(call))
    return api.LeftResponse(left=True)


def edit(call: Call[api.EditGuildRequest, None], tx: commands.GuildsTx) -> api.GuildResponse:
    found = commands.edit(tx, call.rt, call.scope, _player(call), call.body.profile())
    return api.GuildResponse.of(found.read)


def join_requests(call: Call[None, None], tx: commands.GuildsTx) -> api.JoinRequestsResponse:
    found = commands.join_requests(tx, call.scope, _player(call))
    return api.JoinRequestsResponse(requests=[api.JoinRequestView.of(r) for r in found])


def accept(call: Call[None, None], tx: commands.GuildsTx) -> api.AcceptedResponse:
    request_id = call.params["requestId"]
    commands.answer_join_request(tx, call.rt, call.scope, _player(call), request_id, accept=True)
    return api.AcceptedResponse(accepted=True)


def decline(call: Call[None, None], tx: commands.GuildsTx) -> api.DeclinedResponse:
    request_id = call.params["requestId"]
    commands.answer_join_request(tx, call.rt, call.scope, _player(call), request_id, accept=False)
    return api.DeclinedResponse(declined=True)


def kick(call: Call[None, None], tx: commands.GuildsTx) -> api.GuildResponse:
    found = commands.kick(tx, call.rt, call.scope, _player(call), call.params["memberExternalId"])
    return api.GuildResponse.of(found.read)


def promote(call: Call[None, None], tx: commands.GuildsTx) -> api.GuildResponse:
    found = commands.promote(tx, call.rt, call.scope, _player(call), call.params["memberExternalId"])
    return api.GuildResponse.of(found.read)


def demote(call: Call[None, None], tx: commands.GuildsTx) -> api.GuildResponse:
    found = commands.demote(tx, call.rt, call.scope, _player(call), call.params["memberExternalId"])
    return api.GuildResponse.of(found.read)


def transfer(call: Call[api.TransferRequest, None], tx: commands.GuildsTx) -> api.GuildResponse:
    found = commands.transfer(tx, call.rt, call.scope, _player(call), call.body.external_player_id)
    return api.GuildResponse.of(found.read)


def ask_help(call: Call[api.AskHelpRequest, None], tx: commands.GuildsTx) -> api.HelpRequestResponse:
    body = call.body
    asked = commands.ask_help(
        tx, call.rt, call.scope, _player(call), body.type, body.resource_key, body.amount
    )
    return api.HelpRequestResponse(help_request=api.HelpRequestView.of(asked, call.rt.clock.now()))


def help_requests(call: Call[None, None], tx: commands.GuildsTx) -> api.HelpRequestsResponse:
    found = commands.help_requests(tx, call.rt, call.scope, _player(call))
    now = call.rt.clock.now()
    return api.HelpRequestsResponse(help_requests=[api.HelpRequestView.of(r, now) for r in found])


def donate(call: Call[api.DonateRequest, None], tx: commands.GuildsTx) -> api.DonationResponse:
    request_id = call.params["requestId"]
    done = commands.donate(tx, call.rt, call.scope, _player(call), request_id, call.body.amount)
    return api.DonationResponse.of(done, call.rt.clock.now())


BINDINGS: list[Binding] = [
    bind(api.SDK_CREATE, create),
    bind(api.SDK_SEARCH, search),
    bind(api.SDK_READ, read),
    bind(api.SDK_MINE, mine),
    bind(api.SDK_JOIN, join),
    bind(api.SDK_CANCEL_JOIN_REQUEST, cancel_join_request),
    bind(api.SDK_LEAVE, leave),
    bind(api.SDK_EDIT, edit),
    bind(api.SDK_JOIN_REQUESTS, join_requests),
    bind(api.SDK_ACCEPT, accept),
    bind(api.SDK_DECLINE, decline),
    bind(api.SDK_KICK, kick),
    bind(api.SDK_PROMOTE, promote),
    bind(api.SDK_DEMOTE, demote),
    bind(api.SDK_TRANSFER, transfer),
    bind(api.SDK_ASK_HELP, ask_help),
    bind(api.SDK_HELP_REQUESTS, help_requests),
    bind(api.SDK_DONATE, donate),
]
