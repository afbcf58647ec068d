"""Gifting's section of a game's manifest, and the fields it adds to each resource's table
(docs/reference/manifest-and-cli.md#manifest)::

    .gifting           enabled = false, cooldown_seconds = 86400, daily_send_limit, claim_expiry_seconds
    .resources.<key>   ... giftable = false, max_per_gift, costs_sender = false (beside the economy's own
                       fields of a resource)

- ``cooldown_seconds`` >= 0; ``daily_send_limit`` >= 1 (omit for unlimited); ``claim_expiry_seconds`` >= 1
  (omit: gifts never expire).
- ``max_per_gift`` 1 to 10^12 (omit: no cap).
- ``costs_sender = true`` in a studio-managed game is accepted here; the gift route refuses such a gift at
  send time with ``gift_not_allowed`` (docs/reference/gifts.md#settings).

Defaults are :class:`livecore.gifts.settings.GiftingSettings`' and
:class:`~livecore.gifts.settings.GiftResource`'.
"""

from __future__ import annotations

from livecore.gifts.settings import GIFT_RESOURCE, GIFTING_SETTINGS, GiftingSettings, GiftResource
from livecore.limits import AMOUNT
from livecore.section import Rules, Section, at_least, within

GIFTING = Section(
    key="gifting",
    record=GiftingSettings,
    default=GiftingSettings,
    holds=GIFTING_SETTINGS,
    # The server's gift history answers once gifting was ever on (docs/reference/gifts.md#lists).
    remembered=True,
    rules=Rules(
        fields={
            (GiftingSettings, "cooldown_seconds"): at_least(0),
            (GiftingSettings, "daily_send_limit"): at_least(1),
            (GiftingSettings, "claim_expiry_seconds"): at_least(1),
        }
    ),
)

#: A resource's gift fields, flat in its table: ``[games.<key>.resources.gems] giftable = true``.
GIFT_RESOURCE_FIELDS = Section(
    key="gift",
    within="resources",
    record=GiftResource,
    holds=GIFT_RESOURCE,
    flat=True,
    rules=Rules(fields={(GiftResource, "max_per_gift"): within(AMOUNT, "")}),
)
