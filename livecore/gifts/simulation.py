"""The gift actions of a simulated player (``ada.gifts``, as ``sdk.gifts`` without the external id): send,
claim, the catalog, inbox and sent, each its client method's builder (:mod:`livecore.gifts.calls`) run in
memory (:mod:`livecore.simulation.calls`)."""

from __future__ import annotations

from livecore.gifts.calls import GiftsCalls
from livecore.simulation.calls import Actions, player_method


class Gifts(Actions, GiftsCalls):
    """``player.gifts``: the player's gifts to and from its friends."""

    send = player_method(GiftsCalls._send)
    claim = player_method(GiftsCalls._claim)
    catalog = player_method(GiftsCalls._catalog)
    inbox = player_method(GiftsCalls._inbox)
    sent = player_method(GiftsCalls._sent)
