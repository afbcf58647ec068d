"""A start held back while its lobby forms, as a caller reads it: the body of the start's 202
``lobby_forming`` answer, which the lobbies' start step hands live events (:class:`Held`)."""

from __future__ import annotations

from datetime import datetime

import attrs

from livecore.live_events.attempts import HeldStart
from livecore.lobbies.rules import Lobby


@attrs.frozen
class LobbyForming(HeldStart):
    """A start's 202 ``lobby_forming`` answer, read from its ``details``: the player holds a seat in this
    lobby, which has not started (``fillBy``: when it starts anyway); nothing was charged."""

    lobby_id: str
    participant_count: int
    capacity: int
    fill_by: datetime | None

    @classmethod
    def of(cls, lobby: Lobby) -> LobbyForming:
        return cls(
            lobby_id=lobby.id,
            participant_count=lobby.participant_count,
            capacity=lobby.capacity,
            fill_by=lobby.fill_by,
        )
