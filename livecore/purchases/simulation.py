"""The purchase actions of a simulation, each its client method's builder (:mod:`livecore.purchases.calls`)
run in memory (:mod:`livecore.simulation.calls`): a player reporting its own store purchase
(``ada.purchases``, as ``sdk.purchases`` without the external id; never verified) and the studio's backend
tracking one (which may say it verified the receipt) and reading purchases, spend and revenue
(``sim.server.purchases``)."""

from __future__ import annotations

from collections.abc import Iterator

from livecore.purchases import api
from livecore.purchases.calls import PurchasesCalls, ServerPurchasesCalls, every_purchase
from livecore.simulation.calls import Actions, ServerActions, player_method, server_method


class Purchases(Actions, PurchasesCalls):
    """``player.purchases``: the game's report of the player's store purchases."""

    track = player_method(PurchasesCalls._track)


class ServerPurchases(ServerActions, ServerPurchasesCalls):
    """``sim.server.purchases``: the studio's backend on a player's purchases and the game's revenue."""

    track = server_method(ServerPurchasesCalls._track)
    list = server_method(ServerPurchasesCalls._list)

    def iter(self, external_id: str, *, page_size: int | None = None) -> Iterator[api.PurchaseView]:
        """Every purchase of a player, newest first, a page of ``page_size`` (default 50) at a time, as
        the client's ``server.purchases.iter`` walks them."""
        yield from every_purchase(lambda cursor: self.list(external_id, limit=page_size, cursor=cursor))

    player_spend = server_method(ServerPurchasesCalls._player_spend)
    spend_players = server_method(ServerPurchasesCalls._spend_players)
    revenue_summary = server_method(ServerPurchasesCalls._revenue_summary)
