"""The economy area's tables, declared (:data:`SCHEMA`): the ledger and the balances it leaves, and the
area's migrations (:data:`MIGRATIONS`, rendered from the declaration). Its ``ServerArea`` declares them,
and a store adds them to the shared ones."""

from __future__ import annotations

from livecore_server.storage.area_storage import AreaMigration
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

# The area's migrations, recorded as ``economy:<name>``. Before the economy had migrations of its own, the
# service's history built its tables (SQLite's ``0004_economy_and_grants``, PostgreSQL's ``0001_core``).
MIGRATIONS = (
    AreaMigration.creating("0001_economy", SCHEMA, "ledger", "holdings").recognised_by(
        sqlite=("0004_economy_and_grants",), postgres=("0001_core",)
    ),
)
