"""The economy area's server side: its tables, SQL ports and report part, and its writes bound to run
beside the game's other writes (their handlers are the core's, :mod:`livecore.economy.handlers`). A
debit, a consume, a credit and a grant or revoke of items change the one player their path names (its
holding and ledger): each holds that player's lock, not its game's (docs/architecture.md, "Concurrency"),
and reads the holding it changes ahead, with the player."""

from __future__ import annotations

from livecore.economy import api, handlers
from livecore.economy.area import AREA
from livecore_server.area import ServerArea
from livecore_server.economy import schema, sql
from livecore_server.economy.read_ahead import READ_AHEAD
from livecore_server.economy.report import REPORT
from livecore_server.http.endpoint import bind
from livecore_server.storage.concurrency import Concurrency

PLAYERS = Concurrency.PLAYERS

SERVER_AREA = ServerArea(
    AREA,
    bindings=(
        bind(api.SDK_WALLET_DEBIT, handlers.debit, reads=handlers.wallet_reads, concurrency=PLAYERS),
        bind(
            api.SDK_INVENTORY_CONSUME, handlers.consume, reads=handlers.item_spend_reads, concurrency=PLAYERS
        ),
        bind(
            api.SERVER_WALLET_CREDIT, handlers.credit_wallet, reads=handlers.wallet_reads, concurrency=PLAYERS
        ),
        bind(
            api.SERVER_WALLET_DEBIT, handlers.debit_wallet, reads=handlers.wallet_reads, concurrency=PLAYERS
        ),
        bind(
            api.SERVER_INVENTORY_GRANT,
            handlers.grant_items,
            reads=handlers.item_grant_reads,
            concurrency=PLAYERS,
        ),
        bind(
            api.SERVER_INVENTORY_REVOKE,
            handlers.revoke_items,
            reads=handlers.item_spend_reads,
            concurrency=PLAYERS,
        ),
    ),
    report=REPORT,
    schema=schema.SCHEMA,
    migrations=schema.MIGRATIONS,
    sql_ports=sql.SQL_PORTS,
    read_ahead=READ_AHEAD,
)
