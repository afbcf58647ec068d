"""The schema, declared once: the declaration of tables, columns, keys, constraints and indexes, the DDL
of each dialect derived from it (:class:`Schema`), and the tables no area owns (:data:`SHARED`: studios,
games, keys, webhooks, the outbox, the operators' tables and what the processes share).

Each built-in area declares its own tables in its server package (``livecore_server/<area>/schema.py``),
beside the migrations that build them; :func:`livecore_server.registry.storage` adds them up
(:func:`livecore_server.storage.area_storage.served`) into the whole schema both stores build.
``tests/server/test_schema_declared.py`` migrates a fresh database of each dialect and checks that it
holds exactly what is declared. An area's migrations are rendered from the declaration
(:meth:`~livecore_server.storage.area_storage.AreaMigration.creating` for a new table,
:meth:`~livecore_server.storage.area_storage.AreaMigration.adding` for what a column or an index
declares ``since``); the older migrations of the shared history were applied to deployed databases and
stay as written. A record's insert and row conversions are derived from its table's declaration too
(:class:`livecore_server.storage.mapped.Mapped`).

Conventions (the rows have one layout, so the row conversions are shared):

- timestamps are milliseconds since the epoch (:data:`MS`): INTEGER on SQLite, BIGINT on PostgreSQL;
- text collates "C" on PostgreSQL (byte order, as SQLite's BINARY), so every ``ORDER BY`` and keyset
  gives the same order whatever the database's locale;
- flags are BOOLEAN on PostgreSQL, 0/1 INTEGER on SQLite; game settings are JSONB, the other JSON
  documents JSON (which keeps their text and key order as written), TEXT on SQLite;
- insertion order is a :data:`SEQ` column: INTEGER PRIMARY KEY AUTOINCREMENT on SQLite, BIGSERIAL on
  PostgreSQL (or SQLite's own rowid, where the order is not the key).

What exists in one dialect only says so (:class:`Only`) with the reason. Column order is not part of the
schema: every statement names its columns.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import attrs

Dialect = Literal["sqlite", "postgres"]
SQLITE: Dialect = "sqlite"
POSTGRES: Dialect = "postgres"
DIALECTS: tuple[Dialect, ...] = (SQLITE, POSTGRES)


@attrs.frozen
class Kind:
    """A logical column type, and how each dialect spells it."""

    name: str
    sqlite: str
    postgres: str

    def sql(self, dialect: Dialect) -> str:
        return self.sqlite if dialect == SQLITE else self.postgres


TEXT = Kind("text", "TEXT", 'TEXT COLLATE "C"')
INT = Kind("int", "INTEGER", "INTEGER")  # counters and HTTP statuses, far below 2^31
BIGINT = Kind("bigint", "INTEGER", "BIGINT")  # amounts and sequence numbers
MS = Kind("ms", "INTEGER", "BIGINT")  # a time, in milliseconds since the epoch
BOOL = Kind("bool", "INTEGER", "BOOLEAN")
JSON = Kind("json", "TEXT", "JSON")
JSONB = Kind("jsonb", "TEXT", "JSONB")
BYTES = Kind("bytes", "BLOB", "BYTEA")
REAL = Kind("real", "REAL", "DOUBLE PRECISION")
SEQ = Kind("seq", "INTEGER", "BIGSERIAL")  # insertion order, assigned by the database
KINDS = (TEXT, INT, BIGINT, MS, BOOL, JSON, JSONB, BYTES, REAL, SEQ)


@attrs.frozen
class Only:
    """Exists in this dialect only, for this reason."""

    dialect: Dialect
    why: str


@attrs.frozen
class Ref:
    """A foreign key to ``table(column)``."""

    table: str
    column: str = "id"
    only: Only | None = None


@attrs.frozen
class Column:
    name: str
    kind: Kind = TEXT
    null: bool = False
    default: str | int | bool | None = None
    unique: bool = False
    references: Ref | None = None
    check: str | None = None
    only: Only | None = None
    # Added after its table was created, by the migration named here (with :meth:`Schema.add_column` or
    # :meth:`Schema.create_index`): the table's creating migration, rendered again on a new database,
    # leaves it out. Only for tables whose creating migration is rendered from this declaration.
    since: str | None = None


@attrs.frozen
class Table:
    name: str
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...]
    unique: tuple[tuple[str, ...], ...] = ()
    checks: tuple[str, ...] = ()
    # SQLite stores the table by its primary key (WITHOUT ROWID) when nothing needs a rowid.
    rowid: bool = True
    only: Only | None = None

    def column(self, name: str) -> Column:
        for column in self.columns:
            if column.name == name:
                return column
        raise KeyError(f"{self.name}.{name}")

    def columns_in(self, dialect: Dialect) -> tuple[Column, ...]:
        return tuple(c for c in self.columns if in_dialect(c.only, dialect))


@attrs.frozen
class Where:
    """A partial index's condition where the dialects differ (None: not partial in that dialect)."""

    sqlite: str | None
    postgres: str | None
    why: str

    def sql(self, dialect: Dialect) -> str | None:
        return self.sqlite if dialect == SQLITE else self.postgres


@attrs.frozen
class Index:
    name: str
    table: str
    columns: tuple[str, ...]
    unique: bool = False
    where: str | Where | None = None
    using: str | None = None  # the access method when not a B-tree
    # Built when the database can (an extension may be missing), outside the migrations; its statement
    # may hold ``{ops}``, the extension's operator class, filled in then.
    optional: bool = False
    only: Only | None = None
    since: str | None = None  # as a column's

    def where_in(self, dialect: Dialect) -> str | None:
        return self.where.sql(dialect) if isinstance(self.where, Where) else self.where


@attrs.frozen
class Raw:
    """A dialect's own object, kept as its statement (SQLite's full-text table and its triggers)."""

    name: str
    type: Literal["table", "trigger"]  # as sqlite_master names it
    table: str  # the table it serves
    sql: str
    only: Only


def in_dialect(only: Only | None, dialect: Dialect) -> bool:
    return only is None or only.dialect == dialect


def table(
    name: str,
    *columns: Column,
    primary_key: tuple[str, ...] = ("id",),
    unique: tuple[tuple[str, ...], ...] = (),
    checks: tuple[str, ...] = (),
    rowid: bool = True,
    only: Only | None = None,
) -> Table:
    """A table keyed by ``id`` unless told, as most are."""
    return Table(name, columns, primary_key, unique, checks, rowid, only)


def nullable(name: str, kind: Kind = TEXT, *, since: str | None = None) -> Column:
    return Column(name, kind, null=True, since=since)


# The players' key, which most areas' tables reference.
PLAYER = Ref("players")


@attrs.frozen
class Schema:
    """Declared tables, their indexes and the dialects' own objects serving them: the shared ones
    (:data:`SHARED`), an area's (``livecore_server/<area>/schema.py``), or the whole schema, their sum.
    Tables come in dependency order (a table after those it references), so the whole schema adds each
    area's after the shared tables and the areas it builds on."""

    tables: tuple[Table, ...] = ()
    indexes: tuple[Index, ...] = ()
    raw: tuple[Raw, ...] = ()

    def __add__(self, other: Schema) -> Schema:
        return Schema((*self.tables, *other.tables), (*self.indexes, *other.indexes), (*self.raw, *other.raw))

    # --- Reading ---

    def table(self, name: str) -> Table:
        for declared in self.tables:
            if declared.name == name:
                return declared
        raise KeyError(name)

    def index(self, name: str) -> Index:
        for declared in self.indexes:
            if declared.name == name:
                return declared
        raise KeyError(name)

    def tables_in(self, dialect: Dialect) -> Iterator[Table]:
        return (t for t in self.tables if in_dialect(t.only, dialect))

    def indexes_in(self, dialect: Dialect, table_name: str | None = None) -> Iterator[Index]:
        return (i for i in self.indexes if in_dialect(i.only, dialect) and table_name in (None, i.table))

    def raw_in(self, dialect: Dialect, table_name: str | None = None) -> Iterator[Raw]:
        return (r for r in self.raw if r.only.dialect == dialect and table_name in (None, r.table))

    # --- Rendering ---

    def create_table(self, name: str, dialect: Dialect, *, complete: bool = True) -> str:
        """CREATE TABLE with every declared column, or (``complete=False``) those it was created with."""
        declared = self.table(name)
        _require(declared.only, dialect, name)
        kept = [c for c in declared.columns_in(dialect) if complete or c.since is None]
        lines = [column_sql(declared, column, dialect) for column in kept]
        if len(declared.primary_key) > 1:
            lines.append(f"PRIMARY KEY ({', '.join(declared.primary_key)})")
        lines += [f"UNIQUE ({', '.join(columns)})" for columns in declared.unique]
        lines += [f"CHECK ({check})" for check in declared.checks]
        body = ",\n    ".join(lines)
        tail = " WITHOUT ROWID" if dialect == SQLITE and not declared.rowid else ""
        return f"CREATE TABLE {name} (\n    {body}\n){tail}"

    def create_index(self, name: str, dialect: Dialect) -> str:
        declared = self.index(name)
        _require(declared.only, dialect, name)
        head = "CREATE UNIQUE INDEX" if declared.unique else "CREATE INDEX"
        if declared.optional:
            head += " IF NOT EXISTS"
        using = f" USING {declared.using}" if declared.using else ""
        statement = f"{head} {name} ON {declared.table}{using} ({', '.join(declared.columns)})"
        where = declared.where_in(dialect)
        return statement if where is None else f"{statement} WHERE {where}"

    def add_column(self, table_name: str, column_name: str, dialect: Dialect) -> str:
        """ALTER TABLE ... ADD COLUMN for a column added to a declared table."""
        declared = self.table(table_name)
        column = declared.column(column_name)
        _require(column.only, dialect, f"{table_name}.{column_name}")
        return f"ALTER TABLE {table_name} ADD COLUMN {column_sql(declared, column, dialect)}"

    def added_by(self, migration: str, dialect: Dialect) -> list[str]:
        """What the migration named ``migration`` adds to existing tables in ``dialect``: the columns, then
        the indexes, declared ``since`` it."""
        return [
            *(
                self.add_column(t.name, c.name, dialect)
                for t in self.tables_in(dialect)
                for c in t.columns_in(dialect)
                if c.since == migration
            ),
            *(self.create_index(i.name, dialect) for i in self.indexes_in(dialect) if i.since == migration),
        ]

    def create_statements(self, table_name: str, dialect: Dialect) -> list[str]:
        """A new table's migration in ``dialect``: the table, its indexes and the dialect's own objects
        serving it, as first created (what a later migration adds, ``since``, is left out; so are the
        optional indexes, built outside the migrations)."""
        return self._table_statements(table_name, dialect, complete=False)

    def statements(self, dialect: Dialect) -> list[str]:
        """The schema in ``dialect``, as it is now, for an empty database (tables in dependency order;
        the optional indexes left out)."""
        return [
            s for t in self.tables_in(dialect) for s in self._table_statements(t.name, dialect, complete=True)
        ]

    def _table_statements(self, table_name: str, dialect: Dialect, *, complete: bool) -> list[str]:
        return [
            self.create_table(table_name, dialect, complete=complete),
            *(
                self.create_index(i.name, dialect)
                for i in self.indexes_in(dialect, table_name)
                if not i.optional and (complete or i.since is None)
            ),
            *(r.sql for r in self.raw_in(dialect, table_name)),
        ]


def default_sql(value: str | int | bool, dialect: Dialect) -> str:
    """A default value as the dialect writes it."""
    if isinstance(value, bool):
        if dialect == POSTGRES:
            return "TRUE" if value else "FALSE"
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    return "'" + value.replace("'", "''") + "'"


def column_sql(declared: Table, column: Column, dialect: Dialect) -> str:
    """A column's definition in CREATE TABLE or ALTER TABLE ADD COLUMN."""
    parts = [column.name, column.kind.sql(dialect)]
    if declared.primary_key == (column.name,):
        # NOT NULL is not written: SQLite's INTEGER PRIMARY KEY is the rowid (never NULL), and the
        # migrations wrote a text key of a rowid table without it.
        parts.append("PRIMARY KEY")
        if column.kind == SEQ and dialect == SQLITE:
            parts.append("AUTOINCREMENT")
    elif not column.null:
        parts.append("NOT NULL")
    if column.default is not None:
        parts.append(f"DEFAULT {default_sql(column.default, dialect)}")
    if column.unique:
        parts.append("UNIQUE")
    if column.check is not None:
        parts.append(f"CHECK ({column.check})")
    ref = column.references
    if ref is not None and in_dialect(ref.only, dialect):
        parts.append(f"REFERENCES {ref.table}({ref.column})")
    return " ".join(parts)


def _require(only: Only | None, dialect: Dialect, what: str) -> None:
    if not in_dialect(only, dialect):
        raise ValueError(f"{what} exists on {only.dialect if only else '?'} only")


# --- The tables no area owns ---

_FLAG = "a flag is 0/1 on SQLite, BOOLEAN on PostgreSQL"
_NOT_FANNED_OUT = Where("fanned_out = 0", "NOT fanned_out", _FLAG)

SHARED = Schema(
    tables=(
        table("studios", Column("id"), Column("key", unique=True), Column("created_at", MS)),
        table(
            "games",
            Column("id"),
            Column(
                "studio_id",
                references=Ref(
                    "studios",
                    only=Only(
                        SQLITE,
                        "the PostgreSQL store also serves the port alone (a game stored without its studio,"
                        " as tests and benchmarks do); its core tables came before the server's own",
                    ),
                ),
            ),
            Column("key"),
            Column("name"),
            Column("settings", JSONB),
            Column("created_at", MS),
            Column("updated_at", MS),
            # Set by `apply` once a manifest enables gifting; never cleared (the gift history stays readable).
            Column("gifting_ever_enabled", BOOL, default=False),
            unique=(("studio_id", "key"),),
        ),
        table(
            "api_keys",
            Column("id"),
            Column("game_id", references=Ref("games")),
            Column("name"),
            Column("env"),
            Column("permission"),
            Column("secret_hash", unique=True),
            Column("prefix"),
            Column("rate_limits", JSON),
            Column("created_at", MS),
            nullable("revoked_at", MS),
            nullable("last_used_at", MS),
            nullable("last_operation"),
            nullable("last_sdk"),
            # Set when the key was rotated: it keeps working until then, and is no longer the active key.
            nullable("retires_at", MS),
        ),
        table(
            "webhook_endpoints",
            Column("id"),
            Column("game_id", references=Ref("games")),
            Column("name"),
            Column("env"),
            Column("url"),
            Column("events", JSON),
            Column("secret_enc", BYTES),
            Column("status", default="active"),
            Column("consecutive_failures", INT, default=0),
            Column("created_at", MS),
            Column("updated_at", MS),
            nullable("paused_at", MS),
            # A rotated secret's predecessor (sealed as secret_enc is), signing beside it until
            # previous_secret_until; both cleared once that has passed.
            nullable("previous_secret_enc", BYTES),
            nullable("previous_secret_until", MS),
            unique=(("game_id", "name"),),
        ),
        table(
            "outbox",
            Column("seq", SEQ),
            Column("id", unique=True),
            Column("studio_id"),
            Column("game_id"),
            Column("env"),
            Column("kind"),
            Column("occurred_at", MS),
            Column("data", JSON),
            Column("fanned_out", BOOL, default=False),
            nullable("not_before", MS),
            nullable("debounce_key"),
            nullable("target_endpoint"),
            primary_key=("seq",),
        ),
        table(
            "idempotency",
            Column("scope"),
            Column("key"),
            Column("fingerprint"),
            Column("status", INT),
            Column("body", BYTES),
            Column("created_at", MS),
            # Whose secret the answer shows (livecore_server.shown_secrets): it is withdrawn when that
            # secret is replaced.
            nullable("shows_secret_of"),
            primary_key=("scope", "key"),
            rowid=False,
        ),
        table(
            "webhook_deliveries",
            Column("id"),
            Column("event_seq", BIGINT, references=Ref("outbox", "seq")),
            Column("endpoint_id", references=Ref("webhook_endpoints")),
            Column("status"),
            Column("attempts", INT, default=0),
            Column("next_attempt_at", MS),
            nullable("last_status", INT),
            nullable("last_error"),
            Column("created_at", MS),
            Column("updated_at", MS),
            nullable("delivered_at", MS),
            # Claimed by a dispatcher until this wall-clock time; another takes it over after.
            nullable("claimed_until", MS),
        ),
        # Scheduled work runs once per due time across processes: one row per job, its last claimed due time.
        table(
            "scheduled_runs",
            Column("job"),
            Column("due_at", MS),
            Column("claimed_at", MS),
            primary_key=("job",),
        ),
        # Facts about the database itself, by name: the check value of its server key
        # (livecore_server.crypto).
        table(
            "server_meta", Column("name"), Column("value"), Column("created_at", MS), primary_key=("name",)
        ),
        # Operators (docs/operators.md): a studio's members as its manifest declares them (``removed_at`` once
        # a manifest leaves one out), their portal sessions and one-time sign-in links, their personal keys,
        # and the audit log. Secrets are kept as keyed hashes only.
        table(
            "members",
            Column("id"),
            Column("studio_id", references=Ref("studios")),
            Column("key"),
            Column("email"),
            Column("role"),
            Column("created_at", MS),
            Column("updated_at", MS),
            nullable("removed_at", MS),
            unique=(("studio_id", "key"),),
            rowid=False,
        ),
        table(
            "member_sessions",
            Column("id"),
            Column("token_hash", unique=True),
            Column("member_id", references=Ref("members")),
            Column("via"),
            Column("created_at", MS),
            Column("expires_at", MS),
            nullable("ended_at", MS),
            nullable("ip"),
            rowid=False,
        ),
        table(
            "login_links",
            Column("token_hash"),
            Column("member_id", references=Ref("members")),
            Column("created_at", MS),
            Column("expires_at", MS),
            nullable("used_at", MS),
            primary_key=("token_hash",),
            rowid=False,
        ),
        table(
            "personal_keys",
            Column("id"),
            Column("member_id", references=Ref("members")),
            Column("secret_hash", unique=True),
            Column("prefix"),
            nullable("role"),
            Column("read_only", BOOL, default=False),
            Column("created_at", MS),
            Column("expires_at", MS),
            nullable("revoked_at", MS),
            nullable("last_used_at", MS),
            rowid=False,
        ),
        table(
            "audit_log",
            Column("seq", SEQ),
            Column("id", unique=True),
            Column("studio_id", references=Ref("studios")),
            nullable("game_id"),
            Column("at", MS),
            Column("actor", JSON),
            nullable("member_id"),  # the acting member's, from ``actor``: the log filtered by member
            Column("action"),
            Column("target"),
            Column("metadata", JSON),
            nullable("before", JSON),
            nullable("after", JSON),
            nullable("ip"),
            primary_key=("seq",),
        ),
        # One row per key (or address) and bucket. ``allowed`` is still written (as ``granted >= 1``) for a
        # process of an earlier version during a rolling upgrade. On PostgreSQL every bucket shared by the
        # processes of a deployment; on SQLite (one server process, whose keys' buckets are in its memory)
        # only the failed authentications of client addresses, so that the CLI can lift a lock-out
        # (livecore_server/lockouts.py).
        table(
            "rate_buckets",
            Column("subject"),
            Column("bucket"),
            Column("tokens", REAL),
            Column("updated_ms", MS),
            Column("allowed", BOOL),
            # A take may grant several tokens; RETURNING sees only the row's new values.
            Column("granted", INT, default=0),
            primary_key=("subject", "bucket"),
        ),
        # Each process's open event-board streams by API key, under a lease it renews every second
        # (livecore_server/stream_slots.py).
        table(
            "open_streams",
            Column("process_id"),
            Column("key_id"),
            Column("streams", INT),
            Column("lease_until_ms", MS),
            primary_key=("process_id", "key_id"),
            only=Only(
                POSTGRES,
                "the streams of several processes; a SQLite server is one process, which counts its own",
            ),
        ),
    ),
    indexes=(
        Index("api_keys_by_game_name", "api_keys", ("game_id", "name"), where="revoked_at IS NULL"),
        # The dispatcher fans committed events out to deliveries: what is left to do.
        Index("outbox_to_fan_out", "outbox", ("seq",), where=_NOT_FANNED_OUT),
        Index(
            "outbox_debouncing",
            "outbox",
            ("debounce_key",),
            unique=True,
            where=_NOT_FANNED_OUT,
        ),
        Index(
            "outbox_fanned_by_time",
            "outbox",
            ("occurred_at",),
            where=Where("fanned_out = 1", "fanned_out", _FLAG),
        ),
        Index("idempotency_by_age", "idempotency", ("created_at",)),
        Index(
            "idempotency_showing_secrets",
            "idempotency",
            ("shows_secret_of",),
            where="shows_secret_of IS NOT NULL",
        ),
        Index(
            "deliveries_due",
            "webhook_deliveries",
            ("next_attempt_at", "event_seq"),
            where="status = 'pending'",
        ),
        Index("deliveries_by_endpoint", "webhook_deliveries", ("endpoint_id", "created_at")),
        Index("deliveries_by_event", "webhook_deliveries", ("event_seq",)),
        Index(
            "deliveries_finished_by_time", "webhook_deliveries", ("updated_at",), where="status != 'pending'"
        ),
        Index("rate_buckets_by_age", "rate_buckets", ("updated_ms",)),
        Index("member_sessions_of_member", "member_sessions", ("member_id",), where="ended_at IS NULL"),
        # A member's key that works (one at most: making one revokes the one before).
        Index("personal_keys_of_member", "personal_keys", ("member_id",), where="revoked_at IS NULL"),
        # The audit log newest first, per studio and per game, by keyset on seq.
        Index("audit_by_studio", "audit_log", ("studio_id", "seq")),
        Index("audit_by_game", "audit_log", ("game_id", "seq")),
    ),
)
