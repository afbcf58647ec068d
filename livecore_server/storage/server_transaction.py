"""What the server's code reaches in a transaction: :class:`ServerTransaction`, the core's ports and the
server's own. Both SQL transactions are one (:class:`~livecore_server.storage.sqlite.SqliteTransaction`,
:class:`~livecore_server.storage.postgres.PostgresTransaction`): each opens the ports no area owns and
those of every area it serves, the built-in ones among them (:func:`livecore_server.registry.storage`)."""

from __future__ import annotations

from typing import Protocol

from livecore.area import Ports
from livecore.transaction import Transaction
from livecore_server.storage.sql.idempotency import SqlIdempotency
from livecore_server.storage.sql.keys import SqlKeys
from livecore_server.storage.sql.manifest import SqlManifest
from livecore_server.storage.sql.meta import SqlMeta
from livecore_server.storage.sql.open_streams import SqlOpenStreams
from livecore_server.storage.sql.outbox import SqlOutbox
from livecore_server.storage.sql.rate_buckets import SqlRateBuckets
from livecore_server.storage.sql.schedule import SqlSchedule
from livecore_server.storage.sql.sealed import SqlSealed
from livecore_server.storage.sql.webhooks import SqlWebhooks


class ServerTransaction(Transaction, Protocol):
    """A server transaction: every core port, and the tables only the server has (API keys, scheduled
    runs, webhook endpoints and deliveries, what ``apply`` writes, facts about the
    database itself)."""

    @property
    def outbox(self) -> SqlOutbox: ...
    @property
    def idempotency(self) -> SqlIdempotency: ...
    @property
    def keys(self) -> SqlKeys: ...
    @property
    def schedule(self) -> SqlSchedule: ...
    @property
    def webhooks(self) -> SqlWebhooks: ...
    @property
    def manifest(self) -> SqlManifest: ...
    @property
    def meta(self) -> SqlMeta: ...
    @property
    def rate_buckets(self) -> SqlRateBuckets: ...
    @property
    def open_streams(self) -> SqlOpenStreams: ...
    @property
    def sealed(self) -> SqlSealed: ...
    @property
    def ports(self) -> Ports: ...

    def hold_game_alone(self) -> None:
        """The write changes rows of its game other players' writes share: unless it holds its game alone,
        it stops here and runs again holding it (:class:`.concurrency.GameAloneNeeded`)."""
