"""The grants port in memory."""

from __future__ import annotations

from datetime import datetime

import attrs

from livecore.grants.rules import Grant, GrantEntry, GrantStatus, GrantWaits, latest_entries
from livecore.grants.store import GrantStore
from livecore.memory.journal import AreaPort
from livecore.players.rules import Player


@attrs.define
class GrantTables:
    """The grants area's table in memory."""

    grants: dict[tuple[str, str], Grant] = attrs.field(factory=dict)  # (game id, grant id)
    # The keys of the pending grants that expire: what the expiry sweep looks at, among every grant.
    expiring: dict[tuple[str, str], None] = attrs.field(factory=dict)


class MemoryGrants(AreaPort[GrantTables]):
    __slots__ = ()
    TABLES = GrantTables

    def insert(self, grant: Grant) -> None:
        self._put(grant)

    def _put(self, grant: Grant) -> None:
        key = (grant.game_id, grant.id)
        self._tx.put(self._t.grants, key, grant)
        if grant.status is GrantStatus.PENDING and grant.expires_at is not None:
            if key not in self._t.expiring:
                self._tx.put(self._t.expiring, key, None)
        else:
            self._tx.drop(self._t.expiring, key)

    def get(self, game_id: str, grant_id: str) -> Grant | None:
        return self._t.grants.get((game_id, grant_id))

    def update(self, grant: Grant) -> None:
        self._put(grant)

    def pending(self, player_id: str, now: datetime, limit: int) -> list[Grant]:
        pending = [
            g
            for g in self._t.grants.values()
            if g.player_id == player_id
            and g.status is GrantStatus.PENDING
            and (g.expires_at is None or g.expires_at > now)
        ]
        return sorted(pending, key=lambda g: (g.created_at, g.id))[:limit]

    def past_expiry(self, now: datetime, limit: int) -> list[Grant]:
        grants = self._t.grants
        due = [
            g
            for g in (grants[key] for key in self._t.expiring)
            if g.expires_at is not None and g.expires_at <= now
        ]
        return sorted(due, key=lambda g: (g.expires_at, g.id))[:limit]

    def recent(self, player_id: str, limit: int) -> list[Grant]:
        mine = [g for g in self._t.grants.values() if g.player_id == player_id]
        return sorted(mine, key=lambda g: (g.created_at, g.id), reverse=True)[:limit]

    def counts(self, player_id: str) -> dict[GrantStatus, int]:
        counts = dict.fromkeys(GrantStatus, 0)
        for g in self._t.grants.values():
            if g.player_id == player_id:
                counts[g.status] += 1
        return counts

    def of_source(self, player_id: str, source_ref_id: str) -> list[Grant]:
        mine = [
            g
            for g in self._t.grants.values()
            if g.player_id == player_id and g.source_ref_id == source_ref_id
        ]
        return sorted(mine, key=lambda g: (g.created_at, g.id))

    def made(
        self, game_id: str, kind: str, since: datetime, until: datetime, except_source: str | None = None
    ) -> dict[str, int]:
        sums: dict[str, int] = {}
        for g in self._t.grants.values():
            source = g.source_ref_id or ""
            if except_source is not None and source.startswith(except_source):
                continue
            if g.game_id == game_id and g.kind == kind and since <= g.created_at < until:
                for entry in g.entries:
                    sums[entry.key] = sums.get(entry.key, 0) + entry.amount
        return sums

    def latest(
        self, game_id: str, prefix: str, since: datetime, until: datetime
    ) -> dict[str, tuple[GrantEntry, ...]]:
        return latest_entries(
            (g.source_ref_id, g.created_at, g.entries)
            for g in self._t.grants.values()
            if g.game_id == game_id
            and g.source_ref_id is not None
            and g.source_ref_id.startswith(prefix)
            and since <= g.created_at < until
        )

    def waits(self, game_id: str, kind: str, since: datetime, until: datetime) -> dict[str, GrantWaits]:
        tallies: dict[str, list[float]] = {}  # -> made, taken, at once, seconds waited
        for g in self._t.grants.values():
            if g.game_id != game_id or g.kind != kind or not since <= g.created_at < until:
                continue
            tally = tallies.setdefault(g.player_id, [0, 0, 0, 0.0])
            tally[0] += 1
            if g.claimed_at is not None and g.claimed_at < until:
                tally[1] += 1
                tally[2] += g.claimed_at == g.created_at
                end = g.claimed_at
            elif g.expires_at is not None and g.expires_at < until:
                end = g.expires_at
            else:
                end = until
            tally[3] += (end - g.created_at).total_seconds()
        return {
            p: GrantWaits(int(made), int(taken), int(once), waited / 86_400)
            for p, (made, taken, once, waited) in tallies.items()
        }

    def reassign(self, from_id: str, to: Player) -> None:
        for g in list(self._t.grants.values()):
            if g.player_id == from_id:
                self._put(attrs.evolve(g, player_id=to.id, external_player_id=to.external_id))


def _implements_the_port(port: MemoryGrants) -> GrantStore:
    return port  # mypy checks the class against the area's port here
