"""The shared leaderboards port in memory."""

from __future__ import annotations

from datetime import datetime

import attrs

from livecore.leaderboards.rules import BoardPeriod, Division, PeriodStatus, PlayerTier, SharedEntry
from livecore.leaderboards.store import LeaderboardStore
from livecore.live_events.boards import Contender, sort_key
from livecore.live_events.memory.boards import with_contenders
from livecore.memory.journal import AreaPort
from livecore.scope import Environment


@attrs.define
class LeaderboardTables:
    """The leaderboards area's tables in memory."""

    periods: dict[str, BoardPeriod] = attrs.field(factory=dict)
    divisions: dict[str, Division] = attrs.field(factory=dict)
    # Each period's divisions (their ids), for what reads them in order.
    period_divisions: dict[str, dict[str, None]] = attrs.field(factory=dict)
    # (period id, tier) -> its newest division's id, which every placement of a player reads.
    newest_divisions: dict[tuple[str, int], str] = attrs.field(factory=dict)
    shared_entries: dict[tuple[str, str], SharedEntry] = attrs.field(factory=dict)  # (period, player id)
    tiers: dict[tuple[str, str, str, str], int] = attrs.field(factory=dict)  # (game, env, board key, player)


class MemoryLeaderboards(AreaPort[LeaderboardTables]):
    __slots__ = ()
    TABLES = LeaderboardTables

    def period(self, game_id: str, period_id: str) -> BoardPeriod | None:
        period = self._t.periods.get(period_id)
        return period if period is not None and period.game_id == game_id else None

    def insert_period(self, period: BoardPeriod) -> None:
        self._tx.put(self._t.periods, period.id, period)

    def update_period(self, period: BoardPeriod) -> None:
        self._tx.put(self._t.periods, period.id, period)

    def _of(self, game_id: str, env: Environment, key: str, status: PeriodStatus) -> list[BoardPeriod]:
        found = [
            p
            for p in self._t.periods.values()
            if (p.game_id, p.env, p.board_key, p.status) == (game_id, env, key, status)
        ]
        return sorted(found, key=lambda p: (p.starts_at is not None, p.starts_at, p.id))

    def open_period(self, game_id: str, env: Environment, key: str) -> BoardPeriod | None:
        found = self._of(game_id, env, key, PeriodStatus.OPEN)
        return found[-1] if found else None

    def latest_finalized(self, game_id: str, env: Environment, key: str) -> BoardPeriod | None:
        found = self._of(game_id, env, key, PeriodStatus.FINALIZED)
        return found[-1] if found else None

    def periods_due(self, now: datetime, limit: int) -> list[BoardPeriod]:
        due = [
            p
            for p in self._t.periods.values()
            if p.status is PeriodStatus.FINALIZING
            or (p.status is PeriodStatus.OPEN and p.ends_at is not None and p.ends_at <= now)
        ]
        return sorted(due, key=lambda p: (p.ends_at or now, p.id))[:limit]

    def division(self, period_id: str, division_id: str) -> Division | None:
        division = self._t.divisions.get(division_id)
        return division if division is not None and division.period_id == period_id else None

    def insert_division(self, division: Division) -> None:
        self._tx.put(self._t.divisions, division.id, division)
        self._tx.put(self._t.period_divisions.setdefault(division.period_id, {}), division.id, None)
        newest = self.newest_division(division.period_id, division.tier)
        if newest is None or newest.number < division.number:
            self._tx.put(self._t.newest_divisions, (division.period_id, division.tier), division.id)

    def update_division(self, division: Division) -> None:
        self._tx.put(self._t.divisions, division.id, division)

    def _divisions(self, period_id: str) -> list[Division]:
        divisions = self._t.divisions
        mine = [divisions[division_id] for division_id in self._t.period_divisions.get(period_id, ())]
        return sorted(mine, key=lambda d: (d.tier, d.number))

    def newest_division(self, period_id: str, tier: int) -> Division | None:
        newest = self._t.newest_divisions.get((period_id, tier))
        return None if newest is None else self._t.divisions[newest]

    def divisions_from(self, period_id: str, offset: int, limit: int) -> list[Division]:
        return self._divisions(period_id)[offset : offset + limit]

    def top_division(self, period_id: str) -> Division | None:
        divisions = self._divisions(period_id)
        if not divisions:
            return None
        top = divisions[-1].tier
        return next(d for d in divisions if d.tier == top)

    def entry(self, period_id: str, player_id: str) -> SharedEntry | None:
        return self._t.shared_entries.get((period_id, player_id))

    def put_entry(self, period: BoardPeriod, entry: SharedEntry) -> None:
        self._tx.put(self._t.shared_entries, (entry.period_id, entry.player_id), entry)

    def delete_entry(self, period_id: str, player_id: str) -> None:
        self._tx.drop(self._t.shared_entries, (period_id, player_id))

    def entries_of(self, player_id: str) -> list[SharedEntry]:
        mine = [e for e in self._t.shared_entries.values() if e.player_id == player_id]
        return sorted(mine, key=lambda e: e.period_id)

    def _ordered(self, period: BoardPeriod, division_id: str | None) -> list[SharedEntry]:
        entries = [
            e
            for e in self._t.shared_entries.values()
            if e.period_id == period.id and (division_id is None or e.division_id == division_id)
        ]
        return sorted(entries, key=lambda e: sort_key(period.settings.order, e))

    def page(
        self,
        period: BoardPeriod,
        division_id: str | None,
        after: tuple[float, datetime, str] | None,
        limit: int,
    ) -> list[tuple[SharedEntry, Contender]]:
        ordered = self._ordered(period, division_id)
        if after is not None:
            ordered = [e for e in ordered if sort_key(period.settings.order, e) > after]
        return with_contenders(self._s, ordered[:limit])

    def page_before(
        self, period: BoardPeriod, division_id: str | None, key: tuple[float, datetime, str], limit: int
    ) -> list[tuple[SharedEntry, Contender]]:
        order = period.settings.order
        ahead = [e for e in self._ordered(period, division_id) if sort_key(order, e) < key]
        return with_contenders(self._s, ahead[max(0, len(ahead) - limit) :])

    def count_ahead(
        self, period: BoardPeriod, division_id: str | None, key: tuple[float, datetime, str]
    ) -> int:
        order = period.settings.order
        return sum(1 for e in self._ordered(period, division_id) if sort_key(order, e) < key)

    def size(self, period_id: str, division_id: str | None) -> int:
        return sum(
            1
            for e in self._t.shared_entries.values()
            if e.period_id == period_id and (division_id is None or e.division_id == division_id)
        )

    def tier(self, game_id: str, env: Environment, key: str, player_id: str) -> int | None:
        return self._t.tiers.get((game_id, env.value, key, player_id))

    def set_tier(self, game_id: str, env: Environment, key: str, player_id: str, tier: int) -> None:
        self._tx.put(self._t.tiers, (game_id, env.value, key, player_id), tier)

    def tiers_of(self, player_id: str) -> list[PlayerTier]:
        mine = [
            PlayerTier(game_id, Environment(env), key, tier)
            for (game_id, env, key, player), tier in self._t.tiers.items()
            if player == player_id
        ]
        return sorted(mine, key=lambda t: (t.game_id, t.env.value, t.board_key))

    def delete_tier(self, game_id: str, env: Environment, key: str, player_id: str) -> None:
        self._tx.drop(self._t.tiers, (game_id, env.value, key, player_id))


def _implements_the_port(port: MemoryLeaderboards) -> LeaderboardStore:
    return port  # mypy checks the class against the area's port here
