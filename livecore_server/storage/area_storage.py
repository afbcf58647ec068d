"""What the areas keep in the database, and what a store builds from the areas it serves.

Every area, built-in or a studio's, declares what it keeps the same way, on its
:class:`livecore_server.area.ServerArea`:

- ``schema``: its tables and indexes, declared (:class:`~livecore_server.storage.schema.Schema`);
- ``migrations``: migrations recorded under ``<area>:<name>`` (:class:`AreaMigration`), numbered per
  area, applied after the service's history, area after area in the order they are served, each area's
  in the order it lists them; a built-in area's took over what the service's history had built for it
  (recognised by the names it recorded, :func:`taken_over`, :meth:`AreaMigration.recognised_by`);
- ``sql_ports``: its SQL ports, by the attribute a transaction reaches each by (``tx.<name>``, and
  ``tx.ports.<name>``): a class taking the transaction, or :class:`~.sqlport.Dialects` where a dialect
  has its own;
- ``read_ahead``: what it reads ahead of its commands' writes (:class:`~.read_ahead.ReadAhead`), if
  they declare reads of their own.

A migration is applied once per database, recorded in ``_migrations`` under its name, so the same rules
hold for each (never edit an applied one; several processes starting at once apply it once). Its
statements are written per dialect, or rendered from the area's declared tables
(:meth:`AreaMigration.creating`, :meth:`AreaMigration.adding`). :func:`served` adds the areas' declarations
to the tables and ports no area owns, into the :class:`AreaStorage` a store opens with; it names no area.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from livecore_server.storage import migrations, postgres_schema
from livecore_server.storage.history import History, Migration, Step, assembled, check_names, recognising
from livecore_server.storage.read_ahead import ReadAhead, ReadAheads
from livecore_server.storage.schema import POSTGRES, SHARED, SQLITE, Dialect, Schema
from livecore_server.storage.sql import SHARED_PORTS, OpenedPorts
from livecore_server.storage.sqlport import Dialects

#: Builds an area's SQL port for one transaction: ``(SQL transaction) -> port``.
SqlPort = Callable[[Any], object]


@attrs.frozen
class AreaMigration:
    """One migration of an area's tables: its steps for SQLite and for PostgreSQL."""

    name: str
    sqlite: Sequence[Step]
    postgres: Sequence[Step]

    @classmethod
    def creating(cls, name: str, declared: Schema, *tables: str) -> AreaMigration:
        """The migration creating ``tables`` of ``declared``, each with its indexes, in both dialects (as
        first created: what a later migration adds, ``since``, is left out)."""
        return cls(
            name,
            sqlite=[s for table in tables for s in declared.create_statements(table, SQLITE)],
            postgres=[s for table in tables for s in declared.create_statements(table, POSTGRES)],
        )

    @classmethod
    def adding(cls, name: str, declared: Schema) -> AreaMigration:
        """The migration adding what ``declared`` marks as added by it (``since=name``): columns, then
        indexes, in both dialects."""
        return cls(name, sqlite=declared.added_by(name, SQLITE), postgres=declared.added_by(name, POSTGRES))

    @classmethod
    def taking_over(
        cls, name: str, history: History, *, sqlite: str | None = None, postgres: str | None = None
    ) -> AreaMigration:
        """The area's migration ``name`` taking over the migrations the service's ``history`` recorded as
        ``sqlite`` and ``postgres`` (either may be None): their steps, recognised by their names, so that
        a database built before records it without running it."""
        return cls(
            name,
            sqlite=dict(history.sqlite)[sqlite] if sqlite else (),
            postgres=dict(history.postgres)[postgres] if postgres else (),
        ).recognised_by(sqlite=[sqlite] if sqlite else [], postgres=[postgres] if postgres else [])

    def recognised_by(self, *, sqlite: Sequence[str] = (), postgres: Sequence[str] = ()) -> AreaMigration:
        """This migration, recorded without running on a database that recorded the service's migrations
        ``sqlite`` (or ``postgres``), which built the same before the area had migrations of its own."""
        return attrs.evolve(
            self, sqlite=recognising(sqlite, self.sqlite), postgres=recognising(postgres, self.postgres)
        )


def taken_over(history: History) -> tuple[AreaMigration, ...]:
    """An area's own migrations taking over those the service's ``history`` applied for it, where each
    dialect's are named alike, in the same order, and numbered apart (``0015_live_events`` and
    ``0007_live_events``): each pair becomes the area's next migration (``0001_live_events``,
    :meth:`AreaMigration.taking_over`)."""
    suffixes: dict[str, dict[str, str]] = {}
    for dialect, applied in ((SQLITE, history.sqlite), (POSTGRES, history.postgres)):
        for name, _ in applied:
            suffixes.setdefault(name.split("_", 1)[1], {})[dialect] = name
    return tuple(
        AreaMigration.taking_over(
            f"{number:04d}_{suffix}", history, sqlite=names.get(SQLITE), postgres=names.get(POSTGRES)
        )
        for number, (suffix, names) in enumerate(suffixes.items(), start=1)
    )


class Keeps(Protocol):
    """What an area declares of its storage (:class:`livecore_server.area.ServerArea`'s fields)."""

    @property
    def name(self) -> str: ...
    @property
    def schema(self) -> Schema: ...
    @property
    def migrations(self) -> tuple[AreaMigration, ...]: ...
    @property
    def sql_ports(self) -> Mapping[str, SqlPort | Dialects]: ...
    @property
    def read_ahead(self) -> ReadAhead | None: ...


#: The migrations of the tables no area owns, and the foundation's.
SHARED_HISTORY = History(sqlite=tuple(migrations.MIGRATIONS), postgres=tuple(postgres_schema.MIGRATIONS))


@attrs.frozen
class AreaStorage:
    """What a store serves: the whole schema (the shared tables, then each area's, in the areas' order),
    each dialect's migrations in the order they apply, and every port a transaction opens, as
    ``(attribute, declaration)``: the shared ones, then the areas' (:attr:`areas`: how many), and what the
    areas read ahead."""

    schema: Schema
    history: History
    ports: tuple[tuple[str, SqlPort | Dialects], ...]
    areas: int
    read_aheads: ReadAheads

    def opened(self, dialect: Dialect) -> OpenedPorts:
        """The classes a transaction of ``dialect`` opens (:func:`livecore_server.storage.sql.open_ports`)."""
        opened = tuple((n, p.of(dialect) if isinstance(p, Dialects) else p) for n, p in self.ports)
        return OpenedPorts(opened, self.areas)


def served(areas: Iterable[Keeps]) -> AreaStorage:
    """What a store of ``areas`` (in the order they are served) keeps, with the tables no area owns. Two
    ports of one name, or two migrations recorded under one name, are refused."""
    areas = tuple(areas)
    schema = SHARED
    for area in areas:
        schema += area.schema
    history = assembled([SHARED_HISTORY])
    # An area's own migrations come after the service's whole history, each recorded under its area.
    sqlite: tuple[Migration, ...] = (
        *history.sqlite,
        *((f"{a.name}:{m.name}", m.sqlite) for a in areas for m in a.migrations),
    )
    postgres: tuple[Migration, ...] = (
        *history.postgres,
        *((f"{a.name}:{m.name}", m.postgres) for a in areas for m in a.migrations),
    )
    check_names(sqlite)
    check_names(postgres)
    area_ports = tuple((name, port) for area in areas for name, port in area.sql_ports.items())
    ports = (*SHARED_PORTS.items(), *area_ports)
    names = [name for name, _ in ports]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"SQL ports claimed twice: {', '.join(twice)}")
    aheads = ReadAheads(tuple(area.read_ahead for area in areas if area.read_ahead is not None))
    return AreaStorage(schema, History(sqlite=sqlite, postgres=postgres), ports, len(area_ports), aheads)
