"""The grants area's table, declared (:data:`SCHEMA`), and the area's migrations (:data:`MIGRATIONS`,
rendered from the declaration). Its ``ServerArea`` declares them, and a store adds them to the shared
ones."""

from __future__ import annotations

from livecore_server.storage.area_storage import AreaMigration
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
        Index("grants_by_player", "grants", ("player_id", "created_at"), since="0002_grants_by_player"),
    ),
)

# The area's migrations, recorded as ``grants:<name>``. Before the grants had migrations of their own, the
# service's history built the table (SQLite's ``0004_economy_and_grants``, PostgreSQL's ``0001_core``) and
# SQLite's index by player (``0010_player_tools``).
MIGRATIONS = (
    AreaMigration.creating("0001_grants", SCHEMA, "grants").recognised_by(
        sqlite=("0004_economy_and_grants",), postgres=("0001_core",)
    ),
    AreaMigration.adding("0002_grants_by_player", SCHEMA).recognised_by(
        sqlite=("0010_player_tools",), postgres=("0001_core",)
    ),
)
