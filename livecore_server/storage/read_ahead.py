"""What a write reads ahead of running, and how it stays exact (docs/architecture.md, "Reads ahead of a
write").

A write declares what it will read (:class:`livecore.commands.reads.Reads`, from the request alone); its
store reads all of it before the write runs, in as few statements as its database allows: PostgreSQL for
a write in one round trip with its locks (:mod:`.postgres_prefetch`), SQLite for each write in one or two
statements that join what separate port reads would read one by one (:mod:`.sqlite_prefetch`). Every
write's caller, the other players it names and its idempotency record are read here, the players' rows as
the players area declares them (:class:`PlayerRows`, its ``ServerArea.read_ahead``); what an area's
command declares beyond them (``Reads.areas``) its area reads, as its server side declares
(:class:`ReadAhead`, ``ServerArea.read_ahead``). The write then runs unchanged: its transaction answers
a port's read from what was read ahead when it can (:meth:`.sqlport.SqlTransaction.ahead`), and from the
database otherwise.

What makes that exact: the reads ahead read the transaction's own snapshot, so a row read ahead is what
the write would have read, unless a write changed it first. Every statement that could change a row read
ahead therefore forgets it: a port's writes may forget precisely the rows they change
(:meth:`Prefetched.forget` and the others, through :meth:`.sqlport.SqlTransaction.exactly`), and any
other statement that changes a table the reads ahead read (:attr:`ReadAheads.tables`: each statement
names the table it changes) forgets everything. A write rolled back to its savepoint leaves forgotten rows
forgotten (they are read again), and changed nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Final, Protocol, TypeVar

import attrs
import orjson

from livecore.commands.reads import AreaReads, PlayerKey, Reads
from livecore.idempotency import StoredResponse
from livecore_server.storage.columns import Columns


class Missing:
    pass


class PlayerRow(Protocol):
    """A player's record, as far as reads ahead find and forget it."""

    @property
    def id(self) -> str: ...
    @property
    def game_id(self) -> str: ...
    @property
    def external_id(self) -> str: ...


MISSING: Final = Missing()  # not read ahead (or forgotten): read the database

#: The tables every write's reads ahead read: its players and its idempotency record.
SHARED_TABLES = frozenset({"players", "idempotency"})


@attrs.define
class Prefetched:
    """The rows a write read ahead: the players and idempotency records, and what each area's
    read ahead found, by kind (:meth:`of`), each by the arguments of the port method that reads it."""

    players: dict[PlayerKey, PlayerRow | None] = attrs.Factory(dict)
    idempotency: dict[tuple[str, str], StoredResponse | None] = attrs.Factory(dict)
    found: dict[str, dict[Any, Any]] = attrs.Factory(dict)
    # The kinds keyed by players' external ids, forgotten with any player row written.
    with_players: frozenset[str] = frozenset()

    def of(self, kind: str) -> dict[Any, Any]:
        """What was read ahead of ``kind`` (an area's), to fill or read."""
        return self.found.setdefault(kind, {})

    def player_by_id(self, player_id: str) -> PlayerRow | Missing:
        """A player read ahead by its key, found by its id."""
        for player in self.players.values():
            if player is not None and player.id == player_id:
                return player
        return MISSING

    # --- What writes forget -----------------------------------------------------------------------
    def player_written(self, player: PlayerRow) -> None:
        """A player row was inserted or updated: forget it, and whatever was read by its key."""
        for key, value in list(self.players.items()):
            if key == (player.game_id, player.external_id) or (value is not None and value.id == player.id):
                del self.players[key]
        for kind in self.with_players:
            self.found.pop(kind, None)

    def idempotency_written(self, scope: str, key: str) -> None:
        self.idempotency.pop((scope, key), None)

    def forget(self, kind: str, key: Any) -> None:
        """A row an area read ahead as ``kind`` (by ``key``) was written."""
        self.found.get(kind, {}).pop(key, None)


class _OfAGame(Protocol):
    @property
    def game_id(self) -> str: ...


G = TypeVar("G", bound=_OfAGame)


def of_game(row: G | None, game_id: str) -> G | None:
    """``row`` if it is of ``game_id``, as a port reads a row by its id and game: a read ahead finds it by
    its id alone, through its primary key (a plan with the game as a filter is what the plan test
    refuses), and checks its game here."""
    return row if row is not None and row.game_id == game_id else None


#: An area's read ahead on SQLite: ``(transaction, what was read so far, the area's declared reads)``.
SqliteReadAhead = Callable[[Any, Prefetched, Sequence[Any]], None]
#: On PostgreSQL: the statements reading the declared reads, and what reads their rows (one list per
#: statement, in order) into what was read.
PostgresReadAhead = Callable[
    [Sequence[Any]],
    tuple[list[tuple[str, Sequence[Any]]], Callable[[Prefetched, Iterator[list[Any]]], None]],
]


@attrs.frozen
class KeyRead:
    """A read ahead on PostgreSQL: ``sql`` looks up the rows of a set of keys, given as one parameter
    (:meth:`keys`)."""

    sql: str
    names: tuple[str, ...]  # the fields of a key, in the order of the rows given to ``keys``

    def keys(self, rows: Iterable[tuple[Any, ...]]) -> tuple[str]:
        return (orjson.dumps([dict(zip(self.names, row, strict=True)) for row in rows]).decode(),)


@attrs.frozen
class PlayerRows:
    """How every write's players are read ahead, declared by the players area: their ``columns`` (read
    with the write's idempotency record in one statement on SQLite) and the statement that reads them by
    their keys on PostgreSQL (``(game_id, external_id)``)."""

    columns: Columns[Any]
    postgres: KeyRead
    #: A NULL for each column: the players' part of a row of a UNION that reads something else.
    no_row: str = attrs.field(init=False)

    @no_row.default
    def _no_row(self) -> str:
        return ", ".join("NULL" for _ in range(self.columns.width))


def _reads_nothing(tx: Any, found: Prefetched, declared: Sequence[Any]) -> None:
    pass


def _reads_nothing_in_one_trip(
    declared: Sequence[Any],
) -> tuple[list[tuple[str, Sequence[Any]]], Callable[[Prefetched, Iterator[list[Any]]], None]]:
    return [], lambda found, results: None


@attrs.frozen
class ReadAhead:
    """What an area reads ahead, declared by its server side (``ServerArea.read_ahead``): the kinds of
    its commands' declared reads it reads (``reads``, :class:`livecore.commands.reads.AreaReads`
    classes), the tables it reads (a statement changing one forgets what was read ahead, unless it
    forgets exactly what it changes), the kinds of rows it keys by players' external ids (forgotten with
    any player row written), and how each dialect reads them, after the players and idempotency records
    are read: SQLite and PostgreSQL for each write, PostgreSQL in the one round trip of its reads ahead.
    The players area declares how the players are read (``players``)."""

    reads: tuple[type, ...] = ()
    tables: frozenset[str] = frozenset()
    sqlite: SqliteReadAhead = _reads_nothing
    postgres: PostgresReadAhead = _reads_nothing_in_one_trip
    with_players: frozenset[str] = frozenset()
    players: PlayerRows | None = None


@attrs.frozen
class ReadAheads:
    """What a store reads ahead: the served areas' :class:`ReadAhead`, in the areas' order."""

    areas: tuple[ReadAhead, ...] = ()
    tables: frozenset[str] = attrs.field(init=False)
    with_players: frozenset[str] = attrs.field(init=False)
    #: How every write's players are read (the players area's declaration).
    player_rows: PlayerRows = attrs.field(init=False)

    @tables.default
    def _tables(self) -> frozenset[str]:
        return SHARED_TABLES.union(*(a.tables for a in self.areas))

    @with_players.default
    def _with_players(self) -> frozenset[str]:
        return frozenset().union(*(a.with_players for a in self.areas))

    @player_rows.default
    def _player_rows(self) -> PlayerRows:
        declared = [a.players for a in self.areas if a.players is not None]
        if len(declared) != 1:
            raise ValueError(f"one served area declares how players are read ahead, not {len(declared)}")
        return declared[0]

    def new(self) -> Prefetched:
        return Prefetched(with_players=self.with_players)

    def players(self, reads: Reads) -> list[PlayerKey]:
        """Every player ``reads`` names, the caller's and those the areas' reads name, once each."""
        return sorted({*reads.players, *(key for area in reads.areas for key in area.players)})

    def of(self, reads: Reads) -> Iterator[tuple[ReadAhead, list[AreaReads]]]:
        """Each area's read ahead with what ``reads`` declares of its kinds (none left out)."""
        for ahead in self.areas:
            declared = [r for r in reads.areas if isinstance(r, ahead.reads)]
            if declared:
                yield ahead, declared
