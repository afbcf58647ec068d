"""The player tools' tables (merges, erasures, the keys of imported rows), declared (:data:`SCHEMA`), and the
area's migrations (:data:`MIGRATIONS`, rendered from the declaration). Its ``ServerArea`` declares them, and a
store adds them to the shared ones."""

from __future__ import annotations

from livecore_server.storage.area_storage import AreaMigration
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

# The area's migrations, recorded as ``player_tools:<name>``. Before the player tools had migrations of their
# own, the service's history built their tables (SQLite's ``0010_player_tools``, PostgreSQL's ``0001_core``).
MIGRATIONS = (
    AreaMigration.creating("0001_player_tools", SCHEMA, "merges", "erasures", "migration_keys").recognised_by(
        sqlite=("0010_player_tools",), postgres=("0001_core",)
    ),
)
