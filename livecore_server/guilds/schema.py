"""The guilds area's tables, declared (:data:`SCHEMA`), and the migrations of each dialect that built them
(:data:`HISTORY`), under the names deployed databases recorded. The area declares them (``ServerArea``), and
its store adds them to the shared ones."""

from __future__ import annotations

from typing import Any

from livecore.guilds.rules import name_key
from livecore_server.players.schema import refold_player_names
from livecore_server.storage.area_storage import taken_over
from livecore_server.storage.history import History
from livecore_server.storage.schema import (
    BIGINT,
    INT,
    JSON,
    MS,
    PLAYER,
    POSTGRES,
    SQLITE,
    Column,
    Index,
    Only,
    Raw,
    Ref,
    Schema,
    nullable,
    table,
)

_GUILD_FTS = Only(
    SQLITE, "SQLite's guild name search of three or more characters (PostgreSQL has its trigram index)"
)

SCHEMA = Schema(
    tables=(
        # Guilds. ``name_key`` is the name casefolded: what the unique index ``guilds_by_name`` compares among
        # the guilds not disbanded, and what the name search matches. A rowid table: SQLite's full-text table
        # ``guild_names`` indexes it by rowid.
        table(
            "guilds",
            Column("id"),
            Column("game_id", references=Ref("games")),
            Column("env"),
            Column("name"),
            Column("name_key"),
            Column("join_type"),
            Column("created_at", MS),
            nullable("description"),
            nullable("badge"),
            nullable("country"),
            nullable("metadata", JSON),
            Column("member_count", INT),
            nullable("disbanded_at", MS),
            nullable("disband_reason"),
        ),
        # Each membership of a guild, from joining to leaving, kept after it ends (the guild's history, the
        # player's stints). ``joined_by`` and ``left_by`` are who made it start and end, as the webhooks'
        # ``by`` (JSON). The unique index ``guild_stints_current`` holds a player to one stint not ended.
        table(
            "guild_stints",
            Column("id"),
            Column("guild_id", references=Ref("guilds")),
            Column("game_id"),
            Column("env"),
            Column("player_id", references=PLAYER),
            Column("external_player_id"),
            Column("role"),
            Column("via"),
            Column("joined_at", MS),
            Column("joined_by", JSON),
            nullable("left_at", MS),
            nullable("left_reason"),
            nullable("left_by", JSON),
            rowid=False,
        ),
        table(
            "guild_join_requests",
            Column("id"),
            Column("guild_id", references=Ref("guilds")),
            Column("game_id"),
            Column("player_id", references=PLAYER),
            Column("external_player_id"),
            nullable("message"),
            Column("created_at", MS),
            Column("status"),
            nullable("resolved_at", MS),
            rowid=False,
        ),
        # ``status`` as stored is never ``expired``: an open request past ``expires_at`` reads so.
        table(
            "guild_help_requests",
            Column("id"),
            Column("guild_id", references=Ref("guilds")),
            Column("game_id"),
            Column("player_id", references=PLAYER),
            Column("external_player_id"),
            Column("type"),
            Column("resource_key"),
            Column("amount", BIGINT),
            Column("created_at", MS),
            Column("expires_at", MS),
            Column("donated", BIGINT),
            Column("status"),
            nullable("closed_at", MS),
            rowid=False,
        ),
        # The grants a donation made are named, not referenced: PostgreSQL may send a grant's insert after the
        # donation's (postgres_batches).
        table(
            "guild_donations",
            Column("id"),
            Column("request_id", references=Ref("guild_help_requests")),
            Column("guild_id"),
            Column("game_id"),
            Column("donor_player_id", references=PLAYER),
            Column("donor_external_player_id"),
            Column("amount", BIGINT),
            Column("grant_id"),
            nullable("reward_grant_id"),
            Column("donated_at", MS),
            rowid=False,
        ),
    ),
    indexes=(
        # One guild not disbanded per name (casefolded) in a game and environment, whatever two
        # processes race: what refuses a second live name; a disbanded guild frees its name.
        Index(
            "guilds_by_name",
            "guilds",
            ("game_id", "env", "name_key"),
            unique=True,
            where="disbanded_at IS NULL",
        ),
        # The search and the server's list, newest first: the guilds not disbanded, and all of them.
        Index(
            "guilds_live_newest",
            "guilds",
            ("game_id", "env", "created_at", "id"),
            where="disbanded_at IS NULL",
        ),
        Index("guilds_newest", "guilds", ("game_id", "env", "created_at", "id")),
        # Search text of three or more characters: ``name_key LIKE '%text%'`` (SQLite has its full-text
        # table).
        Index(
            "guilds_name_trigrams",
            "guilds",
            ("name_key {ops}",),
            using="GIN",
            optional=True,
            only=Only(POSTGRES, "pg_trgm's index of the guild name search; SQLite searches its FTS5 table"),
        ),
        # One stint not ended per player, whatever two processes race: what refuses a second guild.
        Index("guild_stints_current", "guild_stints", ("player_id",), unique=True, where="left_at IS NULL"),
        Index(
            "guild_stints_members", "guild_stints", ("guild_id", "joined_at", "id"), where="left_at IS NULL"
        ),
        Index("guild_stints_history", "guild_stints", ("guild_id", "joined_at", "id")),
        # A player's stints (newest first), the guilds it was ever in, and a merge's or erasure's look-up.
        Index("guild_stints_by_player", "guild_stints", ("player_id", "joined_at", "id")),
        # The hourly sweep's look-up of a game's leaders, before their players' last_seen_at.
        Index(
            "guild_stints_leaders",
            "guild_stints",
            ("game_id", "id"),
            where="left_at IS NULL AND role = 'leader'",
        ),
        Index(
            "guild_join_requests_pending",
            "guild_join_requests",
            ("guild_id", "created_at", "id"),
            where="status = 'pending'",
        ),
        # A player's pending requests; its requests of any status for a merge or an erasure.
        Index(
            "guild_join_requests_by_player",
            "guild_join_requests",
            ("player_id", "status", "created_at", "id"),
        ),
        # A guild's open help requests newest first, their expiry read from the index.
        Index(
            "guild_help_open",
            "guild_help_requests",
            ("guild_id", "created_at", "id", "expires_at"),
            where="status = 'open'",
        ),
        Index(
            "guild_help_open_of",
            "guild_help_requests",
            ("player_id", "created_at", "id"),
            where="status = 'open'",
        ),
        # A player's latest request to a guild (the cooldown); a merge's or erasure's look-up.
        Index("guild_help_by_player", "guild_help_requests", ("player_id", "guild_id", "created_at", "id")),
        Index("guild_donations_of_request", "guild_donations", ("request_id", "donated_at", "id")),
        Index("guild_donations_by_donor", "guild_donations", ("donor_player_id",)),
    ),
    raw=(
        # The guild name search's, as the players' (a guild's name key changes only when it is renamed).
        Raw(
            "guild_names",
            "table",
            "guilds",
            "CREATE VIRTUAL TABLE guild_names USING fts5("
            "name_key, content='guilds', content_rowid='rowid', tokenize='trigram')",
            _GUILD_FTS,
        ),
        Raw(
            "guild_names_insert",
            "trigger",
            "guilds",
            "CREATE TRIGGER guild_names_insert AFTER INSERT ON guilds BEGIN"
            " INSERT INTO guild_names (rowid, name_key) VALUES (new.rowid, new.name_key); END",
            _GUILD_FTS,
        ),
        Raw(
            "guild_names_delete",
            "trigger",
            "guilds",
            "CREATE TRIGGER guild_names_delete AFTER DELETE ON guilds BEGIN"
            " INSERT INTO guild_names (guild_names, rowid, name_key)"
            " VALUES ('delete', old.rowid, old.name_key); END",
            _GUILD_FTS,
        ),
        Raw(
            "guild_names_update",
            "trigger",
            "guilds",
            "CREATE TRIGGER guild_names_update AFTER UPDATE OF name_key ON guilds"
            " WHEN old.name_key IS NOT new.name_key BEGIN"
            " INSERT INTO guild_names (guild_names, rowid, name_key)"
            " VALUES ('delete', old.rowid, old.name_key);"
            " INSERT INTO guild_names (rowid, name_key) VALUES (new.rowid, new.name_key); END",
            _GUILD_FTS,
        ),
    ),
)


def refold_guild_names(conn: Any, mark: str) -> None:
    """Guild name keys as names now compare (:mod:`livecore.names`), oldest guild first. Two guilds not
    disbanded whose names only looked different keep the younger one's old key: both keep their names, and
    neither can be renamed to the other's."""
    rows = conn.execute(
        "SELECT id, game_id, env, name, name_key, disbanded_at FROM guilds ORDER BY created_at, id"
    )
    taken: set[tuple[str, str, str]] = set()
    changed: list[tuple[str, str]] = []
    for guild_id, game_id, env, name, old, disbanded_at in rows.fetchall():
        new = name_key(name)
        if disbanded_at is None:
            if (game_id, env, new) in taken:
                new = old
            taken.add((game_id, env, new))
        if new != old:
            changed.append((new, guild_id))
    for new, guild_id in changed:
        conn.execute(f"UPDATE guilds SET name_key = {mark} WHERE id = {mark}", (new, guild_id))


HISTORY = History(
    sqlite=(
        (
            # Guilds, their members' stints, join requests, help requests and donations.
            "0020_guilds",
            [
                *SCHEMA.create_statements("guilds", SQLITE),
                *SCHEMA.create_statements("guild_stints", SQLITE),
                *SCHEMA.create_statements("guild_join_requests", SQLITE),
                *SCHEMA.create_statements("guild_help_requests", SQLITE),
                *SCHEMA.create_statements("guild_donations", SQLITE),
            ],
        ),
        (
            # Names compare by their fold (NFKC, case folding, white space): guild keys and player search
            # names are recomputed.
            "0024_name_fold",
            [refold_guild_names, refold_player_names],
        ),
    ),
    postgres=(
        (
            # Guilds, their members' stints, join requests, help requests and donations.
            "0012_guilds",
            [
                *SCHEMA.create_statements("guilds", POSTGRES),
                *SCHEMA.create_statements("guild_stints", POSTGRES),
                *SCHEMA.create_statements("guild_join_requests", POSTGRES),
                *SCHEMA.create_statements("guild_help_requests", POSTGRES),
                *SCHEMA.create_statements("guild_donations", POSTGRES),
            ],
        ),
        (
            # Names compare by their fold (refold_guild_names, refold_player_names).
            "0016_name_fold",
            [refold_guild_names, refold_player_names],
        ),
    ),
)

# The area's migrations, recorded as ``guilds:<name>``: those of :data:`HISTORY`, which the service's
# history applied under its own numbers before the area had migrations of its own.
MIGRATIONS = taken_over(HISTORY)
