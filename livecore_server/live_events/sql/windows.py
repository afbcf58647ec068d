"""The windows port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import cast

from livecore.clock import to_millis
from livecore.live_events.rules import Window
from livecore.scope import Environment
from livecore_server.live_events.read_ahead import WINDOWS
from livecore_server.live_events.rows import WINDOW, WINDOW_COLUMNS
from livecore_server.storage.read_ahead import MISSING
from livecore_server.storage.rows import ms
from livecore_server.storage.sqlport import SqlPort


class SqlWindows(SqlPort):
    __slots__ = ()

    def get(self, game_id: str, window_id: str) -> Window | None:
        ahead = self.db.ahead(WINDOWS, (game_id, window_id))
        if ahead is not MISSING:
            return cast(Window | None, ahead)
        row = self.db.read(
            f"SELECT {WINDOW_COLUMNS.sql} FROM windows WHERE id = ? AND game_id = ?", (window_id, game_id)
        ).fetchone()
        return None if row is None else WINDOW_COLUMNS.of(row)

    def recorded(self, game_id: str, window_ids: Sequence[str]) -> set[str]:
        found: set[str] = set()
        step = self.db.MAX_IN_LIST
        for at in range(0, len(window_ids), step):
            ids, params = self.db.in_list("id", window_ids[at : at + step])
            rows = self.db.read(f"SELECT id FROM windows WHERE {ids} AND game_id = ?", (*params, game_id))
            found.update(r[0] for r in rows)
        return found

    def insert(self, window: Window) -> None:
        self.db.insert(WINDOW.insert, WINDOW.params(window))

    def update(self, window: Window) -> None:
        # A window's record changes only by closing; its schedule and settings stay as they opened.
        self.db.write(
            "windows",
            "UPDATE windows SET status = ?, closed_at = ? WHERE id = ?",
            (window.status.value, ms(window.closed_at), window.id),
        )

    def open_of(self, game_id: str, env: Environment, event_key: str) -> list[Window]:
        rows = self.db.read(
            f"SELECT {WINDOW_COLUMNS.sql} FROM windows"
            " WHERE game_id = ? AND env = ? AND event_key = ? AND status = 'open' ORDER BY starts_at, id",
            (game_id, env.value, event_key),
        )
        return [WINDOW_COLUMNS.of(r) for r in rows]

    def due_to_close(self, now: datetime, limit: int) -> list[Window]:
        rows = self.db.read(
            f"SELECT {WINDOW_COLUMNS.sql} FROM windows WHERE status = 'open' AND ends_at <= ?"
            " ORDER BY ends_at, id LIMIT ?",
            (to_millis(now), limit),
        )
        return [WINDOW_COLUMNS.of(r) for r in rows]
