"""The boards port. Event leaderboards and their entries, by (game_id, board id).

Keys of the board order are ``(score, reached_at, player_id)`` with the score negated on a ``desc`` board
(:func:`livecore.live_events.boards.sort_key`): ascending keys are board order.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from livecore.live_events.boards import Board, BoardEntry, Contender


class BoardStore(Protocol):
    def get(self, game_id: str, board_id: str) -> Board | None: ...

    def insert(self, board: Board) -> None: ...

    def update(self, board: Board) -> None:
        """The board's status or version changed; subscribers of its stream hear of it (a server store
        tells every process once the transaction commits)."""
        ...

    def of_window(self, window_id: str) -> list[Board]: ...

    def entry(self, board_id: str, player_id: str) -> BoardEntry | None: ...

    def put_entry(self, board: Board, entry: BoardEntry) -> None:
        """Insert or replace the player's entry and record the board's new version (``board``, already
        raised: one more than the board as read; a store whose writes of one board run side by side counts
        it up from the version committed before, which is the same whenever they run one at a time);
        subscribers hear which player's entry moved."""
        ...

    def delete_entry(self, board_id: str, player_id: str) -> None: ...

    def entries_of(self, player_id: str) -> list[BoardEntry]:
        """The player's entries on every board (a merge moves them)."""
        ...

    def page(
        self, board: Board, after: tuple[float, datetime, str] | None, limit: int
    ) -> list[tuple[BoardEntry, Contender]]:
        """Up to ``limit`` entries in board order with their players: those after the key ``after`` (in
        ``sort_key`` form), else from the top."""
        ...

    def page_before(
        self, board: Board, key: tuple[float, datetime, str], limit: int
    ) -> list[tuple[BoardEntry, Contender]]:
        """Up to ``limit`` entries just before the key, in board order, with their players."""
        ...

    def count_ahead(self, board: Board, key: tuple[float, datetime, str]) -> int:
        """How many entries come before the key (in ``sort_key`` form)."""
        ...

    def size(self, board_id: str) -> int: ...


class HasBoards(Protocol):
    """A transaction that reaches the boards port."""

    @property
    def boards(self) -> BoardStore: ...
