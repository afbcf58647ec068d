"""Reads a write makes ahead of its command, on PostgreSQL (docs/architecture.md, "Reads ahead of a
write"; what stays exact and how: :mod:`.read_ahead`).

Every read a write makes is a round trip in which it holds its locks: a gift send read the sender, its
idempotency record, the recipient, the gift key, the friendship, the sender's recent gifts and the
balance, one round trip each. Instead the write reads what it declares in one round trip of set-based
statements, with its locks, before its command runs: the
players (by the statement the players area declares, :class:`~.read_ahead.PlayerRows`) and idempotency
records here, what the areas' commands declare with the statements each area
reads them by (:class:`~.read_ahead.ReadAhead`), written with :func:`key_read`, :func:`one` and
:func:`maybe`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from livecore.commands.reads import Reads
from livecore_server.storage.read_ahead import KeyRead, Prefetched, ReadAheads
from livecore_server.storage.rows import STORED_RESPONSE_COLUMNS

if TYPE_CHECKING:
    from livecore_server.storage.postgres_transaction import PostgresTransaction


# The keys arrive as one JSON array of objects, ``jsonb_to_recordset(?::jsonb) AS k(...)``, rather than
# one array per column through ``unnest``: PostgreSQL estimates an unnest of a known array at its real
# length and of a parameter at 10, so a custom plan always looked cheaper than the generic one and every
# run was planned anew (planning cost about as much as running), where a recordset counts 100 rows either
# way and the generic plan is kept after PostgreSQL's first five custom ones. And psycopg builds array
# parameters in Python, where the JSON is one string (measured in benchmarks/MEASUREMENTS.md).
def key_read(columns: str, sql: str) -> KeyRead:
    """``columns``: ``"name type, ..."`` of a key; ``sql`` takes them from ``{keys}`` (alias ``k``)."""
    names = tuple(column.split()[0] for column in columns.split(","))
    return KeyRead(sql.replace("{keys}", f"jsonb_to_recordset(?::jsonb) AS k({columns})"), names)


# Every row is found by its key through a LATERAL subquery with LIMIT 1 (a unique key: one row at most),
# which PostgreSQL runs once per key as an index look-up. Joined plainly, the plan depends on the
# statistics of when the server prepared the statement: on a new database, tables that were nearly empty
# got a hash join over a sequential scan of every player (or idempotency record), cached for the life of
# the connection and growing with the table (docs/architecture.md, "Reads ahead of a write"); a
# subquery with LIMIT is never flattened into such a join.
def one(alias: str, columns: str, table: str, where: str) -> str:
    """Join the row of ``table`` that ``where`` names (there is one)."""
    return f"CROSS JOIN LATERAL (SELECT {columns} FROM {table} WHERE {where} LIMIT 1) {alias}"


def maybe(alias: str, columns: str, table: str, where: str) -> str:
    """Join the row of ``table`` that ``where`` names, or NULLs when there is none."""
    return f"LEFT JOIN LATERAL (SELECT {columns} FROM {table} WHERE {where} LIMIT 1) {alias} ON TRUE"


IDEMPOTENCY = key_read(
    "scope text, key text",
    "SELECT i.* FROM {keys} "
    + one(
        "i",
        STORED_RESPONSE_COLUMNS.sql,
        "idempotency",
        "scope = k.scope AND key = k.key",
    ),
)


def load(tx: PostgresTransaction, reads: Reads, aheads: ReadAheads) -> Prefetched:
    """Read everything ``reads`` names, in one round trip."""
    found = aheads.new()
    player_keys = aheads.players(reads)
    players = aheads.player_rows
    idempotency_keys = sorted(set(reads.idempotency))
    statements: list[tuple[str, Sequence[Any]]] = [
        (read.sql, read.keys(rows))
        for read, rows in ((players.postgres, player_keys), (IDEMPOTENCY, idempotency_keys))
        if rows
    ]
    areas = []
    for ahead, declared in aheads.of(reads):
        own, found_by = ahead.postgres(declared)
        statements += own
        areas.append(found_by)
    results = iter(tx.execute_together(statements))
    if player_keys:
        found.players = dict.fromkeys(player_keys)
        for row in next(results):
            player = players.columns.of(row)
            found.players[player.game_id, player.external_id] = player
    if idempotency_keys:
        found.idempotency = dict.fromkeys(idempotency_keys)
        for row in next(results):
            response = STORED_RESPONSE_COLUMNS.of(row)
            found.idempotency[response.scope, response.key] = response
    for found_by in areas:
        found_by(found, results)
    return found
