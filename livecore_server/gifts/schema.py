"""The gifts area's table, declared (:data:`SCHEMA`), and the area's migrations (:data:`MIGRATIONS`,
rendered from the declaration). Its ``ServerArea`` declares them, and a store adds them to the shared ones."""

from __future__ import annotations

from livecore_server.storage.area_storage import AreaMigration
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

# The area's migrations, recorded as ``gifts:<name>``. Before the gifts had migrations of their own, the
# service's history built the table (SQLite's ``0009_gifts``, PostgreSQL's first migration, ``0001_core``)
# and dropped SQLite's index by recipient (``0012_drop_gifts_by_recipient``): a database that recorded
# those is recognised as holding what each builds.
MIGRATIONS = (
    AreaMigration.creating("0001_gifts", SCHEMA, "gifts").recognised_by(
        sqlite=("0009_gifts",), postgres=("0001_core",)
    ),
    # gifts_received (recipient_id, sent_at) serves every look-up by recipient, as it does on PostgreSQL,
    # which never had this index; dropping it saves a write on every gift. Only a database built before
    # 0012 has it.
    AreaMigration(
        "0002_drop_gifts_by_recipient", sqlite=["DROP INDEX IF EXISTS gifts_by_recipient"], postgres=[]
    ).recognised_by(sqlite=("0012_drop_gifts_by_recipient",)),
)
