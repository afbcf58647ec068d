"""Inserts a PostgreSQL transaction holds back, then sends as a few multi-row statements
(docs/architecture.md, "Inserts sent together").

A gift send inserts its gift, its grant, two or three outbox events, its idempotency record, and for a
gift that costs the sender a ledger entry and a balance: some seven statements a send (some thirty for
the commit groups of four sends there were once), and each cost psycopg about as much client work as
PostgreSQL's for running it. Nobody reads
the answer of an insert, so the transaction holds them back (``PostgresTransaction.insert``) until a
statement whose answer it reads, or the COMMIT, and :func:`together` turns them into one ``INSERT ...
VALUES (...), (...)`` per table. Each insert is declared by its parts (:class:`~.sqlport.Insert`: table,
columns, conflict clause), so nothing here reads SQL text. (One array per column through ``unnest``
would keep one statement text whatever the number of rows, but psycopg builds array parameters in
Python: it cost twice the client time of the rows it replaced, where multi-row VALUES cost 0.6 of it;
benchmarks/MEASUREMENTS.md.)

What makes that exact: the statements it reorders are inserts into :data:`BATCHED_TABLES` only, which
have no foreign key to one another (theirs point to players and games, never held back) and no
triggers, so only the order within one table can matter (its ``seq`` column, a conflict on a key): that
order is kept, and a row whose conflict key a pending row of its table already has starts the next
statements instead (PostgreSQL refuses to change one row twice in one ``INSERT ... ON CONFLICT``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import attrs

from livecore_server.storage.sqlport import Insert

# Tables whose inserts may be held back and reordered among each other (above).
BATCHED_TABLES = frozenset({"outbox", "gifts", "grants", "idempotency", "ledger", "holdings"})

# PostgreSQL takes at most 65,535 parameters in one statement; a batch stays well under it.
MAX_PARAMETERS = 30_000


@functools.lru_cache(maxsize=512)
def _rows(insert: Insert, n: int) -> str:
    return insert.head + ", ".join([insert.row] * n) + insert.tail


@attrs.define
class _Batch:
    insert: Insert
    rows: list[Sequence[Any]] = attrs.Factory(list)
    keys: set[tuple[Any, ...]] = attrs.Factory(set)

    def takes(self, insert: Insert, params: Sequence[Any]) -> bool:
        return (
            insert == self.insert
            and (not insert.key or tuple(params[i] for i in insert.key) not in self.keys)
            and (len(self.rows) + 1) * len(params) <= MAX_PARAMETERS
        )

    def add(self, params: Sequence[Any]) -> None:
        self.rows.append(params)
        if self.insert.key:
            self.keys.add(tuple(params[i] for i in self.insert.key))

    def sent(self) -> tuple[str, Sequence[Any]]:
        if len(self.rows) == 1:
            return self.insert.sql, self.rows[0]
        return _rows(self.insert, len(self.rows)), [value for row in self.rows for value in row]


def together(writes: Sequence[tuple[Insert, Sequence[Any]]]) -> list[tuple[str, Sequence[Any]]]:
    """Statements with the effect of the held-back inserts ``writes`` run in order: one per table, more
    when a table's rows come in several declared forms or repeat a conflict key."""
    sent: list[tuple[str, Sequence[Any]]] = []
    batches: dict[str, _Batch] = {}
    for insert, params in writes:
        batch = batches.get(insert.table)
        if batch is not None and not batch.takes(insert, params):
            sent.extend(b.sent() for b in batches.values())
            batches.clear()
            batch = None
        if batch is None:
            batch = batches[insert.table] = _Batch(insert)
        batch.add(params)
    sent.extend(b.sent() for b in batches.values())
    return sent
