"""Presence as friends see it (docs/reference/friends-and-presence.md#presence).

Presence is a player's (:mod:`livecore.players.presence`, where it is defined); this module keeps the
names importable from here, where friends' docs have named them. Friends add who sees it:

- A block hides presence: a player never sees the presence of someone who blocked them.
"""

from __future__ import annotations

from livecore.players.presence import STATUS, Presence, heartbeat

__all__ = ["STATUS", "Presence", "heartbeat"]
