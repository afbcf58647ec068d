"""The store ports in SQL that no area owns: one module per port, shared by SQLite and PostgreSQL
(``Postgres...`` subclasses where a dialect differs or PostgreSQL reads ahead); each area's own are in
its package (``livecore_server/<area>/sql.py``). :func:`open_ports`, the one place a transaction gets its
ports, names none of them: :mod:`livecore_server.built_in_storage` lists them per dialect."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from livecore.area import Ports
from livecore_server.storage.area_storage import NO_PORTS, SqlPort
from livecore_server.storage.sql.audit import SqlAudit
from livecore_server.storage.sql.games import SqlGames
from livecore_server.storage.sql.idempotency import SqlIdempotency
from livecore_server.storage.sql.keys import SqlKeys
from livecore_server.storage.sql.manifest import SqlManifest
from livecore_server.storage.sql.members import SqlMembers
from livecore_server.storage.sql.meta import SqlMeta
from livecore_server.storage.sql.open_streams import SqlOpenStreams
from livecore_server.storage.sql.outbox import SqlOutbox
from livecore_server.storage.sql.presence import SqlPresence
from livecore_server.storage.sql.rate_buckets import SqlRateBuckets
from livecore_server.storage.sql.schedule import SqlSchedule
from livecore_server.storage.sql.webhooks import SqlWebhooks
from livecore_server.storage.sqlport import SqlTransaction, TxPort

#: The ports no area owns: the core's (games, outbox, idempotency) and the server's own.
SHARED_PORTS = (
    TxPort("games", SqlGames),
    TxPort("outbox", SqlOutbox),
    TxPort("idempotency", SqlIdempotency),
    TxPort("keys", SqlKeys),
    TxPort("presence", SqlPresence),
    TxPort("schedule", SqlSchedule),
    TxPort("webhooks", SqlWebhooks),
    TxPort("manifest", SqlManifest),
    TxPort("meta", SqlMeta),
    TxPort("members", SqlMembers),
    TxPort("audit", SqlAudit),
    TxPort("rate_buckets", SqlRateBuckets),
    TxPort("open_streams", SqlOpenStreams),
)

#: A dialect's ports as ``(tx attribute, class)``, worked out once per process, not per transaction.
OpenedPorts = tuple[tuple[str, Callable[[SqlTransaction], object]], ...]


def open_ports(tx: SqlTransaction, ports: OpenedPorts, area_ports: Mapping[str, SqlPort] = NO_PORTS) -> None:
    """Give ``tx`` each of ``ports`` (its dialect's), and ``area_ports``: the ports of a studio's own
    areas (``tx.ports.<name>``)."""
    for name, port in ports:
        setattr(tx, name, port(tx))
    tx.ports = Ports({name: port(tx) for name, port in area_ports.items()})
