"""The teams area's tables, declared (:data:`SCHEMA`), and the migrations of each dialect that built them
(:data:`HISTORY`), under the names deployed databases recorded. The area declares them (``ServerArea``), and
its store adds them to the shared ones."""

from __future__ import annotations

from livecore_server.storage.area_storage import taken_over
from livecore_server.storage.history import History
from livecore_server.storage.schema import (
    INT,
    JSON,
    MS,
    PLAYER,
    POSTGRES,
    REAL,
    SQLITE,
    Column,
    Index,
    Ref,
    Schema,
    nullable,
    table,
)

SCHEMA = Schema(
    tables=(
        # Event teams, one per window and key (the id is derived from the two). No foreign key to windows: a
        # roster PUT may name the next scheduled window before it opens. ``rank_key`` is the score negated, so
        # one ascending index gives the team board's order (best first), as board_entries' does.
        table(
            "teams",
            Column("id"),
            Column("game_id", references=Ref("games")),
            Column("env"),
            Column("event_key"),
            Column("event_id"),
            Column("window_id"),
            Column("key"),
            nullable("name"),
            Column("formation"),
            nullable("goal", REAL),
            Column("created_at", MS),
            nullable("attributes", JSON),
            Column("member_count", INT),
            Column("score", REAL),
            Column("rank_key", REAL),
            nullable("completed_at", MS),
            Column("milestones", JSON),
            nullable("final_rank", INT),
            nullable("finalized_at", MS),
            rowid=False,
        ),
        # A player's seats on teams, those left included (a left seat keeps its contribution for the team's
        # score). The unique index ``team_members_seated`` holds a player to one seat not left per window.
        table(
            "team_members",
            Column("seat_id"),
            Column("team_id", references=Ref("teams")),
            Column("window_id"),
            Column("player_id", references=PLAYER),
            Column("external_player_id"),
            Column("joined_at", MS),
            Column("contribution", REAL),
            nullable("left_at", MS),
            nullable("left_reason"),
            primary_key=("seat_id",),
            rowid=False,
        ),
        # Invitations to pair up for a window; ``team_id`` is the team an accepted one formed.
        table(
            "partner_invites",
            Column("id"),
            Column("game_id", references=Ref("games")),
            Column("env"),
            Column("event_key"),
            Column("window_id"),
            Column("from_player_id", references=PLAYER),
            Column("from_external_id"),
            Column("to_player_id", references=PLAYER),
            Column("to_external_id"),
            Column("created_at", MS),
            Column("expires_at", MS),
            nullable("accepted_at", MS),
            Column("team_id", null=True, references=Ref("teams")),
            rowid=False,
        ),
    ),
    indexes=(
        # A window's teams in the team board's order.
        Index("teams_by_rank", "teams", ("window_id", "rank_key", "created_at", "id")),
        Index("team_members_in_order", "team_members", ("team_id", "joined_at", "seat_id")),
        # One seat not left per player and window, whatever two processes race: what refuses a player a second
        # team of a window (a left seat stays, and frees the window).
        Index(
            "team_members_seated",
            "team_members",
            ("window_id", "player_id"),
            unique=True,
            where="left_at IS NULL",
        ),
        # A merge's and an erasure's look-up of a player's seats.
        Index("team_members_by_player", "team_members", ("player_id", "window_id")),
        # Invites between two players in a window, looked up each way; by the sender for a merge or an
        # erasure, and by the invitee below.
        Index("partner_invites_between", "partner_invites", ("from_player_id", "to_player_id", "window_id")),
        Index("partner_invites_to", "partner_invites", ("to_player_id", "from_player_id", "window_id")),
    ),
)

# Event team ids are derived from their window and key, so a roster PUT names a team by computing its id:
# teams stored under the old prefix ``tm_`` take the pinned ``team_`` (the rest of the id unchanged), with
# what refers to them. A new row, then the references, then the old row: every step keeps the foreign keys.
# The same SQL on both dialects.
_OLD_TEAM = "substr({column}, 1, 3) = 'tm_'"
_NEW_TEAM = "'team_' || substr({column}, 4)"
_TEAM_COLUMNS = (
    "game_id, env, event_key, event_id, window_id, key, name, formation, goal, created_at, attributes, "
    "member_count, score, rank_key, completed_at, milestones, final_rank, finalized_at"
)


def _team_reference(table: str, column: str, also: str = "TRUE") -> str:
    return (
        f"UPDATE {table} SET {column} = {_NEW_TEAM.format(column=column)} "
        f"WHERE {also} AND {_OLD_TEAM.format(column=column)}"
    )


_REPREFIX = [
    f"INSERT INTO teams (id, {_TEAM_COLUMNS}) SELECT {_NEW_TEAM.format(column='id')}, {_TEAM_COLUMNS} "
    f"FROM teams WHERE {_OLD_TEAM.format(column='id')}",
    _team_reference("team_members", "team_id"),
    _team_reference("partner_invites", "team_id"),
    _team_reference("grants", "source_ref_id", "source_kind IN ('event_team_milestone', 'event_team_rank')"),
    f"DELETE FROM teams WHERE {_OLD_TEAM.format(column='id')}",
]

HISTORY = History(
    sqlite=(
        (
            # Event teams, their members' seats and partner invites.
            "0019_teams",
            [
                *SCHEMA.create_statements("teams", SQLITE),
                *SCHEMA.create_statements("team_members", SQLITE),
                *SCHEMA.create_statements("partner_invites", SQLITE),
            ],
        ),
        (
            # Event teams take the pinned id prefix ``team_`` (:data:`_REPREFIX`): an id drawn rather than
            # derived would need nothing, a stored one keeps working.
            "0023_team_id_prefix",
            _REPREFIX,
        ),
    ),
    postgres=(
        (
            # Event teams, their members' seats and partner invites.
            "0011_teams",
            [
                *SCHEMA.create_statements("teams", POSTGRES),
                *SCHEMA.create_statements("team_members", POSTGRES),
                *SCHEMA.create_statements("partner_invites", POSTGRES),
            ],
        ),
        (
            # Event teams take the pinned id prefix ``team_`` (:data:`_REPREFIX` says why).
            "0015_team_id_prefix",
            _REPREFIX,
        ),
    ),
)

# The area's migrations, recorded as ``teams:<name>``: those of :data:`HISTORY`, which the service's
# history applied under its own numbers before the area had migrations of its own.
MIGRATIONS = taken_over(HISTORY)
