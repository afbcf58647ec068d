"""The players port. Players and their identity: (game_id, external_id) is unique across both environments; a
player's id never changes.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Protocol

from livecore.players.rules import Activity, PeriodActivity, Player, PlayerCard
from livecore.scope import Environment


class PlayerStore(Protocol):
    def get(self, game_id: str, external_id: str) -> Player | None: ...

    def insert(self, player: Player) -> None: ...

    def update(self, player: Player) -> None: ...

    def reset_missed_streaks(self, last_day_before: date) -> int:
        """Set ``streak`` to 0 for every player whose streak day is before the given day."""
        ...

    def by_id(self, player_id: str) -> Player | None: ...

    def by_friend_code(self, game_id: str, env: Environment, code: str) -> Player | None: ...

    def recently_active(self, game_id: str, env: Environment, limit: int) -> list[PlayerCard]:
        """The most recently active players of a game and environment, most recent first."""
        ...

    def search_by_name(self, game_id: str, env: Environment, text: str, limit: int) -> list[PlayerCard]:
        """Players whose display name contains ``text`` (case-insensitive)."""
        ...

    def activities(self, player_ids: list[str]) -> dict[str, Activity]:
        """The activity of each of these players that exists (a list row's progression)."""
        ...

    def active_in(
        self, game_id: str, env: Environment, since: datetime, until: datetime
    ) -> dict[str, PeriodActivity]:
        """The players of a game and environment first seen before ``until`` and last active at or after
        ``since``, by player id: the players a population is fitted on, in one read."""
        ...

    def first_seen(self, game_id: str, env: Environment) -> datetime | None:
        """When the game's first player of ``env`` was first seen (where its history starts); None
        without a player."""
        ...


class HasPlayers(Protocol):
    """A transaction that reaches the players port."""

    @property
    def players(self) -> PlayerStore: ...
