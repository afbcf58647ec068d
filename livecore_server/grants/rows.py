"""The grants area's rows: a grant is kept in the declared ``grants`` table (:data:`GRANT`: its insert, the
values it writes and how a row is read back, :class:`~livecore_server.storage.mapped.Mapped`), its entries
as their JSON payloads."""

from __future__ import annotations

from typing import Any

import orjson

from livecore.games import Entry, ResourceType
from livecore.grants.rules import Grant, GrantEntry, entry_payload, kind_entry
from livecore_server.grants.schema import SCHEMA
from livecore_server.storage.mapped import Convert, Mapped


def grant_entry_of(e: dict[str, Any]) -> GrantEntry:
    registered = kind_entry(e["type"])  # a registered kind's entry (a crate grant's)
    if registered is not None:
        return registered(key=e["key"], amount=e["amount"])  # type: ignore[call-arg]
    return Entry(
        type=ResourceType(e["type"]), key=e["key"], amount=e["amount"], parameters=e.get("parameters")
    )


GRANT = Mapped(
    SCHEMA.table("grants"),
    Grant,
    convert={
        "entries": Convert(
            lambda entries: orjson.dumps([entry_payload(e) for e in entries]).decode(),
            lambda text: tuple(grant_entry_of(e) for e in orjson.loads(text)),
        )
    },
)
GRANT_COLUMNS = GRANT.columns
