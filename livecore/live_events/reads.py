"""What a progress write reads, declared ahead of running (:class:`livecore.commands.reads.Reads`'s
``areas``): the live events area's server side reads it ahead
(``livecore_server/live_events/read_ahead.py``)."""

from __future__ import annotations

import attrs

from livecore.commands.reads import PlayerKey


@attrs.frozen
class ProgressReads:
    """What a progress write reads (:func:`livecore.live_events.commands.live_events.record_progress`):
    the attempt, its window, its board and its player's entry on that board."""

    game_id: str
    attempt_id: str

    @property
    def players(self) -> tuple[PlayerKey, ...]:
        return ()
