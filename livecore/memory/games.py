"""The games port in memory."""

from __future__ import annotations

from typing import Protocol

from livecore.games import Game
from livecore.memory.journal import MemoryPort


class _Games(Protocol):
    games: dict[str, Game]


class MemoryGames(MemoryPort[_Games]):
    __slots__ = ()

    def get(self, game_id: str) -> Game | None:
        return self._s.games.get(game_id)

    def every(self) -> list[Game]:
        return [self._s.games[game_id] for game_id in sorted(self._s.games)]
