"""What the live events area reads ahead of a progress write (:data:`READ_AHEAD`, its ``ServerArea``'s):
the attempt, its window, its board and its player's entry on that board, which the write otherwise read
one round trip at a time. PostgreSQL reads a group's in the one round trip of its reads ahead
(:func:`_postgres`); SQLite, where a read costs no round trip, reads them as the write runs."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from livecore.live_events.reads import ProgressReads
from livecore_server.live_events.rows import ATTEMPT_COLUMNS, BOARD_COLUMNS, ENTRY_COLUMNS, WINDOW_COLUMNS
from livecore_server.storage.postgres_prefetch import key_read, maybe
from livecore_server.storage.read_ahead import Prefetched, ReadAhead, of_game

# The kinds of rows the area's ports read back from what was read ahead, by the arguments of their reads:
# an attempt, a window and a board by (game id, their id), an entry by (board id, player id).
ATTEMPTS, WINDOWS, BOARDS, ENTRIES = "attempts", "windows", "boards", "board_entries"

# Each row through its primary key alone; the game is checked as the rows are read (of_game).
PROGRESS = key_read(
    "game text, att text",
    f"SELECT k.game, k.att, {ATTEMPT_COLUMNS.qualified('a')}, {WINDOW_COLUMNS.qualified('w')},"
    f" {BOARD_COLUMNS.qualified('b')}, {ENTRY_COLUMNS.qualified('e')} FROM {{keys}} "
    + maybe("a", ATTEMPT_COLUMNS.sql, "attempts", "id = k.att")
    + " "
    + maybe("w", WINDOW_COLUMNS.sql, "windows", "id = a.window_id")
    + " "
    + maybe("b", BOARD_COLUMNS.sql, "boards", "id = a.board_id")
    + " "
    + maybe("e", ENTRY_COLUMNS.sql, "board_entries", "board_id = a.board_id AND player_id = a.player_id"),
)


def _sqlite(tx: Any, found: Prefetched, declared: Sequence[Any]) -> None:
    """Nothing: on SQLite a read costs no round trip, and the write reads as it runs."""


def _postgres(
    declared: Sequence[Any],
) -> tuple[list[tuple[str, Sequence[Any]]], Callable[[Prefetched, Iterator[list[Any]]], None]]:
    keys = sorted({(d.game_id, d.attempt_id) for d in declared if isinstance(d, ProgressReads)})

    def found_by(found: Prefetched, results: Iterator[list[Any]]) -> None:
        for game_id, attempt_id, *row in next(results):
            attempt, row = ATTEMPT_COLUMNS.split_joined(row)
            window, row = WINDOW_COLUMNS.split_joined(row)
            board, row = BOARD_COLUMNS.split_joined(row)
            entry, _ = ENTRY_COLUMNS.split_joined(row)
            attempt = of_game(attempt, game_id)
            found.of(ATTEMPTS)[game_id, attempt_id] = attempt
            if attempt is None:
                continue
            found.of(WINDOWS)[game_id, attempt.window_id] = of_game(window, game_id)
            found.of(BOARDS)[game_id, attempt.board_id] = of_game(board, game_id)
            found.of(ENTRIES)[attempt.board_id, attempt.player_id] = entry

    return [(PROGRESS.sql, PROGRESS.keys(keys))], found_by


#: The live events area's reads ahead (its ``ServerArea.read_ahead``).
READ_AHEAD = ReadAhead(
    reads=(ProgressReads,),
    tables=frozenset({ATTEMPTS, WINDOWS, BOARDS, ENTRIES}),
    sqlite=_sqlite,
    postgres=_postgres,
)
