"""The players port in memory."""

from __future__ import annotations

from datetime import date, datetime

import attrs

from livecore.memory.journal import AreaPort
from livecore.names import fold
from livecore.players.rules import Activity, Lifecycle, PeriodActivity, Player, PlayerCard, name_matches
from livecore.players.store import PlayerStore
from livecore.scope import Environment


@attrs.define
class PlayerTables:
    """The players area's table in memory; other areas' ports read players here, by :meth:`by_id`."""

    players: dict[tuple[str, str], Player] = attrs.field(factory=dict)  # (game id, external id)
    ids: dict[str, tuple[str, str]] = attrs.field(factory=dict)  # player id -> its key in ``players``
    codes: dict[tuple[str, str, str], str] = attrs.field(
        factory=dict
    )  # (game, env, friend code) -> player id

    def by_id(self, player_id: str) -> Player | None:
        key = self.ids.get(player_id)
        return None if key is None else self.players.get(key)


class MemoryPlayers(AreaPort[PlayerTables]):
    __slots__ = ()
    TABLES = PlayerTables

    def get(self, game_id: str, external_id: str) -> Player | None:
        return self._t.players.get((game_id, external_id))

    def insert(self, player: Player) -> None:
        key = (player.game_id, player.external_id)
        if key in self._t.players:
            raise KeyError(f"player {player.external_id!r} exists")
        self._tx.put(self._t.players, key, player)
        self._tx.put(self._t.ids, player.id, key)
        self._code(None, player)

    def _code(self, before: Player | None, after: Player) -> None:
        if before is not None and before.friend_code is not None and before.friend_code != after.friend_code:
            code = (before.game_id, before.env.value, before.friend_code)
            if self._t.codes.get(code) == before.id:
                self._tx.drop(self._t.codes, code)
        if after.friend_code is not None and (before is None or before.friend_code != after.friend_code):
            self._tx.put(self._t.codes, (after.game_id, after.env.value, after.friend_code), after.id)

    def update(self, player: Player) -> None:
        key = (player.game_id, player.external_id)
        current = self._t.players.get(key)
        self._code(self.by_id(player.id), player)
        if current is None or current.id != player.id:
            # A merge or an erasure renamed the player: drop it under its old external id.
            old = self.by_id(player.id)
            if old is not None:
                self._tx.drop(self._t.players, (old.game_id, old.external_id))
            if current is not None:
                self._tx.drop(self._t.ids, current.id)
        self._tx.put(self._t.players, key, player)
        self._tx.put(self._t.ids, player.id, key)

    def reset_missed_streaks(self, last_day_before: date) -> int:
        changed = 0
        for key, player in list(self._t.players.items()):
            day = player.activity.streak_day
            if player.activity.streak > 0 and day is not None and day < last_day_before:
                self._tx.put(
                    self._t.players,
                    key,
                    attrs.evolve(player, activity=attrs.evolve(player.activity, streak=0)),
                )
                changed += 1
        return changed

    def by_id(self, player_id: str) -> Player | None:
        return self._t.by_id(player_id)

    def by_friend_code(self, game_id: str, env: Environment, code: str) -> Player | None:
        found = self.by_id(self._t.codes.get((game_id, env.value, code), ""))
        return found if found is not None and found.friend_code == code else None

    def recently_active(self, game_id: str, env: Environment, limit: int) -> list[PlayerCard]:
        active = [
            p
            for p in self._t.players.values()
            if p.game_id == game_id
            and p.env is env
            and p.activity.last_active_at is not None
            and p.lifecycle is Lifecycle.ACTIVE
        ]
        by_recency = sorted(active, key=lambda p: p.activity.last_active_at or p.first_seen_at, reverse=True)
        return [PlayerCard.of(p) for p in by_recency[:limit]]

    def search_by_name(self, game_id: str, env: Environment, text: str, limit: int) -> list[PlayerCard]:
        found = [
            p
            for p in self._t.players.values()
            if p.game_id == game_id
            and p.env is env
            and p.lifecycle is Lifecycle.ACTIVE
            and name_matches((p.display or p.anonymized).name, text)
        ]
        by_name = sorted(found, key=lambda p: fold((p.display or p.anonymized).name))
        return [PlayerCard.of(p) for p in by_name[:limit]]

    def activities(self, player_ids: list[str]) -> dict[str, Activity]:
        return {i: p.activity for i in player_ids if (p := self._t.by_id(i)) is not None}

    def active_in(
        self, game_id: str, env: Environment, since: datetime, until: datetime
    ) -> dict[str, PeriodActivity]:
        return {
            p.id: PeriodActivity(p.first_seen_at, p.activity.sessions, p.activity.first_day, p.activity.days)
            for p in self._t.players.values()
            if p.game_id == game_id
            and p.env is env
            and p.first_seen_at < until
            and p.activity.last_active_at is not None
            and p.activity.last_active_at >= since
        }

    def first_seen(self, game_id: str, env: Environment) -> datetime | None:
        seen = [p.first_seen_at for p in self._t.players.values() if p.game_id == game_id and p.env is env]
        return min(seen, default=None)


def _implements_the_port(port: MemoryPlayers) -> PlayerStore:
    return port  # mypy checks the class against the area's port here
