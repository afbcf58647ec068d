"""The in-memory store: every port on plain dicts, for simulations and tests.

It names no area: each area declares its tables (:attr:`livecore.area.Area.tables`, created here once per
store) and the ports a transaction opens over them (:attr:`livecore.area.Area.ports`). Only the tables no
area owns (studios and games, the outbox, idempotency) are the store's own.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any, Protocol, TypeVar, cast

from livecore import registry
from livecore.area import Area, HasPorts, MemoryPort, Ports
from livecore.events import DomainEvent
from livecore.games import Game, Studio
from livecore.idempotency import StoredResponse
from livecore.memory.games import MemoryGames
from livecore.memory.idempotency import MemoryIdempotency
from livecore.memory.journal import Journal
from livecore.memory.outbox import MemoryOutbox
from livecore.store.games import HasGames
from livecore.store.idempotency import HasIdempotency
from livecore.store.outbox import HasOutbox

T = TypeVar("T")

#: The ports over the store's own tables, opened in every transaction as the areas' are.
_SHARED: tuple[tuple[str, MemoryPort], ...] = (
    ("games", MemoryGames),
    ("outbox", MemoryOutbox),
    ("idempotency", MemoryIdempotency),
)


class MemoryStore:
    """The tables. Ports read and write them; nothing here applies a rule.

    ``areas``: a studio's own areas, after the installed ones (refused, as the server refuses them, if two
    claim one name)."""

    def __init__(self, areas: Iterable[Area] = ()) -> None:
        every = registry.areas(areas)
        # Each area's tables by its name; a studio's area may keep its own there too.
        self.tables: dict[str, Any] = {a.name: a.tables() for a in every if a.tables is not None}
        self._kinds: dict[type, Any] = {type(t): t for t in self.tables.values()}
        # A transaction's ports, by its attribute: every area's (tx.<name>, the built-in ones' as
        # livecore.transaction.Transaction types them, a studio's by its own protocol), also reached as
        # tx.ports.<name>.
        declared = [(n, f) for a in every for n, f in a.ports.items()]
        self.area_ports: frozenset[str] = frozenset(n for n, _ in declared)
        openers: dict[str, Any] = dict(_SHARED)
        names = [n for n, _ in declared]
        clash = {n for n in names if names.count(n) > 1 or n in openers or n == "journal"}
        taken = sorted(clash | {n for n in names if hasattr(_MemoryTransaction, n)})
        if taken:
            raise ValueError(f"ports claimed twice, or named as what a transaction has: {', '.join(taken)}")
        openers.update(declared)
        self._transaction = type(
            "MemoryTransaction", (_MemoryTransaction,), {n: _Opening(f) for n, f in openers.items()}
        )
        self.studios: dict[str, Studio] = {}
        self.games: dict[str, Game] = {}
        self.outbox: list[DomainEvent] = []
        self.bursts: dict[str, tuple[int, datetime]] = {}  # debounce key -> (outbox index, first time)
        self.idempotency: dict[tuple[str, str], StoredResponse] = {}
        # How many times each table was written, by its ``id`` (:class:`Journal`).
        self.written: dict[int, int] = {}

    def tables_of(self, kind: type[T]) -> T:
        """The tables of the area whose :attr:`~livecore.area.Area.tables` is ``kind``, typed:
        ``store.tables_of(<the area's tables class>).<table>``."""
        return cast(T, self._kinds[kind])

    def forget_outbox(self, before: datetime) -> int:
        """Drop the outbox's first events, those that occurred before ``before`` (``DEBOUNCE`` or more
        before the clock's time, so no later event joins their burst): a simulation over months reads its
        webhooks as they come and need not hold them all. Answers how many were dropped."""
        outbox = self.outbox
        count = 0
        while count < len(outbox) and outbox[count].occurred_at < before:
            count += 1
        if count:
            del outbox[:count]
            self.bursts = {
                key: (index - count, started)
                for key, (index, started) in self.bursts.items()
                if index >= count and started >= before
            }
        return count

    def add_game(self, studio: Studio, game: Game) -> None:
        self.studios[studio.id] = studio
        self.games[game.id] = game
        self.written[id(self.games)] = self.written.get(id(self.games), 0) + 1

    def writes(self, tables: Iterable[str]) -> Callable[[], int]:
        """A count of the writes to ``tables`` so far (``"games"``, or ``"<area>.<table>"`` for an area's
        table), to call as often as wanted: while it gives the same number, none of them was written
        through a transaction (nor a game added)."""
        keys = [id(self._table(name)) for name in tables]
        written = self.written
        return lambda: sum(written.get(key, 0) for key in keys)

    def _table(self, name: str) -> object:
        if name == "games":
            return self.games
        area, _, table = name.partition(".")
        return getattr(self.tables[area], table)

    def transaction(self) -> _Transaction:
        return _Transaction(self)


class MemoryTransaction(HasGames, HasOutbox, HasIdempotency, HasPorts, Protocol):
    """What ``store.transaction()`` opens: the shared ports, every registered area's (``tx.gifts``, also
    ``tx.ports.gifts``), and the undo journal they write through. A type checker sees the shared ones:
    every area's at once is the assembly's :class:`livecore.transaction.Transaction`, which names every
    area, so the code that builds on an area types its transaction against the ports it uses."""

    @property
    def journal(self) -> Journal: ...

    def rollback(self) -> None: ...


class _MemoryTransaction:
    """Every port over one store, writing through one journal; each store makes its subclass, with an
    :class:`_Opening` of each port its areas declare.

    mypy cannot follow attributes made from the areas' declarations: each area's memory module has mypy
    check its port class against its protocol, and tests/core/test_memory_store.py checks that a
    transaction opens every port :class:`livecore.transaction.Transaction` declares, of that protocol."""

    def __init__(self, store: MemoryStore) -> None:
        self._store = store
        self.journal = Journal(store.written)

    def rollback(self) -> None:
        self.journal.rollback()

    @functools.cached_property
    def ports(self) -> Ports:
        return Ports(_AreaPorts(self, self._store.area_ports))


class _Opening:
    """A port of a transaction, opened when a command first reaches it (``tx.<name>``): a command reaches
    a few of them, and simulations run one transaction per command. The port then stays in the
    transaction's ``__dict__``, which Python reads before a descriptor without ``__set__``."""

    __slots__ = ("name", "opener")

    def __init__(self, opener: MemoryPort) -> None:
        self.opener = opener
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, tx: _MemoryTransaction | None, owner: type) -> object:
        if tx is None:
            return self
        port = tx.__dict__[self.name] = self.opener(tx._store, tx.journal)
        return port


class _AreaPorts(Mapping[str, object]):
    """The areas' ports of one transaction, by name (``tx.ports.<name>``): each the transaction's own
    ``tx.<name>``, opened when first reached."""

    __slots__ = ("_names", "_tx")

    def __init__(self, tx: object, names: frozenset[str]) -> None:
        self._tx = tx
        self._names = names

    def __getitem__(self, name: str) -> object:
        if name not in self._names:
            raise KeyError(name)
        return getattr(self._tx, name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


class _Transaction:
    """``with store.transaction() as tx``: rolls the transaction back when the block raises. A class
    rather than a generator-based context manager: simulations run one per command."""

    __slots__ = ("tx",)

    def __init__(self, store: MemoryStore) -> None:
        self.tx = cast(MemoryTransaction, store._transaction(store))

    def __enter__(self) -> MemoryTransaction:
        return self.tx

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is not None:
            self.tx.rollback()
