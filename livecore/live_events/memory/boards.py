"""The boards port in memory."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol, TypeVar

from livecore.live_events.boards import Board, BoardEntry, Contender, sort_key
from livecore.live_events.memory import LiveEventTables
from livecore.live_events.store.boards import BoardStore
from livecore.memory.journal import AreaPort, Tables
from livecore.players.memory import PlayerTables


class MemoryBoards(AreaPort[LiveEventTables]):
    __slots__ = ()
    TABLES = LiveEventTables

    def get(self, game_id: str, board_id: str) -> Board | None:
        board = self._t.boards.get(board_id)
        return board if board is not None and board.game_id == game_id else None

    def insert(self, board: Board) -> None:
        if board.id not in self._t.boards:
            held = self._t.window_boards.get(board.window_id, ())
            self._tx.put(self._t.window_boards, board.window_id, (*held, board.id))
        self._tx.put(self._t.boards, board.id, board)

    def update(self, board: Board) -> None:
        self._tx.put(self._t.boards, board.id, board)

    def of_window(self, window_id: str) -> list[Board]:
        boards = self._t.boards
        return sorted((boards[i] for i in self._t.window_boards.get(window_id, ())), key=lambda b: b.id)

    def entry(self, board_id: str, player_id: str) -> BoardEntry | None:
        return self._t.board_entries.get((board_id, player_id))

    def put_entry(self, board: Board, entry: BoardEntry) -> None:
        self._tx.put(self._t.boards, board.id, board)
        self._tx.put(self._t.board_entries, (entry.board_id, entry.player_id), entry)
        players = self._t.board_players.setdefault(entry.board_id, {})
        if entry.player_id not in players:
            self._tx.put(players, entry.player_id, None)

    def delete_entry(self, board_id: str, player_id: str) -> None:
        self._tx.drop(self._t.board_entries, (board_id, player_id))
        self._tx.drop(self._t.board_players.get(board_id, {}), player_id)

    def entries_of(self, player_id: str) -> list[BoardEntry]:
        mine = [e for e in self._t.board_entries.values() if e.player_id == player_id]
        return sorted(mine, key=lambda e: e.board_id)

    def _ordered(self, board: Board) -> list[BoardEntry]:
        all_entries = self._t.board_entries
        entries = [all_entries[(board.id, p)] for p in self._t.board_players.get(board.id, {})]
        return sorted(entries, key=lambda e: sort_key(board.order, e))

    def page(
        self, board: Board, after: tuple[float, datetime, str] | None, limit: int
    ) -> list[tuple[BoardEntry, Contender]]:
        ordered = self._ordered(board)
        if after is not None:
            ordered = [e for e in ordered if sort_key(board.order, e) > after]
        return with_contenders(self._s, ordered[:limit])

    def page_before(
        self, board: Board, key: tuple[float, datetime, str], limit: int
    ) -> list[tuple[BoardEntry, Contender]]:
        ahead = [e for e in self._ordered(board) if sort_key(board.order, e) < key]
        return with_contenders(self._s, ahead[max(0, len(ahead) - limit) :])

    def count_ahead(self, board: Board, key: tuple[float, datetime, str]) -> int:
        return sum(1 for e in self._ordered(board) if sort_key(board.order, e) < key)

    def size(self, board_id: str) -> int:
        return len(self._t.board_players.get(board_id, {}))


def _implements_the_port(port: MemoryBoards) -> BoardStore:
    return port  # mypy checks the class against the area's port here


class _OfAPlayer(Protocol):
    @property
    def player_id(self) -> str: ...


E = TypeVar("E", bound=_OfAPlayer)


def with_contenders(store: Tables, entries: list[E]) -> list[tuple[E, Contender]]:
    """Board entries (an event's or a leaderboard's) with what a page shows of their players."""
    players = store.tables_of(PlayerTables)
    out = []
    for e in entries:
        player = players.by_id(e.player_id)
        assert player is not None  # an entry's player row is never deleted (erasure anonymizes it)
        out.append((e, Contender.of(player)))
    return out
