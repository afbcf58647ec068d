"""Presence (docs/reference/friends-and-presence.md#presence): a player's online status, kept on the
player's record (:attr:`livecore.players.rules.Player.presence`) and written by the players' heartbeat.

- A heartbeat carries an optional status label (string or null; null clears the label but the player
  stays online), at most 64 characters.
- A player is online while the last heartbeat is within the game's presence TTL (90 s by default);
  ``lastActiveAt`` stays after the player goes offline. There is no go-offline call.
- Who sees it is the friends area's rule (:mod:`livecore.friends.presence`: a block hides it).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Protocol

import attrs

from livecore.limits import Text

STATUS = Text(max_length=64)


@attrs.frozen
class Presence:
    last_active_at: datetime | None = None
    status: str | None = None

    def online(self, now: datetime, ttl_seconds: int) -> bool:
        return self.last_active_at is not None and now - self.last_active_at < timedelta(seconds=ttl_seconds)


def heartbeat(status: str | None, now: datetime) -> Presence:
    return Presence(last_active_at=now, status=STATUS.check_optional(status, "status"))


class Present(Protocol):
    """A player as a presence reader reads it: its record (:class:`livecore.players.rules.Player`) or its
    card, by its id and with its stored presence."""

    @property
    def id(self) -> str: ...

    @property
    def presence(self) -> Presence: ...


#: A player's presence as its reader knows it (:attr:`livecore.commands.Runtime.presence_of`).
PresenceOf = Callable[[Present], Presence]
