"""The economy area's rows: each record's columns declared once (read by name) and the
values it writes, in the order of its declaration's ``names`` (:mod:`livecore_server.storage.rows`)."""

from __future__ import annotations

from typing import Any

import orjson

from livecore.clock import from_millis
from livecore.economy.rules import Holding, LedgerEntry, Reason
from livecore.games import ResourceType
from livecore_server.storage.columns import Columns


def _ledger_entry(
    id: Any,
    player_id: Any,
    game_id: Any,
    resource_key: Any,
    resource_type: Any,
    delta: Any,
    balance_after: Any,
    reason: Any,
    note: Any,
    source_ref_id: Any,
    actor: Any,
    created_at: Any,
) -> LedgerEntry:
    return LedgerEntry(
        id=id,
        player_id=player_id,
        game_id=game_id,
        resource_key=resource_key,
        resource_type=ResourceType(resource_type),
        delta=delta,
        balance_after=balance_after,
        reason=Reason(reason),
        note=note,
        source_ref_id=source_ref_id,
        actor=orjson.loads(actor),
        created_at=from_millis(created_at),
    )


LEDGER_COLUMNS = Columns(_ledger_entry)


def _holding(resource_key: Any, amount: Any, parameters: Any) -> Holding:
    # A key nobody holds comes back with NULLs where a read joins the holdings (LEFT JOIN): it holds nothing.
    return (
        Holding(key=resource_key)
        if amount is None
        else Holding(resource_key, amount, orjson.loads(parameters))
    )


HOLDING_COLUMNS = Columns(_holding)
