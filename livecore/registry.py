"""The registry: what is shared, built from the areas a process registers, naming none of them.

The service's own areas are listed once, in :mod:`livecore.areas`, which nothing imports: the package's
metadata names it (its entry point ``livecore`` / ``areas``, pyproject.toml), and :func:`installed` reads it
there once, the first time an entry point asks (the app, the embedded world, the CLI, the generators), as
Django reads ``INSTALLED_APPS`` when it starts. A studio's own areas come after them (:func:`areas`); each
is declared as the built-in ones are (:class:`livecore.area.Area`, docs/extending.md). Everything below
the entry points is handed the areas it works on: the route table, the webhook kinds, the jobs, the
checks, the manifest's sections are each a function of them.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from types import ModuleType
from typing import Any, cast

import attrs

from livecore.api.request import Handler
from livecore.api.route import Route
from livecore.area import Area
from livecore.commands import Runtime
from livecore.contributions import Contributions
from livecore.entry_points import installed_areas
from livecore.errors import Code
from livecore.games import GameSettings
from livecore.hooks import Checks
from livecore.ids import Prefix
from livecore.schedule import Job
from livecore.section import Section
from livecore.webhooks.payload import WebhookPayload


def installed() -> tuple[Area, ...]:
    """The service's own areas, in the order their routes are mounted and listed, their jobs run when due
    at the same time, and the reference lists them: read once from the package's metadata."""
    return cast(tuple[Area, ...], installed_areas())


def runtime(studio: Iterable[Area] = (), **given: Any) -> Runtime:
    """A runtime of the installed areas and the ``studio``'s own (refused as the server refuses them):
    their checks on built-in commands and what they add to each other's tables, the steps of a merge and
    an erasure among them. ``given``: its other fields (``clock``, ``rng``, ``hasher``)."""
    served = areas(studio)
    return Runtime(checks=checks(served), contributions=Contributions(served), **given)


class AreaConflict(ValueError):
    """Two areas claim one name (an area, a route, a method and path, an admin route's operator action, a
    webhook kind, an error code, a port, a job, a record id in a path or a manifest section), or an area
    builds on one that is not registered, is registered after it, or builds on it in turn."""


#: The keys of a game's own table in the manifest, beside the areas' sections.
GAME_FIELDS = ("name", "economy", "api_keys", "webhooks", "exchange_rates", "platforms", "areas")


def areas(studio: Iterable[Area] = ()) -> tuple[Area, ...]:
    """The installed areas and then the ``studio``'s, refused if any two claim one name or their
    dependencies (:attr:`~livecore.area.Area.builds_on`) are not one graph without a cycle, in which
    each area comes after those it builds on. A query: what a process serves is its runtime's to say
    (:func:`livecore.contributions.serve`)."""
    return checked((*installed(), *studio))


def checked(areas: Sequence[Area]) -> tuple[Area, ...]:
    """``areas``, refused as :func:`areas` refuses them."""
    areas = tuple(areas)
    claimed: dict[tuple[str, str], str] = {}
    shared = {
        "id prefix": {prefix.value for prefix in Prefix},
        # A game's own fields (livecore.manifest.GameManifest), which no section may take.
        "manifest section": {f"game.{name}" for name in GAME_FIELDS},
    }

    def claim(what: str, name: str, area: Area) -> None:
        other = claimed.setdefault((what, name), area.name)
        if other != area.name or name in shared.get(what, ()):
            raise AreaConflict(f"area {area.name}: {what} {name!r} is taken by {other}")

    names = [area.name for area in areas]
    for area in areas:
        if names.count(area.name) > 1:
            raise AreaConflict(f"area {area.name}: two areas have this name")
        for route in area.routes:
            claim("route", route.name, area)
            claim("path", f"{route.method} {route.surface.value}{route.path}", area)
            if route.action is not None and route.action.is_write:
                claim("operator action", route.action.value, area)
        for payload in area.webhooks:
            claim("webhook kind", payload.KIND, area)
        for sample in area.samples:
            claim("webhook sample", sample.KIND, area)
        for code in area.errors:
            claim("error code", code.value, area)
        for port in area.ports:
            claim("port", port, area)
        for prefix in area.id_prefixes:
            claim("id prefix", prefix, area)
        for job in area.jobs:
            claim("job", job.name, area)
        for param in area.record_ids:
            claim("record id", param, area)
        for section in area.manifest:
            claim(
                "manifest section",
                f"{section.within or 'game'}.{section.key}",
                area,
            )
            # A flat section's fields share the table they sit in: two areas may not both add one.
            for field in attrs.fields(section.record) if section.flat else ():
                claim("manifest field", f"{section.within}.{field.name}", area)
    _check_graph(areas)
    return areas


class AreaNotFound(ValueError):
    """A studio's area package that cannot be imported, or that declares no area; its message is one line
    naming the package and why."""


def importable(name: str) -> ModuleType | None:
    """The module ``name``, or None where it (or a package it is in) does not exist; a module that exists
    but fails as it imports (an import inside it) raises that failure, so its cause is seen."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (exc.name == name or name.startswith(exc.name + ".")):
            return None
        raise


def declaring(name: str) -> ModuleType:
    """The module declaring the core side of the area package ``name``: its ``area`` module, else the
    package itself (an area of one module, ``examples/studio_daily``). Raises :class:`AreaNotFound` when
    the package cannot be imported."""
    package = importable(name)
    if package is None:
        raise AreaNotFound(f"area {name}: no module named {name!r} can be imported")
    return importable(f"{name}.area") or package


def studio_area(name: str) -> Area:
    """The core declaration of the area package ``name``: the ``AREA`` of its :func:`declaring` module,
    found as the server finds it (``livecore_server.plugins.load_area``, which looks for a server side
    first). Raises :class:`AreaNotFound` when it cannot be imported or declares none."""
    found = getattr(declaring(name), "AREA", None)
    if not isinstance(found, Area):
        raise AreaNotFound(f"area {name}: neither {name}.area.AREA nor {name}.AREA is declared")
    return found


def _check_graph(areas: Sequence[Area]) -> None:
    position = {area.name: index for index, area in enumerate(areas)}
    graph = {area.name: area.builds_on for area in areas}
    for area in areas:
        unknown = [name for name in area.builds_on if name not in position]
        if unknown:
            raise AreaConflict(f"area {area.name}: it builds on {unknown[0]!r}, which is no registered area")
    for area in areas:
        for base in area.builds_on:
            back = _path(graph, base, area.name)
            if back is not None:
                circle = " -> ".join([area.name, *back])
                raise AreaConflict(f"area {area.name}: it builds on itself, {circle}")
    for area in areas:
        later = [name for name in area.builds_on if position[name] > position[area.name]]
        if later:
            raise AreaConflict(f"area {area.name}: it builds on {later[0]}, which is registered after it")


def _path(graph: Mapping[str, Sequence[str]], start: str, goal: str) -> list[str] | None:
    """The areas from ``start`` to ``goal`` along what each builds on, or None when ``goal`` is not
    reached."""
    trail: dict[str, str | None] = {start: None}
    todo = [start]
    while todo:
        name = todo.pop()
        if name == goal:
            path = [name]
            while (before := trail[path[-1]]) is not None:
                path.append(before)
            return path[::-1]
        for base in graph.get(name, ()):
            if base not in trail:
                trail[base] = name
                todo.append(base)
    return None


def bases(areas: Sequence[Area]) -> dict[str, frozenset[str]]:
    """Every area each of ``areas`` (as :func:`registered` answers them) builds on, directly or through
    the areas it builds on: the areas whose packages its own may import."""
    found: dict[str, frozenset[str]] = {}
    for area in areas:
        found[area.name] = frozenset(area.builds_on).union(*(found[name] for name in area.builds_on))
    return found


def routes(areas: Sequence[Area]) -> tuple[Route, ...]:
    return tuple(route for area in areas for route in area.routes)


def handlers(areas: Sequence[Area]) -> dict[Route, Handler]:
    """The handler of every route the areas run on a store transaction alone (:attr:`Area.handlers`)."""
    return {route: handler for area in areas for route, handler in area.handlers.items()}


def webhook_kinds(areas: Sequence[Area]) -> dict[str, type[WebhookPayload]]:
    return {payload.KIND: payload for area in areas for payload in area.webhooks}


def webhook_samples(areas: Sequence[Area]) -> dict[str, WebhookPayload]:
    """The placeholder payload of each kind that has one, for sample deliveries."""
    return {sample.KIND: sample for area in areas for sample in area.samples}


def limits(areas: Sequence[Area]) -> dict[str, list[tuple[str, str]]]:
    """The limits the areas declare (:attr:`livecore.area.Area.limits`), by page, in the areas' order."""
    by_page: dict[str, list[tuple[str, str]]] = {}
    for area in areas:
        for page, rows in area.limits().items():
            by_page.setdefault(page, []).extend(rows)
    return by_page


def jobs(areas: Sequence[Area]) -> tuple[Job, ...]:
    return tuple(job for area in areas for job in area.jobs)


def checks(areas: Sequence[Area]) -> Checks:
    """The checks the areas add to built-in commands, for a :class:`livecore.commands.Runtime`: checked
    against the specifications of the installed areas and of ``areas`` (a studio's area alone checks the
    built-in commands as well as with them)."""
    specs = {a.name: a.hookspecs for a in (*installed(), *areas) if a.hookspecs is not None}
    return Checks((area.hooks for area in areas if area.hooks is not None), specs.values())


def record_ids(areas: Sequence[Area]) -> dict[str, Code]:
    """Every path parameter that names a record, with its not-found code."""
    return {param: code for area in areas for param, code in area.record_ids.items()}


def error_codes(areas: Sequence[Area]) -> tuple[Code, ...]:
    """Every error code of the areas, each as the area that owns it declares it (the generic ones are the
    system area's), in the areas' order: the reference's table of codes."""
    return tuple(code for area in areas for code in area.errors)


def sections(areas: Sequence[Area]) -> tuple[Section, ...]:
    """The manifest sections the areas bring, in the areas' order (:mod:`livecore.manifest`)."""
    return tuple(section for area in areas for section in area.manifest)


def remembered(areas: Sequence[Area]) -> tuple[str, ...]:
    """The keys of the game's sections whose ``enabled`` a game remembers once on
    (:attr:`livecore.section.Section.remembered`), each stored in the games table's
    ``<key>_ever_enabled`` column."""
    return tuple(section.key for section in sections(areas) if section.remembered and section.within is None)


def remembered_on(settings: GameSettings, areas: Sequence[Area]) -> frozenset[str]:
    """The keys of the remembered sections ``settings`` turn on: what a game's ``ever_enabled`` gains when
    they are applied."""
    return frozenset(
        section.key
        for section in sections(areas)
        if section.remembered
        and section.within is None
        and section.holds is not None
        and settings.of(section.holds).enabled
    )
