"""Crate webhooks: a crate opened."""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar, Self

import attrs

from livecore.grants.rules import Grant, GrantEntry
from livecore.webhooks.payload import WebhookPayload, known


@attrs.frozen
class CrateOpened(WebhookPayload):
    """``crate.opened``: a crate grant was opened. ``crates`` are the crate grant's entries, ``contents``
    the rewards drawn, which the contents grant ``contentsGrantId`` holds (its ``grant.created`` and
    ``grant.claimed`` fire in the same transaction)."""

    KIND: ClassVar[str] = "crate.opened"

    grant_id: str
    contents_grant_id: str
    player_id: str
    external_player_id: str
    crates: tuple[GrantEntry, ...]
    contents: tuple[GrantEntry, ...]
    opened_at: datetime

    @classmethod
    def of(cls, crate: Grant, contents: Grant) -> Self:
        return cls(
            grant_id=crate.id,
            contents_grant_id=contents.id,
            player_id=crate.player_id,
            external_player_id=crate.external_player_id,
            crates=crate.entries,
            contents=contents.entries,
            opened_at=known(crate.claimed_at, "claimedAt"),
        )


#: The kinds this area sends, as its area declares them (:attr:`livecore.area.Area.webhooks`).
PAYLOADS: tuple[type[WebhookPayload], ...] = (CrateOpened,)
