"""The purchases port in SQL, for SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from livecore.clock import from_millis, to_millis
from livecore.players.rules import Player
from livecore.purchases.rules import (
    DayRevenue,
    PlayerSpend,
    ProductRevenue,
    Purchase,
    RevenueSummary,
    Spender,
    ValidationStatus,
    Window,
    window_start,
)
from livecore.scope import Environment
from livecore_server.purchases.rows import PURCHASE, PURCHASE_COLUMNS, PURCHASE_FROM
from livecore_server.storage.rows import dt
from livecore_server.storage.sqlport import Dialects, SqlPort

if TYPE_CHECKING:
    from livecore_server.storage.postgres_transaction import PostgresTransaction


class SqlPurchases(SqlPort):
    __slots__ = ()

    def get(self, game_id: str, env: Environment, transaction_id: str) -> Purchase | None:
        row = self.db.read(
            f"SELECT {PURCHASE_COLUMNS.sql} {PURCHASE_FROM}"
            " WHERE u.game_id = ? AND u.env = ? AND u.transaction_id = ?",
            (game_id, env.value, transaction_id),
        ).fetchone()
        return None if row is None else PURCHASE_COLUMNS.of(row)

    def insert(self, purchase: Purchase) -> None:
        self.db.change("purchases", PURCHASE.insert.sql, PURCHASE.params(purchase))

    def set_validation(self, purchase_id: str, status: ValidationStatus) -> None:
        self.db.change(
            "purchases",
            "UPDATE purchases SET validation_status = ? WHERE id = ?",
            (status.value, purchase_id),
        )

    def page(self, player_id: str, before: tuple[datetime, str] | None, limit: int) -> list[Purchase]:
        query = f"SELECT {PURCHASE_COLUMNS.sql} {PURCHASE_FROM} WHERE u.player_id = ?"
        params: list[Any] = [player_id]
        if before is not None:
            query += " AND (u.purchased_at, u.id) < (?, ?)"
            params += [to_millis(before[0]), before[1]]
        rows = self.db.read(query + " ORDER BY u.purchased_at DESC, u.id DESC LIMIT ?", (*params, limit))
        return [PURCHASE_COLUMNS.of(r) for r in rows]

    def player_spend(self, player_id: str, now: datetime, windows: tuple[int, ...]) -> PlayerSpend:
        sums = "".join(self._window_sums(to_millis(window_start(now, d))) for d in windows)
        row = self.db.read(
            f"SELECT COALESCE(SUM(normalized_amount_minor), 0){self.db.INT_SUM}, COUNT(*), MIN(purchased_at),"
            f" MAX(purchased_at){sums} FROM purchases WHERE player_id = ?",
            (player_id,),
        ).fetchone()
        lifetime, count, first, last, *window_sums = row
        amounts, counts = window_sums[0::2], window_sums[1::2]  # _window_sums' two columns per window
        return PlayerSpend(
            lifetime_amount_minor=lifetime,
            purchase_count=count,
            first_purchase_at=dt(first),
            last_purchase_at=dt(last),
            windows=tuple(
                Window(d, amount or 0, n or 0) for d, amount, n in zip(windows, amounts, counts, strict=True)
            ),
        )

    def spenders(
        self,
        game_id: str,
        env: Environment,
        min_amount_minor: int,
        since: datetime | None,
        limit: int,
        offset: int,
    ) -> list[Spender]:
        rows = self.db.read(
            f"SELECT u.player_id, p.external_id, SUM(u.normalized_amount_minor){self.db.INT_SUM} AS total,"
            " COUNT(*), MAX(u.purchased_at) FROM purchases u JOIN players p ON p.id = u.player_id"
            " WHERE u.game_id = ? AND u.env = ? AND u.purchased_at > ? AND p.debug_at IS NULL"
            f" {self.db.SPENDERS_GROUP} ORDER BY total DESC, p.external_id LIMIT ? OFFSET ?",
            (game_id, env.value, to_millis(since) if since else -(2**62), min_amount_minor, limit, offset),
        )
        return [
            Spender(player_id, external_id, total, count, from_millis(last))
            for player_id, external_id, total, count, last in rows
        ]

    def revenue(self, game_id: str, env: Environment, start: datetime, end: datetime) -> RevenueSummary:
        where = (
            " FROM purchases u JOIN players p ON p.id = u.player_id WHERE u.game_id = ? AND u.env = ?"
            " AND u.purchased_at >= ? AND u.purchased_at <= ? AND p.debug_at IS NULL"
        )
        params = (game_id, env.value, to_millis(start), to_millis(end))
        gross, count, paying = self.db.read(
            f"SELECT COALESCE(SUM(u.normalized_amount_minor), 0){self.db.INT_SUM}, COUNT(*),"
            f" COUNT(DISTINCT u.player_id){where}",
            params,
        ).fetchone()
        products = self.db.read(
            f"SELECT u.product_id, SUM(u.normalized_amount_minor){self.db.INT_SUM} AS total, COUNT(*){where}"
            " GROUP BY u.product_id ORDER BY total DESC, u.product_id",
            params,
        )
        days = self.db.read(
            f"SELECT u.purchased_at / 86400000 AS day, SUM(u.normalized_amount_minor){self.db.INT_SUM},"
            f" COUNT(*){where} GROUP BY day ORDER BY day",
            params,
        )
        return RevenueSummary(
            gross_amount_minor=gross,
            purchase_count=count,
            paying_players=paying,
            per_product=tuple(ProductRevenue(*r) for r in products),
            per_day=tuple(
                DayRevenue(from_millis(day * 86_400_000).date(), total, count) for day, total, count in days
            ),
        )

    def reassign(self, from_id: str, to: Player) -> None:
        self.db.change(
            "purchases", "UPDATE purchases SET player_id = ? WHERE player_id = ?", (to.id, from_id)
        )

    def _window_sums(self, since: int) -> str:
        """Two columns for player_spend: the amount and the count of purchases after ``since``."""
        raise NotImplementedError


class SqlitePurchases(SqlPurchases):
    __slots__ = ()

    def _window_sums(self, since: int) -> str:
        return (
            f", SUM(CASE WHEN purchased_at > {since} THEN normalized_amount_minor ELSE 0 END),"
            f" SUM(purchased_at > {since})"
        )


class PostgresPurchases(SqlPurchases):
    __slots__ = ()
    db: PostgresTransaction

    def _window_sums(self, since: int) -> str:
        return (
            f", COALESCE(SUM(normalized_amount_minor) FILTER (WHERE purchased_at > {since}), 0)::BIGINT,"
            f" COUNT(*) FILTER (WHERE purchased_at > {since})"
        )


#: The area's SQL ports, by the transaction attribute that reaches each (``tx.<name>``).
SQL_PORTS = {"purchases": Dialects(SqlPurchases, sqlite=SqlitePurchases, postgres=PostgresPurchases)}
