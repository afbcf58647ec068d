"""The grants area's table, declared (:data:`SCHEMA`). No migration of its own: the economy area's SQLite
``0004_economy_and_grants`` and PostgreSQL's foundation created it, the player tools' SQLite
``0010_player_tools`` added an index. Its ``ServerArea`` declares them, and a store adds it to the
shared ones.

:data:`SQL_PORTS`: the area's SQL ports, by the transaction attribute that reaches each (``tx.<name>``)."""

from __future__ import annotations

from livecore_server.grants.sql import SqlGrants
from livecore_server.storage.history import History
from livecore_server.storage.schema import (
    JSON,
    MS,
    PLAYER,
    Column,
    Index,
    Schema,
    nullable,
    table,
)

SCHEMA = Schema(
    tables=(
        table(
            "grants",
            Column("id"),
            Column("game_id"),
            Column("player_id", references=PLAYER),
            Column("external_player_id"),
            Column("kind"),
            Column("status"),
            Column("entries", JSON),
            Column("source_kind"),
            nullable("source_ref_id"),
            Column("metadata", JSON),
            Column("created_at", MS),
            nullable("expires_at", MS),
            nullable("claimed_at", MS),
            nullable("acked_by"),
            rowid=False,
        ),
    ),
    indexes=(
        Index("grants_pending_by_player", "grants", ("player_id", "created_at"), where="status = 'pending'"),
        Index(
            "grants_to_expire",
            "grants",
            ("expires_at",),
            where="status = 'pending' AND expires_at IS NOT NULL",
        ),
        Index("grants_by_player", "grants", ("player_id", "created_at")),
    ),
)

HISTORY = History()

SQL_PORTS = {"grants": SqlGrants}
