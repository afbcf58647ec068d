"""The purchases area's table, declared (:data:`SCHEMA`). No migration of its own: the player tools' SQLite
``0010_player_tools`` and PostgreSQL's foundation created it. The area declares them (``ServerArea``), and its
store adds it to the shared ones.

:data:`SQL_PORTS`: the area's SQL ports, by the transaction attribute that reaches each (``tx.<name>``)."""

from __future__ import annotations

from livecore_server.purchases.sql import PostgresPurchases, SqlitePurchases, SqlPurchases
from livecore_server.storage.history import History
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
from livecore_server.storage.sqlport import Dialects

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

HISTORY = History()

SQL_PORTS = {"purchases": Dialects(SqlPurchases, sqlite=SqlitePurchases, postgres=PostgresPurchases)}
