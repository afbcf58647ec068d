"""The economy's section of a game's manifest: ``[games.<key>.resources.<key>]``, the resources the game
declares (docs/reference/manifest-and-cli.md#manifest)::

    .resources.<key>   type = "currency" | "item" (required), parameters = { ... } (items only; the API's
                       limits on a free-form object: finite numbers, signed 64-bit integers, 32 levels,
                       4 KiB), and the fields other areas add to a resource's table (a Section
                       ``within="resources"``, ``flat``: the gifts' ``giftable``, ``max_per_gift``,
                       ``costs_sender``)

- Keys match the key pattern; ``sessions`` and ``login_streak`` are reserved for system items and refused.

Every reward and cost entry elsewhere in the game names one of these resources with its type
(:func:`livecore.section.entry_references`).
"""

from __future__ import annotations

from typing import Any

import attrs

from livecore.games import Resource, ResourceType
from livecore.section import (
    RESERVED_RESOURCE_KEYS,
    Problems,
    Rules,
    Section,
    free_form,
    key,
    own_and_parts,
    parameters_only_for_items,
)


@attrs.frozen
class ResourceManifest:
    """``[games.<key>.resources.<key>]``; defaults agree with :class:`livecore.games.Resource`. The parser
    reads each resource into this record extended with the fields other areas add (flat parts)."""

    type: ResourceType
    parameters: dict[str, Any] = attrs.field(factory=dict)

    def to_resource(self, key: str) -> Resource:
        own, parts = own_and_parts(self)
        return Resource(key=key, **own, parts=parts)


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
            (ResourceManifest, "parameters"): free_form,
        },
        tables={ResourceManifest: parameters_only_for_items},
    ),
    key_rule=_resource_key,
)
