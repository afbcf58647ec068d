"""What a wallet or inventory write reads, declared ahead of running (:class:`livecore.commands.reads.Reads`'s
``areas``): the economy area's server side reads it ahead (``livecore_server/economy/read_ahead.py``)."""

from __future__ import annotations

import attrs

from livecore.commands.reads import PlayerKey


@attrs.frozen
class HoldingReads:
    """What a debit, consume, credit, grant or revoke reads (:func:`livecore.economy.commands.change`):
    the player's holding of the resource."""

    player: PlayerKey
    resource_key: str

    @property
    def players(self) -> tuple[PlayerKey, ...]:
        return (self.player,)
