"""The players port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, cast

from livecore.clock import from_millis, to_millis
from livecore.names import fold
from livecore.players.rules import SEARCH_ANYWHERE_MIN, Activity, PeriodActivity, Player, PlayerCard
from livecore.scope import Environment
from livecore_server.players.rows import ACTIVITY_COLUMNS, CARD_COLUMNS, PLAYER_COLUMNS, player_row
from livecore_server.storage.postgres_transaction import PLAYERS_CHANNEL
from livecore_server.storage.read_ahead import MISSING
from livecore_server.storage.sqlport import Insert, SqlPort

if TYPE_CHECKING:
    from livecore_server.storage.postgres_transaction import PostgresTransaction


INSERT_PLAYER = Insert("players", PLAYER_COLUMNS.names)


class SqlPlayers(SqlPort):
    __slots__ = ()

    def get(self, game_id: str, external_id: str) -> Player | None:
        ahead = self.db.ahead("players", (game_id, external_id))
        if ahead is not MISSING:
            return cast(Player | None, ahead)
        row = self.db.read(
            f"SELECT {PLAYER_COLUMNS.sql} FROM players WHERE game_id = ? AND external_id = ?",
            (game_id, external_id),
        ).fetchone()
        return None if row is None else PLAYER_COLUMNS.of(row)

    def insert(self, player: Player) -> None:
        with self.db.exactly(lambda p: p.player_written(player)):
            self.db.insert(INSERT_PLAYER, player_row(player))

    def update(self, player: Player) -> None:
        names = PLAYER_COLUMNS.names[1:]
        values = player_row(player)
        with self.db.exactly(lambda p: p.player_written(player)):
            self.db.write(
                "players",
                f"UPDATE players SET {', '.join(f'{n} = ?' for n in names)} WHERE id = ?",
                (*values[1:], values[0]),
            )
        for listener in self.db.player_listeners:
            listener(player.id)

    def reset_missed_streaks(self, last_day_before: date) -> int:
        cur = self.db.change(
            "players",
            "UPDATE players SET streak = 0 WHERE streak > 0 AND streak_day < ?",
            (last_day_before.isoformat(),),
        )
        return cur.rowcount

    def by_id(self, player_id: str) -> Player | None:
        ahead = self.db.player_ahead(player_id)
        if ahead is not MISSING:
            return cast(Player, ahead)
        row = self.db.read(f"SELECT {PLAYER_COLUMNS.sql} FROM players WHERE id = ?", (player_id,)).fetchone()
        return None if row is None else PLAYER_COLUMNS.of(row)

    def by_friend_code(self, game_id: str, env: Environment, code: str) -> Player | None:
        row = self.db.read(
            f"SELECT {PLAYER_COLUMNS.sql} FROM players WHERE game_id = ? AND env = ? AND friend_code = ?",
            (game_id, env.value, code),
        ).fetchone()
        return None if row is None else PLAYER_COLUMNS.of(row)

    def search_by_name(self, game_id: str, env: Environment, text: str, limit: int) -> list[PlayerCard]:
        needle = fold(text)
        if len(needle) >= SEARCH_ANYWHERE_MIN:
            return self._names_containing(game_id, env, needle, limit)
        # Too short for trigrams: names starting with the text, a range of the prefix index (the column
        # collates in byte order on both databases).
        rows = self.db.read(
            f"SELECT {CARD_COLUMNS.sql} FROM players p WHERE p.game_id = ? AND p.env = ?"
            " AND p.search_name >= ? AND p.search_name < ? ORDER BY p.search_name LIMIT ?",
            (game_id, env.value, needle, needle + "\U0010ffff", limit),
        )
        return [CARD_COLUMNS.of(r) for r in rows]

    def recently_active(self, game_id: str, env: Environment, limit: int) -> list[PlayerCard]:
        rows = self.db.read(
            f"SELECT {CARD_COLUMNS.sql} FROM players p"
            " WHERE p.game_id = ? AND p.env = ? AND p.last_active_at IS NOT NULL"
            " ORDER BY p.last_active_at DESC LIMIT ?",
            (game_id, env.value, limit),
        )
        return [CARD_COLUMNS.of(r) for r in rows]

    def activities(self, player_ids: list[str]) -> dict[str, Activity]:
        if not player_ids:
            return {}
        ids, params = self.db.in_list("id", player_ids)
        rows = self.db.read(f"SELECT id, {ACTIVITY_COLUMNS.sql} FROM players WHERE {ids}", params)
        return {player_id: ACTIVITY_COLUMNS.of(activity) for player_id, *activity in rows}

    def active_in(
        self, game_id: str, env: Environment, since: datetime, until: datetime
    ) -> dict[str, PeriodActivity]:
        rows = self.db.read(
            "SELECT id, first_seen_at, sessions, first_day, days FROM players WHERE game_id = ? AND env = ?"
            " AND first_seen_at < ? AND last_active_at >= ?",
            (game_id, env.value, to_millis(until), to_millis(since)),
        )
        return {
            i: PeriodActivity(from_millis(seen), n, date.fromisoformat(first) if first else None, days)
            for i, seen, n, first, days in rows
        }

    def first_seen(self, game_id: str, env: Environment) -> datetime | None:
        row = self.db.read(
            "SELECT MIN(first_seen_at) FROM players WHERE game_id = ? AND env = ?", (game_id, env.value)
        ).fetchone()
        return None if row is None or row[0] is None else from_millis(int(row[0]))

    def _names_containing(self, game_id: str, env: Environment, needle: str, limit: int) -> list[PlayerCard]:
        """Players whose lower-cased name contains ``needle`` (three characters or more)."""
        raise NotImplementedError


class SqlitePlayers(SqlPlayers):
    __slots__ = ()

    def _names_containing(self, game_id: str, env: Environment, needle: str, limit: int) -> list[PlayerCard]:
        # Trigram index (FTS5): any substring of three or more characters.
        phrase = '"' + needle.replace('"', '""') + '"'
        rows = self.db.read(
            f"SELECT {CARD_COLUMNS.sql} FROM player_names n JOIN players p ON p.rowid = n.rowid"
            " WHERE player_names MATCH ? AND p.game_id = ? AND p.env = ? ORDER BY p.search_name LIMIT ?",
            (phrase, game_id, env.value, limit),
        )
        return [CARD_COLUMNS.of(r) for r in rows]


class PostgresPlayers(SqlPlayers):
    __slots__ = ()
    db: PostgresTransaction

    def update(self, player: Player) -> None:
        super().update(player)
        # Heard by every process's watch when this commits (and never if it rolls back), so
        # their player caches forget the row.
        self.db.notify(PLAYERS_CHANNEL, player.id)

    def _names_containing(self, game_id: str, env: Environment, needle: str, limit: int) -> list[PlayerCard]:
        # ILIKE, through the trigram index when there is one.
        rows = self.db.read(
            f"SELECT {CARD_COLUMNS.sql} FROM players p WHERE p.game_id = ? AND p.env = ?"
            " AND p.search_name ILIKE ? ORDER BY p.search_name LIMIT ?",
            (game_id, env.value, f"%{like_escape(needle)}%", limit),
        )
        return [CARD_COLUMNS.of(r) for r in rows]


def like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
