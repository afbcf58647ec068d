"""The boards port in SQL, for SQLite and PostgreSQL.

An entry's ``rank_key`` is its score in board order (:func:`livecore.live_events.boards.sort_key`: negated on
a
``desc`` board), so board order is ``(rank_key, reached_at, player_id)`` ascending on either kind of
board, one range of the index ``board_entries_by_rank``: a page from the top, after a keyset, and the
count of entries ahead of a key.

Every change of a board (:meth:`SqlBoards.update`, :meth:`SqlBoards.put_entry`) is announced through
the transaction (:meth:`~livecore_server.storage.sqlport.SqlTransaction.board_changed`), which tells
every process once it commits, and nobody if it rolls back.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypeVar, cast

from livecore.clock import to_millis
from livecore.live_events.boards import Board, BoardEntry, Contender, sort_key
from livecore.players.identity import Identity
from livecore_server.live_events.read_ahead import BOARDS, ENTRIES
from livecore_server.live_events.rows import BOARD, BOARD_COLUMNS, ENTRY_COLUMNS
from livecore_server.live_events.schema import PAGES
from livecore_server.players.rows import SHOWN_COUNTRY
from livecore_server.storage.columns import Columns
from livecore_server.storage.read_ahead import MISSING, Prefetched
from livecore_server.storage.rows import ms
from livecore_server.storage.sqlport import Insert, SqlPort, SqlTransaction

T = TypeVar("T")

PUT_ENTRY = Insert(
    "board_entries",
    ("board_id", "player_id", "score", "rank_key", "reached_at", "attempt_id"),
    conflict=("board_id", "player_id"),
    action="DO UPDATE SET score = excluded.score, rank_key = excluded.rank_key,"
    " reached_at = excluded.reached_at, attempt_id = excluded.attempt_id",
)


def _contender(
    id: Any,
    external_id: Any,
    anon_name: Any,
    anon_avatar: Any,
    display_name: Any,
    display_avatar: Any,
    country: Any,
) -> Contender:
    display = Identity(name=display_name, avatar=display_avatar) if display_name is not None else None
    return Contender(id, external_id, Identity(name=anon_name, avatar=anon_avatar), display, country)


# What a page shows of each entry's player (a whole player row costs four times as much to decode).
CONTENDER_COLUMNS = Columns(_contender, "p", country=SHOWN_COUNTRY)


def stored_key(key: tuple[float, datetime, str]) -> tuple[float, int, str]:
    """A key of board order as its columns hold it (the time in milliseconds)."""
    return (key[0], to_millis(key[1]), key[2])


def ranked_page(
    db: SqlTransaction,
    table: str,
    entries: Columns[T],
    where: str,
    params: list[Any],
    after: tuple[float, datetime, str] | None,
    before: tuple[float, datetime, str] | None,
    limit: int,
) -> list[tuple[T, Contender]]:
    """A page of a board's entries in board order, each with what the page shows of its player: the
    first ``limit`` of the range ``where`` (an entries table's board or period prefix of its rank index),
    after the key ``after``, or the last ``limit`` before the key ``before``. The page is cut from the
    rank index alone, then joined, so the join costs ``limit`` rows whatever the board's size; a page
    before a key is read backwards, in the index's order, and turned round here rather than sorted by the
    database."""
    order = "rank_key, reached_at, player_id"
    if after is not None:
        where, params = f"{where} AND ({order}) > (?, ?, ?)", [*params, *stored_key(after)]
    if before is not None:
        where, params = f"{where} AND ({order}) < (?, ?, ?)", [*params, *stored_key(before)]
        order = "rank_key DESC, reached_at DESC, player_id DESC"
    # The limit is bound, not written into the statement: a plan made for a written limit sorts the
    # whole range when PostgreSQL's statistics guess the range smaller than the limit (a board new to them,
    # or tables never analyzed). A bound limit is guessed at a tenth of the range, which keeps the page
    # cut from the rank index; the players are then looked up one by one (by_key), as a guess of a
    # tenth of a big range would otherwise join them by hashing the whole table.
    cut = f"SELECT {entries.sql}, rank_key FROM {table} WHERE {where} ORDER BY {order} LIMIT ?"
    e_order = ", ".join(f"e.{c.strip()}" for c in order.split(","))
    sql = (
        f"SELECT {entries.qualified('e')}, {CONTENDER_COLUMNS.sql} FROM ({cut}) e"
        f" {db.by_key('players', 'p', 'p.id = e.player_id')} ORDER BY {e_order}"
    )
    page = [_entry_and_contender(entries, row) for row in db.read(sql, [*params, limit])]
    return page[::-1] if before is not None else page


def _entry_and_contender(entries: Columns[T], row: Sequence[Any]) -> tuple[T, Contender]:
    entry, contender = entries.split(row)
    return entry, CONTENDER_COLUMNS.of(contender)


def count_ahead(
    table: str, where: str, params: list[Any], key: tuple[float, datetime, str]
) -> tuple[str, list[Any]]:
    """How many entries of the range ``where`` come before the key: those of a better score, counted on the
    score column of the rank index alone (cheaper per entry than comparing the whole key), and those of
    the same score reached before."""
    rank_key, reached_at, player_id = stored_key(key)
    sql = (
        f"SELECT (SELECT COUNT(*) FROM {table} WHERE {where} AND rank_key < ?)"
        f" + (SELECT COUNT(*) FROM {table} WHERE {where} AND rank_key = ?"
        "     AND (reached_at, player_id) < (?, ?))"
    )
    return sql, [*params, rank_key, *params, rank_key, reached_at, player_id]


class SqlBoards(SqlPort):
    __slots__ = ()

    def get(self, game_id: str, board_id: str) -> Board | None:
        ahead = self.db.ahead(BOARDS, (game_id, board_id))
        if ahead is not MISSING:
            return cast(Board | None, ahead)
        row = self.db.read(
            f"SELECT {BOARD_COLUMNS.sql} FROM boards WHERE id = ? AND game_id = ?", (board_id, game_id)
        ).fetchone()
        return None if row is None else BOARD_COLUMNS.of(row)

    def insert(self, board: Board) -> None:
        self.db.insert(BOARD.insert, BOARD.params(board))

    def update(self, board: Board) -> None:
        self._set(board)
        self.db.board_changed(board.id, board.version, None)

    def _set(self, board: Board) -> None:
        # A board's record changes by its entries (the version) and by finalizing.
        self.db.write(
            "boards",
            "UPDATE boards SET status = ?, version = ?, finalized_at = ? WHERE id = ?",
            (board.status.value, board.version, ms(board.finalized_at), board.id),
        )

    def of_window(self, window_id: str) -> list[Board]:
        rows = self.db.read(
            f"SELECT {BOARD_COLUMNS.sql} FROM boards WHERE window_id = ? ORDER BY id", (window_id,)
        )
        return [BOARD_COLUMNS.of(r) for r in rows]

    def entry(self, board_id: str, player_id: str) -> BoardEntry | None:
        ahead = self.db.ahead(ENTRIES, (board_id, player_id))
        if ahead is not MISSING:
            return cast(BoardEntry | None, ahead)
        row = self.db.read(
            f"SELECT {ENTRY_COLUMNS.sql} FROM board_entries WHERE board_id = ? AND player_id = ?",
            (board_id, player_id),
        ).fetchone()
        return None if row is None else ENTRY_COLUMNS.of(row)

    def put_entry(self, board: Board, entry: BoardEntry) -> None:
        key = stored_key(sort_key(board.order, entry))
        row = (entry.board_id, entry.player_id, entry.score, key[0], key[1], entry.attempt_id)

        def forget(p: Prefetched) -> None:  # the entry and its board, nothing else read ahead
            p.forget(ENTRIES, (entry.board_id, entry.player_id))
            p.forget(BOARDS, (board.game_id, board.id))

        with self.db.exactly(forget):
            # The board's row first, its version counted up by the statement (not ``board.version``, read
            # before): the row is then held until the write commits, so writes of one board running side by
            # side (progress writes, each holding only its player) take their versions one after the other,
            # each reading the rank pages as the one before left them. Only entries change an open board.
            self.db.write("boards", "UPDATE boards SET version = version + 1 WHERE id = ?", (board.id,))
            PAGES.moved(self.db, board.id, entry.player_id, key, lambda: self.db.insert(PUT_ENTRY, row))
        self.db.board_moved(board.id, entry.player_id)

    def delete_entry(self, board_id: str, player_id: str) -> None:
        def delete() -> None:
            self.db.write(
                "board_entries",
                "DELETE FROM board_entries WHERE board_id = ? AND player_id = ?",
                (board_id, player_id),
            )

        PAGES.moved(self.db, board_id, player_id, None, delete)

    def entries_of(self, player_id: str) -> list[BoardEntry]:
        rows = self.db.read(
            f"SELECT {ENTRY_COLUMNS.sql} FROM board_entries WHERE player_id = ? ORDER BY board_id",
            (player_id,),
        )
        return [ENTRY_COLUMNS.of(r) for r in rows]

    def page(
        self, board: Board, after: tuple[float, datetime, str] | None, limit: int
    ) -> list[tuple[BoardEntry, Contender]]:
        return self._page(board, after, None, limit)

    def page_before(
        self, board: Board, key: tuple[float, datetime, str], limit: int
    ) -> list[tuple[BoardEntry, Contender]]:
        return self._page(board, None, key, limit)

    def _page(
        self,
        board: Board,
        after: tuple[float, datetime, str] | None,
        before: tuple[float, datetime, str] | None,
        limit: int,
    ) -> list[tuple[BoardEntry, Contender]]:
        where, params = "board_id = ?", [board.id]
        return ranked_page(self.db, "board_entries", ENTRY_COLUMNS, where, params, after, before, limit)

    def count_ahead(self, board: Board, key: tuple[float, datetime, str]) -> int:
        return PAGES.count_ahead(self.db, board.id, stored_key(key))

    def size(self, board_id: str) -> int:
        return PAGES.size(self.db, board_id)
