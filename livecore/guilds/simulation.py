"""The guild actions of a simulation, each its client method's builder (:mod:`livecore.guilds.calls`) run
in memory (:mod:`livecore.simulation.calls`): a player's (``ada.guilds``, as ``sdk.guilds`` without the
external id), the client key's reads that name no player (:meth:`Simulation.guilds
<livecore.simulation.player.Simulation.guilds>` and :meth:`Simulation.guild
<livecore.simulation.player.Simulation.guild>`) and the studio's moderation (``sim.server.guilds``)."""

from __future__ import annotations

from livecore.guilds.calls import GuildsCalls, ServerGuildsCalls
from livecore.simulation.calls import Actions, ServerActions, player_method, server_method


class Guilds(Actions, GuildsCalls):
    """``player.guilds``: the player's own guild."""

    create = player_method(GuildsCalls._create)
    mine = player_method(GuildsCalls._mine)
    join = player_method(GuildsCalls._join)
    cancel_join_request = player_method(GuildsCalls._cancel_join_request)
    leave = player_method(GuildsCalls._leave)
    edit = player_method(GuildsCalls._edit)
    join_requests = player_method(GuildsCalls._join_requests)
    accept_join_request = player_method(GuildsCalls._accept_join_request)
    decline_join_request = player_method(GuildsCalls._decline_join_request)
    kick = player_method(GuildsCalls._kick)
    promote = player_method(GuildsCalls._promote)
    demote = player_method(GuildsCalls._demote)
    transfer_leadership = player_method(GuildsCalls._transfer_leadership)
    ask_help = player_method(GuildsCalls._ask_help)
    help_requests = player_method(GuildsCalls._help_requests)
    donate_help = player_method(GuildsCalls._donate_help)


class GuildReads(ServerActions, GuildsCalls):
    """The client key's guild reads, which name no player."""

    search = server_method(GuildsCalls._search)
    get = server_method(GuildsCalls._get)


class ServerGuilds(ServerActions, ServerGuildsCalls):
    """``sim.server.guilds``: the studio's moderation."""

    list = server_method(ServerGuildsCalls._list)
    get = server_method(ServerGuildsCalls._get)
    edit = server_method(ServerGuildsCalls._edit)
    of_player = server_method(ServerGuildsCalls._of_player)
    remove_member = server_method(ServerGuildsCalls._remove_member)
    hand_over = server_method(ServerGuildsCalls._hand_over)
    disband = server_method(ServerGuildsCalls._disband)
