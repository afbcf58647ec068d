"""Gifting's section of a game's manifest (docs/reference/manifest-and-cli.md#manifest)::

    .gifting    enabled = false, cooldown_seconds = 86400, daily_send_limit, claim_expiry_seconds

- ``cooldown_seconds`` >= 0; ``daily_send_limit`` >= 1 (omit for unlimited); ``claim_expiry_seconds`` >= 1
  (omit: gifts never expire).

Defaults are :class:`livecore.gifts.settings.GiftingSettings`'.
"""

from __future__ import annotations

from livecore.gifts.settings import GIFTING_SETTINGS, GiftingSettings
from livecore.section import Rules, Section, at_least

GIFTING = Section(
    key="gifting",
    record=GiftingSettings,
    default=GiftingSettings,
    holds=GIFTING_SETTINGS,
    rules=Rules(
        fields={
            (GiftingSettings, "cooldown_seconds"): at_least(0),
            (GiftingSettings, "daily_send_limit"): at_least(1),
            (GiftingSettings, "claim_expiry_seconds"): at_least(1),
        }
    ),
)
