"""Studios and games with their settings (the manifest: docs/reference/manifest-and-cli.md#manifest; defaults:
docs/reference/conventions.md#limits).

Settings are plain frozen records: the server reads them from the manifest, a simulation builds them in
code. Defaults here are the single source of the defaults the manifest documents.
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

from livecore.identity import DEFAULT_POOL, IdentityPool


class Economy(enum.StrEnum):
    STUDIO = "studio"
    PLATFORM = "platform"


class ResourceType(enum.StrEnum):
    CURRENCY = "currency"
    ITEM = "item"


@attrs.frozen
class Resource:
    key: str
    type: ResourceType
    giftable: bool = False
    max_per_gift: int | None = None
    costs_sender: bool = False
    # Items only: per-instance attributes every player's item starts with (overridable per player).
    parameters: dict[str, Any] = attrs.field(factory=dict)


@attrs.frozen
class GiftingSettings:
    enabled: bool = False
    cooldown_seconds: int = 86_400
    daily_send_limit: int | None = None
    claim_expiry_seconds: int | None = None


@attrs.frozen
class PresenceSettings:
    ttl_seconds: int = 90


@attrs.frozen
class FriendsSettings:
    max_friends: int = 500


@attrs.frozen
class GameSettings:
    economy: Economy = Economy.STUDIO
    gifting: GiftingSettings = GiftingSettings()
    presence: PresenceSettings = PresenceSettings()
    friends: FriendsSettings = FriendsSettings()
    resources: dict[str, Resource] = attrs.field(factory=dict)
    exchange_rates: dict[str, float] = attrs.field(factory=dict)


@attrs.frozen
class Studio:
    id: str
    key: str


@attrs.frozen
class Game:
    id: str
    studio_id: str
    key: str
    name: str
    settings: GameSettings = GameSettings()
    identity_pool: IdentityPool = DEFAULT_POOL
    # Set once any applied manifest enabled gifting: the server gift history answers from then on.
    gifting_ever_enabled: bool = False
