"""The live events area's ports in memory (windows, attempts, boards), over its tables."""

from __future__ import annotations

from collections.abc import Collection

import attrs

from livecore.live_events.attempts import Attempt
from livecore.live_events.boards import Board, BoardEntry
from livecore.live_events.rules import Window


@attrs.define
class LiveEventTables:
    """The live events area's tables in memory."""

    windows: dict[tuple[str, str], Window] = attrs.field(factory=dict)  # (game id, window id)
    open_windows: dict[tuple[str, str], None] = attrs.field(factory=dict)  # the keys of the open ones
    attempts: dict[tuple[str, str], Attempt] = attrs.field(factory=dict)  # (game id, attempt id)
    # (player id, window id) -> the keys of that player's attempts in that window
    attempt_index: dict[tuple[str, str], tuple[tuple[str, str], ...]] = attrs.field(factory=dict)
    # The keys of the attempts in progress, and of each room's (a lobby's) attempts: what the scheduler and
    # a lobby's sudden death look up, among a season's every attempt.
    in_progress: dict[tuple[str, str], None] = attrs.field(factory=dict)
    room_attempts: dict[str, tuple[tuple[str, str], ...]] = attrs.field(factory=dict)
    boards: dict[str, Board] = attrs.field(factory=dict)
    board_entries: dict[tuple[str, str], BoardEntry] = attrs.field(factory=dict)  # (board id, player id)
    # Each board's players (the keys of its entries) and each window's boards: a board is read and
    # finalized among a season's every board.
    board_players: dict[str, dict[str, None]] = attrs.field(factory=dict)
    window_boards: dict[str, tuple[str, ...]] = attrs.field(factory=dict)

    def forget_attempts(self, window_ids: Collection[str]) -> None:
        """Drop the attempts of those windows, over (closed, an attempt's time past their end) with none in
        progress: a long simulated season does once its report has read them (``livecore-server
        simulate``). No rule reads them again; a player's history (its recent attempts, their counts) then
        holds the others."""
        if not window_ids:
            return
        wanted = set(window_ids)
        gone = [key for key, attempt in self.attempts.items() if attempt.window_id in wanted]
        for key in gone:
            attempt = self.attempts.pop(key)
            self.in_progress.pop(key, None)
            self.attempt_index.pop((attempt.player_id, attempt.window_id), None)
            if attempt.lobby_id is not None:
                self.room_attempts.pop(attempt.lobby_id, None)
