"""Gifting's settings: ``[games.<key>.gifting]`` (docs/reference/gifts.md#settings), read from the manifest
by :data:`livecore.gifts.manifest.GIFTING`, and held in a game's settings under :data:`GIFTING_SETTINGS`.
"""

from __future__ import annotations

import attrs

from livecore.games import SettingsKey


@attrs.frozen
class GiftingSettings:
    enabled: bool = False
    cooldown_seconds: int = 86_400
    daily_send_limit: int | None = None
    claim_expiry_seconds: int | None = None


GIFTING_SETTINGS: SettingsKey[GiftingSettings] = SettingsKey("gifting", GiftingSettings, GiftingSettings())
