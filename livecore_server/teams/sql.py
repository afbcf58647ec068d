"""The teams port in SQL, for SQLite and PostgreSQL: each read is one range of one index (schema.py's
``teams_*``, ``team_members_*`` and ``partner_invites_*``). A second seat not left of one player in one
window breaks the unique ``team_members_seated`` and fails the transaction with the database's integrity
error."""

from __future__ import annotations

from datetime import datetime

import orjson

from livecore.clock import to_millis
from livecore.players.rules import Player
from livecore.teams.rules import PartnerInvite, Team, TeamMember
from livecore_server.storage.rows import ms
from livecore_server.storage.sqlport import SqlPort
from livecore_server.teams.rows import (
    INVITE,
    INVITE_COLUMNS,
    TEAM,
    TEAM_COLUMNS,
    TEAM_MEMBER,
    TEAM_MEMBER_COLUMNS,
)

# An invite between two players, either way (parameters: a, b, b, a).
_BETWEEN = "((from_player_id = ? AND to_player_id = ?) OR (from_player_id = ? AND to_player_id = ?))"


class SqlTeams(SqlPort):
    __slots__ = ()

    def get(self, game_id: str, team_id: str) -> Team | None:
        row = self.db.read(
            f"SELECT {TEAM_COLUMNS.sql} FROM teams WHERE id = ? AND game_id = ?", (team_id, game_id)
        ).fetchone()
        return None if row is None else TEAM_COLUMNS.of(row)

    def insert(self, team: Team) -> None:
        self.db.insert(TEAM.insert, TEAM.params(team))

    def update(self, team: Team) -> None:
        # What a team's life changes; its game, event, window, key, formation and creation stay.
        self.db.write(
            "teams",
            "UPDATE teams SET name = ?, goal = ?, attributes = ?, member_count = ?, score = ?, rank_key = ?,"
            " completed_at = ?, milestones = ?, final_rank = ?, finalized_at = ? WHERE id = ?",
            (
                team.name,
                team.goal,
                None if team.attributes is None else orjson.dumps(team.attributes).decode(),
                team.member_count,
                team.score,
                -team.score,
                ms(team.completed_at),
                orjson.dumps(team.milestones).decode(),
                team.final_rank,
                ms(team.finalized_at),
                team.id,
            ),
        )

    def of_window(self, window_id: str) -> list[Team]:
        rows = self.db.read(
            f"SELECT {TEAM_COLUMNS.sql} FROM teams WHERE window_id = ? ORDER BY rank_key, created_at, id",
            (window_id,),
        )
        return [TEAM_COLUMNS.of(r) for r in rows]

    def put_member(self, member: TeamMember) -> None:
        self.db.insert(TEAM_MEMBER.insert, TEAM_MEMBER.params(member))

    def members(self, team_id: str) -> list[TeamMember]:
        rows = self.db.read(
            f"SELECT {TEAM_MEMBER_COLUMNS.sql} FROM team_members WHERE team_id = ?"
            " ORDER BY joined_at, seat_id",
            (team_id,),
        )
        return [TEAM_MEMBER_COLUMNS.of(r) for r in rows]

    def seat_in_window(self, window_id: str, player_id: str) -> TeamMember | None:
        row = self.db.read(
            f"SELECT {TEAM_MEMBER_COLUMNS.sql} FROM team_members"
            " WHERE window_id = ? AND player_id = ? AND left_at IS NULL",
            (window_id, player_id),
        ).fetchone()
        return None if row is None else TEAM_MEMBER_COLUMNS.of(row)

    def insert_invite(self, invite: PartnerInvite) -> None:
        self.db.insert(INVITE.insert, INVITE.params(invite))

    def update_invite(self, invite: PartnerInvite) -> None:
        # What accepting an invite changes.
        self.db.write(
            "partner_invites",
            "UPDATE partner_invites SET accepted_at = ?, team_id = ? WHERE id = ?",
            (ms(invite.accepted_at), invite.team_id, invite.id),
        )

    def invite(self, game_id: str, invite_id: str) -> PartnerInvite | None:
        row = self.db.read(
            f"SELECT {INVITE_COLUMNS.sql} FROM partner_invites WHERE id = ? AND game_id = ?",
            (invite_id, game_id),
        ).fetchone()
        return None if row is None else INVITE_COLUMNS.of(row)

    def pending_between(
        self, window_id: str, player_a: str, player_b: str, now: datetime
    ) -> PartnerInvite | None:
        row = self.db.read(
            f"SELECT {INVITE_COLUMNS.sql} FROM partner_invites WHERE {_BETWEEN}"
            " AND window_id = ? AND accepted_at IS NULL AND expires_at > ? LIMIT 1",
            (player_a, player_b, player_b, player_a, window_id, to_millis(now)),
        ).fetchone()
        return None if row is None else INVITE_COLUMNS.of(row)

    def reassign(self, from_id: str, to: Player) -> None:
        if to.id != from_id:
            # A merge: the source's seats not left in the windows where the target sits already go.
            self.db.write(
                "teams",
                "UPDATE teams SET member_count = member_count - 1 WHERE id IN"
                " (SELECT s.team_id FROM team_members s JOIN team_members t"
                " ON t.window_id = s.window_id AND t.player_id = ? AND t.left_at IS NULL"
                " WHERE s.player_id = ? AND s.left_at IS NULL)",
                (to.id, from_id),
            )
            self.db.write(
                "team_members",
                "DELETE FROM team_members WHERE player_id = ? AND left_at IS NULL AND window_id IN"
                " (SELECT window_id FROM team_members WHERE player_id = ? AND left_at IS NULL)",
                (from_id, to.id),
            )
            self.db.write(
                "partner_invites",
                f"DELETE FROM partner_invites WHERE accepted_at IS NULL AND {_BETWEEN}",
                (from_id, to.id, to.id, from_id),
            )
        self.db.write(
            "team_members",
            "UPDATE team_members SET player_id = ?, external_player_id = ? WHERE player_id = ?",
            (to.id, to.external_id, from_id),
        )
        self.db.write(
            "partner_invites",
            "UPDATE partner_invites SET from_player_id = ?, from_external_id = ? WHERE from_player_id = ?",
            (to.id, to.external_id, from_id),
        )
        self.db.write(
            "partner_invites",
            "UPDATE partner_invites SET to_player_id = ?, to_external_id = ? WHERE to_player_id = ?",
            (to.id, to.external_id, from_id),
        )


SQL_PORTS = {"teams": SqlTeams}
