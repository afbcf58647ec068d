"""The client crate route (player secret required): open a pending crate grant."""

from __future__ import annotations

from livecore.crates import commands as crates
from livecore.crates.api import SDK_OPEN_CRATE, OpenCrateResponse
from livecore.grants.commands import GrantsTx
from livecore_server.http.endpoint import Binding, Call, bind, player_of


def open_crate(call: Call[None, None], tx: GrantsTx) -> OpenCrateResponse:
    opened = crates.open_crate(tx, call.rt, call.scope, player_of(call), call.params["grantId"])
    return OpenCrateResponse.of(opened)


BINDINGS: list[Binding] = [bind(SDK_OPEN_CRATE, open_crate)]
