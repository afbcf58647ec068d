"""Studios and games with their settings (the manifest: docs/reference/manifest-and-cli.md#manifest; defaults:
docs/reference/conventions.md#limits).

Settings are plain frozen records: the server reads them from the manifest, a simulation builds them in
code. Each area declares its own, with their defaults (the single source of the defaults the manifest
documents), in ``livecore/<area>/settings.py``; a game's settings hold them by key (:class:`SettingsKey`).
Here are what is the game's own (its economy, its resources, its rates) and the records every area's
rewards are made of (entries, milestones, rank bands).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, TypeVar, cast

import attrs

from livecore.api.convert import OMIT_IF_NONE
from livecore.parts import PartKey, by_key

T = TypeVar("T")


class Economy(enum.StrEnum):
    STUDIO = "studio"
    PLATFORM = "platform"


class ResourceType(enum.StrEnum):
    CURRENCY = "currency"
    ITEM = "item"


#: Names one area's settings within a game's (:meth:`GameSettings.of`), as ``store.tables_of`` names an
#: area's tables: an area declares its key in ``livecore/<area>/settings.py``, beside its records, and its
#: manifest section converts into what the key holds (:attr:`livecore.section.Section.holds`).
SettingsKey = PartKey


@attrs.frozen
class Resource:
    """A resource the game declares (``[games.<key>.resources.<key>]``), with the fields other areas add to
    its table (a gift's ``giftable``), each area's as one part read with :meth:`of`."""

    key: str
    type: ResourceType
    #: The parts other areas hold in the resource, by their key; a part at its default is left out. Stored
    #: flat, where this field stands (livecore_server.storage.records), as the manifest gives them.
    parts: dict[SettingsKey[Any], Any] = attrs.field(factory=dict, converter=by_key, hash=False)
    # Items only: per-instance attributes every player's item starts with (overridable per player).
    parameters: dict[str, Any] = attrs.field(factory=dict)

    def of(self, key: SettingsKey[T]) -> T:
        """The part ``key`` names, or its default when the resource has none."""
        return cast(T, self.parts.get(key, key.default))


@attrs.frozen
class Entry:
    """One reward or cost: a resource and an amount; ``parameters`` only for items (left out of the wire
    form when absent)."""

    type: ResourceType
    key: str
    amount: int
    parameters: dict[str, Any] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


class Order(enum.StrEnum):
    """Which scores are better: ``desc`` higher (points), ``asc`` lower (a time)."""

    DESC = "desc"
    ASC = "asc"


@attrs.frozen
class Milestone:
    key: str
    threshold: float
    rewards: tuple[Entry, ...] = ()


@attrs.frozen
class RankBand:
    """Ranks ``first`` to ``last`` (inclusive) of a finalized board earn ``rewards``."""

    first: int
    last: int
    rewards: tuple[Entry, ...]


@attrs.frozen
class GameSettings:
    """A game's settings: what is the game's own (its economy, the resources every area's rewards name, its
    exchange rates and platforms), and each area's settings by its :class:`SettingsKey` (:meth:`of`). A
    studio's own areas' sections (``[games.<key>.areas.<name>]``) are kept as the manifest gives them,
    each checked by its area (livecore.area.Area.settings) and read by its commands."""

    economy: Economy = Economy.STUDIO
    resources: dict[str, Resource] = attrs.field(factory=dict)
    exchange_rates: dict[str, float] = attrs.field(factory=dict)
    # The game's own platform keys, beside the built-in ones (livecore.platforms).
    platforms: tuple[str, ...] = ()
    areas: dict[str, dict[str, Any]] = attrs.field(factory=dict)
    sections: dict[SettingsKey[Any], Any] = attrs.field(factory=dict, converter=by_key)

    def of(self, key: SettingsKey[T]) -> T:
        """The settings ``key`` names: the section's, or its default when the game has none."""
        return cast(T, self.sections.get(key, key.default))

    def with_sections(self, given: Mapping[SettingsKey[Any], Any]) -> GameSettings:
        """These settings with the areas' settings ``given`` replacing theirs."""
        return attrs.evolve(self, sections={**self.sections, **given})


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
    #: The keys of the sections an applied manifest ever enabled, of those an area remembers
    #: (:attr:`livecore.section.Section.remembered`): what outlives the switch reads them (a gift history).
    ever_enabled: frozenset[str] = frozenset()
