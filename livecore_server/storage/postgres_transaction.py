"""The transaction of the PostgreSQL store (:mod:`livecore_server.storage.postgres`): the ports on one
connection, their statements numbered, pipelined and held back, and the notifications each process hears
of what a transaction changes, once it commits (the channels below, heard by ``PostgresStore.watch``)."""

from __future__ import annotations

import functools
import secrets
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import psycopg
from psycopg import Pipeline

from livecore.commands.reads import Reads
from livecore.games import Game
from livecore.transaction import Transaction
from livecore_server.storage.postgres_batches import BATCHED_TABLES, together
from livecore_server.storage.read_ahead import Prefetched
from livecore_server.storage.sql import OpenedPorts, open_ports
from livecore_server.storage.sqlport import Insert, SqlTransaction

# Statically a ServerTransaction: it opens the ports of the areas its store serves, the built-in ones among
# them (livecore_server.registry.storage()). mypy cannot see ports opened from the areas' declarations, so
# it takes the transaction for abstract where it is made (``type: ignore[abstract]``), and
# tests/server/test_sql_ports.py checks that every port is opened.
if TYPE_CHECKING:
    from livecore_server.storage.server_transaction import ServerTransaction as Served
else:
    Served = object

# Changes of configuration that processes cache (SqlTransaction.config_changed): API keys, a game's
# settings and webhook endpoints.
CONFIG_CHANNEL = "livecore_config"
# A transaction wrote outbox events: every process's dispatcher wakes (one of them fans them out).
EVENTS_CHANNEL = "livecore_events"
# Player-row writes: every process's heartbeat cache forgets the row. Channels are per database, not per
# schema: deployments in two schemas of one database hear each other's player ids, which only makes a
# cache read a row again.
PLAYERS_CHANNEL = "livecore_players"
# Board changes, on the connection that hears player-row writes. As for players, a deployment may hear
# another schema's board ids, which name no board it streams.
BOARDS_CHANNEL = "livecore_boards"


# An advisory lock for the rest of the transaction: a player's, an idempotency key's, a shared row's.
LOCK_ROW = "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))"


def row_lock(kind: str, row_id: str) -> str:
    """The name of the lock of a row other players' writes change too, held like a player's: declared
    (``Reads.rows``), before the write reads anything; or as the write reaches it
    (:meth:`PostgresTransaction.hold`)."""
    return f"row:{kind}:{row_id}"


def board_change_payload(board_id: str, version: int, player_id: str | None) -> str:
    """``"<board id> <version> <player id or nothing>"``: ids hold no spaces."""
    return f"{board_id} {version} {player_id or ''}"


def board_change(payload: str) -> tuple[str, int, str | None]:
    board_id, version, player_id = payload.split(" ")
    return board_id, int(version), player_id or None


class Shared(Protocol):
    """What the transactions of one store share (:class:`~livecore_server.storage.postgres.PostgresStore`):
    its caches, its listeners and the ports each transaction opens."""

    games: dict[str, tuple[float, Game]]
    subscriptions: dict[str, tuple[float, dict[str, frozenset[str]]]]
    player_listeners: list[Callable[[str], None]]
    config_listeners: list[Callable[[str], None]]
    tx_ports: OpenedPorts

    read_ahead_tables: frozenset[str]

    @property
    def read_ahead(self) -> Callable[[PostgresTransaction, Reads], Prefetched]:
        """Reads what a write declares, ahead of it (postgres_prefetch)."""
        ...


@functools.lru_cache(maxsize=1024)
def _numbered(statement: str) -> str:
    """A shared statement in PostgreSQL's own style, for psycopg's raw cursors: ``?`` placeholders become
    ``$1``, ``$2``, ...; psycopg then sends it as it is, without converting it (see _send for why)."""
    parts = statement.split("?")
    return parts[0] + "".join(f"${i}{part}" for i, part in enumerate(parts[1:], start=1))


class PostgresTransaction(SqlTransaction, Served):
    """The ports on one PostgreSQL connection; valid only inside :meth:`PostgresStore.transaction`."""

    NOT_FANNED_OUT = "NOT fanned_out"
    # SUM over BIGINT is NUMERIC in PostgreSQL: cast back, so amounts come back as int.
    INT_SUM = "::BIGINT"
    SPENDERS_GROUP = "GROUP BY u.player_id, p.external_id HAVING SUM(u.normalized_amount_minor) >= ?"
    MAX_IN_LIST = sys.maxsize  # one array parameter holds them all
    FANNED_OUT = "fanned_out"
    GREATEST = "GREATEST"

    def __init__(
        self, conn: psycopg.Connection[Any], store: Shared, pipeline: Pipeline | None = None
    ) -> None:
        self.conn = conn
        self.store = store
        self._pipeline = pipeline
        self.emitted = False
        self.game_cache = store.games  # the store's cache, shared by its transactions
        self.subscription_cache = store.subscriptions
        self.player_listeners = store.player_listeners
        self.read_ahead_tables = store.read_ahead_tables
        self.config_listeners = store.config_listeners
        self.config_changes: list[str] = []  # told again once this commits (PostgresStore.transaction)
        self.config_tokens: list[str] = []
        self.prefetched = None
        self._exact_write = False
        self._writer: psycopg.RawCursor[Any] | None = None  # _send's
        self._readers: list[psycopg.RawCursor[Any]] = []  # execute_together's, reused (as _writer)
        # Inserts held back until a statement whose answer is read, or the COMMIT (postgres_batches);
        # None: every statement goes out as it comes (not pipelined).
        self._held: list[tuple[Insert, Sequence[Any]]] | None = [] if pipeline is not None else None
        open_ports(self, store.tx_ports)

    def hold_writes(self, hold: bool) -> None:
        """Hold inserts back (the default in a pipelined transaction) or send each as it comes."""
        self.send_held()
        self._held = [] if hold and self._pipeline is not None else None

    def send_held(self) -> None:
        """Send what is held back, without waiting for the answers."""
        held = self._held
        if not held:
            return
        for statement, params in together(held):
            self._send(statement, params)
        held.clear()

    def read(self, statement: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        self.send_held()
        cursor = psycopg.RawCursor(self.conn)
        cursor.execute(_numbered(statement), params)
        if self._pipeline is not None:
            self._pipeline.sync()  # the answer is read now (rows, rowcount), and errors raised here
        return cursor

    def execute(self, statement: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        self.forget(None)
        return self.read(statement, params)

    def change(self, table: str, statement: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        self.forget(table)
        return self.read(statement, params)

    def write(self, table: str, statement: str, params: Sequence[Any] = ()) -> None:
        self.forget(table)  # now, not when it goes out: a read in between must not be answered ahead
        self.send_held()
        self._send(statement, params)

    def insert(self, insert: Insert, params: Sequence[Any]) -> None:
        self.forget(insert.table)
        if self._held is not None and insert.table in BATCHED_TABLES:
            self._held.append((insert, params))
        else:
            self.send_held()
            self._send(insert.sql, params)

    def send(self, statement: str, params: Sequence[Any] = ()) -> None:
        """A statement that changes no table and whose answer nobody reads (a lock), out with the next
        one that is waited for."""
        self.send_held()
        self._send(statement, params)

    def hold(self, kind: str, row_id: str) -> None:
        if not self.alone:  # sent with the next statement waited for, like the locks before it
            self.send(LOCK_ROW, (row_lock(kind, row_id),))

    def notify(self, channel: str, payload: str) -> None:
        """``NOTIFY``, delivered when the transaction commits (never if it rolls back)."""
        self.send_held()
        self._send("SELECT pg_notify(?, ?)", (channel, payload))

    def player_written(self, player_id: str) -> None:
        super().player_written(player_id)
        self.notify(PLAYERS_CHANNEL, player_id)

    def board_changed(self, board_id: str, version: int, player_id: str | None) -> None:
        self.notify(BOARDS_CHANNEL, board_change_payload(board_id, version, player_id))

    def board_moved(self, board_id: str, player_id: str | None) -> None:
        # The payload of board_change_payload, built from the row as this transaction left it: no round
        # trip to read the version back.
        self.send_held()
        self._send(
            "SELECT pg_notify(?, b.id || ' ' || b.version || ' ' || ?) FROM boards b WHERE b.id = ?",
            (BOARDS_CHANNEL, player_id or "", board_id),
        )

    def config_changed(self, what: str) -> None:
        super().config_changed(what)
        self.config_changes.append(what)
        # A token of its own, so that this process can tell when its watch has heard it back.
        token = secrets.token_hex(8)
        self.config_tokens.append(token)
        self.notify(CONFIG_CHANNEL, f"{what} {token}")

    def _send(self, statement: str, params: Sequence[Any] = ()) -> None:
        """One statement whose answer nobody reads, out now (what it changes was forgotten already)."""
        # One cursor for all of them: nobody reads their results, and a cursor per statement costs psycopg
        # about half as much work again per statement. A raw one: psycopg converts a %s statement of more
        # than 50 parameters (the inserts sent together) anew each time, which costs more than sending it
        # (both measured in benchmarks/MEASUREMENTS.md).
        if self._writer is None:
            self._writer = psycopg.RawCursor(self.conn)
        self._writer.execute(_numbered(statement), params)

    def execute_together(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        """Several reads in one round trip: their rows, in order."""
        self.send_held()
        while len(self._readers) < len(statements):
            self._readers.append(psycopg.RawCursor(self.conn))
        for cursor, (statement, params) in zip(self._readers, statements, strict=False):
            cursor.execute(_numbered(statement), params)
        if self._pipeline is not None:
            self._pipeline.sync()
        return [cursor.fetchall() for cursor in self._readers[: len(statements)]]

    def executemany(self, statement: str, params: Iterable[Sequence[Any]]) -> None:
        self.send_held()
        self.forget(None)
        rows = list(params)
        if rows:
            with psycopg.RawCursor(self.conn) as cur:
                cur.executemany(_numbered(statement), rows)
                if self._pipeline is not None:
                    self._pipeline.sync()  # before the cursor closes

    def prefetch(self, reads: Reads) -> None:
        """Read what ``reads`` names now; the ports' reads answer from it while it is exact."""
        self.prefetched = self.store.read_ahead(self, reads)

    def skip_locked(self, of: str | None = None) -> str:
        return self.for_update(of) + " SKIP LOCKED"

    def for_update(self, of: str | None = None) -> str:
        return f" FOR UPDATE OF {of}" if of else " FOR UPDATE"

    def in_list(self, column: str, values: Sequence[Any]) -> tuple[str, tuple[Any, ...]]:
        return f"{column} = ANY(?)", (list(values),)  # psycopg sends a list as an array

    def by_key(self, table: str, alias: str, where: str) -> str:
        # A LATERAL subquery with LIMIT 1 is never turned into a join: the planner cannot hash the table.
        return f"CROSS JOIN LATERAL (SELECT * FROM {table} {alias} WHERE {where} LIMIT 1) {alias}"


def _implements_the_port(tx: PostgresTransaction) -> Transaction:
    return tx  # mypy checks PostgresTransaction against the Protocol here
