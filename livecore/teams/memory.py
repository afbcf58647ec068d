"""The teams port in memory."""

from __future__ import annotations

from datetime import datetime

import attrs

from livecore.memory.journal import AreaPort
from livecore.players.rules import Player
from livecore.teams.rules import PartnerInvite, Team, TeamMember
from livecore.teams.store import TeamStore


@attrs.define
class TeamTables:
    """The teams area's tables in memory."""

    teams: dict[str, Team] = attrs.field(factory=dict)
    team_members: dict[str, TeamMember] = attrs.field(factory=dict)  # by seat id
    # (window id, player id) -> the player's seat that is not left in that window
    team_seats: dict[tuple[str, str], str] = attrs.field(factory=dict)
    invites: dict[str, PartnerInvite] = attrs.field(factory=dict)
    # Each team's seats, each window's teams and the invites between two players in a window: what a
    # progress write, a window's close and an invite look up, among a season's every team.
    team_seat_ids: dict[str, dict[str, None]] = attrs.field(factory=dict)
    window_teams: dict[str, dict[str, None]] = attrs.field(factory=dict)
    invite_pairs: dict[tuple[str, str, str], dict[str, None]] = attrs.field(factory=dict)


def _pair(invite: PartnerInvite) -> tuple[str, str, str]:
    a, b = sorted((invite.from_player_id, invite.to_player_id))
    return (invite.window_id, a, b)


class MemoryTeams(AreaPort[TeamTables]):
    __slots__ = ()
    TABLES = TeamTables

    def get(self, game_id: str, team_id: str) -> Team | None:
        team = self._t.teams.get(team_id)
        return team if team is not None and team.game_id == game_id else None

    def insert(self, team: Team) -> None:
        self._tx.put(self._t.teams, team.id, team)
        self._tx.put(self._t.window_teams.setdefault(team.window_id, {}), team.id, None)

    def update(self, team: Team) -> None:
        self._tx.put(self._t.teams, team.id, team)

    def of_window(self, window_id: str) -> list[Team]:
        teams = self._t.teams
        found = [teams[i] for i in self._t.window_teams.get(window_id, {})]
        return sorted(found, key=lambda team: (-team.score, team.created_at, team.id))

    def put_member(self, member: TeamMember) -> None:
        # The SQL stores' unique (window_id, player_id) over the seats that are not left.
        held = (member.window_id, member.player_id)
        if member.seated and self._t.team_seats.get(held, member.seat_id) != member.seat_id:
            raise KeyError(f"player {member.player_id!r} sits on a team of window {member.window_id!r}")
        before = self._t.team_members.get(member.seat_id)
        if before is not None and before.seated:
            self._tx.drop(self._t.team_seats, (before.window_id, before.player_id))
        if member.seated:
            self._tx.put(self._t.team_seats, held, member.seat_id)
        self._tx.put(self._t.team_members, member.seat_id, member)
        seats = self._t.team_seat_ids.setdefault(member.team_id, {})
        if member.seat_id not in seats:
            self._tx.put(seats, member.seat_id, None)

    def members(self, team_id: str) -> list[TeamMember]:
        members = self._t.team_members
        mine = [members[i] for i in self._t.team_seat_ids.get(team_id, {})]
        return sorted(mine, key=lambda m: (m.joined_at, m.seat_id))

    def seat_in_window(self, window_id: str, player_id: str) -> TeamMember | None:
        seat_id = self._t.team_seats.get((window_id, player_id))
        return None if seat_id is None else self._t.team_members[seat_id]

    def insert_invite(self, invite: PartnerInvite) -> None:
        self.update_invite(invite)

    def update_invite(self, invite: PartnerInvite) -> None:
        before = self._t.invites.get(invite.id)
        if before is not None and _pair(before) != _pair(invite):
            self._tx.drop(self._t.invite_pairs.get(_pair(before), {}), invite.id)
        self._tx.put(self._t.invites, invite.id, invite)
        between = self._t.invite_pairs.setdefault(_pair(invite), {})
        if invite.id not in between:
            self._tx.put(between, invite.id, None)

    def _drop_invite(self, invite: PartnerInvite) -> None:
        self._tx.drop(self._t.invite_pairs.get(_pair(invite), {}), invite.id)
        self._tx.drop(self._t.invites, invite.id)

    def invite(self, game_id: str, invite_id: str) -> PartnerInvite | None:
        invite = self._t.invites.get(invite_id)
        return invite if invite is not None and invite.game_id == game_id else None

    def pending_between(
        self, window_id: str, player_a: str, player_b: str, now: datetime
    ) -> PartnerInvite | None:
        a, b = sorted((player_a, player_b))
        invites = self._t.invites
        return next(
            (
                i
                for i in (invites[k] for k in self._t.invite_pairs.get((window_id, a, b), {}))
                if i.accepted_at is None and i.expires_at > now
            ),
            None,
        )

    def reassign(self, from_id: str, to: Player) -> None:
        merging = to.id != from_id
        for seat in [m for m in self._t.team_members.values() if m.player_id == from_id]:
            if merging and seat.seated and (seat.window_id, to.id) in self._t.team_seats:
                self._tx.drop(self._t.team_seats, (seat.window_id, from_id))
                self._tx.drop(self._t.team_members, seat.seat_id)
                self._tx.drop(self._t.team_seat_ids.get(seat.team_id, {}), seat.seat_id)
                team = self._t.teams[seat.team_id]
                self.update(attrs.evolve(team, member_count=team.member_count - 1))
            else:
                self.put_member(attrs.evolve(seat, player_id=to.id, external_player_id=to.external_id))
        for invite in list(self._t.invites.values()):
            ends = {invite.from_player_id, invite.to_player_id}
            if from_id not in ends:
                continue
            if merging and ends == {from_id, to.id} and invite.accepted_at is None:
                self._drop_invite(invite)
                continue
            if invite.from_player_id == from_id:
                invite = attrs.evolve(invite, from_player_id=to.id, from_external_id=to.external_id)
            if invite.to_player_id == from_id:
                invite = attrs.evolve(invite, to_player_id=to.id, to_external_id=to.external_id)
            self.update_invite(invite)


def _implements_the_port(port: MemoryTeams) -> TeamStore:
    return port  # mypy checks the class against the area's port here
