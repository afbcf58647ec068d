"""The economy area's rows: a ledger entry is kept in the declared ``ledger`` table (:data:`LEDGER`: its
insert, the values it writes and how a row is read back, :class:`~livecore_server.storage.mapped.Mapped`);
a holding's columns are declared by its builder (a row holds a player's key, which the record does not)."""

from __future__ import annotations

from typing import Any

import orjson

from livecore.economy.rules import Holding, LedgerEntry
from livecore_server.economy.schema import SCHEMA
from livecore_server.storage.columns import Columns
from livecore_server.storage.mapped import Mapped

LEDGER = Mapped(SCHEMA.table("ledger"), LedgerEntry)
LEDGER_COLUMNS = LEDGER.columns


def _holding(resource_key: Any, amount: Any, parameters: Any) -> Holding:
    # A key nobody holds comes back with NULLs where a read joins the holdings (LEFT JOIN): it holds nothing.
    return (
        Holding(key=resource_key)
        if amount is None
        else Holding(resource_key, amount, orjson.loads(parameters))
    )


HOLDING_COLUMNS = Columns(_holding)
