"""The store ports in SQL: one module per port, shared by SQLite and PostgreSQL (``Sqlite...`` and
``Postgres...`` subclasses where a dialect differs or PostgreSQL reads ahead), and :func:`open_ports`,
the one place a transaction gets its ports."""

from __future__ import annotations

from collections.abc import Mapping

from livecore.area import Ports
from livecore_server.economy.sql import SqlLedger
from livecore_server.friends.sql import SqlFriendGraph
from livecore_server.gifts.sql import SqlGifts
from livecore_server.grants.sql import SqlGrants
from livecore_server.guilds.sql import SqlGuilds
from livecore_server.leaderboards.sql import SqlLeaderboards
from livecore_server.live_events.sql.attempts import SqlAttempts
from livecore_server.live_events.sql.boards import SqlBoards
from livecore_server.live_events.sql.windows import SqlWindows
from livecore_server.lobbies.sql import SqlLobbies
from livecore_server.player_tools.sql.erasures import SqlErasures
from livecore_server.player_tools.sql.merges import SqlMerges
from livecore_server.player_tools.sql.migrations import SqlMigrationKeys
from livecore_server.players.sql import SqlPlayers
from livecore_server.purchases.sql import SqlPurchases
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
from livecore_server.storage.sqlport import SqlTransaction
from livecore_server.teams.sql import SqlTeams


def open_ports(
    tx: SqlTransaction,
    *,
    players: type[SqlPlayers],
    purchases: type[SqlPurchases],
    guilds: type[SqlGuilds],
    friends: type[SqlFriendGraph] = SqlFriendGraph,
    ledger: type[SqlLedger] = SqlLedger,
    gifts: type[SqlGifts] = SqlGifts,
    idempotency: type[SqlIdempotency] = SqlIdempotency,
    area_ports: Mapping[str, SqlPort] = NO_PORTS,
) -> None:
    """Give ``tx`` every port; a dialect names its own classes where it has them. ``area_ports``: the
    ports of a studio's own areas (``tx.ports.<name>``)."""
    tx.games = SqlGames(tx)
    tx.players = players(tx)
    tx.friends = friends(tx)
    tx.ledger = ledger(tx)
    tx.grants = SqlGrants(tx)
    tx.gifts = gifts(tx)
    tx.purchases = purchases(tx)
    tx.merges = SqlMerges(tx)
    tx.erasures = SqlErasures(tx)
    tx.migrations = SqlMigrationKeys(tx)
    tx.outbox = SqlOutbox(tx)
    tx.idempotency = idempotency(tx)
    tx.windows = SqlWindows(tx)
    tx.attempts = SqlAttempts(tx)
    tx.boards = SqlBoards(tx)
    tx.leaderboards = SqlLeaderboards(tx)
    tx.lobbies = SqlLobbies(tx)
    tx.teams = SqlTeams(tx)
    tx.guilds = guilds(tx)
    tx.keys = SqlKeys(tx)
    tx.presence = SqlPresence(tx)
    tx.schedule = SqlSchedule(tx)
    tx.webhooks = SqlWebhooks(tx)
    tx.manifest = SqlManifest(tx)
    tx.meta = SqlMeta(tx)
    tx.members = SqlMembers(tx)
    tx.audit = SqlAudit(tx)
    tx.rate_buckets = SqlRateBuckets(tx)
    tx.open_streams = SqlOpenStreams(tx)
    tx.ports = Ports({name: port(tx) for name, port in area_ports.items()})
