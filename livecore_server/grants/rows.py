"""The grants area's rows: each record's columns declared once (read by name) and the
values it writes, in the order of its declaration's ``names`` (:mod:`livecore_server.storage.rows`)."""

from __future__ import annotations

from typing import Any

import orjson

from livecore.clock import from_millis, to_millis
from livecore.games import Entry, ResourceType
from livecore.grants.rules import (
    AckedBy,
    Grant,
    GrantEntry,
    GrantKind,
    GrantStatus,
    entry_payload,
    kind_entry,
)
from livecore_server.storage.columns import Columns
from livecore_server.storage.rows import dt, ms


def grant_row(g: Grant) -> tuple[Any, ...]:
    return (
        g.id,
        g.game_id,
        g.player_id,
        g.external_player_id,
        g.kind.value,
        g.status.value,
        orjson.dumps([entry_payload(e) for e in g.entries]).decode(),
        g.source_kind,
        g.source_ref_id,
        orjson.dumps(g.metadata).decode(),
        to_millis(g.created_at),
        ms(g.expires_at),
        ms(g.claimed_at),
        g.acked_by.value if g.acked_by else None,
    )


def grant_entry_of(e: dict[str, Any]) -> GrantEntry:
    registered = kind_entry(e["type"])  # a registered kind's entry (a crate grant's)
    if registered is not None:
        return registered(key=e["key"], amount=e["amount"])  # type: ignore[call-arg]
    return Entry(
        type=ResourceType(e["type"]), key=e["key"], amount=e["amount"], parameters=e.get("parameters")
    )


def _grant(
    id: Any,
    game_id: Any,
    player_id: Any,
    external_player_id: Any,
    kind: Any,
    status: Any,
    entries: Any,
    source_kind: Any,
    source_ref_id: Any,
    metadata: Any,
    created_at: Any,
    expires_at: Any,
    claimed_at: Any,
    acked_by: Any,
) -> Grant:
    return Grant(
        id=id,
        game_id=game_id,
        player_id=player_id,
        external_player_id=external_player_id,
        kind=GrantKind(kind),
        status=GrantStatus(status),
        entries=tuple(grant_entry_of(e) for e in orjson.loads(entries)),
        source_kind=source_kind,
        source_ref_id=source_ref_id,
        metadata=orjson.loads(metadata),
        created_at=from_millis(created_at),
        expires_at=dt(expires_at),
        claimed_at=dt(claimed_at),
        acked_by=AckedBy(acked_by) if acked_by else None,
    )


GRANT_COLUMNS = Columns(_grant)
