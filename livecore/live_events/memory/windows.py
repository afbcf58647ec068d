"""The windows port in memory."""

from __future__ import annotations

from datetime import datetime

from livecore.live_events.rules import Window, WindowStatus
from livecore.memory.journal import MemoryPort
from livecore.scope import Environment


class MemoryWindows(MemoryPort):
    __slots__ = ()

    def get(self, game_id: str, window_id: str) -> Window | None:
        return self._s.windows.get((game_id, window_id))

    def insert(self, window: Window) -> None:
        self._tx.put(self._s.windows, (window.game_id, window.id), window)

    def update(self, window: Window) -> None:
        self._tx.put(self._s.windows, (window.game_id, window.id), window)

    def open_of(self, game_id: str, env: Environment, event_key: str) -> list[Window]:
        found = [
            w
            for w in self._s.windows.values()
            if (w.game_id, w.env, w.event_key, w.status) == (game_id, env, event_key, WindowStatus.OPEN)
        ]
        return sorted(found, key=lambda w: (w.starts_at, w.id))

    def due_to_close(self, now: datetime, limit: int) -> list[Window]:
        due = [w for w in self._s.windows.values() if w.status is WindowStatus.OPEN and w.ends_at <= now]
        return sorted(due, key=lambda w: (w.ends_at, w.id))[:limit]
