"""What a studio's own areas add to the database: their tables, created by their own migrations, and the
SQL ports a transaction reaches them by (``tx.ports.<name>``, :class:`livecore.area.Ports`).

An area's migrations are applied after the service's own, in the order the area lists them, once per
database: each is recorded in ``_migrations`` under ``<area>:<name>``, beside the service's, so the same
rules hold (never edit an applied one; several processes starting at once apply it once). Its statements
are written per dialect, or rendered from the area's tables declared as the service's are
(:meth:`AreaMigration.creating`, :class:`livecore_server.storage.schema.Schema`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from livecore_server.storage.schema import POSTGRES, SQLITE, Schema

#: Builds an area's SQL port for one transaction: ``(SQL transaction) -> port``.
SqlPort = Callable[[Any], object]


@attrs.frozen
class AreaMigration:
    """One migration of an area's tables: its statements for SQLite and for PostgreSQL."""

    name: str
    sqlite: Sequence[str]
    postgres: Sequence[str]

    @classmethod
    def creating(cls, name: str, declared: Schema, *tables: str) -> AreaMigration:
        """The migration creating ``tables`` of ``declared``, each with its indexes, in both dialects."""
        return cls(
            name,
            sqlite=[s for table in tables for s in declared.create_statements(table, SQLITE)],
            postgres=[s for table in tables for s in declared.create_statements(table, POSTGRES)],
        )


@attrs.frozen
class AreaStorage:
    """The migrations and SQL ports of the areas a store serves, as ``(area name, ...)``."""

    migrations: tuple[tuple[str, AreaMigration], ...] = ()
    ports: Mapping[str, SqlPort] = attrs.field(factory=dict)

    def sqlite_migrations(self) -> list[tuple[str, Sequence[str]]]:
        return [(f"{area}:{m.name}", m.sqlite) for area, m in self.migrations]

    def postgres_migrations(self) -> list[tuple[str, Sequence[str]]]:
        return [(f"{area}:{m.name}", m.postgres) for area, m in self.migrations]


NO_PORTS: Mapping[str, SqlPort] = {}
NO_AREA_STORAGE = AreaStorage()
