"""The purchases area's table, declared (:data:`SCHEMA`), and the area's migrations (:data:`MIGRATIONS`,
rendered from the declaration). The area declares them (``ServerArea``), and its store adds them to the
shared ones."""

from __future__ import annotations

from livecore_server.storage.area_storage import AreaMigration
from livecore_server.storage.schema import (
    BIGINT,
    JSON,
    MS,
    PLAYER,
    REAL,
    Column,
    Index,
    Schema,
    table,
)

SCHEMA = Schema(
    tables=(
        table(
            "purchases",
            Column("id"),
            Column("game_id"),
            Column("env"),
            Column("player_id", references=PLAYER),
            Column("transaction_id"),
            Column("store"),
            Column("product_id"),
            Column("product_type"),
            Column("amount_minor", BIGINT),
            Column("currency"),
            Column("normalized_amount_minor", BIGINT),
            Column("fx_rate", REAL),
            Column("validation_status"),
            Column("purchased_at", MS),
            Column("tracked_at", MS),
            Column("metadata", JSON),
            unique=(("game_id", "env", "transaction_id"),),
            rowid=False,
        ),
    ),
    indexes=(
        Index("purchases_by_player", "purchases", ("player_id", "purchased_at", "id")),
        # Revenue reads: a game's purchases in a time range.
        Index("purchases_by_time", "purchases", ("game_id", "env", "purchased_at")),
    ),
)

# The area's migrations, recorded as ``purchases:<name>``. Before the purchases had migrations of their own,
# the service's history built the table (SQLite's ``0010_player_tools``, PostgreSQL's ``0001_core``).
MIGRATIONS = (
    AreaMigration.creating("0001_purchases", SCHEMA, "purchases").recognised_by(
        sqlite=("0010_player_tools",), postgres=("0001_core",)
    ),
)
