"""The games port in memory."""

from __future__ import annotations

from livecore.games import Game
from livecore.memory.journal import MemoryPort


class MemoryGames(MemoryPort):
    __slots__ = ()

    def get(self, game_id: str) -> Game | None:
        return self._s.games.get(game_id)

    def with_events(self) -> list[Game]:
        return [g for g in self._s.games.values() if g.settings.events]

    def with_guilds(self) -> list[Game]:
        return [g for g in self._s.games.values() if g.settings.guilds.enabled]
