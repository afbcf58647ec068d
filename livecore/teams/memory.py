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


class MemoryTeams(AreaPort[TeamTables]):
    __slots__ = ()
    TABLES = TeamTables

    def get(self, game_id: str, team_id: str) -> Team | None:
        team = self._t.teams.get(team_id)
        return team if team is not None and team.game_id == game_id else None

    def insert(self, team: Team) -> None:
        self._tx.put(self._t.teams, team.id, team)

    def update(self, team: Team) -> None:
        self._tx.put(self._t.teams, team.id, team)

    def of_window(self, window_id: str) -> list[Team]:
        found = [team for team in self._t.teams.values() if team.window_id == window_id]
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

    def members(self, team_id: str) -> list[TeamMember]:
        mine = [m for m in self._t.team_members.values() if m.team_id == team_id]
        return sorted(mine, key=lambda m: (m.joined_at, m.seat_id))

    def seat_in_window(self, window_id: str, player_id: str) -> TeamMember | None:
        seat_id = self._t.team_seats.get((window_id, player_id))
        return None if seat_id is None else self._t.team_members[seat_id]

    def insert_invite(self, invite: PartnerInvite) -> None:
        self._tx.put(self._t.invites, invite.id, invite)

    def update_invite(self, invite: PartnerInvite) -> None:
        self._tx.put(self._t.invites, invite.id, invite)

    def invite(self, game_id: str, invite_id: str) -> PartnerInvite | None:
        invite = self._t.invites.get(invite_id)
        return invite if invite is not None and invite.game_id == game_id else None

    def pending_between(
        self, window_id: str, player_a: str, player_b: str, now: datetime
    ) -> PartnerInvite | None:
        return next(
            (
                i
                for i in self._t.invites.values()
                if i.window_id == window_id
                and (i.from_player_id, i.to_player_id) in ((player_a, player_b), (player_b, player_a))
                and i.accepted_at is None
                and i.expires_at > now
            ),
            None,
        )

    def reassign(self, from_id: str, to: Player) -> None:
        merging = to.id != from_id
        for seat in [m for m in self._t.team_members.values() if m.player_id == from_id]:
            if merging and seat.seated and (seat.window_id, to.id) in self._t.team_seats:
                self._tx.drop(self._t.team_seats, (seat.window_id, from_id))
                self._tx.drop(self._t.team_members, seat.seat_id)
                team = self._t.teams[seat.team_id]
                self.update(attrs.evolve(team, member_count=team.member_count - 1))
            else:
                self.put_member(attrs.evolve(seat, player_id=to.id, external_player_id=to.external_id))
        for invite in list(self._t.invites.values()):
            ends = {invite.from_player_id, invite.to_player_id}
            if from_id not in ends:
                continue
            if merging and ends == {from_id, to.id} and invite.accepted_at is None:
                self._tx.drop(self._t.invites, invite.id)
                continue
            if invite.from_player_id == from_id:
                invite = attrs.evolve(invite, from_player_id=to.id, from_external_id=to.external_id)
            if invite.to_player_id == from_id:
                invite = attrs.evolve(invite, to_player_id=to.id, to_external_id=to.external_id)
            self.update_invite(invite)


def _implements_the_port(port: MemoryTeams) -> TeamStore:
    return port  # mypy checks the class against the area's port here
