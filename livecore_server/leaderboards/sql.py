"""The shared leaderboards port in SQL, for SQLite and PostgreSQL.

An entry's ``rank_key`` is its score in board order, as in :mod:`livecore_server.live_events.sql.boards`:
board order is ``(rank_key, reached_at, player_id)`` ascending, one range of ``shared_entries_by_rank``
for a whole period and of ``shared_entries_by_division`` for one division.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from livecore.clock import to_millis
from livecore.leaderboards.rules import BoardPeriod, Division, PeriodStatus, PlayerTier, SharedEntry
from livecore.live_events.boards import Contender, sort_key
from livecore.scope import Environment
from livecore_server.leaderboards.rows import (
    DIVISION,
    DIVISION_COLUMNS,
    PERIOD,
    PERIOD_COLUMNS,
    SHARED_ENTRY_COLUMNS,
)
from livecore_server.leaderboards.schema import PAGES
from livecore_server.live_events.sql.boards import count_ahead, ranked_page, stored_key
from livecore_server.storage.rows import ms
from livecore_server.storage.sqlport import Insert, SqlPort

PUT_ENTRY = Insert(
    "shared_entries",
    ("period_id", "player_id", "score", "rank_key", "reached_at", "division_id"),
    conflict=("period_id", "player_id"),
    action="DO UPDATE SET score = excluded.score, rank_key = excluded.rank_key,"
    " reached_at = excluded.reached_at, division_id = excluded.division_id",
)
# A period's shared rows (divisions, rank pages), held from the first of them a write reads or changes
# until it commits (``SqlTransaction.hold``).
HELD_PERIOD = "board_period"
SET_TIER = Insert(
    "league_tiers",
    ("game_id", "env", "board_key", "player_id", "tier"),
    conflict=("game_id", "env", "board_key", "player_id"),
    action="DO UPDATE SET tier = excluded.tier",
)


def _in(period_id: str, division_id: str | None) -> tuple[str, list[Any]]:
    """The entries of a period, or of one of its divisions: a prefix of one of the two rank indexes."""
    if division_id is None:
        return "period_id = ?", [period_id]
    return "period_id = ? AND division_id = ?", [period_id, division_id]


class SqlLeaderboards(SqlPort):
    __slots__ = ()

    # --- periods ---

    def period(self, game_id: str, period_id: str) -> BoardPeriod | None:
        row = self.db.read(
            f"SELECT {PERIOD_COLUMNS.sql} FROM board_periods WHERE id = ? AND game_id = ?",
            (period_id, game_id),
        ).fetchone()
        return None if row is None else PERIOD_COLUMNS.of(row)

    def insert_period(self, period: BoardPeriod) -> None:
        # Two first scores may open one period at once: the second's insert violates the period's key, and
        # it runs again (a RETRYABLE race), finding the period open.
        self.db.insert(PERIOD.insert, PERIOD.params(period))

    def update_period(self, period: BoardPeriod) -> None:
        # A period's record changes by its rollover (and rollover-now ends it early, and the first score
        # after its end stops it, as many at once may: they write the same); its board and settings
        # stay as it opened.
        self.db.write(
            "board_periods",
            "UPDATE board_periods SET status = ?, ends_at = ?, finalized_through = ?, finalized_at = ?"
            " WHERE id = ?",
            (
                period.status.value,
                ms(period.ends_at),
                period.finalized_through,
                ms(period.finalized_at),
                period.id,
            ),
        )

    def _last(self, game_id: str, env: Environment, key: str, status: PeriodStatus) -> BoardPeriod | None:
        # The latest start first; the all-time period (no start) only when there is no other. Two ranges of
        # ``board_periods_of_board``: the dialects order NULLs differently. (The order by a column that is
        # NULL throughout lets PostgreSQL take it from the index.)
        where = "game_id = ? AND env = ? AND board_key = ? AND status = ?"
        params = (game_id, env.value, key, status.value)
        for sql in (
            f"{where} AND starts_at IS NOT NULL ORDER BY starts_at DESC, id DESC LIMIT 1",
            f"{where} AND starts_at IS NULL ORDER BY starts_at DESC, id DESC LIMIT 1",
        ):
            row = self.db.read(
                f"SELECT {PERIOD_COLUMNS.sql} FROM board_periods WHERE {sql}", params
            ).fetchone()
            if row is not None:
                return PERIOD_COLUMNS.of(row)
        return None

    def open_period(self, game_id: str, env: Environment, key: str) -> BoardPeriod | None:
        return self._last(game_id, env, key, PeriodStatus.OPEN)

    def latest_finalized(self, game_id: str, env: Environment, key: str) -> BoardPeriod | None:
        return self._last(game_id, env, key, PeriodStatus.FINALIZED)

    def periods_due(self, now: datetime, limit: int) -> list[BoardPeriod]:
        # Three ranges of ``board_periods_due``, merged here: a finalizing period without an end (never
        # written by the commands, but possible) counts as ending now, as in memory.
        due: list[BoardPeriod] = []
        for sql, params in (
            ("status = 'finalizing' AND ends_at IS NOT NULL ORDER BY ends_at, id LIMIT ?", (limit,)),
            ("status = 'finalizing' AND ends_at IS NULL ORDER BY ends_at, id LIMIT ?", (limit,)),
            ("status = 'open' AND ends_at <= ? ORDER BY ends_at, id LIMIT ?", (to_millis(now), limit)),
        ):
            rows = self.db.read(f"SELECT {PERIOD_COLUMNS.sql} FROM board_periods WHERE {sql}", params)
            due += (PERIOD_COLUMNS.of(r) for r in rows)
        return sorted(due, key=lambda p: (p.ends_at or now, p.id))[:limit]

    # --- divisions ---

    def division(self, period_id: str, division_id: str) -> Division | None:
        row = self.db.read(
            f"SELECT {DIVISION_COLUMNS.sql} FROM divisions WHERE id = ? AND period_id = ?",
            (division_id, period_id),
        ).fetchone()
        return None if row is None else DIVISION_COLUMNS.of(row)

    def insert_division(self, division: Division) -> None:
        self.db.insert(DIVISION.insert, DIVISION.params(division))

    def update_division(self, division: Division) -> None:
        # A division's record changes only by its member count.
        self.db.write(
            "divisions", "UPDATE divisions SET members = ? WHERE id = ?", (division.members, division.id)
        )

    def newest_division(self, period_id: str, tier: int) -> Division | None:
        # Read to place a newcomer, whose place and count every newcomer's write decides on too.
        self.db.hold(HELD_PERIOD, period_id)
        row = self.db.read(
            f"SELECT {DIVISION_COLUMNS.sql} FROM divisions WHERE period_id = ? AND tier = ?"
            " ORDER BY number DESC LIMIT 1",
            (period_id, tier),
        ).fetchone()
        return DIVISION_COLUMNS.of(row) if row is not None else None

    def divisions_from(self, period_id: str, offset: int, limit: int) -> list[Division]:
        rows = self.db.read(
            f"SELECT {DIVISION_COLUMNS.sql} FROM divisions WHERE period_id = ? ORDER BY tier, number"
            " LIMIT ? OFFSET ?",
            (period_id, limit, offset),
        )
        return [DIVISION_COLUMNS.of(r) for r in rows]

    def top_division(self, period_id: str) -> Division | None:
        row = self.db.read(
            f"SELECT {DIVISION_COLUMNS.sql} FROM divisions WHERE period_id = ?"
            " AND tier = (SELECT MAX(tier) FROM divisions WHERE period_id = ?) ORDER BY number LIMIT 1",
            (period_id, period_id),
        ).fetchone()
        return None if row is None else DIVISION_COLUMNS.of(row)

    # --- entries ---

    def entry(self, period_id: str, player_id: str) -> SharedEntry | None:
        row = self.db.read(
            f"SELECT {SHARED_ENTRY_COLUMNS.sql} FROM shared_entries WHERE period_id = ? AND player_id = ?",
            (period_id, player_id),
        ).fetchone()
        return None if row is None else SHARED_ENTRY_COLUMNS.of(row)

    def put_entry(self, period: BoardPeriod, entry: SharedEntry) -> None:
        # The rank pages are every submitter's: writes of one period running side by side (each holding
        # only its player) move its entries one after the other, each reading the pages as the one
        # before left them.
        self.db.hold(HELD_PERIOD, period.id)
        key = stored_key(sort_key(period.settings.order, entry))
        row = (entry.period_id, entry.player_id, entry.score, key[0], key[1], entry.division_id)
        PAGES.moved(self.db, period.id, entry.player_id, key, lambda: self.db.insert(PUT_ENTRY, row))

    def delete_entry(self, period_id: str, player_id: str) -> None:
        def delete() -> None:
            self.db.write(
                "shared_entries",
                "DELETE FROM shared_entries WHERE period_id = ? AND player_id = ?",
                (period_id, player_id),
            )

        PAGES.moved(self.db, period_id, player_id, None, delete)

    def entries_of(self, player_id: str) -> list[SharedEntry]:
        rows = self.db.read(
            f"SELECT {SHARED_ENTRY_COLUMNS.sql} FROM shared_entries WHERE player_id = ? ORDER BY period_id",
            (player_id,),
        )
        return [SHARED_ENTRY_COLUMNS.of(r) for r in rows]

    def page(
        self,
        period: BoardPeriod,
        division_id: str | None,
        after: tuple[float, datetime, str] | None,
        limit: int,
    ) -> list[tuple[SharedEntry, Contender]]:
        return self._page(period, division_id, after, None, limit)

    def page_before(
        self, period: BoardPeriod, division_id: str | None, key: tuple[float, datetime, str], limit: int
    ) -> list[tuple[SharedEntry, Contender]]:
        return self._page(period, division_id, None, key, limit)

    def _page(
        self,
        period: BoardPeriod,
        division_id: str | None,
        after: tuple[float, datetime, str] | None,
        before: tuple[float, datetime, str] | None,
        limit: int,
    ) -> list[tuple[SharedEntry, Contender]]:
        where, params = _in(period.id, division_id)
        return ranked_page(
            self.db, "shared_entries", SHARED_ENTRY_COLUMNS, where, params, after, before, limit
        )

    def count_ahead(
        self, period: BoardPeriod, division_id: str | None, key: tuple[float, datetime, str]
    ) -> int:
        if division_id is None:
            return PAGES.count_ahead(self.db, period.id, stored_key(key))
        where, params = _in(period.id, division_id)
        sql, params = count_ahead("shared_entries", where, params, key)
        return int(self.db.read(sql, params).fetchone()[0])

    def size(self, period_id: str, division_id: str | None) -> int:
        if division_id is None:
            return PAGES.size(self.db, period_id)
        where, params = _in(period_id, division_id)
        row = self.db.read(f"SELECT COUNT(*) FROM shared_entries WHERE {where}", params).fetchone()
        return int(row[0])

    # --- tiers ---

    def tier(self, game_id: str, env: Environment, key: str, player_id: str) -> int | None:
        row = self.db.read(
            "SELECT tier FROM league_tiers WHERE game_id = ? AND env = ? AND board_key = ? AND player_id = ?",
            (game_id, env.value, key, player_id),
        ).fetchone()
        return None if row is None else int(row[0])

    def set_tier(self, game_id: str, env: Environment, key: str, player_id: str, tier: int) -> None:
        self.db.insert(SET_TIER, (game_id, env.value, key, player_id, tier))

    def tiers_of(self, player_id: str) -> list[PlayerTier]:
        rows = self.db.read(
            "SELECT game_id, env, board_key, tier FROM league_tiers WHERE player_id = ?"
            " ORDER BY game_id, env, board_key",
            (player_id,),
        )
        return [PlayerTier(game_id, Environment(env), key, tier) for game_id, env, key, tier in rows]

    def delete_tier(self, game_id: str, env: Environment, key: str, player_id: str) -> None:
        self.db.write(
            "league_tiers",
            "DELETE FROM league_tiers WHERE game_id = ? AND env = ? AND board_key = ? AND player_id = ?",
            (game_id, env.value, key, player_id),
        )


SQL_PORTS = {"leaderboards": SqlLeaderboards}
