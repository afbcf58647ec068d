"""The games port. Games and their settings, as the manifest applied them."""

from __future__ import annotations

from typing import Protocol

from livecore.games import Game


class GameStore(Protocol):
    def get(self, game_id: str) -> Game | None: ...

    def with_events(self) -> list[Game]:
        """Every game whose manifest declares events (the scheduler opens their windows)."""
        ...

    def with_guilds(self) -> list[Game]:
        """Every game whose manifest enables guilds (the hourly succession sweep visits them)."""
        ...


class HasGames(Protocol):
    """A transaction that reaches the games port."""

    @property
    def games(self) -> GameStore: ...
