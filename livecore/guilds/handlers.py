"""The guild routes' handlers: the player's (found, search, read, the player's own guild, join, leave,
edit, join requests, member actions, the leadership, help requests and donations) and the studio's (list,
detail, profile edit, a player's guild, member removal, handover, disband; each change names the API key
as its actor, ``by``). docs/guilds.md."""

from __future__ import annotations

from livecore.api.request import Handler, Reply, Request
from livecore.api.route import Route
from livecore.commands.reads import Reads
from livecore.guilds import api, commands
from livecore.guilds.reads import HELP_REQUEST_ROW, GuildDonateReads
from livecore.limits import ID
from livecore.players.actor import player_of


def create(request: Request[api.CreateGuildRequest, None], tx: commands.GuildsTx) -> api.GuildResponse:
    found = commands.create(tx, request.rt, request.scope, player_of(request), request.body.profile())
    return api.GuildResponse.of(found.read)


def search(request: Request[None, api.GuildSearchQuery], tx: commands.GuildsTx) -> api.GuildSearchResponse:
    query = request.query
    found = commands.search(tx, request.scope, query.q, query.limit, query.offset)
    return api.GuildSearchResponse(guilds=[api.GuildView.of(g) for g in found])


def read(request: Request[None, None], tx: commands.GuildsTx) -> api.GuildResponse:
    return api.GuildResponse.of(commands.read_guild(tx, request.scope, request.params["guildId"]))


def mine(request: Request[None, None], tx: commands.GuildsTx) -> api.OwnGuildResponse:
    return api.OwnGuildResponse.of(commands.my_guild(tx, request.scope, player_of(request)))


def join(
    request: Request[api.JoinGuildRequest | None, None], tx: commands.GuildsTx
) -> api.JoinResponse | Reply:
    message = None if request.body is None else request.body.message
    joined = commands.join(
        tx, request.rt, request.scope, player_of(request), request.params["guildId"], message
    )
    answer = api.JoinResponse.of(joined)
    return answer if joined.own is not None else Reply(answer, 201)


def cancel_join_request(request: Request[None, None], tx: commands.GuildsTx) -> api.CancelledResponse:
    commands.cancel_join_request(tx, request.rt, request.scope, player_of(request), request.params["guildId"])
    return api.CancelledResponse(cancelled=True)


def leave(request: Request[None, None], tx: commands.GuildsTx) -> api.LeftResponse:
    commands.leave(tx, request.rt, request.scope, player_of(request))
    return api.LeftResponse(left=True)


def edit(request: Request[api.EditGuildRequest, None], tx: commands.GuildsTx) -> api.GuildResponse:
    found = commands.edit(tx, request.rt, request.scope, player_of(request), request.body.profile())
    return api.GuildResponse.of(found.read)


def join_requests(request: Request[None, None], tx: commands.GuildsTx) -> api.JoinRequestsResponse:
    found = commands.join_requests(tx, request.scope, player_of(request))
    return api.JoinRequestsResponse(requests=[api.JoinRequestView.of(r) for r in found])


def accept(request: Request[None, None], tx: commands.GuildsTx) -> api.AcceptedResponse:
    request_id = request.params["requestId"]
    commands.answer_join_request(tx, request.rt, request.scope, player_of(request), request_id, accept=True)
    return api.AcceptedResponse(accepted=True)


def decline(request: Request[None, None], tx: commands.GuildsTx) -> api.DeclinedResponse:
    request_id = request.params["requestId"]
    commands.answer_join_request(tx, request.rt, request.scope, player_of(request), request_id, accept=False)
    return api.DeclinedResponse(declined=True)


def kick(request: Request[None, None], tx: commands.GuildsTx) -> api.GuildResponse:
    found = commands.kick(
        tx, request.rt, request.scope, player_of(request), request.params["memberExternalId"]
    )
    return api.GuildResponse.of(found.read)


def promote(request: Request[None, None], tx: commands.GuildsTx) -> api.GuildResponse:
    found = commands.promote(
        tx, request.rt, request.scope, player_of(request), request.params["memberExternalId"]
    )
    return api.GuildResponse.of(found.read)


def demote(request: Request[None, None], tx: commands.GuildsTx) -> api.GuildResponse:
    found = commands.demote(
        tx, request.rt, request.scope, player_of(request), request.params["memberExternalId"]
    )
    return api.GuildResponse.of(found.read)


def transfer(request: Request[api.TransferRequest, None], tx: commands.GuildsTx) -> api.GuildResponse:
    found = commands.transfer(
        tx, request.rt, request.scope, player_of(request), request.body.external_player_id
    )
    return api.GuildResponse.of(found.read)


def ask_help(request: Request[api.AskHelpRequest, None], tx: commands.GuildsTx) -> api.HelpRequestResponse:
    body = request.body
    asked = commands.ask_help(
        tx, request.rt, request.scope, player_of(request), body.type, body.resource_key, body.amount
    )
    return api.HelpRequestResponse(help_request=api.HelpRequestView.of(asked, request.rt.clock.now()))


def help_requests(request: Request[None, None], tx: commands.GuildsTx) -> api.HelpRequestsResponse:
    found = commands.help_requests(tx, request.rt, request.scope, player_of(request))
    now = request.rt.clock.now()
    return api.HelpRequestsResponse(help_requests=[api.HelpRequestView.of(r, now) for r in found])


def donate(request: Request[api.DonateRequest, None], tx: commands.GuildsTx) -> api.DonationResponse:
    request_id = request.params["requestId"]
    done = commands.donate(tx, request.rt, request.scope, player_of(request), request_id, request.body.amount)
    return api.DonationResponse.of(done, request.rt.clock.now())


def donate_reads(request: Request[api.DonateRequest, None], tx: commands.GuildsTx) -> Reads:
    request_id = request.params["requestId"]
    # A malformed id names no request: the donation answers its 404 without reading it (and a NUL never
    # reaches PostgreSQL's text).
    if ID.problem(request_id) is not None:
        return Reads()
    # The request's total is every donor's to add to: the write holds it.
    return Reads(
        areas=(GuildDonateReads((request.scope.game_id, request.external_id), request_id),),
        rows=((HELP_REQUEST_ROW, request_id),),
    )


def server_list(request: Request[None, api.GuildListQuery], tx: commands.GuildsTx) -> api.GuildListResponse:
    query = request.query
    page = commands.admin_search(
        tx,
        request.scope,
        text=query.q,
        player_external_id=query.player,
        include_disbanded=query.include_disbanded,
        limit=query.limit,
        offset=query.offset,
    )
    return api.GuildListResponse.of(page)


def server_read(request: Request[None, None], tx: commands.GuildsTx) -> api.GuildDetailResponse:
    return api.GuildDetailResponse.of(commands.guild_detail(tx, request.scope, request.params["guildId"]))


def server_edit(
    request: Request[api.ServerEditGuildRequest, None], tx: commands.GuildsTx
) -> api.GuildDetailResponse:
    return api.GuildDetailResponse.of(
        commands.admin_edit(tx, request.rt, request.scope, request.params["guildId"], request.body.profile())
    )


def player_guild(request: Request[None, None], tx: commands.GuildsTx) -> api.PlayerGuildResponse:
    return api.PlayerGuildResponse.of(commands.player_guild(tx, request.scope, request.external_id))


def remove_member(request: Request[None, None], tx: commands.GuildsTx) -> api.GuildDetailResponse:
    return api.GuildDetailResponse.of(
        commands.remove_member(
            tx, request.rt, request.scope, request.params["guildId"], request.params["memberExternalId"]
        )
    )


def hand_over(
    request: Request[api.ServerLeaderRequest, None], tx: commands.GuildsTx
) -> api.GuildDetailResponse:
    return api.GuildDetailResponse.of(
        commands.hand_over(
            tx, request.rt, request.scope, request.params["guildId"], request.body.external_player_id
        )
    )


def disband(request: Request[None, None], tx: commands.GuildsTx) -> api.GuildDetailResponse:
    return api.GuildDetailResponse.of(
        commands.disband(tx, request.rt, request.scope, request.params["guildId"])
    )


HANDLERS: dict[Route, Handler] = {
    api.SDK_CREATE: create,
    api.SDK_SEARCH: search,
    api.SDK_READ: read,
    api.SDK_MINE: mine,
    api.SDK_JOIN: join,
    api.SDK_CANCEL_JOIN_REQUEST: cancel_join_request,
    api.SDK_LEAVE: leave,
    api.SDK_EDIT: edit,
    api.SDK_JOIN_REQUESTS: join_requests,
    api.SDK_ACCEPT: accept,
    api.SDK_DECLINE: decline,
    api.SDK_KICK: kick,
    api.SDK_PROMOTE: promote,
    api.SDK_DEMOTE: demote,
    api.SDK_TRANSFER: transfer,
    api.SDK_ASK_HELP: ask_help,
    api.SDK_HELP_REQUESTS: help_requests,
    api.SDK_DONATE: donate,
    api.SERVER_LIST: server_list,
    api.SERVER_READ: server_read,
    api.SERVER_EDIT: server_edit,
    api.SERVER_PLAYER_GUILD: player_guild,
    api.SERVER_REMOVE: remove_member,
    api.SERVER_HAND_OVER: hand_over,
    api.SERVER_DISBAND: disband,
}
