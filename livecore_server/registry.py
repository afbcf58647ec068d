"""The areas the server serves: the installed ones (:func:`livecore.registry.installed`, in the core's
order) and a studio's own, loaded by name (:mod:`livecore_server.plugins`); the app mounts their bindings
in this order, and a store keeps what they declare (:func:`storage`).

An installed area's server side is found by convention, as Django finds an application's ``admin``
module: ``livecore_server/<area>/area.py`` declares its ``SERVER_AREA``, or the area has none and serves
its core declaration alone. Nothing here names an area.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from livecore import registry
from livecore.area import Area
from livecore_server.area import ServerArea, storage_of
from livecore_server.storage.area_storage import AreaStorage

#: The package an installed area's server side is declared in, ``livecore_server.<area>``.
PACKAGE = "livecore_server"


def server_side(area: Area) -> ServerArea:
    """The server side of the installed ``area``: its package's ``area.SERVER_AREA``, else its core
    declaration alone."""
    module = registry.importable(f"{PACKAGE}.{area.name}.area")
    found = getattr(module, "SERVER_AREA", None)
    if found is None:
        return ServerArea(area)
    if not isinstance(found, ServerArea) or found.area is not area:
        raise registry.AreaConflict(
            f"area {area.name}: {PACKAGE}.{area.name}.area.SERVER_AREA is not its server side"
        )
    return found


@functools.cache
def installed() -> tuple[ServerArea, ...]:
    """The server side of every installed area, in the core's order: the route table, the documents and
    the mounted routes agree."""
    return tuple(server_side(area) for area in registry.installed())


@functools.cache
def _installed_storage() -> AreaStorage:
    return storage_of(installed())


def storage(studio: Iterable[ServerArea] = ()) -> AreaStorage:
    """What a store of the installed areas and the ``studio``'s own keeps (the stores' ``areas``)."""
    studio = tuple(studio)
    return storage_of((*installed(), *studio)) if studio else _installed_storage()
