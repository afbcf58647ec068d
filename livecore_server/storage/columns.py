"""Reading rows by column name: a record's SELECT list and its converter are one declaration.

A :class:`Columns` is declared by the function that builds the record: its parameters are named after the
columns, in the order the SELECT lists them (:attr:`Columns.sql` is made from them), and a row is passed
to it whole (``build(*row)``). Adding or moving a column is adding or moving a parameter, so the SELECT
list and the converter cannot drift apart, and the converter reads every value by its column's name. The
rows stay the drivers' plain tuples (sqlite3's and psycopg's fastest), and a read costs one call, as a
hand-written converter did.

The builders' parameters are typed ``Any``, as the drivers' values are: the same column comes back as
``1`` from SQLite and ``True`` from PostgreSQL, JSON as ``str`` or ``bytes``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Columns(Generic[T]):
    """The columns a SELECT reads for one record, and how the record is built from them."""

    __slots__ = ("_expressions", "build", "names", "sql", "width")

    def __init__(self, build: Callable[..., T], alias: str = "", **expressions: str) -> None:
        """``alias``: the table alias the columns are qualified with (``p`` makes ``p.id``);
        ``expressions``: what the SELECT reads for a parameter that is not its table's column of that name
        (another table's column, a computed value), by parameter name."""
        self.build = build
        self.names: tuple[str, ...] = tuple(inspect.signature(build).parameters)
        unknown = expressions.keys() - set(self.names)
        if unknown:
            raise TypeError(f"{build.__name__} has no parameter {', '.join(sorted(unknown))}")
        self._expressions = expressions
        self.sql = self._list(f"{alias}." if alias else "")
        self.width = len(self.names)

    def __str__(self) -> str:
        # Interpolated whole into a statement, a declaration would read as its repr: say so at once.
        raise TypeError("a Columns is not SQL text: use its .sql or .qualified()")

    def of(self, row: Sequence[Any]) -> T:
        """The record of a row of exactly these columns."""
        return self.build(*row)

    def split(self, row: Sequence[Any]) -> tuple[T, Sequence[Any]]:
        """The record of a row that starts with these columns, and the rest of the row (the columns of
        the SELECT that follow them, another record's or single values)."""
        return self.build(*row[: self.width]), row[self.width :]

    def split_joined(self, row: Sequence[Any]) -> tuple[T | None, Sequence[Any]]:
        """As :meth:`split`, for columns an outer join read: None when it found no row (its first
        column, a key, is NULL)."""
        head, rest = row[: self.width], row[self.width :]
        return (None if head[0] is None else self.build(*head)), rest

    def qualified(self, alias: str, **expressions: str) -> str:
        """The SELECT list with each plain column qualified by ``alias`` (a read that joins the table),
        and ``expressions`` read instead of the columns they name."""
        return self._list(f"{alias}.", expressions)

    def _list(self, prefix: str, expressions: dict[str, str] | None = None) -> str:
        chosen = self._expressions if not expressions else {**self._expressions, **expressions}
        return ", ".join(chosen.get(name, prefix + name) for name in self.names)
