"""The player tools' tables (merges, erasures, the keys of imported rows), declared (:data:`SCHEMA`), and the
SQLite migration that built them (:data:`HISTORY`, under the name deployed databases recorded: it also created
the purchases area's table and added an index to the grants'); on PostgreSQL the foundation
migration created them. Its ``ServerArea`` declares them, and a store adds them to the shared ones.

:data:`SQL_PORTS`: the area's SQL ports, by the transaction attribute that reaches each (``tx.<name>``)."""

from __future__ import annotations

from livecore_server.player_tools.sql.erasures import SqlErasures
from livecore_server.player_tools.sql.merges import SqlMerges
from livecore_server.player_tools.sql.migrations import SqlMigrationKeys
from livecore_server.storage.history import History, Recognised
from livecore_server.storage.schema import (
    MS,
    Column,
    Index,
    Schema,
    table,
)

SCHEMA = Schema(
    tables=(
        # A merge is remembered by the source's original external id (replays answer no_op). An id can be
        # merged again once a new player took it: one row per merged player.
        table(
            "merges",
            Column("game_id"),
            Column("env"),
            Column("from_external_id"),
            Column("from_player_id"),
            Column("to_player_id"),
            Column("placeholder"),
            Column("merged_at", MS),
            primary_key=("game_id", "env", "from_external_id", "from_player_id"),
            rowid=False,
        ),
        # An erasure is remembered by a keyed hash of the original external id, never the id.
        table(
            "erasures",
            Column("game_id"),
            Column("external_id_hash"),
            Column("player_id"),
            Column("placeholder"),
            Column("reason"),
            Column("erased_at", MS),
            primary_key=("game_id", "external_id_hash", "player_id"),
            rowid=False,
        ),
        table(
            "migration_keys",
            Column("game_id"),
            Column("env"),
            Column("kind"),
            Column("key"),
            Column("fingerprint"),
            Column("created_at", MS),
            primary_key=("game_id", "env", "kind", "key"),
            rowid=False,
        ),
    ),
    indexes=(Index("merges_into", "merges", ("to_player_id",)),),
)

HISTORY = History(
    sqlite=(
        (
            # ``0010_player_tools`` less its index on gifts (which ``0012`` dropped again): the gifts
            # table is the gifts area's, built after this history.
            "0010_player_tools_tables",
            [
                Recognised(("0010_player_tools",)),
                "ALTER TABLE players ADD COLUMN debug_reason TEXT",
                "ALTER TABLE players ADD COLUMN debug_at INTEGER",
                "ALTER TABLE players ADD COLUMN lifecycle TEXT NOT NULL DEFAULT 'active'",
                "ALTER TABLE players ADD COLUMN merged_into TEXT",
                "CREATE INDEX grants_by_player ON grants (player_id, created_at)",
                # A merge is remembered by the source's original external id (replays answer no_op).
                # An id can be merged again once a new player took it: one row per merged player.
                """CREATE TABLE merges (
                game_id TEXT NOT NULL,
                env TEXT NOT NULL,
                from_external_id TEXT NOT NULL,
                from_player_id TEXT NOT NULL,
                to_player_id TEXT NOT NULL,
                placeholder TEXT NOT NULL,
                merged_at INTEGER NOT NULL,
                PRIMARY KEY (game_id, env, from_external_id, from_player_id)
            ) WITHOUT ROWID""",
                "CREATE INDEX merges_into ON merges (to_player_id)",
                # An erasure is remembered by a keyed hash of the original external id, never the id.
                """CREATE TABLE erasures (
                game_id TEXT NOT NULL,
                external_id_hash TEXT NOT NULL,
                player_id TEXT NOT NULL,
                placeholder TEXT NOT NULL,
                reason TEXT NOT NULL,
                erased_at INTEGER NOT NULL,
                PRIMARY KEY (game_id, external_id_hash, player_id)
            ) WITHOUT ROWID""",
                """CREATE TABLE purchases (
                id TEXT PRIMARY KEY,
                game_id TEXT NOT NULL,
                env TEXT NOT NULL,
                player_id TEXT NOT NULL REFERENCES players(id),
                transaction_id TEXT NOT NULL,
                store TEXT NOT NULL,
                product_id TEXT NOT NULL,
                product_type TEXT NOT NULL,
                amount_minor INTEGER NOT NULL,
                currency TEXT NOT NULL,
                normalized_amount_minor INTEGER NOT NULL,
                fx_rate REAL NOT NULL,
                validation_status TEXT NOT NULL,
                purchased_at INTEGER NOT NULL,
                tracked_at INTEGER NOT NULL,
                metadata TEXT NOT NULL,
                UNIQUE (game_id, env, transaction_id)
            ) WITHOUT ROWID""",
                "CREATE INDEX purchases_by_player ON purchases (player_id, purchased_at, id)",
                # Revenue reads: a game's purchases in a time range.
                "CREATE INDEX purchases_by_time ON purchases (game_id, env, purchased_at)",
                """CREATE TABLE migration_keys (
                game_id TEXT NOT NULL,
                env TEXT NOT NULL,
                kind TEXT NOT NULL,
                key TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (game_id, env, kind, key)
            ) WITHOUT ROWID""",
            ],
        ),
    ),
)

SQL_PORTS = {"merges": SqlMerges, "erasures": SqlErasures, "migrations": SqlMigrationKeys}
