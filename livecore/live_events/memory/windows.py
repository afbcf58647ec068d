"""The windows port in memory."""

from __future__ import annotations

from collections.abc import Sequence
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

    def recorded(self, game_id: str, window_ids: Sequence[str]) -> set[str]:
        windows = self._t.windows
        return {w for w in window_ids if (game_id, w) in windows}

    def insert(self, window: Window) -> None:
        self.update(window)

    def update(self, window: Window) -> None:
        key = (window.game_id, window.id)
        self._tx.put(self._t.windows, key, window)
        if window.status is WindowStatus.OPEN:
            if key not in self._t.open_windows:
                self._tx.put(self._t.open_windows, key, None)
        else:
            self._tx.drop(self._t.open_windows, key)

    def _open(self) -> list[Window]:
        windows = self._t.windows
        return [windows[key] for key in self._t.open_windows]

    def open_of(self, game_id: str, env: Environment, event_key: str) -> list[Window]:
        found = [w for w in self._open() if (w.game_id, w.env, w.event_key) == (game_id, env, event_key)]
        return sorted(found, key=lambda w: (w.starts_at, w.id))

    def due_to_close(self, now: datetime, limit: int) -> list[Window]:
        due = [w for w in self._open() if w.ends_at <= now]
        return sorted(due, key=lambda w: (w.ends_at, w.id))[:limit]


def _implements_the_port(port: MemoryWindows) -> WindowStore:
    return port  # mypy checks the class against the area's port here
