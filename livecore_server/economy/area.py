"""The economy area's server side: its tables, SQL ports and report part, and its writes bound to run
beside the game's other writes (their handlers are the core's, :mod:`livecore.economy.handlers`). A
debit, a consume, a credit and a grant or revoke of items change the one player their path names (its
holding and ledger): each holds that player's lock, not its game's (docs/architecture.md, "Concurrency")."""

from __future__ import annotations

from livecore.economy import api, handlers
from livecore.economy.area import AREA
from livecore_server.area import ServerArea
from livecore_server.economy import schema, sql
from livecore_server.economy.report import REPORT
from livecore_server.http.endpoint import bind
from livecore_server.storage.concurrency import Concurrency

SERVER_AREA = ServerArea(
    AREA,
    bindings=(
        bind(api.SDK_WALLET_DEBIT, handlers.debit, concurrency=Concurrency.PLAYERS),
        bind(api.SDK_INVENTORY_CONSUME, handlers.consume, concurrency=Concurrency.PLAYERS),
        bind(api.SERVER_WALLET_CREDIT, handlers.credit_wallet, concurrency=Concurrency.PLAYERS),
        bind(api.SERVER_WALLET_DEBIT, handlers.debit_wallet, concurrency=Concurrency.PLAYERS),
        bind(api.SERVER_INVENTORY_GRANT, handlers.grant_items, concurrency=Concurrency.PLAYERS),
        bind(api.SERVER_INVENTORY_REVOKE, handlers.revoke_items, concurrency=Concurrency.PLAYERS),
    ),
    report=REPORT,
    schema=schema.SCHEMA,
    migrations=schema.MIGRATIONS,
    sql_ports=sql.SQL_PORTS,
)
