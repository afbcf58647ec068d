"""Event teams and partners: the studio's roster PUT and a team's read (server), the player's own team,
partner invites and their acceptance (client) (docs/teams.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import attrs

from livecore.api.route import Idempotency, Route, Surface, server_route
from livecore.api.views import IdentityView
from livecore.friends.errors import NOT_FRIENDS
from livecore.idempotency import KEY
from livecore.limits import FREE_FORM, FREE_TEXT, ID, limited
from livecore.live_events.errors import EVENT_NOT_FOUND, EVENT_NOT_OPEN
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.routes import PLAYER_READ_ERRORS, PLAYER_WRITE_ERRORS, player_route
from livecore.players.rules import Player
from livecore.players.views import display_view
from livecore.teams.errors import (
    ALREADY_ON_TEAM,
    INVITE_EXPIRED,
    INVITE_NOT_FOUND,
    INVITE_PENDING,
    LOCKED_ELSEWHERE,
    TEAM_NOT_FOUND,
)
from livecore.teams.rules import ROSTER_PLAYERS, PartnerInvite, Team, TeamMember
from livecore.teams.settings import Formation

if TYPE_CHECKING:
    from livecore.teams.commands import TeamRead


@attrs.frozen
class TeamMemberView:
    """A seated member: ``contribution`` is its best attempt score in the window; ``rank`` its place in
    the team by contribution (1 the highest; equal contributions rank the earlier seated first, then by
    ``externalPlayerId``, so ranks are distinct)."""

    external_player_id: str
    display_identity: IdentityView
    contribution: float
    rank: int


def ranked_members(members: Sequence[TeamMember]) -> list[TeamMember]:
    """The seated members in team rank order: highest contribution first; ties by the time each took its
    seat, then by external id (members seated by one roster PUT took theirs at the same instant)."""
    return sorted(
        (m for m in members if m.seated), key=lambda m: (-m.contribution, m.joined_at, m.external_player_id)
    )


@attrs.frozen
class TeamView:
    """A team of one window (docs/teams.md#reading-a-team): ``members`` are the seated ones, in rank
    order; ``finalRank`` is set at the window's close on a team board."""

    team_id: str
    key: str
    name: str | None
    formation: Formation
    window_id: str
    score: float
    goal: float | None
    completed: bool
    final_rank: int | None
    attributes: dict[str, Any] | None
    members: list[TeamMemberView]

    @classmethod
    def of(cls, team: Team, members: Sequence[TeamMember], players_by_id: Mapping[str, Player]) -> TeamView:
        """``members``: the team's seats in seat order (those left included: they are left out);
        ``players_by_id`` holds each seat's player (its display identity as it is at read time)."""
        return cls(
            team_id=team.id,
            key=team.key,
            name=team.name,
            formation=team.formation,
            window_id=team.window_id,
            score=team.score,
            goal=team.goal,
            completed=team.completed,
            final_rank=team.final_rank,
            attributes=team.attributes,
            members=[
                TeamMemberView(
                    external_player_id=m.external_player_id,
                    display_identity=display_view(players_by_id[m.player_id]),
                    contribution=m.contribution,
                    rank=rank,
                )
                for rank, m in enumerate(ranked_members(members), 1)
            ],
        )


@attrs.frozen
class TeamResponse:
    team: TeamView

    @classmethod
    def of(cls, found: TeamRead) -> TeamResponse:
        return cls(team=TeamView.of(found.team, found.members, found.players))


@attrs.frozen
class MyTeamResponse:
    """The player's team in the event's open window; null when it sits on none."""

    team: TeamView | None

    @classmethod
    def of(cls, found: TeamRead | None) -> MyTeamResponse:
        return cls(team=None if found is None else TeamResponse.of(found).team)


@attrs.frozen
class RosterRequest:
    """A team's whole roster in one window (docs/teams.md#the-roster): ``windowId`` names the window
    (default: the one open now, else the next scheduled); ``name`` and ``attributes`` are kept when
    absent."""

    # Repeats and more players than the team's size are the PUT's own refusals (livecore.teams.rules); the
    # wire
    # bounds only the list's size.
    external_player_ids: list[str] = attrs.field(metadata=limited(ID, count=ROSTER_PLAYERS))
    idempotency_key: str = attrs.field(metadata=limited(KEY))
    name: str | None = attrs.field(default=None, metadata=limited(FREE_TEXT))
    attributes: dict[str, Any] | None = attrs.field(default=None, metadata=limited(FREE_FORM))
    window_id: str | None = attrs.field(default=None, metadata=limited(ID))


@attrs.frozen
class TeamQuery:
    window_id: str | None = attrs.field(default=None, metadata=limited(ID))


@attrs.frozen
class InviteRequest:
    external_player_id: str = attrs.field(metadata=limited(ID))


@attrs.frozen
class InviteView:
    """A partner invite, pending until the invitee accepts it or it expires (24 hours of service time)."""

    invite_id: str
    from_external_player_id: str
    to_external_player_id: str
    expires_at: datetime

    @classmethod
    def of(cls, invite: PartnerInvite) -> InviteView:
        return cls(
            invite_id=invite.id,
            from_external_player_id=invite.from_external_id,
            to_external_player_id=invite.to_external_id,
            expires_at=invite.expires_at,
        )


@attrs.frozen
class InviteResponse:
    invite: InviteView


SERVER_PUT_ROSTER = Route(
    name="server.teams.put_roster",
    surface=Surface.SERVER,
    method="PUT",
    path="/events/{eventKey}/teams/{teamKey}",
    summary="Set a team's whole roster in one window (all or nothing); the team forms on its first PUT, "
    "players missing from the roster leave it.",
    request=RosterRequest,
    response=TeamResponse,
    idempotency=Idempotency.REQUIRED,
    body_idempotency_field=True,
    errors=(
        PLAYER_NOT_FOUND,
        EVENT_NOT_FOUND,
        EVENT_NOT_OPEN,
        # details.externalPlayerIds: the roster's players seated on another team of the window.
        LOCKED_ELSEWHERE,
    ),
)

SERVER_TEAM = server_route(
    "server.teams.read",
    "GET",
    "/events/{eventKey}/teams/{teamKey}",
    "A team of the window windowId names (default: the window open now), with its seated members.",
    TeamResponse,
    query=TeamQuery,
    errors=(EVENT_NOT_FOUND, TEAM_NOT_FOUND),
)

SDK_MY_TEAM = player_route(
    "teams.mine",
    "GET",
    "/events/{eventKey}/team",
    "The player's team in the event's open window, or null.",
    MyTeamResponse,
    errors=(*PLAYER_READ_ERRORS, EVENT_NOT_FOUND),
)

SDK_INVITE = player_route(
    "partners.invite",
    "POST",
    "/events/{eventKey}/partner-invites",
    "Invite a friend to pair up as a team in the event's open window; the invite expires after 24 hours.",
    InviteResponse,
    status=201,
    request=InviteRequest,
    errors=(
        *PLAYER_WRITE_ERRORS,
        EVENT_NOT_FOUND,
        EVENT_NOT_OPEN,
        NOT_FRIENDS,
        ALREADY_ON_TEAM,
        INVITE_PENDING,
    ),
)

SDK_ACCEPT = player_route(
    "partners.accept",
    "POST",
    "/events/{eventKey}/partner-invites/{inviteId}/accept",
    "Accept a partner invite made to this player: the two form a team of the window.",
    TeamResponse,
    errors=(
        *PLAYER_WRITE_ERRORS,
        EVENT_NOT_FOUND,
        EVENT_NOT_OPEN,
        INVITE_NOT_FOUND,
        ALREADY_ON_TEAM,
        INVITE_EXPIRED,
    ),
)

ROUTES = (SERVER_PUT_ROSTER, SERVER_TEAM, SDK_MY_TEAM, SDK_INVITE, SDK_ACCEPT)
