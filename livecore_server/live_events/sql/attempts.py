"""The attempts port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from livecore.clock import to_millis
from livecore.live_events.attempts import Attempt, AttemptStatus, AttemptTally
from livecore.players.rules import Player
from livecore.scope import Environment
from livecore_server.live_events.read_ahead import ATTEMPTS
from livecore_server.live_events.rows import ATTEMPT, ATTEMPT_COLUMNS
from livecore_server.storage.read_ahead import MISSING
from livecore_server.storage.sqlport import SqlPort

_UPDATE = "UPDATE attempts SET " + ", ".join(f"{n} = ?" for n in ATTEMPT.insert.columns[1:]) + " WHERE id = ?"

# A play starts where an attempt starts at or after the end due of the player's attempt before it at the
# event (one before the period counts too, so a play the period cuts is not counted twice). An attempt
# adds to its play's time due from its start, or from the end due of the one before.
# The squares as floats: a score's square overflows PostgreSQL's BIGINT long before a double's range.
_TALLIES = (
    "SELECT player_id, event_key, COUNT(*),"
    " SUM(CASE WHEN before_end IS NULL OR started_at >= before_end THEN 1 ELSE 0 END),"
    " COUNT(score), COALESCE(SUM(score), 0), COALESCE(SUM(CAST(score AS DOUBLE PRECISION) * score), 0),"
    " SUM(CASE WHEN before_end IS NULL OR started_at >= before_end THEN ends_at - started_at"
    " WHEN ends_at > before_end THEN ends_at - before_end ELSE 0 END)"
    " FROM (SELECT player_id, event_key, started_at, ends_at, score,"
    " LAG(ends_at) OVER (PARTITION BY player_id, event_key ORDER BY started_at, id) AS before_end"
    " FROM attempts WHERE game_id = ? AND env = ? AND started_at < ?) a"
    " WHERE started_at >= ? GROUP BY player_id, event_key"
)


class SqlAttempts(SqlPort):
    __slots__ = ()

    def insert(self, attempt: Attempt) -> None:
        self.db.insert(ATTEMPT.insert, ATTEMPT.params(attempt))

    def get(self, game_id: str, attempt_id: str) -> Attempt | None:
        ahead = self.db.ahead(ATTEMPTS, (game_id, attempt_id))
        if ahead is not MISSING:
            return cast(Attempt | None, ahead)
        row = self.db.read(
            f"SELECT {ATTEMPT_COLUMNS.sql} FROM attempts WHERE id = ? AND game_id = ?", (attempt_id, game_id)
        ).fetchone()
        return None if row is None else ATTEMPT_COLUMNS.of(row)

    def update(self, attempt: Attempt) -> None:
        values = ATTEMPT.params(attempt)
        with self.db.exactly(lambda p: p.forget(ATTEMPTS, (attempt.game_id, attempt.id))):
            self.db.write("attempts", _UPDATE, (*values[1:], values[0]))

    def of_player_in_window(self, player_id: str, window_id: str) -> list[Attempt]:
        rows = self.db.read(
            f"SELECT {ATTEMPT_COLUMNS.sql} FROM attempts WHERE player_id = ? AND window_id = ?"
            " ORDER BY started_at, id",
            (player_id, window_id),
        )
        return [ATTEMPT_COLUMNS.of(r) for r in rows]

    def in_progress_in_window(self, window_id: str, limit: int) -> list[Attempt]:
        rows = self.db.read(
            f"SELECT {ATTEMPT_COLUMNS.sql} FROM attempts WHERE window_id = ? AND status = 'in_progress'"
            " ORDER BY started_at, id LIMIT ?",
            (window_id, limit),
        )
        return [ATTEMPT_COLUMNS.of(r) for r in rows]

    def of_room(self, room_id: str) -> list[Attempt]:
        rows = self.db.read(
            f"SELECT {ATTEMPT_COLUMNS.sql} FROM attempts WHERE lobby_id = ? ORDER BY started_at, id",
            (room_id,),
        )
        return [ATTEMPT_COLUMNS.of(r) for r in rows]

    def past_end(self, now: datetime, limit: int) -> list[Attempt]:
        rows = self.db.read(
            f"SELECT {ATTEMPT_COLUMNS.sql} FROM attempts WHERE status = 'in_progress' AND ends_at <= ?"
            " ORDER BY ends_at, id LIMIT ?",
            (to_millis(now), limit),
        )
        return [ATTEMPT_COLUMNS.of(r) for r in rows]

    def recent(self, player_id: str, limit: int) -> list[Attempt]:
        rows = self.db.read(
            f"SELECT {ATTEMPT_COLUMNS.sql} FROM attempts WHERE player_id = ?"
            " ORDER BY started_at DESC, id DESC LIMIT ?",
            (player_id, limit),
        )
        return [ATTEMPT_COLUMNS.of(r) for r in rows]

    def counts(self, player_id: str) -> dict[AttemptStatus, int]:
        counts = dict.fromkeys(AttemptStatus, 0)
        rows = self.db.read(
            "SELECT status, COUNT(*) FROM attempts WHERE player_id = ? GROUP BY status", (player_id,)
        )
        for status, n in rows:
            counts[AttemptStatus(status)] = n
        return counts

    def tallies(
        self, game_id: str, env: Environment, since: datetime, until: datetime
    ) -> dict[tuple[str, str], AttemptTally]:
        rows = self.db.read(_TALLIES, (game_id, env.value, to_millis(until), to_millis(since)))
        return {
            (p, e): AttemptTally(n, plays, scored, float(total), float(squares), float(busy) / 1000)
            for p, e, n, plays, scored, total, squares, busy in rows
        }

    def reassign(self, from_id: str, to: Player) -> None:
        self.db.change(
            "attempts",
            "UPDATE attempts SET player_id = ?, external_player_id = ? WHERE player_id = ?",
            (to.id, to.external_id, from_id),
        )
