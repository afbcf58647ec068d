"""Grant webhooks: a grant created, claimed or expired, each carrying the grant record."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar, Self

import attrs

from livecore.grants.rules import Grant, GrantEntry
from livecore.webhooks.payload import WebhookPayload


@attrs.frozen
class GrantChange(WebhookPayload):
    """``grant.created``, ``grant.claimed``, ``grant.expired``: the grant record as the API shows it
    (docs/grants.md), plus the internal player id."""

    grant_id: str
    player_id: str
    external_player_id: str
    kind: str
    status: str
    entries: tuple[GrantEntry, ...]
    source_kind: str
    source_ref_id: str | None
    metadata: dict[str, Any]
    created_at: datetime
    claimed_at: datetime | None
    expires_at: datetime | None
    acked_by: str | None

    @classmethod
    def of(cls, grant: Grant) -> Self:
        return cls(
            grant_id=grant.id,
            player_id=grant.player_id,
            external_player_id=grant.external_player_id,
            kind=grant.kind.value,
            status=grant.status.value,
            # The grant's own entry records, shared: every gift sent builds one of these, and copies
            # would add objects for the cyclic garbage collector to walk.
            entries=grant.entries,
            source_kind=grant.source_kind,
            source_ref_id=grant.source_ref_id,
            metadata=grant.metadata,
            created_at=grant.created_at,
            claimed_at=grant.claimed_at,
            expires_at=grant.expires_at,
            acked_by=grant.acked_by.value if grant.acked_by else None,
        )


@attrs.frozen
class GrantCreated(GrantChange):
    KIND: ClassVar[str] = "grant.created"


@attrs.frozen
class GrantClaimed(GrantChange):
    KIND: ClassVar[str] = "grant.claimed"


@attrs.frozen
class GrantExpired(GrantChange):
    KIND: ClassVar[str] = "grant.expired"


#: The kinds this area sends, as its area declares them (:attr:`livecore.area.Area.webhooks`).
PAYLOADS: tuple[type[WebhookPayload], ...] = (
    GrantCreated,
    GrantClaimed,
    GrantExpired,
)
