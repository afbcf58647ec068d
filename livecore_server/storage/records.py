"""Server-only records: API keys as the server reads them back, and how game settings are stored."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import attrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from livecore import areas as core_areas
from livecore.api.convert import make_converter
from livecore.games import GameSettings, SettingsKey
from livecore.ratelimit import BucketName
from livecore.scope import Environment, Permission, Scope

# Game settings are stored as JSON with attribute names; lenient so an older server reads newer rows.
settings_converter = make_converter(camel_case=False, forbid_extra_keys=False)


@functools.cache
def _area_keys() -> tuple[SettingsKey[Any], ...]:
    """The keys the registered areas hold their settings under (:attr:`livecore.section.Section.holds`)."""
    return tuple(section.holds for section in core_areas.sections() if section.holds is not None)


_own_settings = make_dict_unstructure_fn(GameSettings, settings_converter, sections=override(omit=True))
_read_own_settings = make_dict_structure_fn(
    GameSettings, settings_converter, _cattrs_forbid_extra_keys=False, sections=override(omit=True)
)


def _unstructure_settings(settings: GameSettings) -> dict[str, Any]:
    """One JSON object: the game's own fields and each area's settings under its section's key, every
    registered area's (at its default when the game has none), as the settings record had them as fields."""
    stored = _own_settings(settings)
    for key in (*_area_keys(), *(key for key in settings.sections if key not in _area_keys())):
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
