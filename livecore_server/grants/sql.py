"""The grants port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime
from typing import cast

import orjson

from livecore.clock import from_millis, to_millis
from livecore.grants.rules import Grant, GrantEntry, GrantStatus, GrantWaits, latest_entries
from livecore.players.rules import Player
from livecore_server.grants.rows import GRANT, GRANT_COLUMNS, grant_entry_of
from livecore_server.storage.read_ahead import MISSING
from livecore_server.storage.rows import ms
from livecore_server.storage.sqlport import SqlPort, prefixed

INSERT_GRANT = GRANT.insert

# Each grant waits from its making to when it was taken, expired or the period ended, whichever came first
# (in milliseconds: the parameters are the period's end, four times, then the game, kind and period).
_WAITS = (
    "SELECT player_id, COUNT(*),"
    " SUM(CASE WHEN claimed_at < ? THEN 1 ELSE 0 END),"
    " SUM(CASE WHEN claimed_at = created_at THEN 1 ELSE 0 END),"
    " SUM(CASE WHEN claimed_at < ? THEN claimed_at WHEN expires_at < ? THEN expires_at ELSE ? END"
    " - created_at)"
    " FROM grants WHERE game_id = ? AND kind = ? AND created_at >= ? AND created_at < ? GROUP BY player_id"
)
_DAY_MS = 86_400_000


class SqlGrants(SqlPort):
    __slots__ = ()

    def insert(self, grant: Grant) -> None:
        with self.db.exactly(lambda p: p.forget("grants", (grant.game_id, grant.id))):
            self.db.insert(INSERT_GRANT, GRANT.params(grant))

    def get(self, game_id: str, grant_id: str) -> Grant | None:
        ahead = self.db.ahead("grants", (game_id, grant_id))
        if ahead is not MISSING:
            return cast(Grant | None, ahead)
        row = self.db.read(
            f"SELECT {GRANT_COLUMNS.sql} FROM grants WHERE id = ? AND game_id = ?", (grant_id, game_id)
        ).fetchone()
        return None if row is None else GRANT_COLUMNS.of(row)

    def update(self, grant: Grant) -> None:
        with self.db.exactly(lambda p: p.forget("grants", (grant.game_id, grant.id))):
            self._update(grant)

    def _update(self, grant: Grant) -> None:
        self.db.write(
            "grants",
            "UPDATE grants SET status = ?, claimed_at = ?, acked_by = ? WHERE id = ?",
            (
                grant.status.value,
                ms(grant.claimed_at),
                grant.acked_by.value if grant.acked_by else None,
                grant.id,
            ),
        )

    def pending(self, player_id: str, now: datetime, limit: int) -> list[Grant]:
        rows = self.db.read(
            f"SELECT {GRANT_COLUMNS.sql} FROM grants WHERE player_id = ? AND status = 'pending'"
            " AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at, id LIMIT ?",
            (player_id, to_millis(now), limit),
        )
        return [GRANT_COLUMNS.of(r) for r in rows]

    def past_expiry(self, now: datetime, limit: int) -> list[Grant]:
        rows = self.db.read(
            f"SELECT {GRANT_COLUMNS.sql} FROM grants WHERE status = 'pending' AND expires_at IS NOT NULL"
            " AND expires_at <= ? ORDER BY expires_at LIMIT ?",
            (to_millis(now), limit),
        )
        return [GRANT_COLUMNS.of(r) for r in rows]

    def recent(self, player_id: str, limit: int) -> list[Grant]:
        rows = self.db.read(
            f"SELECT {GRANT_COLUMNS.sql} FROM grants WHERE player_id = ?"
            " ORDER BY created_at DESC, id DESC LIMIT ?",
            (player_id, limit),
        )
        return [GRANT_COLUMNS.of(r) for r in rows]

    def counts(self, player_id: str) -> dict[GrantStatus, int]:
        counts = dict.fromkeys(GrantStatus, 0)
        for status, n in self.db.read(
            "SELECT status, COUNT(*) FROM grants WHERE player_id = ? GROUP BY status", (player_id,)
        ):
            counts[GrantStatus(status)] = n
        return counts

    def of_source(self, player_id: str, source_ref_id: str) -> list[Grant]:
        # Through grants_by_player: a player's grants are few enough to filter.
        rows = self.db.read(
            f"SELECT {GRANT_COLUMNS.sql} FROM grants WHERE player_id = ? AND source_ref_id = ?"
            " ORDER BY created_at, id",
            (player_id, source_ref_id),
        )
        return [GRANT_COLUMNS.of(r) for r in rows]

    def made(
        self, game_id: str, kind: str, since: datetime, until: datetime, except_source: str | None = None
    ) -> dict[str, int]:
        # Grants of a kind hold few distinct entry lists (a crate grant: one crate, one amount): grouped by
        # their text, each list is parsed once, not once a grant.
        unless = ""
        params: tuple[str, ...] = ()
        if except_source is not None:
            unless = f" AND {prefixed('source_ref_id', except_source, unless=True)}"
            params = (except_source,)
        rows = self.db.read(
            "SELECT CAST(entries AS TEXT), COUNT(*) FROM grants WHERE game_id = ? AND kind = ?"
            f" AND created_at >= ? AND created_at < ?{unless} GROUP BY CAST(entries AS TEXT)",
            (game_id, kind, to_millis(since), to_millis(until), *params),
        )
        sums: dict[str, int] = {}
        for entries, count in rows:
            for entry in orjson.loads(entries):
                sums[entry["key"]] = sums.get(entry["key"], 0) + entry["amount"] * count
        return sums

    def latest(
        self, game_id: str, prefix: str, since: datetime, until: datetime
    ) -> dict[str, tuple[GrantEntry, ...]]:
        # A source's grants hold few distinct entry lists (an offer's: what it gives): grouped by their
        # text, each list is parsed once, with when it was last made.
        rows = self.db.read(
            "SELECT source_ref_id, MAX(created_at), CAST(entries AS TEXT) FROM grants WHERE game_id = ?"
            f" AND {prefixed('source_ref_id', prefix)} AND created_at >= ? AND created_at < ?"
            " GROUP BY source_ref_id, CAST(entries AS TEXT)",
            (game_id, prefix, to_millis(since), to_millis(until)),
        )
        return latest_entries(
            (source, from_millis(at), tuple(grant_entry_of(e) for e in orjson.loads(entries)))
            for source, at, entries in rows
        )

    def waits(self, game_id: str, kind: str, since: datetime, until: datetime) -> dict[str, GrantWaits]:
        end = to_millis(until)
        rows = self.db.read(_WAITS, (end, end, end, end, game_id, kind, to_millis(since), end))
        return {
            p: GrantWaits(made, int(taken), int(once), float(waited) / _DAY_MS)
            for p, made, taken, once, waited in rows
        }

    def reassign(self, from_id: str, to: Player) -> None:
        self.db.change(
            "grants",
            "UPDATE grants SET player_id = ?, external_player_id = ? WHERE player_id = ?",
            (to.id, to.external_id, from_id),
        )


#: The area's SQL ports, by the transaction attribute that reaches each (``tx.<name>``).
SQL_PORTS = {"grants": SqlGrants}
