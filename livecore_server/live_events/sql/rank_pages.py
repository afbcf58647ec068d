"""Rank pages: how many entries each stretch of a list (an event board, a period of a shared board) holds,
kept in the database beside the entries, so that a rank costs about a thousand rows read whatever the
list's size (docs/architecture.md#ranks).

A list's entries, in board order ``(rank_key, reached_at, player_id)``, are cut into pages: a page starts
at a key and counts the entries from that key up to the next page's start. The first page starts at
:data:`FIRST`, before any entry. The entries ahead of a key are then the entries of the pages before the
key's page (a sum over page rows) and those of its own page before the key (a count over a range of the
entries' rank index no longer than a page).

The pages change in the transaction that changes the entries (:meth:`RankPages.moved`), so every process
reads ranks as exact as the entries themselves. A page that grows past :data:`SPLIT_ABOVE` entries is cut
in two at its middle entry, and one that shrinks below :data:`FOLD_BELOW` is folded into the page before
it, so pages hold from a quarter of :data:`PAGE` to twice it and a list of n entries has at most
``4 n / PAGE`` of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from livecore_server.storage.schema import INT, MS, REAL, SQLITE, Column, Dialect, Table, table
from livecore_server.storage.sqlport import SqlTransaction

Key = tuple[float, int, str]  # an entry's place in board order as stored: rank_key, reached_at (ms), player

PAGE = 1024  # entries of each half of a split page
SPLIT_ABOVE = 2 * PAGE
FOLD_BELOW = PAGE // 4
# Before every entry: rank keys are finite (scores are bounded, docs/reference/conventions.md).
FIRST: Key = (float("-inf"), 0, "")

ORDER = "rank_key, reached_at, player_id"
BACKWARDS = "rank_key DESC, reached_at DESC, player_id DESC"


@attrs.frozen
class RankPages:
    """The pages of one kind of list: the ``pages`` table holding them (``list_id``, the start key's
    three columns, ``entries``) and the ``entries`` table they count, whose ``list_column`` names the
    list."""

    pages: str
    entries: str
    list_column: str

    def _page_of(self, key: str = "(?, ?, ?)", tag: str = "") -> str:
        """The page holding a key (its start and entries): the last to start at or before it."""
        return (
            f"SELECT {tag}{ORDER}, entries FROM {self.pages} WHERE list_id = ? AND ({ORDER}) <= {key}"
            f" ORDER BY {BACKWARDS} LIMIT 1"
        )

    def _ahead(self) -> str:
        """A statement counting the entries of a list (``?``) before a key (``(?, ?, ?)``), its parameters
        the list and the key three times over: the entries of the pages starting at or before the key,
        less those of its own page, plus those of its own page before the key (0 for a list without
        pages, which never had an entry)."""
        start = "(own.rank_key, own.reached_at, own.player_id)"
        return (
            f"WITH own AS ({self._page_of()})"
            f" SELECT (SELECT COALESCE(SUM(entries), 0) FROM {self.pages}"
            f"         WHERE list_id = ? AND ({ORDER}) <= (?, ?, ?))"
            " - COALESCE((SELECT entries FROM own), 0)"
            f" + (SELECT COUNT(*) FROM {self.entries} e, own WHERE e.{self.list_column} = ?"
            f"    AND (e.rank_key, e.reached_at, e.player_id) >= {start}"
            "     AND (e.rank_key, e.reached_at, e.player_id) < (?, ?, ?))"
        )

    def count_ahead(self, db: SqlTransaction, list_id: str, key: Key) -> int:
        """How many entries of the list come before ``key``, in one statement (the key's page first and
        then the counts would cost a round trip more on PostgreSQL). The count of the key a player's
        entry moved to in this transaction was read with the move (:meth:`moved`): asked right after,
        it costs no statement."""
        moved = db.ahead_of_moved
        if moved is not None and moved[:3] == (self.pages, list_id, key):
            db.ahead_of_moved = None
            return moved[3]
        return int(db.read(self._ahead(), (list_id, *key) * 3).fetchone()[0])

    def size(self, db: SqlTransaction, list_id: str) -> int:
        row = db.read(f"SELECT COALESCE(SUM(entries), 0) FROM {self.pages} WHERE list_id = ?", (list_id,))
        return int(row.fetchone()[0])

    def moved(
        self, db: SqlTransaction, list_id: str, player_id: str, new: Key | None, write: Callable[[], None]
    ) -> None:
        """The player's entry of the list moves to ``new`` (None: it is deleted) by ``write()``, which
        changes the entries table; the pages follow. The entry's current key and the pages of both keys
        are read first, in one statement."""
        old_key = (
            f"(SELECT {c} FROM {self.entries} WHERE {self.list_column} = ? AND player_id = ?)"
            for c in ("rank_key", "reached_at", "player_id")
        )
        params: list[Any] = [list_id, *(v for _ in range(3) for v in (list_id, player_id))]
        old = self._page_of("(" + ", ".join(old_key) + ")", "0 AS which, ")
        sql = f"SELECT * FROM ({old}) o"
        if new is not None:
            sql += f" UNION ALL SELECT * FROM ({self._page_of(tag='1 AS which, ')}) n"
            params += [list_id, *new]
            # And the entries the new key will have ahead of it once the entry moved (those ahead of it
            # now, less the entry itself where it stands ahead now): the rank a write answers with
            # costs no round trip more, while it holds the list.
            sql += (
                f" UNION ALL SELECT 2, NULL, NULL, NULL, ({self._ahead()})"
                f" - (SELECT COUNT(*) FROM {self.entries} WHERE {self.list_column} = ? AND player_id = ?"
                f"    AND ({ORDER}) < (?, ?, ?))"
            )
            params += [*(list_id, *new) * 3, list_id, player_id, *new]
        rows = list(db.read(sql, params))
        pages = {int(r[0]): (tuple(r[1:4]), int(r[4])) for r in rows if r[0] != 2}
        db.ahead_of_moved = None
        if new is not None:
            db.ahead_of_moved = (self.pages, list_id, new, next(int(r[4]) for r in rows if r[0] == 2))
        write()
        was, now = pages.get(0), pages.get(1)
        if was is not None and now is not None and was[0] == now[0]:
            return  # within one page: its count stands
        if new is not None and now is None:  # the list's first entry
            db.write(
                self.pages,
                f"INSERT INTO {self.pages} (list_id, {ORDER}, entries) VALUES (?, ?, ?, ?, 1)",
                (list_id, *FIRST),
            )
            return
        # The counts first, so that entries and pages agree before a page is folded or cut.
        if was is not None:
            self._add(db, list_id, was[0], -1)
        if now is not None:
            self._add(db, list_id, now[0], 1)
        if was is not None and was[1] - 1 < FOLD_BELOW and was[0] != FIRST:
            into = self._fold(db, list_id, was[0], was[1] - 1)
            if now is not None and into == now[0]:
                return  # the new key's page took the folded one in, and was cut if that made it too big
        if now is not None and now[1] + 1 > SPLIT_ABOVE:
            self._split(db, list_id, now[0], now[1] + 1)

    def _add(self, db: SqlTransaction, list_id: str, start: tuple[Any, ...], n: int) -> None:
        db.write(
            self.pages,
            f"UPDATE {self.pages} SET entries = entries + ? WHERE list_id = ? AND ({ORDER}) = (?, ?, ?)",
            (n, list_id, *start),
        )

    def _fold(
        self, db: SqlTransaction, list_id: str, start: tuple[Any, ...], entries: int
    ) -> tuple[Any, ...]:
        """The page at ``start`` (``entries`` now) joins the page before it, which is cut in two if that
        makes it too big; the start of the page before."""
        before = db.read(
            f"SELECT {ORDER}, entries FROM {self.pages} WHERE list_id = ? AND ({ORDER}) < (?, ?, ?)"
            f" ORDER BY {BACKWARDS} LIMIT 1",
            (list_id, *start),
        ).fetchone()
        into = tuple(before[:3])
        db.write(
            self.pages,
            f"DELETE FROM {self.pages} WHERE list_id = ? AND ({ORDER}) = (?, ?, ?)",
            (list_id, *start),
        )
        self._add(db, list_id, into, entries)
        if before[3] + entries > SPLIT_ABOVE:
            self._split(db, list_id, into, before[3] + entries)
        return into

    def _split(self, db: SqlTransaction, list_id: str, start: tuple[Any, ...], entries: int) -> None:
        """The page at ``start`` (``entries``) is cut in two at its middle entry."""
        kept = entries // 2
        middle = db.read(
            f"SELECT {ORDER} FROM {self.entries} WHERE {self.list_column} = ? AND ({ORDER}) >= (?, ?, ?)"
            f" ORDER BY {ORDER} LIMIT 1 OFFSET ?",
            (list_id, *start, kept),
        ).fetchone()
        self._add(db, list_id, start, kept - entries)
        db.write(
            self.pages,
            f"INSERT INTO {self.pages} (list_id, {ORDER}, entries) VALUES (?, ?, ?, ?, ?)",
            (list_id, *middle, entries - kept),
        )


def pages_table(name: str) -> Table:
    """A pages table of :class:`RankPages`. The first page's start names no player: ``player_id``
    holds no reference."""
    return table(
        name,
        Column("list_id"),
        Column("rank_key", REAL),
        Column("reached_at", MS),
        Column("player_id"),
        Column("entries", INT),
        primary_key=("list_id", "rank_key", "reached_at", "player_id"),
        rowid=False,
    )


def paged(pages: RankPages, dialect: Dialect) -> str:
    """The migration step that pages the lists already entered: a page every PAGE entries, the first
    starting at FIRST."""
    first = "-1e999" if dialect == SQLITE else "'-Infinity'::float8"
    least = "MIN" if dialect == SQLITE else "LEAST"
    return (
        f"INSERT INTO {pages.pages} (list_id, {ORDER}, entries)"
        f" SELECT list_id, CASE WHEN n = 1 THEN {first} ELSE rank_key END,"
        "  CASE WHEN n = 1 THEN 0 ELSE reached_at END, CASE WHEN n = 1 THEN '' ELSE player_id END,"
        f"  {least}({PAGE}, total - n + 1)"
        f" FROM (SELECT {pages.list_column} AS list_id, {ORDER},"
        f"   ROW_NUMBER() OVER (PARTITION BY {pages.list_column} ORDER BY {ORDER}) AS n,"
        f"   COUNT(*) OVER (PARTITION BY {pages.list_column}) AS total FROM {pages.entries}) numbered"
        f" WHERE (n - 1) % {PAGE} = 0"
    )
