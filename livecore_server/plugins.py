"""A studio's own areas: found by name or by entry point, and checked before anything is served.

An area package ``studio_quests`` declares its core side in ``studio_quests/area.py`` (``AREA``, a
:class:`livecore.area.Area`) and, when it has routes or tables, its server side in
``studio_quests/server.py`` (``SERVER_AREA``, a :class:`livecore_server.area.ServerArea`), as the built-in
areas do (docs/extending.md); an area of one module with no server part declares its ``AREA`` in the
package itself (``studio_daily/__init__.py``). The server serves, after its own areas:

- every area an installed distribution names under the entry point group ``livecore.areas``
  (``[project.entry-points."livecore.areas"] studio_quests = "studio_quests"``);
- every area named by ``serve --area`` or ``LIVECORE_AREAS`` (comma-separated);
- every area a studio's applied manifest names in ``[plugins] areas``. ``apply`` records each studio's
  names apart, replacing only that studio's, so a server finds at its next start the union of what the
  studios of its database named: one studio's manifest never stops another's areas.

A game whose settings configure an area (``[games.<key>.areas.<name>]``) that the server does not serve
stops the server with the game's section named (:func:`served`): its routes, checks and sweeps would
otherwise silently not run.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.metadata
import json
import sqlite3
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from livecore import registry
from livecore_server.config import is_postgres, sqlite_path

# Imported where an area is loaded: the root command reads the areas installed (:func:`installed`) to find
# their commands, and its --help loads nothing of the server (livecore_server/cli.py).
if TYPE_CHECKING:
    from livecore_server.area import ServerArea

ENTRY_POINT_GROUP = "livecore.areas"
# The server_meta rows ``apply`` records the [plugins] areas in: each studio's apart (a JSON object,
# studio key -> names), and their union (a JSON list), which a server reads as it starts, as versions
# before the per-studio record did.
RECORDED = "areas"
BY_STUDIO = "studio_areas"


class PluginError(Exception):
    """An area that cannot be served: not importable, not an area, or clashing with another."""


def load_area(name: str) -> ServerArea:
    """The area of package ``name``: its ``server.SERVER_AREA``, else its core declaration alone, found as
    the core finds it (:func:`livecore.registry.studio_area`: ``area.AREA``, else the package's own); an
    area of one module (``examples/studio_daily``) declares it in the package itself, its ``AREA`` alone
    so that it imports without the server, or its ``SERVER_AREA``."""
    from livecore_server.area import ServerArea

    try:
        core = registry.declaring(name)
    except registry.AreaNotFound as exc:
        raise PluginError(str(exc)) from None
    server = registry.importable(f"{name}.server")
    if server is not None:
        found = getattr(server, "SERVER_AREA", None)
        if not isinstance(found, ServerArea):
            raise PluginError(f"area {name}: {name}.server has no SERVER_AREA (a ServerArea)")
        return found
    own = getattr(core, "SERVER_AREA", None)
    if isinstance(own, ServerArea):
        return own
    try:
        return ServerArea(registry.studio_area(name))
    except registry.AreaNotFound:
        declared = f"{name}.server.SERVER_AREA nor {name}.area.AREA (nor {name}.AREA)"
        raise PluginError(f"area {name}: neither {declared} is declared") from None


@functools.cache
def installed() -> tuple[str, ...]:
    """The areas installed distributions name by entry point, read once per process: reading them scans
    every installed distribution's metadata, and every manifest parse asks; a package installed later is
    served from the next start."""
    return tuple(ep.module for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))


def recorded(db: str) -> list[str]:
    """The areas the studios' last applied manifests name (``[plugins] areas``), read without opening the
    store: the store opens with the areas' migrations, so it must know them first. None recorded (no
    database yet, no manifest applied) is an empty list."""
    rows = _read(db, "SELECT value FROM server_meta WHERE name = ?", (RECORDED,))
    return list(json.loads(rows[0][0])) if rows else []


def configured(db: str) -> list[tuple[str, str, str]]:
    """Each studio's own area a game's settings configure, as (studio key, game key, area name), read
    without opening the store like :func:`recorded`."""
    rows = _read(
        db,
        "SELECT s.key, g.key, g.settings FROM games g JOIN studios s ON s.id = g.studio_id"
        " ORDER BY s.key, g.key",
        (),
    )
    found: list[tuple[str, str, str]] = []
    for studio, game, settings in rows:
        # JSON text on SQLite, decoded JSONB on PostgreSQL
        decoded = json.loads(settings) if isinstance(settings, str) else settings
        found.extend((str(studio), str(game), str(name)) for name in decoded.get("areas") or {})
    return found


def _read(db: str, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """The rows of a read (``?`` placeholders) on the database, before the store opens; none when the
    database or the table is not there yet."""
    if is_postgres(db):
        import psycopg

        with psycopg.connect(db, connect_timeout=10) as conn:
            try:
                return list(conn.execute(sql.replace("?", "%s"), params).fetchall())
            except psycopg.errors.UndefinedTable:
                return []
    try:
        with contextlib.closing(sqlite3.connect(f"file:{sqlite_path(db)}?mode=ro", uri=True)) as conn:
            return list(conn.execute(sql, params).fetchall())
    except sqlite3.OperationalError:
        return []


def served(db: str, names: Iterable[str]) -> tuple[ServerArea, ...]:
    """The studio's areas a server of ``db`` serves: those ``names`` names (the config: ``serve --area``,
    entry points), then those the studios recorded (:func:`recorded`). Refused if a game configures an
    area none of them is, naming each such section."""
    loaded = load([*names, *recorded(db)])
    serving = {a.name for a in loaded}
    missing = [
        f"studio {studio}: games.{game}.areas.{name} configures area {name}, which this server does not"
        " serve (name its package in the studio's [plugins] areas and apply again, or serve --area)"
        for studio, game, name in configured(db)
        if name not in serving
    ]
    if missing:
        raise PluginError("\n".join(missing))
    return loaded


def load(names: Iterable[str]) -> tuple[ServerArea, ...]:
    """The studio's areas named, each once, in the order first named; refused if two areas (the
    service's own included) claim one name (:func:`livecore.registry.areas`)."""
    loaded = tuple(load_area(name) for name in dict.fromkeys(names))
    try:
        registry.areas(a.area for a in loaded)
    except registry.AreaConflict as exc:
        raise PluginError(str(exc)) from None
    return loaded
