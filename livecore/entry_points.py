"""The service's own areas, read from the package's metadata: its entry point ``livecore`` / ``areas``
(pyproject.toml) names the list (:mod:`livecore.areas`), as Datasette and pytest find their plugins, so that
no module of the core imports it; the registry (:func:`livecore.registry.installed`) and the process's
contributions (:func:`livecore.contributions.served`) read it from here."""

from __future__ import annotations

import functools
from importlib.metadata import entry_points
from typing import Any


@functools.cache
def installed_areas() -> tuple[Any, ...]:
    """The service's own areas (each a :class:`livecore.area.Area`, which this module stands below), in
    their order, read once."""
    found = entry_points(group="livecore", name="areas")
    if not found:
        raise RuntimeError(
            "livecore's built-in areas are not found: the package's metadata (its entry point livecore/areas)"
            " is missing; install it (pip install -e . in a checkout)"
        )
    listed: tuple[Any, ...] = next(iter(found)).load()
    return listed
