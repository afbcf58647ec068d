"""The shared leaderboards port: periods, their divisions and entries, and each player's tier, by game.

Keys of the board order are ``(score, reached_at, player_id)`` with the score negated on a ``desc`` board
(:func:`livecore.live_events.boards.sort_key`): ascending keys are board order, within a period or one
division.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from livecore.leaderboards.rules import BoardPeriod, Division, PlayerTier, SharedEntry
from livecore.live_events.boards import Contender
from livecore.scope import Environment


class LeaderboardStore(Protocol):
    def period(self, game_id: str, period_id: str) -> BoardPeriod | None: ...

    def insert_period(self, period: BoardPeriod) -> None: ...

    def update_period(self, period: BoardPeriod) -> None: ...

    def open_period(self, game_id: str, env: Environment, key: str) -> BoardPeriod | None:
        """The board's period that takes scores (at most one is open)."""
        ...

    def latest_finalized(self, game_id: str, env: Environment, key: str) -> BoardPeriod | None: ...

    def periods_due(self, now: datetime, limit: int) -> list[BoardPeriod]:
        """Periods (every game) to roll over: finalizing ones, and open ones whose end has come; the
        oldest end first."""
        ...

    def division(self, period_id: str, division_id: str) -> Division | None: ...

    def insert_division(self, division: Division) -> None: ...

    def update_division(self, division: Division) -> None: ...

    def newest_division(self, period_id: str, tier: int) -> Division | None:
        """The tier's last opened division (the highest number)."""
        ...

    def divisions_from(self, period_id: str, offset: int, limit: int) -> list[Division]:
        """The period's divisions in (tier, number) order, from the 0-based ``offset``."""
        ...

    def top_division(self, period_id: str) -> Division | None:
        """The first division of the highest tier that has one."""
        ...

    def entry(self, period_id: str, player_id: str) -> SharedEntry | None: ...

    def put_entry(self, period: BoardPeriod, entry: SharedEntry) -> None:
        """Insert or replace the player's entry (``period`` gives the board's order)."""
        ...

    def delete_entry(self, period_id: str, player_id: str) -> None: ...

    def entries_of(self, player_id: str) -> list[SharedEntry]:
        """The player's entries of every period, by period id."""
        ...

    def page(
        self,
        period: BoardPeriod,
        division_id: str | None,
        after: tuple[float, datetime, str] | None,
        limit: int,
    ) -> list[tuple[SharedEntry, Contender]]:
        """Up to ``limit`` entries of the period (of one division when given) in board order with their
        players: those after the key ``after`` (in ``sort_key`` form), else from the top."""
        ...

    def page_before(
        self, period: BoardPeriod, division_id: str | None, key: tuple[float, datetime, str], limit: int
    ) -> list[tuple[SharedEntry, Contender]]:
        """Up to ``limit`` entries of the period (of one division when given) just before the key, in
        board order, with their players."""
        ...

    def count_ahead(
        self, period: BoardPeriod, division_id: str | None, key: tuple[float, datetime, str]
    ) -> int:
        """How many entries of the period (of one division when given) come before the key."""
        ...

    def size(self, period_id: str, division_id: str | None) -> int: ...

    def tier(self, game_id: str, env: Environment, key: str, player_id: str) -> int | None:
        """The tier the player plays on a board with divisions (0: the lowest); None before its first
        score there."""
        ...

    def set_tier(self, game_id: str, env: Environment, key: str, player_id: str, tier: int) -> None: ...

    def tiers_of(self, player_id: str) -> list[PlayerTier]:
        """The player's tiers on every board, by environment and board key."""
        ...

    def delete_tier(self, game_id: str, env: Environment, key: str, player_id: str) -> None: ...


class HasLeaderboards(Protocol):
    """A transaction that reaches the shared leaderboards port."""

    @property
    def leaderboards(self) -> LeaderboardStore: ...
