"""What both SQL stores share: the transaction every SQL port runs its statements in.

Each port of :mod:`livecore.store` (and each server-only port) has one SQL implementation in its owner's
package (``livecore_server/<area>/sql.py``, or :mod:`livecore_server.storage.sql` for the ports no area
owns), written once in SQLite's dialect with ``?`` placeholders; PostgreSQL subclasses a port only where
its dialect differs or where it answers reads from a write's reads ahead. Ports run their
statements through their transaction (:class:`SqlTransaction`): on SQLite through the connection's own
methods (nothing to translate on the hot path), on PostgreSQL numbered, pipelined and held back as
:mod:`~livecore_server.storage.postgres` describes. The few SQL fragments where the dialects differ are
attributes each transaction class sets (:attr:`SqlTransaction.NOT_FANNED_OUT` and friends); an area's
own differ by its port's class (:class:`Dialects`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar, Protocol

import attrs

from livecore.area import Ports
from livecore.games import Game
from livecore_server.storage.concurrency import GameAloneNeeded
from livecore_server.storage.read_ahead import MISSING, Prefetched
from livecore_server.storage.schema import SQLITE, Dialect

# Told of each committed board change: (board id, its new version, the player whose entry moved or None).
BoardListener = Callable[[str, int, str | None], None]

# What a change of configuration names (:meth:`SqlTransaction.config_changed`): every API key (a key
# created, revoked, rotated or re-limited), or one game (its settings, its webhook endpoints).
KEYS_CHANGED = "keys"
GAME_CHANGED = "game:"  # followed by the game's id


@attrs.frozen
class Insert:
    """A one-row INSERT, declared by its table and columns (and its ON CONFLICT clause): a port declares
    each once, and a transaction may hold it back and send it with the other rows of its table
    (PostgreSQL, :mod:`~livecore_server.storage.postgres_batches`) without reading SQL text."""

    table: str
    columns: tuple[str, ...]
    conflict: tuple[str, ...] = ()  # the ON CONFLICT target, when there is one
    action: str = ""  # what ON CONFLICT does: "DO UPDATE SET ..."

    @functools.cached_property
    def head(self) -> str:
        """Up to and including VALUES."""
        return f"INSERT INTO {self.table} ({', '.join(self.columns)}) VALUES "

    @functools.cached_property
    def row(self) -> str:
        return f"({', '.join('?' * len(self.columns))})"

    @functools.cached_property
    def tail(self) -> str:
        return f" ON CONFLICT ({', '.join(self.conflict)}) {self.action}" if self.conflict else ""

    @functools.cached_property
    def key(self) -> tuple[int, ...]:
        """The conflict target's positions among the columns."""
        return tuple(self.columns.index(c) for c in self.conflict)

    @functools.cached_property
    def sql(self) -> str:
        return self.head + self.row + self.tail


class Cursor(Protocol):
    """What the shared statements use of a DB-API cursor (sqlite3's and psycopg's alike)."""

    @property
    def rowcount(self) -> int: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...


# Seconds a process keeps game settings and webhook subscriptions it read, at most: what changes them
# drops the copies at once (config_changed), this bounds a change this process was not told of (SQLite:
# an operator command run in another process; PostgreSQL: while its watch does not listen).
GAME_CACHE_TTL = 1.0


def cached_game(games: dict[str, tuple[float, Game]], game_id: str) -> Game | None:
    """The game's settings from a store's cache when read within GAME_CACHE_TTL, else None."""
    cached = games.get(game_id)
    if cached is not None and time.monotonic() - cached[0] < GAME_CACHE_TTL:
        return cached[1]
    return None


class SqlTransaction:
    """One unit of work on one connection, and the ports that run their statements in it. Subclasses
    provide the connection, the execution and the dialect fragments, and open the ports."""

    # Dialect fragments, set by each subclass.
    NOT_FANNED_OUT: ClassVar[str]  # outbox rows not fanned out yet
    INT_SUM: ClassVar[str]  # appended to SUM(...) of BIGINT amounts, so they come back as int
    SPENDERS_GROUP: ClassVar[str]  # spenders' GROUP BY, and HAVING the total >= ?
    MAX_IN_LIST: ClassVar[int]  # the most values one in_list may hold
    FANNED_OUT: ClassVar[str]  # outbox rows already fanned out
    GREATEST: ClassVar[str]  # the larger of two values: SQLite's scalar max(), PostgreSQL's GREATEST()

    # Set by whatever gives the dispatcher work (the outbox's emit, a sample, a replay, an unpause); the
    # store tells its commit listeners once it is durable.
    emitted: bool
    # Game settings are read by most commands and change rarely: parsed once per GAME_CACHE_TTL.
    game_cache: dict[str, tuple[float, Game]]
    # Told the id of every player row this transaction writes (the store's on_player_written).
    player_listeners: list[Callable[[str], None]]
    # Told what configuration this transaction changes, as it changes it (the store's on_config_changed).
    config_listeners: list[Callable[[str], None]]
    # The kinds of webhook events each game's endpoints subscribe to, by environment (the store's cache).
    subscription_cache: dict[str, tuple[float, dict[str, frozenset[str]]]]
    # How a port runs its statements (``?`` placeholders). Each says what it may change, so that
    # PostgreSQL knows what a write read ahead stays exact (postgres_prefetch) without reading
    # SQL text:
    # - ``read``: a SELECT; its cursor.
    read: Callable[[str, Sequence[Any]], Cursor]
    # - ``execute``, ``executemany``: any statement, its cursor (or one statement per parameter row):
    #   for the server's own tables and tools; on PostgreSQL they forget whatever was read ahead.
    execute: Callable[[str, Sequence[Any]], Cursor]
    executemany: Callable[[str, Iterable[Sequence[Any]]], Any]

    # The tables the store's reads ahead read (its ReadAheads.tables).
    read_ahead_tables: frozenset[str]
    # What was read ahead for the running write (or SQLite's commit group), while it is still exact
    # (:mod:`.read_ahead`); a write that forgets exactly what it changes is running (:meth:`exactly`).
    prefetched: Prefetched | None = None
    _exact_write: bool = False
    # (pages table, list, key, entries ahead): where a player's entry of a ranked list moved in this
    # transaction, and the count ahead of it read with the move, for the rank asked right after
    # (livecore_server.live_events.sql.rank_pages).
    ahead_of_moved: tuple[str, str, tuple[float, int, str], int] | None = None
    # Whether the transaction holds its game alone, or no game's lock at all: False only for a write that
    # runs beside its game's others on PostgreSQL (SQLite runs one write at a time).
    alone: bool = True

    def hold_game_alone(self) -> None:
        """The write changes rows of its game other players' writes share: unless it holds its game alone,
        it stops here and runs again holding it (:class:`.concurrency.GameAloneNeeded`)."""
        if not self.alone:
            raise GameAloneNeeded()

    def hold(self, kind: str, row_id: str) -> None:
        """Hold a row (or a set of rows) that writes running beside each other share, named ``kind`` and
        ``row_id`` (a board's period: its divisions and rank pages), until the commit, before reading
        or changing it: the writes holding it run one after the other from there. A write holding its
        game alone (every write on SQLite) holds it already; PostgreSQL overrides this."""

    def forget(self, table: str | None) -> None:
        """A statement is changing ``table`` (None: anything): forget what was read ahead, unless it is a
        table no read ahead reads, or the write forgets exactly what it changes (:meth:`exactly`)."""
        if self.prefetched is None or self._exact_write:
            return
        if table is None or table in self.read_ahead_tables:
            self.prefetched = None

    def ahead(self, kind: str, key: tuple[str, str]) -> Any:
        """What was read ahead for this port read (it may be None: no such row), or MISSING."""
        prefetched = self.prefetched
        if prefetched is None:
            return MISSING
        if kind == "players":
            return prefetched.players.get(key, MISSING)
        if kind == "idempotency":
            return prefetched.idempotency.get(key, MISSING)
        return prefetched.found.get(kind, {}).get(key, MISSING)

    def player_ahead(self, player_id: str) -> Any:
        """The player read ahead with this id, or MISSING."""
        return MISSING if self.prefetched is None else self.prefetched.player_by_id(player_id)

    @contextmanager
    def exactly(self, forget: Callable[[Prefetched], None]) -> Iterator[None]:
        """Around a write that forgets exactly the prefetched rows it changes (``forget``), instead of
        everything as :meth:`forget` would."""
        if self.prefetched is not None:
            forget(self.prefetched)
        self._exact_write = True
        try:
            yield
        finally:
            self._exact_write = False

    def change(self, table: str, statement: str, params: Sequence[Any] = ()) -> Cursor:
        """An UPDATE or DELETE of ``table`` whose answer (its row count) is read."""
        raise NotImplementedError

    def write(self, table: str, statement: str, params: Sequence[Any] = ()) -> None:
        """An UPDATE of ``table`` whose answer nobody reads: PostgreSQL sends it without waiting for its
        answer, which comes with the next statement's (or the COMMIT's), so a command's writes cost one
        round trip together. An error it raises surfaces there too (the whole transaction fails either
        way). SQLite runs it at once."""
        raise NotImplementedError

    def insert(self, insert: Insert, params: Sequence[Any]) -> None:
        """One row, as :meth:`write` sends a statement (PostgreSQL may also hold it back and send it with
        the other rows of its table)."""
        raise NotImplementedError

    def player_written(self, player_id: str) -> None:
        """The player's row was written outside the players port (the presence board's batches): the
        store's player listeners hear of it now, and on PostgreSQL every process's once this commits."""
        for listener in self.player_listeners:
            listener(player_id)

    def config_changed(self, what: str) -> None:
        """This transaction changes configuration that processes cache (:data:`KEYS_CHANGED`, or
        :data:`GAME_CHANGED` and a game's id): this process drops its copies now, and on PostgreSQL every
        process does once this commits (a NOTIFY), this one again (a copy read meanwhile is the old one)."""
        for listener in self.config_listeners:
            listener(what)

    def board_moved(self, board_id: str, player_id: str | None) -> None:
        """:meth:`board_changed`, at the version the board's row holds now in this transaction (a write
        that counted it up in the database, holding the row until it commits)."""
        raise NotImplementedError

    def board_changed(self, board_id: str, version: int, player_id: str | None) -> None:
        """The board reached ``version`` (``player_id``: whose entry moved): the store's board listeners
        (``on_board_changed``) of every process hear it once this transaction commits, and never if it
        rolls back (PostgreSQL: a NOTIFY; SQLite: after the COMMIT of the transaction or its group)."""
        raise NotImplementedError

    # Every port is ``tx.<name>``, opened from its owner's declaration (the shared ones',
    # :data:`livecore_server.storage.sql.SHARED_PORTS`; each area's, ``ServerArea.sql_ports``) and typed
    # where it is used: :class:`livecore_server.storage.server_store.ServerTransaction` types the shared
    # ones, ``livecore.store``'s ``Has...`` protocols the built-in areas', an area's own protocol its own.
    # ``tx.ports.<name>`` reaches each area's too.
    ports: Ports  # every area's, by name

    def skip_locked(self, of: str | None = None) -> str:
        """Appended to a SELECT that claims rows (of table alias ``of``): PostgreSQL locks them and skips
        rows another process holds; SQLite has one writer at a time, so it adds nothing."""
        raise NotImplementedError

    def for_update(self, of: str | None = None) -> str:
        """Appended to a SELECT whose rows (of table alias ``of``) the transaction will change:
        PostgreSQL locks them; SQLite has one writer at a time."""
        raise NotImplementedError

    def in_list(self, column: str, values: Sequence[Any]) -> tuple[str, tuple[Any, ...]]:
        """A condition ``column`` is one of ``values`` (not empty), and its parameters."""
        raise NotImplementedError

    def by_key(self, table: str, alias: str, where: str) -> str:
        """A join of the one row of ``table`` (as ``alias``, which ``where`` names it by) that ``where``,
        a unique key of it given by the rows before, finds: looked up by its key for each row, whatever
        the plan's guesses."""
        raise NotImplementedError


def prefixed(column: str, prefix: str, *, unless: bool = False) -> str:
    """A condition that ``column`` starts with ``prefix``, its one parameter; with ``unless``, that it
    does not (a NULL does not). Compared as a substring, not a LIKE pattern, whose ``_`` and ``%`` a
    value may hold; ``substr`` is SQLite's and PostgreSQL's alike."""
    return f"COALESCE(substr({column}, 1, {len(prefix)}), '') {'<>' if unless else '='} ?"


class SqlPort:
    """A port's statements, run in one transaction."""

    __slots__ = ("db",)

    def __init__(self, db: SqlTransaction) -> None:
        self.db = db


@attrs.frozen
class Dialects:
    """An SQL port whose class differs by dialect: its class, and a dialect's own subclass where that
    dialect differs (``sqlite``, ``postgres``). An area declares it in ``ServerArea.sql_ports`` where a
    single class would do otherwise."""

    port: type[SqlPort]
    sqlite: type[SqlPort] | None = None
    postgres: type[SqlPort] | None = None

    def of(self, dialect: Dialect) -> type[SqlPort]:
        """The class a transaction of ``dialect`` opens."""
        return (self.sqlite if dialect == SQLITE else self.postgres) or self.port
