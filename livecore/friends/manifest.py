"""The friends area's sections of a game's manifest (docs/reference/manifest-and-cli.md#manifest)::

    .presence   ttl_seconds = 90
    .friends    max_friends = 500

- ``presence.ttl_seconds`` >= 1; ``friends.max_friends`` >= 1.

Defaults are :class:`livecore.friends.settings.PresenceSettings`' and
:class:`livecore.friends.settings.FriendsSettings`'.
"""

from __future__ import annotations

from livecore.friends.settings import FRIENDS_SETTINGS, PRESENCE_SETTINGS, FriendsSettings, PresenceSettings
from livecore.section import Rules, Section, at_least

PRESENCE = Section(
    key="presence",
    record=PresenceSettings,
    default=PresenceSettings,
    holds=PRESENCE_SETTINGS,
    rules=Rules(fields={(PresenceSettings, "ttl_seconds"): at_least(1)}),
)
FRIENDS = Section(
    key="friends",
    record=FriendsSettings,
    default=FriendsSettings,
    holds=FRIENDS_SETTINGS,
    rules=Rules(fields={(FriendsSettings, "max_friends"): at_least(1)}),
)
