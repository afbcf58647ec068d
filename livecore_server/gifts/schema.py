"""The gifts area's table, declared (:data:`SCHEMA`), and the SQLite migrations that built it
(:data:`HISTORY`, under the names deployed databases recorded); on PostgreSQL the foundation migration created
it. Its ``ServerArea`` declares them, and a store adds it to the shared ones.

:data:`SQL_PORTS`: the area's SQL ports, by the transaction attribute that reaches each (``tx.<name>``)."""

from __future__ import annotations

from livecore_server.gifts.sql import PostgresGifts, SqlGifts, SqliteGifts
from livecore_server.storage.history import History
from livecore_server.storage.schema import (
    BIGINT,
    BOOL,
    MS,
    PLAYER,
    POSTGRES,
    SEQ,
    Column,
    Index,
    Only,
    Schema,
    nullable,
    table,
)
from livecore_server.storage.sqlport import Dialects

SCHEMA = Schema(
    tables=(
        # Gifts sent in one millisecond are told apart by insertion order ("newest first" stays exact).
        table(
            "gifts",
            Column(
                "seq",
                SEQ,
                only=Only(POSTGRES, "SQLite's rowid is the insertion order (gifts is a rowid table there)"),
            ),
            Column("id"),
            Column("game_id"),
            Column("grant_id", unique=True),
            Column("sender_id", references=PLAYER),
            Column("recipient_id", references=PLAYER),
            Column("type"),
            Column("resource_key"),
            Column("amount", BIGINT, check="amount > 0"),
            nullable("message"),
            Column("status"),
            Column("sent_at", MS),
            nullable("expires_at", MS),
            nullable("claimed_at", MS),
            Column("deducted", BOOL),
            nullable("idempotency_key"),
        ),
    ),
    indexes=(
        # The sender's recent gifts (cooldown per friend, daily count, friend rows), covering.
        Index("gifts_sent", "gifts", ("sender_id", "sent_at", "recipient_id")),
        # Also a recipient's gifts rewritten by a merge or an erasure.
        Index("gifts_received", "gifts", ("recipient_id", "sent_at")),
        # A repeated idempotency key answers the gift it made, however long ago.
        Index(
            "gifts_by_key",
            "gifts",
            ("sender_id", "idempotency_key"),
            unique=True,
            where="idempotency_key IS NOT NULL",
        ),
    ),
)

HISTORY = History(
    sqlite=(
        (
            "0009_gifts",
            [
                # Set by `apply` once a manifest enables gifting; never cleared (the gift history,
                # docs/reference/gifts.md#lists).
                "ALTER TABLE games ADD COLUMN gifting_ever_enabled INTEGER NOT NULL DEFAULT 0",
                """CREATE TABLE gifts (
                id TEXT PRIMARY KEY,
                game_id TEXT NOT NULL,
                grant_id TEXT NOT NULL UNIQUE,
                sender_id TEXT NOT NULL REFERENCES players(id),
                recipient_id TEXT NOT NULL REFERENCES players(id),
                type TEXT NOT NULL,
                resource_key TEXT NOT NULL,
                amount INTEGER NOT NULL CHECK (amount > 0),
                message TEXT,
                status TEXT NOT NULL,
                sent_at INTEGER NOT NULL,
                expires_at INTEGER,
                claimed_at INTEGER,
                deducted INTEGER NOT NULL,
                idempotency_key TEXT
            )""",
                # A rowid table: the rowid is the insertion order, which breaks ties between gifts sent in the
                # same millisecond ("newest first" stays exact).
                # The sender's recent gifts (cooldown per friend, daily count, friend rows), covering.
                "CREATE INDEX gifts_sent ON gifts (sender_id, sent_at, recipient_id)",
                "CREATE INDEX gifts_received ON gifts (recipient_id, sent_at)",
                # A repeated idempotency key answers the gift it made, however long ago
                # (docs/reference/gifts.md#sending).
                "CREATE UNIQUE INDEX gifts_by_key ON gifts (sender_id, idempotency_key)"
                " WHERE idempotency_key IS NOT NULL",
            ],
        ),
        (
            # gifts_received (recipient_id, sent_at) serves every look-up by recipient, as it does on
            # PostgreSQL, which never had this index; dropping it saves a write on every gift.
            "0012_drop_gifts_by_recipient",
            ["DROP INDEX gifts_by_recipient"],
        ),
    ),
)

SQL_PORTS = {"gifts": Dialects(SqlGifts, sqlite=SqliteGifts, postgres=PostgresGifts)}
