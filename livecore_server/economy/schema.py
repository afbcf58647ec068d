"""The economy area's tables, declared (:data:`SCHEMA`): the ledger and the balances it leaves. Its SQLite
migration, ``0004_economy_and_grants``, also created the grants area's table (one migration, one recorded
name); on PostgreSQL the foundation migration created them (:data:`HISTORY`, under the names deployed
databases recorded). Its ``ServerArea`` declares them, and a store adds them to the shared ones.

:data:`SQL_PORTS`: the area's SQL ports, by the transaction attribute that reaches each (``tx.<name>``)."""

from __future__ import annotations

from livecore_server.economy.sql import SqlLedger
from livecore_server.storage.history import History
from livecore_server.storage.schema import (
    BIGINT,
    JSON,
    MS,
    PLAYER,
    SEQ,
    Column,
    Index,
    Schema,
    nullable,
    table,
)

SCHEMA = Schema(
    tables=(
        table(
            "ledger",
            Column("seq", SEQ),
            Column("id", unique=True),
            Column("player_id", references=PLAYER),
            Column("game_id"),
            Column("resource_key"),
            Column("resource_type"),
            Column("delta", BIGINT),
            Column("balance_after", BIGINT, check="balance_after >= 0"),
            Column("reason"),
            nullable("note"),
            nullable("source_ref_id"),
            Column("actor", JSON),
            Column("created_at", MS),
            primary_key=("seq",),
        ),
        # The balance each ledger entry leaves, beside the ledger for one-row reads; the database refuses a
        # negative amount even if a rule were bypassed.
        table(
            "holdings",
            Column("player_id", references=PLAYER),
            Column("resource_key"),
            Column("amount", BIGINT, check="amount >= 0"),
            Column("parameters", JSON, default="{}"),
            primary_key=("player_id", "resource_key"),
            rowid=False,
        ),
    ),
    indexes=(Index("ledger_by_player", "ledger", ("player_id", "resource_key", "seq")),),
)

HISTORY = History(
    sqlite=(
        (
            "0004_economy_and_grants",
            [
                """CREATE TABLE ledger (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                id TEXT NOT NULL UNIQUE,
                player_id TEXT NOT NULL REFERENCES players(id),
                game_id TEXT NOT NULL,
                resource_key TEXT NOT NULL,
                resource_type TEXT NOT NULL,
                delta INTEGER NOT NULL,
                balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
                reason TEXT NOT NULL,
                note TEXT,
                source_ref_id TEXT,
                actor TEXT NOT NULL,
                created_at INTEGER NOT NULL
            )""",
                "CREATE INDEX ledger_by_player ON ledger (player_id, resource_key, seq)",
                # The balance each ledger entry leaves, kept beside the ledger for one-row reads; the database
                # refuses a negative amount even if a rule were bypassed.
                """CREATE TABLE holdings (
                player_id TEXT NOT NULL REFERENCES players(id),
                resource_key TEXT NOT NULL,
                amount INTEGER NOT NULL CHECK (amount >= 0),
                parameters TEXT NOT NULL DEFAULT '{}',
                PRIMARY KEY (player_id, resource_key)
            ) WITHOUT ROWID""",
                """CREATE TABLE grants (
                id TEXT PRIMARY KEY,
                game_id TEXT NOT NULL,
                player_id TEXT NOT NULL REFERENCES players(id),
                external_player_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                status TEXT NOT NULL,
                entries TEXT NOT NULL,
                source_kind TEXT NOT NULL,
                source_ref_id TEXT,
                metadata TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                expires_at INTEGER,
                claimed_at INTEGER,
                acked_by TEXT
            ) WITHOUT ROWID""",
                "CREATE INDEX grants_pending_by_player ON grants (player_id, created_at)"
                " WHERE status = 'pending'",
                "CREATE INDEX grants_to_expire ON grants (expires_at)"
                " WHERE status = 'pending' AND expires_at IS NOT NULL",
            ],
        ),
    ),
)

SQL_PORTS = {"ledger": SqlLedger}
