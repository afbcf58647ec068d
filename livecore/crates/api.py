"""The crate route: a player opens a pending crate grant."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from livecore.api.route import Auth, Idempotency, Route, Surface
from livecore.crates.errors import NOT_A_CRATE
from livecore.economy.errors import RESOURCE_NOT_FOUND
from livecore.grants.api import GrantView
from livecore.grants.errors import GRANT_ALREADY_CLAIMED, GRANT_EXPIRED, GRANT_NOT_FOUND
from livecore.players.routes import PLAYER_WRITE_ERRORS

if TYPE_CHECKING:
    from livecore.crates.commands import Opened


@attrs.frozen
class OpenCrateResponse:
    """An opened crate: the crate grant, now claimed, and the contents grant drawn from its table,
    created and claimed at once (docs/grants.md#crates)."""

    crate: GrantView
    contents: GrantView

    @classmethod
    def of(cls, opened: Opened) -> OpenCrateResponse:
        return cls(crate=GrantView.of(opened.crate), contents=GrantView.of(opened.contents))


SDK_OPEN_CRATE = Route(
    name="crates.open",
    surface=Surface.SDK,
    method="POST",
    path="/players/{externalId}/crates/{grantId}/open",
    summary="Open a pending crate grant: its table is drawn and the contents are credited now.",
    auth=Auth.PLAYER,
    response=OpenCrateResponse,
    idempotency=Idempotency.OPTIONAL,
    errors=(
        *PLAYER_WRITE_ERRORS,
        GRANT_NOT_FOUND,
        NOT_A_CRATE,
        GRANT_ALREADY_CLAIMED,
        GRANT_EXPIRED,
        # The crate's kind was removed from the manifest since the grant was created.
        RESOURCE_NOT_FOUND,
    ),
)

ROUTES = (SDK_OPEN_CRATE,)
