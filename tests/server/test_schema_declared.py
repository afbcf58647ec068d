"""The schema declared in ``storage/schema.py`` and the areas' ``schema.py`` (their sum,
:func:`livecore_server.registry.storage`'s schema) is what the migrations build, on SQLite and on PostgreSQL:
a fresh database of each dialect, migrated, is read back from its catalogue (tables, columns, keys,
constraints, indexes) and compared with the declaration; and the declaration's rendered DDL, applied to
an empty database, gives the same catalogue as the migrations.

The expected catalogue is built here from the declaration's logical types with this file's own
vocabulary of what each dialect reports (:data:`REPORTED`), not with the renderer, so a rendering
mistake is caught too. Column order is not compared: every statement names its columns.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import psycopg
import pytest
from psycopg import sql

import livecore_server
from livecore import registry
from livecore_server.registry import installed, storage
from livecore_server.storage import history, postgres, schema
from livecore_server.storage import sqlite as sqlite_store
from livecore_server.storage.area_storage import AreaMigration
from livecore_server.storage.schema import POSTGRES, SQLITE, Dialect
from tests.postgres_support import drop_schema, new_schema

# The migrators' own record of what they applied: created by them, outside the migrations.
BOOKKEEPING = {"_migrations"}

# What each dialect's catalogue reports for a logical type: SQLite's declared type, PostgreSQL's
# format_type (with the column's collation when not the default).
REPORTED: dict[str, tuple[str, str]] = {
    "text": ("TEXT", 'text COLLATE "C"'),
    "int": ("INTEGER", "integer"),
    "bigint": ("INTEGER", "bigint"),
    "ms": ("INTEGER", "bigint"),
    "bool": ("INTEGER", "boolean"),
    "json": ("TEXT", "json"),
    "jsonb": ("TEXT", "jsonb"),
    "bytes": ("BLOB", "bytea"),
    "real": ("REAL", "double precision"),
    "seq": ("INTEGER", "bigint"),
}

SCHEMA, HISTORY = storage().schema, storage().history
# Each built-in area that keeps anything: (its name, its tables, its migrations), in the core's order.
AREAS = [(a.name, a.schema, a.migrations) for a in installed() if a.schema != schema.Schema() or a.migrations]


@attrs.frozen
class LiveColumn:
    type: str
    not_null: bool
    default: str | None


@attrs.frozen
class LiveTable:
    columns: dict[str, LiveColumn]
    primary_key: tuple[str, ...]
    unique: frozenset[tuple[str, ...]]
    foreign_keys: frozenset[tuple[str, str, str]]  # (column, table, column)
    checks: frozenset[str]
    without_rowid: bool  # SQLite only


@attrs.frozen
class LiveIndex:
    table: str
    columns: tuple[str, ...]
    unique: bool
    where: str | None
    method: str | None  # PostgreSQL's access method


@attrs.frozen
class Catalogue:
    tables: dict[str, LiveTable]
    indexes: dict[str, LiveIndex]
    raw: dict[str, tuple[str, str]]  # SQLite's own objects: name -> (type, statement)


CAST = r"::[a-z_]+"  # PostgreSQL's deparsed expressions and defaults spell out their types


def expr(text: str | None) -> str | None:
    """An expression as both catalogues can be compared on: PostgreSQL's deparsed form adds casts and
    parentheses and writes ``<>``."""
    if text is None:
        return None
    text = re.sub(CAST, "", text).replace("<>", "!=").replace("(", "").replace(")", "")
    return " ".join(text.split()).lower()


# --- Reading a live catalogue ---


def sqlite_catalogue(conn: sqlite3.Connection) -> Catalogue:
    listed = conn.execute("PRAGMA main.table_list").fetchall()
    without_rowid = {
        name: bool(wr)
        for _, name, kind, _, wr, _ in listed
        if kind == "table" and not name.startswith("sqlite_") and name not in BOOKKEEPING
    }
    tables: dict[str, LiveTable] = {}
    indexes: dict[str, LiveIndex] = {}
    statements = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall())
    for name in sorted(without_rowid):
        info = conn.execute(f"PRAGMA table_info({name})").fetchall()
        unique = set()
        for _, index_name, is_unique, origin, partial in conn.execute(f"PRAGMA index_list({name})"):
            columns = tuple(r[2] for r in conn.execute(f"PRAGMA index_info({index_name})"))
            if origin == "u":
                unique.add(columns)
            elif origin == "c":
                statement = conn.execute(
                    "SELECT sql FROM sqlite_master WHERE name = ?", (index_name,)
                ).fetchone()
                where = re.search(r"\sWHERE\s(.*)$", statement[0], re.S) if partial else None
                indexes[index_name] = LiveIndex(
                    name, columns, bool(is_unique), expr(where and where[1]), None
                )
        tables[name] = LiveTable(
            columns={r[1]: LiveColumn(r[2], bool(r[3]), r[4]) for r in info},
            primary_key=tuple(r[1] for r in sorted((r for r in info if r[5]), key=lambda r: r[5])),
            unique=frozenset(unique),
            foreign_keys=frozenset(
                (r[3], r[2], r[4]) for r in conn.execute(f"PRAGMA foreign_key_list({name})")
            ),
            # SQLite keeps a table's CHECK constraints only in its statement.
            checks=frozenset(expr(c) or "" for c in re.findall(r"CHECK \(([^()]*)\)", statements[name])),
            without_rowid=without_rowid[name],
        )
    raw = {
        name: ("table" if kind == "table" else "trigger", statement)
        for kind, name, statement in conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE type = 'trigger'"
            " OR (type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%')"
        )
    }
    virtual = {name for name, (kind, _) in raw.items() if kind == "table"}
    # A virtual table's own storage (FTS5's shadow tables) belongs to it, not to the schema.
    tables = {name: t for name, t in tables.items() if name not in virtual}
    tables = {name: t for name, t in tables.items() if not any(name.startswith(v + "_") for v in virtual)}
    return Catalogue(tables, indexes, raw)


PG_COLUMNS = """
SELECT a.attnum, a.attname::text,
       format_type(a.atttypid, a.atttypmod)
         || CASE WHEN a.attcollation NOT IN (0, 100) THEN ' COLLATE "' || co.collname || '"' ELSE '' END,
       a.attnotnull, pg_get_expr(d.adbin, d.adrelid)
FROM pg_attribute a
LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
LEFT JOIN pg_collation co ON co.oid = a.attcollation
WHERE a.attrelid = %s AND a.attnum > 0 AND NOT a.attisdropped
"""

PG_CONSTRAINTS = """
SELECT con.contype::text,
       ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(n, i)
             JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.i),
       fc.relname::text,
       ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(n, i)
             JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n ORDER BY k.i),
       pg_get_constraintdef(con.oid)
FROM pg_constraint con LEFT JOIN pg_class fc ON fc.oid = con.confrelid
WHERE con.conrelid = %s
"""

# Indexes made by CREATE INDEX (not those of a primary key or a unique constraint), each key with its
# operator class when not the type's default.
PG_INDEXES = """
SELECT ic.relname::text, t.relname::text, i.indisunique, am.amname::text,
       ARRAY(SELECT pg_get_indexdef(i.indexrelid, k, true)
                    || CASE WHEN oc.opcdefault THEN '' ELSE ' ' || ocn.nspname || '.' || oc.opcname END
             FROM generate_series(1, i.indnkeyatts) k
             JOIN pg_opclass oc ON oc.oid = i.indclass[k - 1]
             JOIN pg_namespace ocn ON ocn.oid = oc.opcnamespace
             ORDER BY k),
       pg_get_expr(i.indpred, i.indrelid, true)
FROM pg_index i
JOIN pg_class ic ON ic.oid = i.indexrelid
JOIN pg_class t ON t.oid = i.indrelid
JOIN pg_namespace n ON n.oid = t.relnamespace
JOIN pg_am am ON am.oid = ic.relam
WHERE n.nspname = %s AND NOT EXISTS (
    SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid)
"""


def postgres_catalogue(conn: psycopg.Connection[Any], namespace: str) -> Catalogue:
    tables: dict[str, LiveTable] = {}
    listed = conn.execute(
        "SELECT c.oid, c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = %s AND c.relkind = 'r'",
        (namespace,),
    ).fetchall()
    for oid, name in listed:
        if name in BOOKKEEPING:
            continue
        columns = {
            r[1]: LiveColumn(r[2], r[3], r[4] and re.sub(CAST, "", r[4]))
            for r in conn.execute(PG_COLUMNS, (oid,))
        }
        constraints = conn.execute(PG_CONSTRAINTS, (oid,)).fetchall()
        primary = [tuple(r[1]) for r in constraints if r[0] == "p"]
        tables[name] = LiveTable(
            columns=columns,
            primary_key=primary[0] if primary else (),
            unique=frozenset(tuple(r[1]) for r in constraints if r[0] == "u"),
            foreign_keys=frozenset(
                (r[1][0], r[2], r[3][0]) for r in constraints if r[0] == "f" and len(r[1]) == len(r[3]) == 1
            ),
            checks=frozenset(expr(re.sub(r"^CHECK ", "", r[4])) or "" for r in constraints if r[0] == "c"),
            without_rowid=False,
        )
    indexes = {
        name: LiveIndex(table, tuple(columns), unique, expr(where), method)
        for name, table, unique, method, columns, where in conn.execute(PG_INDEXES, (namespace,))
        if table not in BOOKKEEPING
    }
    return Catalogue(tables, indexes, {})


# --- What the declaration says each catalogue holds ---


def reported_default(column: schema.Column, table: schema.Table, dialect: Dialect) -> str | None:
    if column.kind == schema.SEQ and dialect == POSTGRES:
        return f"nextval('{table.name}_{column.name}_seq')"
    if column.default is None:
        return None
    value = column.default
    if isinstance(value, bool):
        return ("true" if value else "false") if dialect == POSTGRES else str(int(value))
    if isinstance(value, int):
        return str(value)
    return "'" + value + "'"


def declared_catalogue(
    dialect: Dialect, trigram_ops: str | None, declared: schema.Schema = SCHEMA
) -> Catalogue:
    """The catalogue the declaration describes; ``trigram_ops`` is pg_trgm's operator class when the
    extension exists (the optional index is then built), else None."""
    at = 0 if dialect == SQLITE else 1
    tables = {}
    for table in declared.tables_in(dialect):
        columns = {}
        for column in table.columns_in(dialect):
            # SQLite reports a rowid table's one-column key as nullable: it was written without NOT NULL
            # (the INTEGER one is the rowid itself).
            rowid_key = dialect == SQLITE and table.rowid and table.primary_key == (column.name,)
            columns[column.name] = LiveColumn(
                REPORTED[column.kind.name][at],
                not column.null and not rowid_key,
                reported_default(column, table, dialect),
            )
        tables[table.name] = LiveTable(
            columns=columns,
            primary_key=table.primary_key,
            unique=frozenset({(c.name,) for c in table.columns_in(dialect) if c.unique} | set(table.unique)),
            foreign_keys=frozenset(
                (c.name, c.references.table, c.references.column)
                for c in table.columns_in(dialect)
                if c.references is not None and schema.in_dialect(c.references.only, dialect)
            ),
            checks=frozenset(
                expr(check) or ""
                for check in (*table.checks, *(c.check for c in table.columns_in(dialect) if c.check))
            ),
            without_rowid=dialect == SQLITE and not table.rowid,
        )
    indexes = {
        i.name: LiveIndex(
            i.table,
            tuple(c.format(ops=trigram_ops) for c in i.columns),
            i.unique,
            expr(i.where_in(dialect)),
            (i.using or "btree").lower() if dialect == POSTGRES else None,
        )
        for i in declared.indexes_in(dialect)
        if not i.optional or trigram_ops is not None
    }
    raw: dict[str, tuple[str, str]] = {r.name: (r.type, r.sql) for r in declared.raw_in(dialect)}
    return Catalogue(tables, indexes, raw)


def differences(expected: Catalogue, live: Catalogue) -> list[str]:
    """What differs, one line per table, column, constraint set or index."""
    found = []
    for kind, want, have in (
        ("table", expected.tables, live.tables),
        ("index", expected.indexes, live.indexes),
        ("object", expected.raw, live.raw),
    ):
        for name in sorted(want.keys() - have.keys()):
            found.append(f"{kind} {name}: declared, missing from the database")
        for name in sorted(have.keys() - want.keys()):
            found.append(f"{kind} {name}: in the database, not declared")
    for name in sorted(expected.tables.keys() & live.tables.keys()):
        want_t, have_t = expected.tables[name], live.tables[name]
        for column in sorted(want_t.columns.keys() | have_t.columns.keys()):
            a, b = want_t.columns.get(column), have_t.columns.get(column)
            if a != b:
                found.append(f"column {name}.{column}: declared {a}, database {b}")
        for field in ("primary_key", "unique", "foreign_keys", "checks", "without_rowid"):
            a, b = getattr(want_t, field), getattr(have_t, field)
            if a != b:
                found.append(f"table {name} {field}: declared {a}, database {b}")
    for name in sorted(expected.indexes.keys() & live.indexes.keys()):
        if expected.indexes[name] != live.indexes[name]:
            found.append(f"index {name}: declared {expected.indexes[name]}, database {live.indexes[name]}")
    for name in sorted(expected.raw.keys() & live.raw.keys()):
        if expected.raw[name] != live.raw[name]:
            found.append(f"object {name}: declared {expected.raw[name]}, database {live.raw[name]}")
    return found


# --- Fresh databases ---


class SqliteDatabase:
    dialect: Dialect = SQLITE

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)

    def execute(self, statement: str) -> None:
        self.conn.execute(statement)

    def migrate(self) -> None:
        sqlite_store.migrate(self.conn, HISTORY.sqlite)

    def catalogue(self) -> Catalogue:
        return sqlite_catalogue(self.conn)

    def trigram_ops(self) -> str | None:
        return None

    def close(self) -> None:
        self.conn.close()


class PostgresDatabase:
    dialect: Dialect = POSTGRES

    def __init__(self) -> None:
        dsn, self.namespace = new_schema()
        self.conn = psycopg.connect(dsn, autocommit=True)

    def execute(self, statement: str) -> None:
        self.conn.execute(statement.encode())

    def migrate(self) -> None:
        postgres.migrate(self.conn, storage())

    def catalogue(self) -> Catalogue:
        return postgres_catalogue(self.conn, self.namespace)

    def trigram_ops(self) -> str | None:
        row = self.conn.execute(
            "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace"
            " WHERE e.extname = 'pg_trgm'"
        ).fetchone()
        return None if row is None else f"{row[0]}.gin_trgm_ops"

    def build_trigram_indexes(self) -> None:
        """What the migrator does after the migrations, when pg_trgm exists: every optional index."""
        ops = self.trigram_ops()
        if ops is not None:
            schema_name, opclass = ops.split(".")
            for index in SCHEMA.indexes_in(POSTGRES):
                if index.optional:
                    statement = sql.SQL(SCHEMA.create_index(index.name, POSTGRES)).format(
                        ops=sql.SQL("{}.{}").format(sql.Identifier(schema_name), sql.Identifier(opclass))
                    )
                    self.conn.execute(statement)

    def close(self) -> None:
        self.conn.close()
        drop_schema(self.namespace)


Database = SqliteDatabase | PostgresDatabase
Empty = Callable[[], Database]


@pytest.fixture(params=[SQLITE, POSTGRES])
def empty(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Empty]:
    """A factory of empty databases of the dialect, closed (and dropped) after the test."""
    made: list[Database] = []

    def make() -> Database:
        db: Database = (
            SqliteDatabase(tmp_path / f"{len(made)}.db") if request.param == SQLITE else PostgresDatabase()
        )
        made.append(db)
        return db

    try:
        yield make
    finally:
        for db in made:
            db.close()


def test_the_migrations_build_the_declared_schema(empty: Empty) -> None:
    db = empty()
    db.migrate()
    assert differences(declared_catalogue(db.dialect, db.trigram_ops()), db.catalogue()) == []


def test_the_rendered_schema_builds_what_the_migrations_build(empty: Empty) -> None:
    migrated, rendered = empty(), empty()
    migrated.migrate()
    for statement in SCHEMA.statements(migrated.dialect):
        rendered.execute(statement)
    if isinstance(rendered, PostgresDatabase):
        rendered.build_trigram_indexes()
    live = migrated.catalogue()
    assert live.tables and live.indexes
    assert differences(live, rendered.catalogue()) == []


@pytest.mark.parametrize(
    ("drift", "reported"),
    [
        ("ALTER TABLE players ADD COLUMN nickname TEXT", "column players.nickname"),
        ("DROP INDEX gifts_sent", "index gifts_sent: declared, missing"),
        ("CREATE INDEX ledger_by_game ON ledger (game_id)", "index ledger_by_game: in the database"),
        ("DROP INDEX grants_to_expire", "index grants_to_expire"),
        ("CREATE TABLE notes (id TEXT PRIMARY KEY)", "table notes: in the database"),
    ],
)
def test_a_drift_from_the_declaration_is_reported(empty: Empty, drift: str, reported: str) -> None:
    db = empty()
    db.migrate()
    db.execute(drift)
    found = differences(declared_catalogue(db.dialect, db.trigram_ops()), db.catalogue())
    assert any(line.startswith(reported) for line in found), found


def test_a_changed_partial_condition_or_default_is_reported(empty: Empty) -> None:
    db = empty()
    db.migrate()
    db.execute("DROP INDEX grants_to_expire")
    db.execute("CREATE INDEX grants_to_expire ON grants (expires_at) WHERE expires_at IS NOT NULL")
    if db.dialect == POSTGRES:
        db.execute("ALTER TABLE players ALTER COLUMN lifecycle SET DEFAULT 'gone'")
        db.execute("ALTER TABLE outbox ALTER COLUMN target_endpoint SET NOT NULL")
    found = differences(declared_catalogue(db.dialect, db.trigram_ops()), db.catalogue())
    expected = {"index grants_to_expire"} | (
        {"column players.lifecycle", "column outbox.target_endpoint"} if db.dialect == POSTGRES else set()
    )
    assert {line.split(":")[0] for line in found} == expected, found


# A table as a future migration would add it: created from the declaration, then given a column and an
# index by a later migration.
LATER = "a later migration"
EXAMPLE = schema.Table(
    "example_scores",
    (
        schema.Column("seq", schema.SEQ),
        schema.Column("player_id", schema.TEXT, references=schema.Ref("players")),
        schema.Column("score", schema.BIGINT, check="score >= 0"),
        schema.Column("flagged", schema.BOOL, default=False),
        schema.Column("meta", schema.JSON, default="{}"),
        schema.Column("note", schema.TEXT, null=True, since=LATER),
    ),
    primary_key=("seq",),
)
EXAMPLE_INDEXES = (
    schema.Index("example_scores_by_player", "example_scores", ("player_id", "seq")),
    schema.Index(
        "example_scores_flagged",
        "example_scores",
        ("seq",),
        where=schema.Where("flagged = 1", "flagged", "a flag"),
        since=LATER,
    ),
)


def test_a_table_added_by_rendered_migrations_is_the_declared_one(empty: Empty) -> None:
    example = schema.Schema((EXAMPLE,), EXAMPLE_INDEXES)
    db = empty()
    db.migrate()
    creation = example.create_statements("example_scores", db.dialect)
    assert not any("note" in s or "example_scores_flagged" in s for s in creation), creation
    for statement in [
        *creation,
        example.add_column("example_scores", "note", db.dialect),
        example.create_index("example_scores_flagged", db.dialect),
    ]:
        db.execute(statement)
    assert "example_scores" in db.catalogue().tables
    assert (
        differences(declared_catalogue(db.dialect, db.trigram_ops(), SCHEMA + example), db.catalogue()) == []
    )


def test_a_studio_area_declares_its_tables_as_the_service_does(empty: Empty) -> None:
    """A studio's area may render its migration from its declared tables: recorded under its name beside
    the service's, it builds what is declared."""
    declared = schema.Schema((attrs.evolve(EXAMPLE, columns=EXAMPLE.columns[:-1]),), (EXAMPLE_INDEXES[0],))
    migration = AreaMigration.creating("0001_scores", declared, "example_scores")
    db = empty()
    db.migrate()
    for statement in migration.sqlite if db.dialect == SQLITE else migration.postgres:
        db.execute(statement)
    assert (
        differences(declared_catalogue(db.dialect, db.trigram_ops(), SCHEMA + declared), db.catalogue()) == []
    )


def test_the_declaration_holds_together() -> None:
    assert {kind.name for kind in schema.KINDS} == REPORTED.keys()
    for dialect in schema.DIALECTS:
        declared = {t.name: t for t in SCHEMA.tables_in(dialect)}
        seen: set[str] = set()
        for table in declared.values():
            names = {c.name for c in table.columns_in(dialect)}
            assert set(table.primary_key) <= names, table.name
            for columns in table.unique:
                assert set(columns) <= names, table.name
            for column in table.columns_in(dialect):
                ref = column.references
                if ref is not None and schema.in_dialect(ref.only, dialect):
                    # Tables come in dependency order, so a new database is built in declaration order.
                    assert ref.table in seen or ref.table == table.name, f"{table.name}.{column.name}"
                    assert ref.column in {c.name for c in declared[ref.table].columns_in(dialect)}
            seen.add(table.name)
        for index in SCHEMA.indexes_in(dialect):
            assert index.table in declared, index.name
            names = {c.name for c in declared[index.table].columns_in(dialect)}
            assert {c.split()[0] for c in index.columns} <= names, index.name
    onlies = [t.only for t in SCHEMA.tables] + [i.only for i in SCHEMA.indexes] + [r.only for r in SCHEMA.raw]
    for table in SCHEMA.tables:
        onlies += [c.only for c in table.columns] + [c.references.only for c in table.columns if c.references]
    assert all(only is None or only.why for only in onlies)
    assert all(i.where.why for i in SCHEMA.indexes if isinstance(i.where, schema.Where))


def test_every_areas_schema_module_is_in_the_whole_schema() -> None:
    """An area's ``schema.py`` is listed (under a built-in area's name, so in the core's order); the
    migrations test would miss a forgotten one whose migrations are forgotten with it."""
    package = Path(livecore_server.__file__).parent
    modules = {p.parent.name for p in package.glob("*/schema.py")} - {"storage"}
    assert modules == {name for name, _, _ in AREAS}
    assert modules <= {area.name for area in registry.installed()}


def test_each_area_declares_its_own_tables_once() -> None:
    """A name is declared once in the whole schema, and what serves a table (its indexes, a dialect's own
    objects) is declared beside it: an area's migration renders its table with all of them."""
    parts = [schema.SHARED, *(declared for _, declared, _ in AREAS)]
    for kind in ("tables", "indexes", "raw"):
        names = [item.name for item in getattr(SCHEMA, kind)]
        assert len(names) == len(set(names)), kind
    for part in parts:
        own = {t.name for t in part.tables}
        assert all(i.table in own for i in part.indexes), [i.name for i in part.indexes if i.table not in own]
        assert all(r.table in own for r in part.raw), [r.name for r in part.raw if r.table not in own]


def test_the_assembled_history_is_in_order_and_names_each_migration_once() -> None:
    for migrations in (HISTORY.sqlite, HISTORY.postgres):
        # The service's history, numbered per dialect, then each area's own, numbered per area.
        names = [name for name, _ in migrations if ":" not in name]
        assert names == sorted(set(names)), names
        assert all(re.fullmatch(r"\d{4}_[a-z0-9_]+", name) for name in names), names
        own = [name for name, _ in migrations if ":" in name]
        assert [name for name, _ in migrations] == names + own
        assert all(re.fullmatch(r"[a-z_]+:\d{4}_[a-z0-9_]+", name) for name in own), own
    # Two areas numbering a migration alike are refused, whatever their order.
    twice = history.History(sqlite=(("0020_guilds", ["SELECT 1"]),))
    with pytest.raises(ValueError, match="0020_guilds"):
        history.assembled([HISTORY, twice])
