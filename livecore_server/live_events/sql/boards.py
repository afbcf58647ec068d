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

from datetime import datetime
from typing import Any

from livecore.clock import to_millis
from livecore.live_events.boards import Board, BoardEntry, Contender, sort_key
from livecore.players.identity import Identity
from livecore_server.storage.rows import (
    BOARD_COLUMNS,
    ENTRY_COLUMNS,
    SHOWN_COUNTRY,
    board_of,
    board_row,
    entry_of,
    ms,
)
from livecore_server.storage.sqlport import Insert, SqlPort, SqlTransaction

INSERT_BOARD = Insert("boards", tuple(c.strip() for c in BOARD_COLUMNS.split(",")))
PUT_ENTRY = Insert(
    "board_entries",
    ("board_id", "player_id", "score", "rank_key", "reached_at", "attempt_id"),
    conflict=("board_id", "player_id"),
    action="DO UPDATE SET score = excluded.score, rank_key = excluded.rank_key,"
    " reached_at = excluded.reached_at, attempt_id = excluded.attempt_id",
)
# The NOTIFY channel of board changes on PostgreSQL: every process LISTENs here (PostgresStore.watch), on
# the connection that hears player-row writes. As for players, channels are per database, not per schema:
# a deployment may hear another schema's board ids, which name no board it streams.
BOARDS_CHANNEL = "livecore_boards"


def board_change_payload(board_id: str, version: int, player_id: str | None) -> str:
    """``"<board id> <version> <player id or nothing>"``: ids hold no spaces."""
    return f"{board_id} {version} {player_id or ''}"


def board_change(payload: str) -> tuple[str, int, str | None]:
    board_id, version, player_id = payload.split(" ")
    return board_id, int(version), player_id or None


# What a page shows of each entry's player (a whole player row costs four times as much to decode).
_CONTENDER = (
    f"p.id, p.external_id, p.anon_name, p.anon_avatar, p.display_name, p.display_avatar, {SHOWN_COUNTRY}"
)


def contender_of(r: tuple[Any, ...]) -> Contender:
    display = Identity(name=r[4], avatar=r[5]) if r[4] is not None else None
    return Contender(r[0], r[1], Identity(name=r[2], avatar=r[3]), display, r[6])


def _key(key: tuple[float, datetime, str]) -> tuple[float, int, str]:
    return (key[0], to_millis(key[1]), key[2])


def ranked_rows(
    db: SqlTransaction,
    table: str,
    columns: str,
    where: str,
    params: list[Any],
    after: tuple[float, datetime, str] | None,
    before: tuple[float, datetime, str] | None,
    limit: int,
) -> list[tuple[Any, ...]]:
    """A page of a board's entries in board order, each row its ``columns`` then what the page shows of
    its player: the first ``limit`` of the range ``where`` (an entries table's board or period prefix of
    its rank index), after the key ``after``, or the last ``limit`` before the key ``before``. The page is
    cut from the rank index alone, then joined, so the join costs ``limit`` rows whatever the board's
    size; a page before a key is read backwards, in the index's order, and turned round here rather than
    sorted by the database."""
    order = "rank_key, reached_at, player_id"
    if after is not None:
        where, params = f"{where} AND ({order}) > (?, ?, ?)", [*params, *_key(after)]
    if before is not None:
        where, params = f"{where} AND ({order}) < (?, ?, ?)", [*params, *_key(before)]
        order = "rank_key DESC, reached_at DESC, player_id DESC"
    cut = f"SELECT {columns}, rank_key FROM {table} WHERE {where} ORDER BY {order} LIMIT ?"
    e_columns = ", ".join(f"e.{c.strip()}" for c in columns.split(","))
    e_order = ", ".join(f"e.{c.strip()}" for c in order.split(","))
    sql = (
        f"SELECT {e_columns}, {_CONTENDER} FROM ({cut}) e JOIN players p ON p.id = e.player_id"
        f" ORDER BY {e_order}"
    )
    rows = list(db.read(sql, [*params, limit]))
    return rows[::-1] if before is not None else rows


def count_ahead(
    table: str, where: str, params: list[Any], key: tuple[float, datetime, str]
) -> tuple[str, list[Any]]:
    """How many entries of the range ``where`` come before the key: those of a better score, counted on the
    score column of the rank index alone (cheaper per entry than comparing the whole key), and those of
    the same score reached before."""
    rank_key, reached_at, player_id = _key(key)
    sql = (
        f"SELECT (SELECT COUNT(*) FROM {table} WHERE {where} AND rank_key < ?)"
        f" + (SELECT COUNT(*) FROM {table} WHERE {where} AND rank_key = ?"
        "     AND (reached_at, player_id) < (?, ?))"
    )
    return sql, [*params, rank_key, *params, rank_key, reached_at, player_id]


class SqlBoards(SqlPort):
    __slots__ = ()

    def get(self, game_id: str, board_id: str) -> Board | None:
        row = self.db.read(
            f"SELECT {BOARD_COLUMNS} FROM boards WHERE id = ? AND game_id = ?", (board_id, game_id)
        ).fetchone()
        return None if row is None else board_of(row)

    def insert(self, board: Board) -> None:
        self.db.insert(INSERT_BOARD, board_row(board))

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
            f"SELECT {BOARD_COLUMNS} FROM boards WHERE window_id = ? ORDER BY id", (window_id,)
        )
        return [board_of(r) for r in rows]

    def entry(self, board_id: str, player_id: str) -> BoardEntry | None:
        row = self.db.read(
            f"SELECT {ENTRY_COLUMNS} FROM board_entries WHERE board_id = ? AND player_id = ?",
            (board_id, player_id),
        ).fetchone()
        return None if row is None else entry_of(row)

    def put_entry(self, board: Board, entry: BoardEntry) -> None:
        rank_key = sort_key(board.order, entry)[0]
        self.db.insert(
            PUT_ENTRY,
            (
                entry.board_id,
                entry.player_id,
                entry.score,
                rank_key,
                to_millis(entry.reached_at),
                entry.attempt_id,
            ),
        )
        self._set(board)
        self.db.board_changed(board.id, board.version, entry.player_id)

    def delete_entry(self, board_id: str, player_id: str) -> None:
        self.db.write(
            "board_entries",
            "DELETE FROM board_entries WHERE board_id = ? AND player_id = ?",
            (board_id, player_id),
        )

    def entries_of(self, player_id: str) -> list[BoardEntry]:
        rows = self.db.read(
            f"SELECT {ENTRY_COLUMNS} FROM board_entries WHERE player_id = ? ORDER BY board_id", (player_id,)
        )
        return [entry_of(r) for r in rows]

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
        rows = ranked_rows(self.db, "board_entries", ENTRY_COLUMNS, where, params, after, before, limit)
        return [(entry_of(r[:5]), contender_of(r[5:])) for r in rows]

    def count_ahead(self, board: Board, key: tuple[float, datetime, str]) -> int:
        sql, params = count_ahead("board_entries", "board_id = ?", [board.id], key)
        return int(self.db.read(sql, params).fetchone()[0])

    def size(self, board_id: str) -> int:
        row = self.db.read("SELECT COUNT(*) FROM board_entries WHERE board_id = ?", (board_id,)).fetchone()
        return int(row[0])
