"""The ledger port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, cast

import orjson

from livecore.clock import from_millis, to_millis
from livecore.economy.rules import DebitTally, Holding, LedgerEntry, NotedDebits
from livecore_server.economy.rows import HOLDING_COLUMNS, LEDGER, LEDGER_COLUMNS
from livecore_server.storage.read_ahead import MISSING
from livecore_server.storage.sqlport import Insert, SqlPort, prefixed

if TYPE_CHECKING:
    pass


INSERT_ENTRY = LEDGER.insert
PUT_HOLDING = Insert(
    "holdings",
    ("player_id", "resource_key", "amount", "parameters"),
    conflict=("player_id", "resource_key"),
    action="DO UPDATE SET amount = excluded.amount, parameters = excluded.parameters",
)


class SqlLedger(SqlPort):
    __slots__ = ()

    def balances_of(self, player_ids: list[str], keys: list[str]) -> dict[str, dict[str, int]]:
        if not player_ids or not keys:
            return {}
        players, player_params = self.db.in_list("player_id", player_ids)
        resources, resource_params = self.db.in_list("resource_key", keys)
        rows = self.db.read(
            f"SELECT player_id, resource_key, amount FROM holdings WHERE {players} AND {resources}",
            (*player_params, *resource_params),
        )
        out: dict[str, dict[str, int]] = {}
        for pid, key, amount in rows:
            out.setdefault(pid, {})[key] = amount
        return out

    def holding(self, player_id: str, key: str) -> Holding:
        ahead = self.db.ahead("holdings", (player_id, key))
        if ahead is not MISSING:
            return cast(Holding, ahead)
        row = self.db.read(
            f"SELECT {HOLDING_COLUMNS.sql} FROM holdings WHERE player_id = ? AND resource_key = ?",
            (player_id, key),
        ).fetchone()
        return Holding(key=key) if row is None else HOLDING_COLUMNS.of(row)

    def holdings(self, player_id: str) -> dict[str, Holding]:
        rows = self.db.read(f"SELECT {HOLDING_COLUMNS.sql} FROM holdings WHERE player_id = ?", (player_id,))
        return {holding.key: holding for holding in map(HOLDING_COLUMNS.of, rows)}

    def append(self, entry: LedgerEntry, holding: Holding) -> None:
        with self.db.exactly(lambda p: p.forget("holdings", (entry.player_id, entry.resource_key))):
            self._append(entry, holding)

    def _append(self, entry: LedgerEntry, holding: Holding) -> None:
        self.db.insert(INSERT_ENTRY, LEDGER.params(entry))
        self.db.insert(
            PUT_HOLDING,
            (entry.player_id, entry.resource_key, holding.amount, orjson.dumps(holding.parameters).decode()),
        )

    def entries(self, player_id: str, key: str | None = None) -> list[LedgerEntry]:
        query = f"SELECT {LEDGER_COLUMNS.sql} FROM ledger WHERE player_id = ?"
        params: tuple[str, ...] = (player_id,)
        if key is not None:
            query += " AND resource_key = ?"
            params = (player_id, key)
        return [LEDGER_COLUMNS.of(r) for r in self.db.read(query + " ORDER BY seq", params)]

    def debits(
        self,
        game_id: str,
        reasons: Sequence[str],
        since: datetime,
        until: datetime,
        except_noted: str | None = None,
    ) -> dict[str, DebitTally]:
        if not reasons:
            return {}
        among, params = self._among(game_id, reasons, since, until, except_noted)
        rows = self.db.read(
            "SELECT player_id, COUNT(DISTINCT created_at), COUNT(*),"
            " SUM(-delta * 1.0 / (balance_after - delta)), SUM(1.0 / (balance_after - delta))"
            f" FROM ledger WHERE delta < 0 AND {among} GROUP BY player_id",
            params,
        )
        return {
            p: DebitTally(moments, n, float(share), float(inverse)) for p, moments, n, share, inverse in rows
        }

    def moved(
        self,
        game_id: str,
        reasons: Sequence[str],
        since: datetime,
        until: datetime,
        except_noted: str | None = None,
    ) -> dict[tuple[str, str], int]:
        if not reasons:
            return {}
        among, params = self._among(game_id, reasons, since, until, except_noted)
        rows = self.db.read(
            f"SELECT reason, resource_key, SUM(delta) FROM ledger WHERE {among}"
            " GROUP BY reason, resource_key",
            params,
        )
        return {(reason, key): int(total) for reason, key, total in rows}

    def noted(
        self, game_id: str, reasons: Sequence[str], prefix: str, since: datetime, until: datetime
    ) -> dict[tuple[str, str, int], NotedDebits]:
        if not reasons:
            return {}
        among, params = self._among(game_id, reasons, since, until, None)
        rows = self.db.read(
            "SELECT note, resource_key, -delta, COUNT(*), MAX(created_at) FROM ledger"
            f" WHERE delta < 0 AND {among} AND {prefixed('note', prefix)} GROUP BY note, resource_key, delta",
            (*params, prefix),
        )
        return {
            (note, key, int(amount)): NotedDebits(int(count), from_millis(last))
            for note, key, amount, count, last in rows
        }

    def _among(
        self,
        game_id: str,
        reasons: Sequence[str],
        since: datetime,
        until: datetime,
        except_noted: str | None,
    ) -> tuple[str, tuple[object, ...]]:
        """The condition a fitting's read counts an entry by (a game's, for one of ``reasons`` (not
        empty), in the period, not noted with ``except_noted`` first), and its parameters."""
        among, params = self.db.in_list("reason", list(reasons))
        where = f"game_id = ? AND {among} AND created_at >= ? AND created_at < ?"
        found = (game_id, *params, to_millis(since), to_millis(until))
        if except_noted is None:
            return where, found
        return f"{where} AND {prefixed('note', except_noted, unless=True)}", (*found, except_noted)

    def move(self, from_id: str, to_id: str, holdings: dict[str, Holding]) -> None:
        self.db.change("ledger", "UPDATE ledger SET player_id = ? WHERE player_id = ?", (to_id, from_id))
        self.db.change("holdings", "DELETE FROM holdings WHERE player_id IN (?, ?)", (from_id, to_id))
        self.db.executemany(
            "INSERT INTO holdings (player_id, resource_key, amount, parameters) VALUES (?, ?, ?, ?)",
            [(to_id, h.key, h.amount, orjson.dumps(h.parameters).decode()) for h in holdings.values()],
        )


#: The area's SQL ports, by the transaction attribute that reaches each (``tx.<name>``).
SQL_PORTS = {"ledger": SqlLedger}
