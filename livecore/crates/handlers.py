"""The crate route's handler: a player opens one of its pending crate grants. docs/reference/grants.md."""

from __future__ import annotations

from livecore.api.request import Handler, Request, player_of
from livecore.api.route import Route
from livecore.crates import commands as crates
from livecore.crates.api import SDK_OPEN_CRATE, OpenCrateResponse
from livecore.grants.commands import GrantsTx


def open_crate(request: Request[None, None], tx: GrantsTx) -> OpenCrateResponse:
    opened = crates.open_crate(tx, request.rt, request.scope, player_of(request), request.params["grantId"])
    return OpenCrateResponse.of(opened)


HANDLERS: dict[Route, Handler] = {SDK_OPEN_CRATE: open_crate}
