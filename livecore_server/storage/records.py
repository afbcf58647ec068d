"""Server-only records: API keys as the server reads them back, and how game settings are stored."""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from livecore import registry
from livecore.api.convert import make_converter
from livecore.area import Area
from livecore.contributions import Contributions, served
from livecore.games import GameSettings, SettingsKey
from livecore.ratelimit import BucketName
from livecore.scope import Environment, Permission, Scope
from livecore.section import Section

# Game settings are stored as JSON with attribute names; lenient so an older server reads newer rows.
settings_converter = make_converter(camel_case=False, forbid_extra_keys=False)


def _game_keys(sections: Iterable[Section]) -> tuple[SettingsKey[Any], ...]:
    """The keys the game's own sections hold their settings under (:attr:`livecore.section.Section.holds`)."""
    return tuple(s.holds for s in sections if s.holds is not None and s.within is None)


# The manifest sections of the areas this process serves (livecore.contributions.served): the built-in
# ones, and a studio's once registered, so that a game's settings hold its sections' values when they are
# stored and read back. Read as each settings record is, so kept per set of served areas.


def _area_keys() -> tuple[SettingsKey[Any], ...]:
    """The keys the served areas hold their settings under."""
    return _keys_of(served())[0]


def _part_keys() -> dict[type, tuple[Section, ...]]:
    """The records holding parts other areas add (an event's settings: its lobby, its teams; a resource:
    its gift fields), each with its served parts' sections: those ``within`` its section."""
    return _keys_of(served())[1]


@functools.cache
def _keys_of(areas: Contributions) -> tuple[tuple[SettingsKey[Any], ...], dict[type, tuple[Section, ...]]]:
    sections = registry.sections(typing.cast("tuple[Area, ...]", areas.areas))
    return _game_keys(sections), _parts_within(sections)


def _parts_within(sections: tuple[Section, ...]) -> dict[type, tuple[Section, ...]]:
    own = typing.get_type_hints(GameSettings)
    held: dict[type, tuple[Section, ...]] = {}
    for holder in sections:
        parts = tuple(s for s in sections if s.within == holder.key and s.holds is not None)
        kind = holder.holds.kind if holder.holds is not None else own.get(holder.key)
        if parts and kind is not None:
            held[typing.get_args(kind)[1] if typing.get_origin(kind) is dict else kind] = parts
    return held


def _unstructure_parts(cls: type) -> Callable[[Any], dict[str, Any]]:
    """A record with parts as one JSON object: its own fields and, where it declares ``parts``, each part
    under its key's name (a flat part's fields beside its own), every registered part's (at its default
    when the record has none), as the record had them as fields."""
    own: Callable[[Any], dict[str, Any]] = make_dict_unstructure_fn(
        cls, settings_converter, parts=override(omit=True)
    )
    names = [field.name for field in attrs.fields(cls)]
    before = set(names[: names.index("parts")])

    def unstructure(record: Any) -> dict[str, Any]:
        # Looked up as each record is stored: a studio's area served since may add a part.
        sections = _part_keys()[cls]
        registered = [section.holds for section in sections]
        fields = own(record)
        stored = {name: value for name, value in fields.items() if name in before}
        for section in sections:
            assert section.holds is not None
            value = settings_converter.unstructure(record.of(section.holds), section.holds.kind)
            if section.flat:
                stored.update(value)
            else:
                stored[section.holds.name] = value
        for key in record.parts:
            if key not in registered:
                stored[key.name] = settings_converter.unstructure(record.of(key), key.kind)
        stored.update((name, value) for name, value in fields.items() if name not in before)
        return stored

    return unstructure


def _structure_parts(cls: type) -> Callable[[Mapping[str, Any], Any], Any]:
    """A record with parts from its JSON: a part no registered area holds is left out; a flat part is read
    from the record's own object."""
    own: Callable[[Mapping[str, Any], Any], Any] = make_dict_structure_fn(
        cls, settings_converter, _cattrs_forbid_extra_keys=False, parts=override(omit=True)
    )

    def structure(stored: Mapping[str, Any], _: Any) -> Any:
        sections = _part_keys()[cls]
        held = {
            section.holds: settings_converter.structure(
                stored if section.flat else stored[section.holds.name], section.holds.kind
            )
            for section in sections
            if section.holds is not None and (section.flat or section.holds.name in stored)
        }
        return attrs.evolve(own(stored, cls), parts=held)

    return structure


settings_converter.register_unstructure_hook_factory(
    lambda t: isinstance(t, type) and t in _part_keys(), _unstructure_parts
)
settings_converter.register_structure_hook_factory(
    lambda t: isinstance(t, type) and t in _part_keys(), _structure_parts
)


_own_settings = make_dict_unstructure_fn(GameSettings, settings_converter, sections=override(omit=True))
_read_own_settings = make_dict_structure_fn(
    GameSettings, settings_converter, _cattrs_forbid_extra_keys=False, sections=override(omit=True)
)


@functools.cache
def _built_in_keys() -> tuple[SettingsKey[Any], ...]:
    """The keys of the built-in areas' sections, each stored at its default when a game has none."""
    return _game_keys(registry.sections(registry.installed()))


def _unstructure_settings(settings: GameSettings) -> dict[str, Any]:
    """One JSON object: the game's own fields and each area's settings under its section's key: every
    built-in area's (at its default when the game has none), as the settings record had them as fields,
    and those of a studio's area the game holds."""
    stored = _own_settings(settings)
    built_in = _built_in_keys()
    for key in (*built_in, *(key for key in settings.sections if key not in built_in)):
        stored[key.name] = settings_converter.unstructure(settings.of(key), key.kind)
    return stored


def _structure_settings(stored: Mapping[str, Any], _: Any) -> GameSettings:
    """The game's settings from their JSON: a key no registered area holds is left out, as an older
    server leaves out a field it does not know."""
    own = _read_own_settings(stored)
    held = {
        key: settings_converter.structure(stored[key.name], key.kind)
        for key in _area_keys()
        if key.name in stored
    }
    return attrs.evolve(own, sections=held)


settings_converter.register_unstructure_hook(GameSettings, _unstructure_settings)
settings_converter.register_structure_hook(GameSettings, _structure_settings)


@attrs.frozen
class ApiKey:
    id: str
    game_id: str
    studio_id: str
    name: str
    env: Environment
    permission: Permission
    prefix: str
    rate_limits: dict[BucketName, int]
    # Built once per loaded key, not once per request.
    scope: Scope
    retires_at_ms: int | None = None  # a rotated key's end of grace (service time)
