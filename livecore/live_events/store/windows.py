"""The windows port. Event windows as they opened and closed, by (game_id, window id)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from livecore.live_events.rules import Window
from livecore.scope import Environment


class WindowStore(Protocol):
    def get(self, game_id: str, window_id: str) -> Window | None: ...

    def recorded(self, game_id: str, window_ids: Sequence[str]) -> set[str]:
        """Which of the game's ``window_ids`` are recorded."""
        ...

    def insert(self, window: Window) -> None: ...

    def update(self, window: Window) -> None: ...

    def open_of(self, game_id: str, env: Environment, event_key: str) -> list[Window]:
        """The event's open windows in that environment, oldest start first."""
        ...

    def due_to_close(self, now: datetime, limit: int) -> list[Window]:
        """Open windows (every game and environment) whose end has come, oldest end first."""
        ...


class HasWindows(Protocol):
    """A transaction that reaches the windows port."""

    @property
    def windows(self) -> WindowStore: ...
