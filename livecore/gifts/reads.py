"""What a gift's send and claim read, declared ahead of running (:class:`livecore.commands.reads.Reads`'s
``areas``): the gifts area's server side reads them ahead (``livecore_server/gifts/read_ahead.py``)."""

from __future__ import annotations

from datetime import datetime

import attrs

from livecore.commands.reads import PlayerKey


@attrs.frozen
class GiftSendReads:
    """What a gift send reads once its two players are known (:func:`livecore.gifts.commands.send`)."""

    sender: PlayerKey
    recipient: PlayerKey
    idempotency_key: str | None
    cost_key: str | None  # the resource the sender pays with, when the gift costs them
    cooldown_since: datetime
    day_start: datetime | None

    @property
    def players(self) -> tuple[PlayerKey, ...]:
        return (self.sender, self.recipient)


@attrs.frozen
class GiftClaimReads:
    """What a gift claim reads: its gift, the gift's grant, its sender and the recipient's holding of it."""

    game_id: str
    gift_id: str

    @property
    def players(self) -> tuple[PlayerKey, ...]:
        return ()
