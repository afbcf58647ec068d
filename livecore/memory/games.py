"""The games port in memory."""

from __future__ import annotations

from livecore.games import Game
from livecore.memory.journal import MemoryPort


class MemoryGames(MemoryPort):
    __slots__ = ()

    def get(self, game_id: str) -> Game | None:
        return self._s.games.get(game_id)

    def every(self) -> list[Game]:
        return [self._s.games[game_id] for game_id in sorted(self._s.games)]
