"""The friends area's server side: its tables and SQL ports, the heartbeat kept on the presence board
(:mod:`livecore_server.friends.sdk_presence`), the read routes that make the caller's friend code on
its first friends call, bound to write (``may_write``), and the writes between two players named by the
request (a friend request, a removal, a block, an unblock), bound to run beside their game's other writes
holding both (docs/architecture.md, "Concurrency"). Every route's handler is the core's
(:mod:`livecore.friends.handlers`)."""

from __future__ import annotations

from livecore.friends import api, handlers
from livecore.friends.area import AREA
from livecore_server.area import ServerArea
from livecore_server.friends import schema, sdk_presence, sql
from livecore_server.http.endpoint import bind
from livecore_server.storage.concurrency import Concurrency

PLAYERS = Concurrency.PLAYERS
TARGET = handlers.target_reads

SERVER_AREA = ServerArea(
    AREA,
    bindings=(
        bind(api.FRIEND_CODE, handlers.code, may_write=True),
        bind(api.FRIENDS_SEARCH, handlers.search, may_write=True),
        bind(api.FRIEND_REQUESTS, handlers.requests, may_write=True),
        bind(api.FRIENDS_LIST, handlers.friends, may_write=True),
        bind(api.FRIENDS_SUGGESTIONS, handlers.suggestions, may_write=True),
        bind(api.FRIEND_BLOCKS, handlers.blocks, may_write=True),
        bind(api.FRIEND_SEND_REQUEST, handlers.send_request, reads=TARGET, concurrency=PLAYERS),
        bind(api.FRIEND_BLOCK, handlers.block, reads=TARGET, concurrency=PLAYERS),
        bind(
            api.FRIEND_REMOVE,
            handlers.remove,
            reads=handlers.path_other_reads("friendExternalId"),
            concurrency=PLAYERS,
        ),
        bind(
            api.FRIEND_UNBLOCK,
            handlers.unblock,
            reads=handlers.path_other_reads("externalPlayerId"),
            concurrency=PLAYERS,
        ),
        *sdk_presence.BINDINGS,
    ),
    schema=schema.SCHEMA,
    migrations=schema.MIGRATIONS,
    sql_ports=sql.SQL_PORTS,
)
