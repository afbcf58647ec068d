"""The economy's section of a game's manifest: ``[games.<key>.resources.<key>]``, the resources the game
declares (docs/reference/manifest-and-cli.md#manifest)::

    .resources.<key>   type = "currency" | "item" (required), giftable = false, max_per_gift,
                       costs_sender = false, parameters = { ... } (items only; the API's limits on a
                       free-form object: finite numbers, signed 64-bit integers, 32 levels, 4 KiB)

- Keys match the key pattern; ``sessions`` and ``login_streak`` are reserved for system items and refused.
- ``max_per_gift`` 1 to 10^12 (omit: no cap).
- ``costs_sender = true`` in a studio-managed game is accepted here; the gift route refuses such a gift at
  send time with ``gift_not_allowed`` (docs/reference/gifts.md#settings).

Every reward and cost entry elsewhere in the game names one of these resources with its type
(:func:`livecore.section.entry_references`).
"""

from __future__ import annotations

from typing import Any

import attrs

from livecore.economy.rules import AMOUNT
from livecore.games import Resource, ResourceType
from livecore.section import (
    RESERVED_RESOURCE_KEYS,
    Problems,
    Rules,
    Section,
    free_form,
    key,
    parameters_only_for_items,
    within,
)


@attrs.frozen
class ResourceManifest:
    """``[games.<key>.resources.<key>]``; defaults agree with :class:`livecore.games.Resource`."""

    type: ResourceType
    giftable: bool = False
    max_per_gift: int | None = None
    costs_sender: bool = False
    parameters: dict[str, Any] = attrs.field(factory=dict)

    def to_resource(self, key: str) -> Resource:
        return Resource(
            key=key,
            type=self.type,
            giftable=self.giftable,
            max_per_gift=self.max_per_gift,
            costs_sender=self.costs_sender,
            parameters=dict(self.parameters),
        )


def _resource_key(value: Any, path: str, problems: Problems) -> None:
    if value in RESERVED_RESOURCE_KEYS:
        problems[path] = "is reserved for a system item"
    else:
        key(value, path, problems)


def _settings(resources: dict[str, ResourceManifest]) -> dict[str, Resource]:
    return {key_: res.to_resource(key_) for key_, res in resources.items()}


RESOURCES = Section(
    key="resources",
    record=dict[str, ResourceManifest],
    default=dict,
    settings=_settings,
    rules=Rules(
        fields={
            (ResourceManifest, "max_per_gift"): within(AMOUNT, ""),
            (ResourceManifest, "parameters"): free_form,
        },
        tables={ResourceManifest: parameters_only_for_items},
    ),
    key_rule=_resource_key,
)
