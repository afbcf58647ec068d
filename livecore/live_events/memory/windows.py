"""The windows port in memory."""

from __future__ import annotations

from datetime import datetime

from livecore.live_events.memory import LiveEventTables
from livecore.live_events.rules import Window, WindowStatus
from livecore.live_events.store.windows import WindowStore
from livecore.memory.journal import AreaPort
from livecore.scope import Environment


class MemoryWindows(AreaPort[LiveEventTables]):
    __slots__ = ()
    TABLES = LiveEventTables

    def get(self, game_id: str, window_id: str) -> Window | None:
        return self._t.windows.get((game_id, window_id))

    def insert(self, window: Window) -> None:
        self._tx.put(self._t.windows, (window.game_id, window.id), window)

    def update(self, window: Window) -> None:
        self._tx.put(self._t.windows, (window.game_id, window.id), window)

    def open_of(self, game_id: str, env: Environment, event_key: str) -> list[Window]:
        found = [
            w
            for w in self._t.windows.values()
            if (w.game_id, w.env, w.event_key, w.status) == (game_id, env, event_key, WindowStatus.OPEN)
        ]
        return sorted(found, key=lambda w: (w.starts_at, w.id))

    def due_to_close(self, now: datetime, limit: int) -> list[Window]:
        due = [w for w in self._t.windows.values() if w.status is WindowStatus.OPEN and w.ends_at <= now]
        return sorted(due, key=lambda w: (w.ends_at, w.id))[:limit]


def _implements_the_port(port: MemoryWindows) -> WindowStore:
    return port  # mypy checks the class against the area's port here
