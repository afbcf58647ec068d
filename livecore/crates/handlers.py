"""The crate route's handler: a player opens one of its pending crate grants. docs/reference/grants.md."""

from __future__ import annotations

from livecore.api.request import Handler, Request
from livecore.api.route import Route
from livecore.commands.reads import Reads
from livecore.crates import commands as crates
from livecore.crates.api import SDK_OPEN_CRATE, OpenCrateResponse
from livecore.crates.reads import CrateOpenReads, reward_keys
from livecore.economy.rules import is_platform_managed
from livecore.grants.commands import GrantsTx
from livecore.limits import ID
from livecore.players.actor import player_of


def open_crate(request: Request[None, None], tx: GrantsTx) -> OpenCrateResponse:
    opened = crates.open_crate(tx, request.rt, request.scope, player_of(request), request.params["grantId"])
    return OpenCrateResponse.of(opened)


def open_crate_reads(request: Request[None, None], tx: GrantsTx) -> Reads:
    grant_id = request.params["grantId"]
    # A malformed id names no grant: the open answers its 404 without reading (and a NUL never reaches
    # PostgreSQL's text).
    if ID.problem(grant_id) is not None:
        return Reads()
    game_id = request.scope.game_id
    game = tx.games.get(game_id)
    keys = reward_keys(game) if game is not None and is_platform_managed(game) else ()
    return Reads(areas=(CrateOpenReads(game_id, grant_id, (game_id, request.external_id), keys),))


HANDLERS: dict[Route, Handler] = {SDK_OPEN_CRATE: open_crate}
