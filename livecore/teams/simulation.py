"""The team actions of a simulation, each its client method's builder (:mod:`livecore.teams.calls`) run in
memory (:mod:`livecore.simulation.calls`): a player's team in an event and partner invites
(``ada.teams``, as ``sdk.teams`` without the external id), and the studio's rosters
(``sim.server.teams``)."""

from __future__ import annotations

from livecore.simulation.calls import Actions, ServerActions, player_method, server_method
from livecore.teams.calls import ServerTeamsCalls, TeamsCalls


class Teams(Actions, TeamsCalls):
    """``player.teams``: the player's team in an event's open window and its partner invites."""

    mine = player_method(TeamsCalls._mine)
    invite_partner = player_method(TeamsCalls._invite_partner)
    accept_invite = player_method(TeamsCalls._accept_invite)


class ServerTeams(ServerActions, ServerTeamsCalls):
    """``sim.server.teams``: the studio's rosters (events whose teams form ``external``) and team reads."""

    put_roster = server_method(ServerTeamsCalls._put_roster)
    get = server_method(ServerTeamsCalls._get)
