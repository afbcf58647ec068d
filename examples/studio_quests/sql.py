"""The quests port in SQL, for SQLite and PostgreSQL: one table, ``quest_checkins`` (a row per player
who ever checked in), created by the area's own migration. The statements are written once, with ``?``
placeholders, and run through the transaction (:class:`livecore_server.storage.sqlport.SqlTransaction`),
which numbers them for PostgreSQL."""

from __future__ import annotations

from datetime import date
from typing import Any

from livecore.clock import from_millis, to_millis
from livecore_server.storage.area_storage import AreaMigration
from livecore_server.storage.columns import Columns
from livecore_server.storage.sqlport import SqlPort
from studio_quests.rules import QuestState

# Never edit an applied migration: add the next one (docs/extending.md).
MIGRATIONS = (
    AreaMigration(
        "0001_quest_checkins",
        sqlite=[
            "CREATE TABLE quest_checkins (player_id TEXT PRIMARY KEY, game_id TEXT NOT NULL,"
            " last_day TEXT NOT NULL, streak INTEGER NOT NULL, best_streak INTEGER NOT NULL,"
            " total INTEGER NOT NULL, checked_in_at INTEGER NOT NULL)",
            # The sweep's range: the players with a streak, by their last day.
            "CREATE INDEX quest_checkins_streaks ON quest_checkins (last_day, player_id) WHERE streak > 0",
        ],
        postgres=[
            "CREATE TABLE quest_checkins (player_id TEXT PRIMARY KEY, game_id TEXT NOT NULL,"
            " last_day TEXT NOT NULL, streak INTEGER NOT NULL, best_streak INTEGER NOT NULL,"
            " total INTEGER NOT NULL, checked_in_at BIGINT NOT NULL)",
            "CREATE INDEX quest_checkins_streaks ON quest_checkins (last_day, player_id) WHERE streak > 0",
        ],
    ),
)


def _state(
    player_id: Any,
    game_id: Any,
    last_day: Any,
    streak: Any,
    best_streak: Any,
    total: Any,
    checked_in_at: Any,
) -> QuestState:
    return QuestState(
        player_id,
        game_id,
        date.fromisoformat(last_day),
        streak,
        best_streak,
        total,
        from_millis(checked_in_at),
    )


# The columns read, declared once by the function that builds the record (read by name, not position).
STATE = Columns(_state)


class SqlQuests(SqlPort):
    __slots__ = ()

    def get(self, player_id: str) -> QuestState | None:
        row = self.db.read(
            f"SELECT {STATE.sql} FROM quest_checkins WHERE player_id = ?", (player_id,)
        ).fetchone()
        return None if row is None else STATE.of(row)

    def put(self, state: QuestState) -> None:
        self.db.execute(
            f"INSERT INTO quest_checkins ({STATE.sql}) VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (player_id) DO UPDATE SET last_day = excluded.last_day, streak = excluded.streak,"
            " best_streak = excluded.best_streak, total = excluded.total,"
            " checked_in_at = excluded.checked_in_at",
            (
                state.player_id,
                state.game_id,
                state.last_day.isoformat(),
                state.streak,
                state.best_streak,
                state.total,
                to_millis(state.checked_in_at),
            ),
        )

    def delete(self, player_id: str) -> None:
        self.db.execute("DELETE FROM quest_checkins WHERE player_id = ?", (player_id,))

    def streaks_before(self, day: date, limit: int) -> list[QuestState]:
        rows = self.db.read(
            f"SELECT {STATE.sql} FROM quest_checkins WHERE streak > 0 AND last_day < ?"
            " ORDER BY player_id LIMIT ?",
            (day.isoformat(), limit),
        )
        return [STATE.of(r) for r in rows]
