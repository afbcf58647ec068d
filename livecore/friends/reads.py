"""What a friends list reads, declared ahead of running (:class:`livecore.commands.reads.Reads`'s
``areas``): the friends area's server side reads it ahead (``livecore_server/friends/read_ahead.py``), and
each area that adds fields to the rows declares its own read (:func:`livecore.friends.views.row_part`)."""

from __future__ import annotations

import attrs

from livecore.commands.reads import PlayerKey


@attrs.frozen
class FriendsListReads:
    """What a player's friends list reads once the player is known: its friends' cards, friends since."""

    player: PlayerKey

    @property
    def players(self) -> tuple[PlayerKey, ...]:
        return (self.player,)
