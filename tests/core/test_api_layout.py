"""The route registry: every route an area's ``api`` module (and its ``admin`` module, its admin routes)
declares is in that area's declaration, and ``routes.ALL`` is the areas' routes, each once."""

from __future__ import annotations

import importlib

from livecore import registry
from livecore.api.route import Route
from tests import installed as routes


def test_every_route_an_area_declares_is_in_its_area() -> None:
    for area in registry.installed():
        modules = [importlib.import_module(f"livecore.{area.name}.api")]
        modules += [m for m in [registry.importable(f"livecore.{area.name}.admin")] if m is not None]
        declared = {
            value for module in modules for value in vars(module).values() if isinstance(value, Route)
        }
        assert declared == set(area.routes), area.name


def test_all_is_the_areas_routes_each_once_in_their_order() -> None:
    assert tuple(route for area in registry.installed() for route in area.routes) == routes.ALL
    assert len(routes.ALL) == len(set(routes.ALL))
