"""The games port. Games and their settings, as the manifest applied them."""

from __future__ import annotations

from typing import Protocol

from livecore.games import Game


class GameStore(Protocol):
    def get(self, game_id: str) -> Game | None: ...

    def every(self) -> list[Game]:
        """Every game, in id order (an area's scheduled work picks those its settings concern)."""
        ...


class HasGames(Protocol):
    """A transaction that reaches the games port."""

    @property
    def games(self) -> GameStore: ...
