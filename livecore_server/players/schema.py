"""The players area's table, declared (:data:`SCHEMA`), and the migrations of each dialect that changed it
(:data:`HISTORY`), under the names deployed databases recorded; the shared foundation migrations created it.
Its ``ServerArea`` declares them, and a store adds them to the shared ones.

:data:`SQL_PORTS`: the area's SQL ports, by the transaction attribute that reaches each (``tx.<name>``)."""

from __future__ import annotations

from typing import Any

from livecore.names import fold
from livecore_server.players.sql import PostgresPlayers, SqlitePlayers, SqlPlayers
from livecore_server.storage.history import History, Recognised
from livecore_server.storage.schema import (
    INT,
    JSON,
    MS,
    POSTGRES,
    SQLITE,
    Column,
    Index,
    Only,
    Raw,
    Ref,
    Schema,
    Where,
    nullable,
    table,
)
from livecore_server.storage.sqlport import Dialects

_SEARCH_NAME_WHERE = Where(
    sqlite=None,
    postgres="search_name IS NOT NULL",
    why="PostgreSQL's planner, before the table is analyzed, could take this index for a look-up by"
    " external id (it also starts with game_id); partial on a condition every name search implies, it"
    " serves name searches only. search_name is never NULL, so the index loses no row",
)

_FTS = Only(SQLITE, "SQLite's name search of three or more characters (PostgreSQL has its trigram index)")

SCHEMA = Schema(
    tables=(
        table(
            "players",
            Column("id"),
            Column("game_id", references=Ref("games")),
            Column("env"),
            Column("external_id"),
            Column("first_seen_at", MS),
            Column("last_seen_at", MS),
            Column("anon_name"),
            nullable("anon_avatar"),
            nullable("display_name"),
            nullable("display_avatar"),
            nullable("country"),
            nullable("secret_hash"),
            nullable("secret_prefix"),
            nullable("registered_at", MS),
            nullable("secret_rotated_at", MS),
            nullable("ban_reason"),
            nullable("banned_at", MS),
            Column("sessions", INT, default=0),
            nullable("last_active_at", MS),
            Column("streak", INT, default=0),
            Column("best_streak", INT, default=0),
            nullable("streak_day"),
            Column("context", JSON, default="{}"),
            nullable("friend_code"),
            nullable("presence_at", MS),
            nullable("presence_status"),
            # What the name search matches: the display name, else the anonymized one, lower-cased.
            nullable("search_name"),
            nullable("debug_reason"),
            nullable("debug_at", MS),
            Column("lifecycle", default="active"),
            nullable("merged_into"),
            # The platform key and app version the SDK last reported (livecore.players.platforms).
            nullable("platform"),
            nullable("app_version"),
            # An operator's country override; ``country`` is the resolved one.
            nullable("country_override"),
            unique=(("game_id", "external_id"),),
        ),
    ),
    indexes=(
        # The streak sweep touches only players with a running streak.
        Index("players_running_streak", "players", ("streak_day",), where="streak > 0"),
        Index(
            "players_by_friend_code",
            "players",
            ("game_id", "env", "friend_code"),
            unique=True,
            where="friend_code IS NOT NULL",
        ),
        # Suggestions: a bounded range of the most recently active players of a game.
        Index(
            "players_recently_active",
            "players",
            ("game_id", "env", "last_active_at"),
            where="last_active_at IS NOT NULL",
        ),
        # Short search text (1-2 characters) matches name prefixes through this index.
        Index(
            "players_by_search_name", "players", ("game_id", "env", "search_name"), where=_SEARCH_NAME_WHERE
        ),
        # Longer search text: ``search_name ILIKE '%text%'`` (SQLite has its full-text table, below).
        Index(
            "players_name_trigrams",
            "players",
            ("search_name {ops}",),
            using="GIN",
            optional=True,
            only=Only(POSTGRES, "pg_trgm's index of the name search; SQLite searches its FTS5 table"),
        ),
    ),
    # The name search's trigram index on SQLite, kept by triggers that fire only when the name changes (a
    # heartbeat rewrites the row, not the name).
    raw=(
        Raw(
            "player_names",
            "table",
            "players",
            "CREATE VIRTUAL TABLE player_names USING fts5("
            "search_name, content='players', content_rowid='rowid', tokenize='trigram')",
            _FTS,
        ),
        Raw(
            "player_names_insert",
            "trigger",
            "players",
            "CREATE TRIGGER player_names_insert AFTER INSERT ON players BEGIN"
            " INSERT INTO player_names (rowid, search_name) VALUES (new.rowid, new.search_name); END",
            _FTS,
        ),
        Raw(
            "player_names_delete",
            "trigger",
            "players",
            "CREATE TRIGGER player_names_delete AFTER DELETE ON players BEGIN"
            " INSERT INTO player_names (player_names, rowid, search_name)"
            " VALUES ('delete', old.rowid, old.search_name); END",
            _FTS,
        ),
        Raw(
            "player_names_update",
            "trigger",
            "players",
            "CREATE TRIGGER player_names_update AFTER UPDATE OF search_name ON players"
            " WHEN old.search_name IS NOT new.search_name BEGIN"
            " INSERT INTO player_names (player_names, rowid, search_name)"
            " VALUES ('delete', old.rowid, old.search_name);"
            " INSERT INTO player_names (rowid, search_name) VALUES (new.rowid, new.search_name); END",
            _FTS,
        ),
    ),
)


def refold_player_names(conn: Any, mark: str) -> None:
    """The players' search names as names now compare: the fold of what was kept (the name lower-cased,
    which folds as the name does)."""
    rows = conn.execute("SELECT id, search_name FROM players WHERE search_name IS NOT NULL").fetchall()
    for player_id, old in rows:
        new = fold(old)
        if new != old:
            conn.execute(f"UPDATE players SET search_name = {mark} WHERE id = {mark}", (new, player_id))


HISTORY = History(
    sqlite=(
        (
            "0006_presence",
            [
                "ALTER TABLE players ADD COLUMN presence_at INTEGER",
                "ALTER TABLE players ADD COLUMN presence_status TEXT",
            ],
        ),
        (
            "0008_player_search",
            [
                # The name search matches on: the display name, else the anonymized one, lower-cased.
                "ALTER TABLE players ADD COLUMN search_name TEXT",
                "UPDATE players SET search_name = lower(COALESCE(display_name, anon_name))",
                # Short text (1-2 characters) matches name prefixes through this index.
                "CREATE INDEX players_by_search_name ON players (game_id, env, search_name)",
                # Longer text matches anywhere in the name through a trigram index kept by triggers, which
                # fire only when the name changes (a heartbeat rewrites the row, not the name).
                "CREATE VIRTUAL TABLE player_names USING fts5("
                "search_name, content='players', content_rowid='rowid', tokenize='trigram')",
                "INSERT INTO player_names (player_names) VALUES ('rebuild')",
                "CREATE TRIGGER player_names_insert AFTER INSERT ON players BEGIN"
                " INSERT INTO player_names (rowid, search_name) VALUES (new.rowid, new.search_name); END",
                "CREATE TRIGGER player_names_delete AFTER DELETE ON players BEGIN"
                " INSERT INTO player_names (player_names, rowid, search_name)"
                " VALUES ('delete', old.rowid, old.search_name); END",
                "CREATE TRIGGER player_names_update AFTER UPDATE OF search_name ON players"
                " WHEN old.search_name IS NOT new.search_name BEGIN"
                " INSERT INTO player_names (player_names, rowid, search_name)"
                " VALUES ('delete', old.rowid, old.search_name);"
                " INSERT INTO player_names (rowid, search_name) VALUES (new.rowid, new.search_name); END",
            ],
        ),
        (
            # The moderation and lifecycle columns the player tools need (``0010_player_tools`` added them,
            # with the player tools', the purchases' and the grants' tables and indexes, which those areas
            # now build in their own migrations).
            "0010_player_lifecycle",
            [
                Recognised(("0010_player_tools",)),
                "ALTER TABLE players ADD COLUMN debug_reason TEXT",
                "ALTER TABLE players ADD COLUMN debug_at INTEGER",
                "ALTER TABLE players ADD COLUMN lifecycle TEXT NOT NULL DEFAULT 'active'",
                "ALTER TABLE players ADD COLUMN merged_into TEXT",
            ],
        ),
        (
            # The platform and app version the SDK last reported for each player.
            "0025_player_build",
            [
                SCHEMA.add_column("players", "platform", SQLITE),
                SCHEMA.add_column("players", "app_version", SQLITE),
            ],
        ),
        (
            # An operator's override of a player's country.
            "0026_player_country_override",
            [SCHEMA.add_column("players", "country_override", SQLITE)],
        ),
    ),
    postgres=(
        (
            # A player is looked up by (game_id, external_id) through its unique index. Until its table is
            # analyzed, PostgreSQL rates the search-name index, which also starts with game_id, as cheap as
            # that one, and could pick it for that look-up (measured in the reads ahead: every player of the
            # game read for each key, in search-name order, external_id a filter). Partial on a condition
            # every name search implies (its comparisons and ILIKE are false on NULL), it serves only name
            # searches. search_name is never NULL (the lower-cased display or anonymous name): the index
            # loses no row.
            "0004_search_name_index_for_searches_only",
            [
                "DROP INDEX players_by_search_name",
                "CREATE INDEX players_by_search_name ON players (game_id, env, search_name)"
                " WHERE search_name IS NOT NULL",
            ],
        ),
        (
            # The platform and app version the SDK last reported for each player.
            "0017_player_build",
            [
                SCHEMA.add_column("players", "platform", POSTGRES),
                SCHEMA.add_column("players", "app_version", POSTGRES),
            ],
        ),
        (
            # An operator's override of a player's country.
            "0018_player_country_override",
            [SCHEMA.add_column("players", "country_override", POSTGRES)],
        ),
    ),
)

SQL_PORTS = {"players": Dialects(SqlPlayers, sqlite=SqlitePlayers, postgres=PostgresPlayers)}
