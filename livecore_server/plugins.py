"""A studio's own areas: found by name or by entry point, and checked before anything is served.

An area package ``studio_quests`` declares its core side in ``studio_quests/area.py`` (``AREA``, a
:class:`livecore.area.Area`) and, when it has routes or tables, its server side in
``studio_quests/server.py`` (``SERVER_AREA``, a :class:`livecore_server.area.ServerArea`), as the built-in
areas do (docs/extending.md). The server serves, after its own areas:

- every area an installed distribution names under the entry point group ``livecore.areas``
  (``[project.entry-points."livecore.areas"] studio_quests = "studio_quests"``);
- every area named by ``serve --area`` or ``LIVECORE_AREAS`` (comma-separated);
- every area named by the applied manifest's ``[plugins] areas`` (``apply`` records the names in the
  database, so a server finds them at its next start).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import sqlite3
from collections.abc import Iterable
from types import ModuleType

from livecore import areas as core_areas
from livecore.area import Area
from livecore_server.area import ServerArea
from livecore_server.config import is_postgres, sqlite_path

ENTRY_POINT_GROUP = "livecore.areas"
# The server_meta row ``apply`` records the manifest's [plugins] areas in.
RECORDED = "areas"


class PluginError(Exception):
    """An area that cannot be served: not importable, not an area, or clashing with another."""


def _import(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (exc.name == name or name.startswith(exc.name + ".")):
            return None  # the module itself is missing; an import inside it fails loudly instead
        raise


def load_area(name: str) -> ServerArea:
    """The area of package ``name``: its ``server.SERVER_AREA``, else its ``area.AREA`` alone."""
    if _import(name) is None:
        raise PluginError(f"area {name}: no module named {name!r} can be imported")
    server = _import(f"{name}.server")
    if server is not None:
        found = getattr(server, "SERVER_AREA", None)
        if not isinstance(found, ServerArea):
            raise PluginError(f"area {name}: {name}.server has no SERVER_AREA (a ServerArea)")
        return found
    core = _import(f"{name}.area")
    found_area = getattr(core, "AREA", None) if core is not None else None
    if not isinstance(found_area, Area):
        raise PluginError(f"area {name}: neither {name}.server.SERVER_AREA nor {name}.area.AREA is declared")
    return ServerArea(found_area)


def installed() -> list[str]:
    """The areas installed distributions name by entry point."""
    return [ep.module for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)]


def recorded(db: str) -> list[str]:
    """The areas the last applied manifest named (``[plugins] areas``), read without opening the store:
    the store opens with the areas' migrations, so it must know them first. None recorded (no database
    yet, no manifest applied) is an empty list."""
    value = _recorded_postgres(db) if is_postgres(db) else _recorded_sqlite(db)
    return list(json.loads(value)) if value else []


def _recorded_sqlite(db: str) -> str | None:
    try:
        with sqlite3.connect(f"file:{sqlite_path(db)}?mode=ro", uri=True) as conn:
            row = conn.execute("SELECT value FROM server_meta WHERE name = ?", (RECORDED,)).fetchone()
    except sqlite3.OperationalError:
        return None
    return None if row is None else str(row[0])


def _recorded_postgres(db: str) -> str | None:
    import psycopg

    with psycopg.connect(db, connect_timeout=10) as conn:
        try:
            row = conn.execute("SELECT value FROM server_meta WHERE name = %s", (RECORDED,)).fetchone()
        except psycopg.errors.UndefinedTable:
            return None
    return None if row is None else str(row[0])


def load(names: Iterable[str]) -> tuple[ServerArea, ...]:
    """The studio's areas named, each once, in the order first named; refused if two areas (the
    service's own included) claim one name (:func:`livecore.areas.registered`)."""
    loaded = tuple(load_area(name) for name in dict.fromkeys(names))
    try:
        core_areas.registered(a.area for a in loaded)
    except core_areas.AreaConflict as exc:
        raise PluginError(str(exc)) from None
    return loaded
