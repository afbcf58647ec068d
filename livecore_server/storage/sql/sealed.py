"""Encrypted values read and replaced by table and column, for ``rotate-server-key``
(:mod:`livecore_server.rotation`, whose registry names every encrypted column). Table and column names
come from that registry, never from input."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from livecore_server.storage.sqlport import SqlPort


class SqlSealed(SqlPort):
    __slots__ = ()

    def page(
        self,
        table: str,
        keys: Sequence[str],
        column: str,
        after: Sequence[Any] | None,
        limit: int,
        where: str = "",
    ) -> list[tuple[tuple[Any, ...], Any]]:
        """Up to ``limit`` rows of ``table`` past the primary key ``after`` (None: from the first), in key
        order: each row's key and its ``column`` (rows where it is NULL are left out)."""
        names = ", ".join(keys)
        conditions = [f"{column} IS NOT NULL"]
        params: list[Any] = []
        if where:
            conditions.append(where)
        if after is not None:
            conditions.append(f"({names}) > ({', '.join('?' for _ in keys)})")
            params.extend(after)
        rows = self.db.read(
            f"SELECT {names}, {column} FROM {table} WHERE {' AND '.join(conditions)}"
            f" ORDER BY {names} LIMIT ?",
            (*params, limit),
        ).fetchall()
        return [(tuple(row[: len(keys)]), row[len(keys)]) for row in rows]

    def replace(
        self, table: str, keys: Sequence[str], column: str, key: Sequence[Any], old: Any, new: Any
    ) -> bool:
        """Set ``column`` of the row ``key`` to ``new`` if it still holds ``old`` (a process that wrote the
        row meanwhile wins); whether it did."""
        match = " AND ".join(f"{name} = ?" for name in keys)
        return (
            self.db.change(
                table, f"UPDATE {table} SET {column} = ? WHERE {match} AND {column} = ?", (new, *key, old)
            ).rowcount
            == 1
        )
