"""What a guild donation reads, declared ahead of running (:class:`livecore.commands.reads.Reads`'s
``areas``): the guilds area's server side reads it ahead (``livecore_server/guilds/read_ahead.py``)."""

from __future__ import annotations

import attrs

from livecore.commands.reads import PlayerKey

# The kind of a help request among the rows a write declares it holds (``Reads.rows``).
HELP_REQUEST_ROW = "guild_help_request"


@attrs.frozen
class GuildDonateReads:
    """What a donation reads once its donor is known (:func:`livecore.guilds.commands.donate`): the
    donor's current stint and its guild, the help request, the donor's holding of what it asks for and
    the player who asked."""

    donor: PlayerKey
    request_id: str

    @property
    def players(self) -> tuple[PlayerKey, ...]:
        return ()
