"""The player tools' SQL ports, for SQLite and PostgreSQL."""

from __future__ import annotations

from livecore_server.player_tools.sql.erasures import SqlErasures
from livecore_server.player_tools.sql.merges import SqlMerges
from livecore_server.player_tools.sql.migrations import SqlMigrationKeys

#: The area's SQL ports, by the transaction attribute that reaches each (``tx.<name>``).
SQL_PORTS = {"merges": SqlMerges, "erasures": SqlErasures, "migrations": SqlMigrationKeys}
