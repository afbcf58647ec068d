"""Purchases reported by the game client (docs/reference/economy.md#purchases): unverified, idempotent on the
transaction id."""

from __future__ import annotations

from typing import Protocol

from livecore.purchases import api
from livecore.purchases.rules import PurchaseRequest
from livecore.store import (
    HasGames,
    HasOutbox,
    HasPlayers,
    HasPurchases,
)
from livecore_server.http.endpoint import Binding, Call, Reply, bind
from livecore_server.purchases.server import track


class Tx(HasGames, HasPlayers, HasPurchases, HasOutbox, Protocol):
    """The ports these handlers use."""


def sdk_track(call: Call[api.TrackPurchaseRequest, None], tx: Tx) -> api.TrackPurchaseResponse | Reply:
    """The client's report: the same request, never verified."""
    assert call.player is not None
    return track(call, tx, call.player, PurchaseRequest.reported(call.body), by_player=True)


BINDINGS: list[Binding] = [bind(api.SDK_TRACK_PURCHASE, sdk_track)]
