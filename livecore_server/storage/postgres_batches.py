"""Inserts a PostgreSQL transaction holds back, then sends as a few multi-row statements
(docs/architecture.md, "Inserts sent together").

A gift send inserts its gift, its grant, two or three outbox events, its idempotency record, and for a
gift that costs the sender a ledger entry and a balance: a commit group of four sends made some thirty
statements, and each cost psycopg about as much client work as PostgreSQL's for running it. Nobody reads
the answer of an insert, so the transaction holds them back (``PostgresTransaction.write``) until a
statement whose answer it reads, or the COMMIT, and :func:`together` turns them into one ``INSERT ...
VALUES (...), (...)`` per table. (One array per column through ``unnest`` would keep one statement text
whatever the number of rows, but psycopg builds array parameters in Python: it cost twice the client
time of the rows it replaced, where multi-row VALUES cost 0.6 of it; docs/architecture.md.)

What makes that exact: the statements it reorders are inserts into :data:`BATCHED_TABLES` only, which
have no foreign key to one another (theirs point to players and games, never held back) and no
triggers, so only the order within one table can matter (its ``seq`` column, a conflict on a key): that
order is kept, and a row whose conflict key a pending row of its table already has starts the next
statements instead (PostgreSQL refuses to change one row twice in one ``INSERT ... ON CONFLICT``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

import attrs

# Tables whose inserts may be held back and reordered among each other (above).
BATCHED_TABLES = frozenset({"outbox", "gifts", "grants", "idempotency", "ledger", "holdings"})

# PostgreSQL takes at most 65,535 parameters in one statement; a batch stays well under it.
MAX_PARAMETERS = 30_000

_INSERT = re.compile(
    r"INSERT INTO (?P<table>\w+) \((?P<columns>[^)]*)\) VALUES (?P<row>\(\?(?:, \?)*\))"
    r"(?P<tail> ON CONFLICT \((?P<key>[^)]*)\) DO .*)?",
    re.DOTALL,
)


@attrs.frozen
class Shape:
    """A single-row insert that can take more rows."""

    table: str
    head: str  # up to and including VALUES
    row: str  # (?, ?, ...)
    tail: str  # the ON CONFLICT clause, or nothing
    key: tuple[int, ...]  # the conflict target's positions among the columns; () without one


@functools.lru_cache(maxsize=256)
def shape_of(statement: str) -> Shape | None:
    """The shape of an insert that may be held back, None for any other statement."""
    match = _INSERT.fullmatch(statement)
    if match is None or match["table"] not in BATCHED_TABLES:
        return None
    columns = [c.strip() for c in match["columns"].split(",")]
    if len(columns) != match["row"].count("?"):
        return None
    try:
        key = tuple(columns.index(c.strip()) for c in match["key"].split(",")) if match["key"] else ()
    except ValueError:  # a conflict target that is not a plain column list: send it as it is
        return None
    return Shape(match["table"], statement[: match.start("row")], match["row"], match["tail"] or "", key)


@functools.lru_cache(maxsize=512)
def _rows(shape: Shape, n: int) -> str:
    return shape.head + ", ".join([shape.row] * n) + shape.tail


@attrs.define
class _Batch:
    shape: Shape
    statement: str
    rows: list[Sequence[Any]] = attrs.Factory(list)
    keys: set[tuple[Any, ...]] = attrs.Factory(set)

    def takes(self, statement: str, params: Sequence[Any]) -> bool:
        return (
            statement == self.statement
            and (not self.shape.key or tuple(params[i] for i in self.shape.key) not in self.keys)
            and (len(self.rows) + 1) * len(params) <= MAX_PARAMETERS
        )

    def add(self, params: Sequence[Any]) -> None:
        self.rows.append(params)
        if self.shape.key:
            self.keys.add(tuple(params[i] for i in self.shape.key))

    def sent(self) -> tuple[str, Sequence[Any]]:
        if len(self.rows) == 1:
            return self.statement, self.rows[0]
        return _rows(self.shape, len(self.rows)), [value for row in self.rows for value in row]


def together(writes: Sequence[tuple[str, Sequence[Any]]]) -> list[tuple[str, Sequence[Any]]]:
    """Statements with the effect of the held-back inserts ``writes`` run in order: one per table, more
    when a table's rows come in several statement forms or repeat a conflict key."""
    sent: list[tuple[str, Sequence[Any]]] = []
    batches: dict[str, _Batch] = {}
    for statement, params in writes:
        shape = shape_of(statement)
        assert shape is not None, statement
        batch = batches.get(shape.table)
        if batch is not None and not batch.takes(statement, params):
            sent.extend(b.sent() for b in batches.values())
            batches.clear()
            batch = None
        if batch is None:
            batch = batches[shape.table] = _Batch(shape, statement)
        batch.add(params)
    sent.extend(b.sent() for b in batches.values())
    return sent
