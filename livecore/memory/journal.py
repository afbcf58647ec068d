"""What every in-memory port shares: the store's tables and the transaction's undo log.

A transaction records an undo step for each write, so a command that raises leaves nothing behind,
exactly like a database rollback. Each write to a table is also counted, store-wide (a rolled-back one
too): the embedded scheduler asks a job when it is next due again only after a table it reads was
written (:class:`livecore.schedule.Schedule`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic, Protocol, TypeVar

T = TypeVar("T")
#: What a port reads of the store (:class:`Tables` for an area's port).
S = TypeVar("S")
_MISSING = object()
# An undo step: (table, key, the value before or _MISSING) for a dict write, else a callable.
Undo = tuple[dict[Any, Any], Any, Any] | Callable[[], object]


class Journal:
    """One transaction's undo log; ``writes`` counts the writes to each table (by ``id``), the store's."""

    __slots__ = ("undo", "writes")

    def __init__(self, writes: dict[int, int]) -> None:
        self.undo: list[Undo] = []
        self.writes = writes

    def rollback(self) -> None:
        for step in reversed(self.undo):
            if isinstance(step, tuple):
                table, key, old = step
                if old is _MISSING:
                    table.pop(key, None)
                else:
                    table[key] = old
            else:
                step()
        self.undo.clear()

    def put(self, table: dict[Any, Any], key: Any, value: Any) -> None:
        # A tuple rather than a closure: simulations write millions of times, and tuples are cheaper.
        self.undo.append((table, key, table.get(key, _MISSING)))
        table[key] = value
        self._wrote(table)

    def drop(self, table: dict[Any, Any], key: Any) -> None:
        if key in table:
            self.undo.append((table, key, table.pop(key)))
            self._wrote(table)

    def _wrote(self, table: dict[Any, Any]) -> None:
        self.writes[id(table)] = self.writes.get(id(table), 0) + 1


class Tables(Protocol):
    """What an area's port reads of the in-memory store: the tables of an area, by their class
    (:meth:`livecore.memory.store.MemoryStore.tables_of`). Named here rather than the store, which is
    built from the areas' declarations, so no area's port imports it."""

    def tables_of(self, kind: type[T]) -> T: ...


class MemoryPort(Generic[S]):
    """A port's view of the store (``_s``, as much of it as ``S`` says the port reads), writing through
    one transaction's journal."""

    __slots__ = ("_s", "_tx")

    def __init__(self, store: S, journal: Journal) -> None:
        self._s = store
        self._tx = journal


class AreaPort(MemoryPort[Tables], Generic[T]):
    """A built-in area's port: its area's tables as ``_t`` (``TABLES``, which the store creates once), and
    the store as ``_s`` for what it reads of another area's (``self._s.tables_of(PlayerTables)``)."""

    __slots__ = ("_t",)
    TABLES: ClassVar[type[Any]]
    _t: T

    def __init__(self, store: Tables, journal: Journal) -> None:
        self._s = store
        self._tx = journal
        self._t = store.tables_of(self.TABLES)
