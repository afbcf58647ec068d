"""The friends area's settings: ``[games.<key>.presence]`` and ``[games.<key>.friends]``, read from the
manifest by :mod:`livecore.friends.manifest`, held in a game's settings under :data:`PRESENCE_SETTINGS` and
:data:`FRIENDS_SETTINGS`.
"""

from __future__ import annotations

import attrs

from livecore.games import SettingsKey


@attrs.frozen
class PresenceSettings:
    ttl_seconds: int = 90


@attrs.frozen
class FriendsSettings:
    max_friends: int = 500


PRESENCE_SETTINGS: SettingsKey[PresenceSettings] = SettingsKey(
    "presence", PresenceSettings, PresenceSettings()
)
FRIENDS_SETTINGS: SettingsKey[FriendsSettings] = SettingsKey("friends", FriendsSettings, FriendsSettings())
