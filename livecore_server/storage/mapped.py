"""A record kept in a declared table: its INSERT, the values it writes and how a row is read back, all
derived from the table's declaration (:class:`~livecore_server.storage.schema.Table`) and the record's
attributes, so that a stored column is written once.

Each column is its record's attribute of the same name (unless renamed, ``attributes``), converted by
its declared kind and the attribute's type: a time (:data:`~.schema.MS`) is a ``datetime``, an enum's
value (or a :class:`~livecore.enums.Values`') is its ``.value``, a flag read back is a ``bool``, a JSON
document (not kept as ``str``) is written as its text and parsed back (as a ``tuple`` where the attribute
is one); a column another conversion needs says how (:class:`Convert`). A column no attribute holds (a
key made of two attributes, a score negated for an ascending index) is written from the whole record by
its function and not read back (``computed``). A record's attribute that no column of its table holds is
read by an expression of the SELECT (``joined``: another table's column), or keeps its default.

The two conversions are compiled once per table into plain functions, written out as a hand-written
converter would be (one tuple, one constructor call per row), so a row costs no look-up at run time.
The SELECT list and its builder are a :class:`~livecore_server.storage.columns.Columns`, as every read's.
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, Generic, TypeVar

import attrs
import orjson

from livecore.clock import from_millis, to_millis
from livecore.enums import Values
from livecore_server.storage.columns import Columns
from livecore_server.storage.schema import BOOL, JSON, JSONB, MS, SEQ, Column, Table
from livecore_server.storage.sqlport import Insert

T = TypeVar("T")


@attrs.frozen
class Convert:
    """How a column's value is written from its attribute's (``write``) and read back (``read``)."""

    write: Callable[[Any], Any]
    read: Callable[[Any], Any]


class Mapped(Generic[T]):
    """A record type kept in one table, one row per record: :attr:`insert`, :attr:`params` (a record's
    values, in the order of the insert's columns) and :attr:`columns` (the SELECT list and the builder)."""

    __slots__ = ("columns", "insert", "params", "table")

    def __init__(
        self,
        table: Table,
        record: type[T],
        *,
        alias: str = "",
        attributes: Mapping[str, str] | None = None,
        convert: Mapping[str, Convert] | None = None,
        joined: Mapping[str, str] | None = None,
        computed: Mapping[str, Callable[[T], Any]] | None = None,
        conflict: tuple[str, ...] = (),
        action: str = "",
        replaces: tuple[str, ...] = (),
    ) -> None:
        """``attributes``: the record's attribute a column holds, by column, where the names differ;
        ``convert``: a column's own conversion, by column; ``joined``: the SELECT's expression for an
        attribute no column holds, by attribute; ``computed``: the value of a column no attribute holds, from
        the record, by column; ``conflict`` and ``action``: the insert's ON CONFLICT; ``replaces``: the key
        on which a row written replaces the row there (every other column rewritten), as a conflict and
        action."""
        renamed = dict(attributes or {})
        converts = dict(convert or {})
        joins = dict(joined or {})
        computes = dict(computed or {})
        hints = typing.get_type_hints(record)
        stored = tuple(c for c in table.columns if _kept(c))
        unknown = (renamed.keys() | converts.keys() | computes.keys()) - {c.name for c in stored}
        if unknown:
            raise TypeError(f"{table.name} has no column {', '.join(sorted(unknown))} a record writes")
        self.table = table
        names = tuple(c.name for c in stored)
        if replaces:
            conflict = replaces
            action = "DO UPDATE SET " + ", ".join(f"{n} = excluded.{n}" for n in names if n not in replaces)
        self.insert = Insert(table.name, names, conflict, action)
        namespace: dict[str, Any] = {
            "_record": record,
            "_to_ms": to_millis,
            "_from_ms": from_millis,
            "_dumps": orjson.dumps,
            "_loads": orjson.loads,
        }
        writes, reads, read_columns = [], [], []
        for column in stored:
            if column.name in computes:
                namespace[f"_c_{column.name}"] = computes[column.name]
                writes.append(f"_c_{column.name}(r)")
                continue
            attribute = renamed.get(column.name, column.name)
            if attribute not in hints:
                raise TypeError(
                    f"{record.__name__} has no attribute {attribute} for {table.name}.{column.name}"
                )
            write, read = _conversions(column, hints[attribute], converts.get(column.name), namespace)
            writes.append(write.format(f"r.{attribute}"))
            reads.append(f"{attribute}={read.format(column.name)}")
            read_columns.append(column.name)
        missing = [a for a in joins if a not in hints]
        if missing:
            raise TypeError(f"{record.__name__} has no attribute {', '.join(missing)}")
        reads += [f"{a}={a}" for a in joins]
        self.params: Callable[[T], tuple[Any, ...]] = _compiled(
            f"def params(r):\n    return ({', '.join(writes)},)", "params", namespace
        )
        parameters = ", ".join([*read_columns, *joins])
        build: Callable[..., T] = _compiled(
            f"def {table.name}({parameters}):\n    return _record({', '.join(reads)})", table.name, namespace
        )
        self.columns = Columns(build, alias, **joins)


def _kept(column: Column) -> bool:
    """A column a record writes: not one the database numbers, nor one of a single dialect (the rows of
    both are written alike)."""
    return column.kind != SEQ and column.only is None


def _conversions(
    column: Column, hint: Any, convert: Convert | None, namespace: dict[str, Any]
) -> tuple[str, str]:
    """The expressions writing and reading ``column`` (``{}``: the value), with what they call added to
    ``namespace``."""
    if convert is not None:
        namespace[f"_w_{column.name}"], namespace[f"_r_{column.name}"] = convert.write, convert.read
        return f"_w_{column.name}({{}})", f"_r_{column.name}({{}})"
    inner = _plain(hint)
    if isinstance(inner, type) and issubclass(inner, enum.Enum | Values):
        namespace[f"_e_{column.name}"] = inner
        write, read = "{}.value", f"_e_{column.name}({{}})"
    elif column.kind == MS and inner is datetime:
        write, read = "_to_ms({})", "_from_ms({})"
    elif column.kind == BOOL:
        write, read = "{}", "bool({})"  # a bool is written as is: 1/0 on SQLite, a boolean on PostgreSQL
    elif column.kind in (JSON, JSONB) and inner is not str:
        write, read = "_dumps({}).decode()", "_loads({})"  # as text: JSON keeps its key order as written
        if typing.get_origin(inner) is tuple:
            read = "tuple(_loads({}))"
    else:
        return "{}", "{}"
    if not column.null:
        return write, read
    return (
        f"(None if {{0}} is None else {write.format('{0}')})",
        f"(None if {{0}} is None else {read.format('{0}')})",
    )


def _plain(hint: Any) -> Any:
    """``X`` of ``X | None``."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        kept = [a for a in typing.get_args(hint) if a is not type(None)]
        return kept[0] if len(kept) == 1 else hint
    return hint


def _compiled(source: str, name: str, namespace: dict[str, Any]) -> Any:
    scope = dict(namespace)
    # The source is made of declared column and attribute names only, never of values.
    exec(compile(source, f"<mapped {name}>", "exec"), scope)
    return scope[name]
