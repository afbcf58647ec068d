"""The players area's table, declared (:data:`SCHEMA`), and the area's migrations (:data:`MIGRATIONS`), which
take over what the service's history applied to it (:data:`HISTORY`, under the names deployed databases
recorded). Its ``ServerArea`` declares them, and a store adds them to the shared ones.

:data:`SQL_PORTS`: the area's SQL ports, by the transaction attribute that reaches each (``tx.<name>``)."""

from __future__ import annotations

from typing import Any

from livecore.names import fold
from livecore_server.players.sql import PostgresPlayers, SqlitePlayers, SqlPlayers
from livecore_server.players.sql_presence import SqlPresence
from livecore_server.storage.area_storage import AreaMigration, SqlPort
from livecore_server.storage.history import History
from livecore_server.storage.schema import (
    BIGINT,
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
            # The platform key and app version the SDK last reported (livecore.platforms).
            nullable("platform"),
            nullable("app_version"),
            # An operator's country override; ``country`` is the resolved one.
            nullable("country_override"),
            # The player's first active day and the days it was active from it, a bit a day
            # (livecore.players.rules.Activity): what a population's return curve is fitted from.
            nullable("first_day", since="0008_player_days"),
            Column("days", BIGINT, default=0, since="0008_player_days"),
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


# Text in byte order, as PostgreSQL's first migration spelled it.
T = 'TEXT COLLATE "C"'

# What the service's history applied to the players' table, under the names deployed databases recorded:
# the table's creation in the first migrations, then what was added to it.
HISTORY = History(
    sqlite=(
        (
            "0001_foundation",
            [
                """CREATE TABLE players (
                    id TEXT PRIMARY KEY,
                    game_id TEXT NOT NULL REFERENCES games(id),
                    env TEXT NOT NULL,
                    external_id TEXT NOT NULL,
                    first_seen_at INTEGER NOT NULL,
                    last_seen_at INTEGER NOT NULL,
                    anon_name TEXT NOT NULL,
                    anon_avatar TEXT,
                    display_name TEXT,
                    display_avatar TEXT,
                    country TEXT,
                    secret_hash TEXT,
                    secret_prefix TEXT,
                    registered_at INTEGER,
                    secret_rotated_at INTEGER,
                    ban_reason TEXT,
                    banned_at INTEGER,
                    sessions INTEGER NOT NULL DEFAULT 0,
                    last_active_at INTEGER,
                    streak INTEGER NOT NULL DEFAULT 0,
                    best_streak INTEGER NOT NULL DEFAULT 0,
                    streak_day TEXT,
                    context TEXT NOT NULL DEFAULT '{}',
                    UNIQUE (game_id, external_id)
                )""",
                # The streak sweep touches only players with a running streak.
                "CREATE INDEX players_running_streak ON players (streak_day) WHERE streak > 0",
            ],
        ),
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
            # with the player tools', the purchases' and the grants' tables and indexes).
            "0010_player_tools",
            [
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
            "0001_core",
            [
                f"""CREATE TABLE players (
                    id {T} PRIMARY KEY,
                    game_id {T} NOT NULL REFERENCES games(id),
                    env {T} NOT NULL,
                    external_id {T} NOT NULL,
                    first_seen_at BIGINT NOT NULL,
                    last_seen_at BIGINT NOT NULL,
                    anon_name {T} NOT NULL,
                    anon_avatar {T},
                    display_name {T},
                    display_avatar {T},
                    country {T},
                    secret_hash {T},
                    secret_prefix {T},
                    registered_at BIGINT,
                    secret_rotated_at BIGINT,
                    ban_reason {T},
                    banned_at BIGINT,
                    sessions INTEGER NOT NULL DEFAULT 0,
                    last_active_at BIGINT,
                    streak INTEGER NOT NULL DEFAULT 0,
                    best_streak INTEGER NOT NULL DEFAULT 0,
                    streak_day {T},
                    context JSON NOT NULL DEFAULT '{{}}',
                    friend_code {T},
                    presence_at BIGINT,
                    presence_status {T},
                    search_name {T},
                    debug_reason {T},
                    debug_at BIGINT,
                    lifecycle {T} NOT NULL DEFAULT 'active',
                    merged_into {T},
                    UNIQUE (game_id, external_id)
                )""",
                # The streak sweep touches only players with a running streak.
                "CREATE INDEX players_running_streak ON players (streak_day) WHERE streak > 0",
                "CREATE UNIQUE INDEX players_by_friend_code ON players (game_id, env, friend_code)"
                " WHERE friend_code IS NOT NULL",
                # Suggestions: a bounded range of the most recently active players of a game.
                "CREATE INDEX players_recently_active ON players (game_id, env, last_active_at)"
                " WHERE last_active_at IS NOT NULL",
                # Short search text (1-2 characters) matches name prefixes through this index.
                "CREATE INDEX players_by_search_name ON players (game_id, env, search_name)",
            ],
        ),
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

# The area's migrations, recorded as ``players:<name>``: they take over what the service's history applied
# (:data:`HISTORY`), each recognised by the names it recorded.
MIGRATIONS = (
    AreaMigration.taking_over("0001_players", HISTORY, sqlite="0001_foundation", postgres="0001_core"),
    AreaMigration.taking_over("0002_presence", HISTORY, sqlite="0006_presence"),
    AreaMigration.taking_over("0003_player_search", HISTORY, sqlite="0008_player_search"),
    AreaMigration.taking_over(
        "0004_search_name_index_for_searches_only",
        HISTORY,
        postgres="0004_search_name_index_for_searches_only",
    ),
    AreaMigration.taking_over("0005_player_lifecycle", HISTORY, sqlite="0010_player_tools"),
    AreaMigration.taking_over(
        "0006_player_build", HISTORY, sqlite="0025_player_build", postgres="0017_player_build"
    ),
    AreaMigration.taking_over(
        "0007_player_country_override",
        HISTORY,
        sqlite="0026_player_country_override",
        postgres="0018_player_country_override",
    ),
    AreaMigration.adding("0008_player_days", SCHEMA),
)

SQL_PORTS: dict[str, SqlPort | Dialects] = {
    "players": Dialects(SqlPlayers, sqlite=SqlitePlayers, postgres=PostgresPlayers),
    # What the presence board (livecore_server.players.presence) writes in batches.
    "presence": SqlPresence,
}
