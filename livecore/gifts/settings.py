"""Gifting's settings: ``[games.<key>.gifting]`` (docs/reference/gifts.md#settings), read from the manifest
by :data:`livecore.gifts.manifest.GIFTING`, and held in a game's settings under :data:`GIFTING_SETTINGS`;
and the gift fields of each resource (:class:`GiftResource`), held in the resource under
:data:`GIFT_RESOURCE`.
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


@attrs.frozen
class GiftResource:
    """The fields gifts add to a resource's table (``[games.<key>.resources.<key>]``), beside its own:
    whether it may be gifted, at most how much per gift (None: no cap), and whether a gift costs the
    sender (docs/reference/gifts.md#settings)."""

    giftable: bool = False
    max_per_gift: int | None = None
    costs_sender: bool = False


GIFT_RESOURCE: SettingsKey[GiftResource] = SettingsKey("gift", GiftResource, GiftResource())
