"""The registered areas, and everything shared that is built from them.

:data:`BUILT_IN` lists the service's own areas once, in the order their routes are mounted and listed in
the OpenAPI documents, their jobs run when due at the same time, and the reference lists them. A studio's
own areas come after them (:func:`registered`); each is declared as the built-in ones are
(:class:`livecore.area.Area`, docs/extending.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from types import ModuleType

import attrs

from livecore import contributions
from livecore.api.request import Handler
from livecore.api.route import Route
from livecore.area import Area
from livecore.crates.area import AREA as CRATES
from livecore.economy.area import AREA as ECONOMY
from livecore.errors import Code
from livecore.friends.area import AREA as FRIENDS
from livecore.games import GameSettings
from livecore.gifts.area import AREA as GIFTS
from livecore.grants.area import AREA as GRANTS
from livecore.guilds.area import AREA as GUILDS
from livecore.hooks import Checks
from livecore.ids import Prefix
from livecore.leaderboards.area import AREA as LEADERBOARDS
from livecore.live_events.area import AREA as LIVE_EVENTS
from livecore.lobbies.area import AREA as LOBBIES
from livecore.operators.area import AREA as OPERATORS
from livecore.player_tools.area import AREA as PLAYER_TOOLS
from livecore.players.area import AREA as PLAYERS
from livecore.purchases.area import AREA as PURCHASES
from livecore.schedule import Job
from livecore.section import Section
from livecore.system.area import AREA as SYSTEM
from livecore.teams.area import AREA as TEAMS
from livecore.webhooks.payload import WebhookPayload

BUILT_IN: tuple[Area, ...] = (
    SYSTEM,
    PLAYERS,
    ECONOMY,
    GRANTS,
    CRATES,
    FRIENDS,
    GIFTS,
    PURCHASES,
    LIVE_EVENTS,
    LOBBIES,
    PLAYER_TOOLS,
    LEADERBOARDS,
    TEAMS,
    GUILDS,
    OPERATORS,
)


class AreaConflict(ValueError):
    """Two areas claim one name (an area, a route, a method and path, an admin route's operator action, a
    webhook kind, an error code, a port, a job, a record id in a path or a manifest section), or an area
    builds on one that is not registered, is registered after it, or builds on it in turn."""


#: The keys of a game's own table in the manifest, beside the areas' sections.
GAME_FIELDS = ("name", "economy", "api_keys", "webhooks", "exchange_rates", "platforms", "areas")


def registered(extra: Iterable[Area] = ()) -> tuple[Area, ...]:
    """The built-in areas and then ``extra`` (a studio's), refused if any two claim one name or their
    dependencies (:attr:`~livecore.area.Area.builds_on`) are not one graph without a cycle, in which
    each area comes after those it builds on."""
    areas = (*BUILT_IN, *extra)
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
    contributions.serve(areas[len(BUILT_IN) :])
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


def bases(areas: Sequence[Area] = BUILT_IN) -> dict[str, frozenset[str]]:
    """Every area each of ``areas`` (as :func:`registered` answers them) builds on, directly or through
    the areas it builds on: the areas whose packages its own may import."""
    found: dict[str, frozenset[str]] = {}
    for area in areas:
        found[area.name] = frozenset(area.builds_on).union(*(found[name] for name in area.builds_on))
    return found


def routes(areas: Sequence[Area] = BUILT_IN) -> tuple[Route, ...]:
    return tuple(route for area in areas for route in area.routes)


def handlers(areas: Sequence[Area] = BUILT_IN) -> dict[Route, Handler]:
    """The handler of every route the areas run on a store transaction alone (:attr:`Area.handlers`)."""
    return {route: handler for area in areas for route, handler in area.handlers.items()}


def webhook_kinds(areas: Sequence[Area] = BUILT_IN) -> dict[str, type[WebhookPayload]]:
    return {payload.KIND: payload for area in areas for payload in area.webhooks}


def webhook_samples(areas: Sequence[Area] = BUILT_IN) -> dict[str, WebhookPayload]:
    """The placeholder payload of each kind that has one, for sample deliveries."""
    return {sample.KIND: sample for area in areas for sample in area.samples}


def limits(areas: Sequence[Area] = BUILT_IN) -> dict[str, list[tuple[str, str]]]:
    """The limits the areas declare (:attr:`livecore.area.Area.limits`), by page, in the areas' order."""
    by_page: dict[str, list[tuple[str, str]]] = {}
    for area in areas:
        for page, rows in area.limits().items():
            by_page.setdefault(page, []).extend(rows)
    return by_page


def jobs(areas: Sequence[Area] = BUILT_IN) -> tuple[Job, ...]:
    return tuple(job for area in areas for job in area.jobs)


def checks(areas: Sequence[Area] = BUILT_IN) -> Checks:
    """The checks the areas add to built-in commands, for a :class:`livecore.commands.Runtime`: checked
    against the specifications of the built-in areas and of ``areas`` (a studio's area alone checks the
    built-in commands as well as with them); with the merge and erasure steps of ``areas`` beyond the
    built-in ones, which a merge and an erasure run after the built-in areas' own."""
    specs = {a.name: a.hookspecs for a in (*BUILT_IN, *areas) if a.hookspecs is not None}
    studio = [area for area in areas if area not in BUILT_IN]
    return Checks(
        (area.hooks for area in areas if area.hooks is not None),
        specs.values(),
        merges=(area.merge for area in studio if area.merge is not None),
        erasures=(area.erase for area in studio if area.erase is not None),
    )


def record_ids(areas: Sequence[Area] = BUILT_IN) -> dict[str, Code]:
    """Every path parameter that names a record, with its not-found code."""
    return {param: code for area in areas for param, code in area.record_ids.items()}


def error_codes(areas: Sequence[Area] = BUILT_IN) -> tuple[Code, ...]:
    """Every error code of the areas, each as the area that owns it declares it (the generic ones are the
    system area's), in the areas' order: the reference's table of codes."""
    return tuple(code for area in areas for code in area.errors)


def sections(areas: Sequence[Area] = BUILT_IN) -> tuple[Section, ...]:
    """The manifest sections the areas bring, in the areas' order (:mod:`livecore.manifest`)."""
    return tuple(section for area in areas for section in area.manifest)


def remembered(areas: Sequence[Area] = BUILT_IN) -> tuple[str, ...]:
    """The keys of the game's sections whose ``enabled`` a game remembers once on
    (:attr:`livecore.section.Section.remembered`), each stored in the games table's
    ``<key>_ever_enabled`` column."""
    return tuple(section.key for section in sections(areas) if section.remembered and section.within is None)


def remembered_on(settings: GameSettings, areas: Sequence[Area] = BUILT_IN) -> frozenset[str]:
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
