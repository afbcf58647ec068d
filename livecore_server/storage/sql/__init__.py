"""The store ports in SQL that no area owns: one module per port, shared by SQLite and PostgreSQL
(``Postgres...`` subclasses where a dialect differs or PostgreSQL reads ahead); each area's own are in
its package (``livecore_server/<area>/sql.py``). :func:`open_ports`, the one place a transaction gets its
ports, names none of them: :class:`livecore_server.storage.area_storage.AreaStorage` lists them per
dialect, the shared ones and each served area's."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs

from livecore.area import Ports
from livecore_server.storage.sql.games import SqlGames
from livecore_server.storage.sql.idempotency import SqlIdempotency
from livecore_server.storage.sql.keys import SqlKeys
from livecore_server.storage.sql.manifest import SqlManifest
from livecore_server.storage.sql.meta import SqlMeta
from livecore_server.storage.sql.open_streams import SqlOpenStreams
from livecore_server.storage.sql.outbox import SqlOutbox
from livecore_server.storage.sql.rate_buckets import SqlRateBuckets
from livecore_server.storage.sql.schedule import PostgresSchedule, SqlSchedule
from livecore_server.storage.sql.sealed import SqlSealed
from livecore_server.storage.sql.webhooks import SqlWebhooks
from livecore_server.storage.sqlport import Dialects, SqlPort, SqlTransaction

#: The ports no area owns, by the attribute a transaction reaches each by: the core's (games, outbox,
#: idempotency) and the server's own.
SHARED_PORTS: Mapping[str, type[SqlPort] | Dialects] = {
    "games": SqlGames,
    "outbox": SqlOutbox,
    "idempotency": SqlIdempotency,
    "keys": SqlKeys,
    "schedule": Dialects(SqlSchedule, postgres=PostgresSchedule),
    "webhooks": SqlWebhooks,
    "manifest": SqlManifest,
    "meta": SqlMeta,
    "rate_buckets": SqlRateBuckets,
    "open_streams": SqlOpenStreams,
    "sealed": SqlSealed,
}


@attrs.frozen
class OpenedPorts:
    """A dialect's ports, worked out once per store, not per transaction: ``(tx attribute, class)``, the
    shared ones and then the areas' (:attr:`areas`: how many of them there are, at the end)."""

    ports: tuple[tuple[str, Callable[[SqlTransaction], object]], ...]
    areas: int
    names: frozenset[str] = attrs.field(init=False)
    area_names: frozenset[str] = attrs.field(init=False)

    @names.default
    def _names(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.ports)

    @area_names.default
    def _area_names(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.ports[len(self.ports) - self.areas :])


# What each kind of transaction has of its own (its class's attributes), which no port may be named as.
_TAKEN: dict[type, frozenset[str]] = {}


def open_ports(tx: SqlTransaction, opened: OpenedPorts) -> None:
    """Give ``tx`` each of its dialect's ports, as ``tx.<name>``, and the areas' as ``tx.ports.<name>``
    too. A port named as something the transaction has already is refused, not put in its place."""
    own = tx.__dict__
    kind = type(tx)
    taken = _TAKEN.get(kind) or _TAKEN.setdefault(kind, frozenset(dir(kind)) | {"ports"})
    if not (opened.names.isdisjoint(own) and opened.names.isdisjoint(taken)):
        clash = sorted(opened.names & (taken | own.keys()))
        raise ValueError(f"SQL ports named as what a transaction has already: {', '.join(clash)}")
    for name, port in opened.ports:
        own[name] = port(tx)
    tx.ports = Ports(_AreaPorts(own, opened.area_names))


class _AreaPorts(Mapping[str, object]):
    """The areas' ports of one transaction, by name: a view of what :func:`open_ports` opened."""

    __slots__ = ("_names", "_opened")

    def __init__(self, opened: dict[str, Any], names: frozenset[str]) -> None:
        self._opened = opened
        self._names = names

    def __getitem__(self, name: str) -> object:
        if name not in self._names:
            raise KeyError(name)
        return self._opened[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)
