"""Server guild routes: the studio's list, detail, profile edit, a player's guild, member removal,
handover and disband (docs/guilds.md). Each change names the API key as its actor (``by``)."""

from __future__ import annotations

from livecore.guilds import api, commands
from livecore_server.http.endpoint import Binding, Call, bind


def list_guilds(call: Call[None, api.GuildListQuery], tx: commands.GuildsTx) -> api.GuildListResponse:
    query = call.query
    page = commands.admin_search(
        tx,
        call.scope,
        text=query.q,
        player_external_id=query.player,
        include_disbanded=query.include_disbanded,
        limit=query.limit,
        offset=query.offset,
    )
    return api.GuildListResponse.of(page)


def read(call: Call[None, None], tx: commands.GuildsTx) -> api.GuildDetailResponse:
    return api.GuildDetailResponse.of(commands.guild_detail(tx, call.scope, call.params["guildId"]))


def edit(call: Call[api.ServerEditGuildRequest, None], tx: commands.GuildsTx) -> api.GuildDetailResponse:
    return api.GuildDetailResponse.of(
        commands.admin_edit(tx, call.rt, call.scope, call.params["guildId"], call.body.profile())
    )


def player_guild(call: Call[None, None], tx: commands.GuildsTx) -> api.PlayerGuildResponse:
    return api.PlayerGuildResponse.of(commands.player_guild(tx, call.scope, call.external_id))


def remove_member(call: Call[None, None], tx: commands.GuildsTx) -> api.GuildDetailResponse:
    return api.GuildDetailResponse.of(
        commands.remove_member(
            tx, call.rt, call.scope, call.params["guildId"], call.params["memberExternalId"]
        )
    )


def hand_over(call: Call[api.ServerLeaderRequest, None], tx: commands.GuildsTx) -> api.GuildDetailResponse:
    return api.GuildDetailResponse.of(
        commands.hand_over(tx, call.rt, call.scope, call.params["guildId"], call.body.external_player_id)
    )


def disband(call: Call[None, None], tx: commands.GuildsTx) -> api.GuildDetailResponse:
    return api.GuildDetailResponse.of(commands.disband(tx, call.rt, call.scope, call.params["guildId"]))


BINDINGS: list[Binding] = [
    bind(api.SERVER_LIST, list_guilds),
    bind(api.SERVER_READ, read),
    bind(api.SERVER_EDIT, edit),
    bind(api.SERVER_PLAYER_GUILD, player_guild),
    bind(api.SERVER_REMOVE, remove_member),
    bind(api.SERVER_HAND_OVER, hand_over),
    bind(api.SERVER_DISBAND, disband),
]
