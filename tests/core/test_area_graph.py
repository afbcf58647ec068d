"""The areas build on each other in one declared direction (docs/architecture.md, "How the areas depend on
each other"): the registry refuses a graph that is not one; an area's packages (``livecore/<area>/``,
``livecore_server/<area>/``, ``livecore_client/resources/<area>.py``) import another area's only if it builds
on it, directly or through the areas it builds on, every import counted (type-only and deferred ones too),
so no two areas import each other, an import of a shared module counting as importing every area that
module reaches; the assembly (:data:`ASSEMBLY`) is the one top layer, which nothing else imports, and its
generated facades are not stale; the names of an area are defined in its own packages; and the
architecture page draws the declared graph."""

from __future__ import annotations

import ast
import functools
import importlib
from collections import defaultdict
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from livecore import area_graph, assembly, registry
from livecore.area import Area
from tests.core.test_layering import ROOT, _imports, _modules

#: The built-in areas, each a package of its own (``livecore/<area>/area.py``).
PACKAGED = [area.name for area in registry.installed()]


def _area(module: str) -> str | None:
    """The area whose package holds ``module`` (``livecore.gifts.rules``, ``livecore_server.gifts.sql``,
    ``livecore_client.resources.gifts``), or None for a shared module."""
    parts = module.split(".")
    if parts[:2] == ["livecore_client", "resources"]:
        parts = parts[1:]
    if parts[0] in ("livecore", "livecore_server", "resources") and len(parts) > 1 and parts[1] in PACKAGED:
        return parts[1]
    return None


#: The assembly: the one top layer, the modules that list every area by design (docs/architecture.md, "The
#: assembly"): the list of the installed areas, the all-ports transaction, the server's entry points, the
#: clients' facades, errors, models and webhooks, the simulation's player and actions, and the generators
#: of the facades (the built-in areas' and a studio's). Nothing else imports them.
ASSEMBLY = {
    "livecore.areas",
    "livecore.assembly",
    "livecore.studio_facades",
    "livecore.transaction",
    "livecore.simulation.player",
    "livecore.simulation.actions",
    # The server's entry points, which put the served areas together into a running service.
    "livecore_server.app",
    "livecore_server.cli",
    "livecore_server.cli_serve",
    "livecore_server.demo",
    "livecore_server.embedded",
    "livecore_server.entry",
    "livecore_server.testing",
    "livecore_client",
    "livecore_client.sdk",
    "livecore_client.server",
    "livecore_client.admin",
    "livecore_client.models",
    "livecore_client.errors",
    "livecore_client.webhooks",
}
#: The files of the assembly, for the tests that read paths.
FACADES = {"/".join(name.split(".")) + ("/__init__.py" if "." not in name else ".py") for name in ASSEMBLY}


@functools.cache
def _graph() -> dict[str, set[str]]:
    """Every module of the three packages with the modules of them it imports, every import counted."""
    modules = _modules("livecore", "livecore_server", "livecore_client")
    return {
        name: {m for m in _imports(path, type_only=True, deferred=True) if m in modules and m != name}
        for name, path in modules.items()
    }


@functools.cache
def _through_shared(module: str) -> dict[str, tuple[str, ...]]:
    """The areas a shared module reaches through the shared modules it imports, each with the first path
    found (``livecore.x -> livecore.y -> livecore.gifts.rules``). The walk stops at an area's module and at
    the assembly's, which :func:`test_nothing_outside_the_assembly_imports_it` reports on its own."""
    graph = _graph()
    found: dict[str, tuple[str, ...]] = {}
    seen = {module}
    todo = [(module,)]
    while todo:
        path = todo.pop(0)
        for imported in sorted(graph.get(path[-1], ())):
            if imported in seen or imported in ASSEMBLY:
                continue
            seen.add(imported)
            area = _area(imported)
            if area is not None:
                found.setdefault(area, (*path, imported))
            else:
                todo.append((*path, imported))
    return found


@functools.cache
def _reaches(through_shared: bool = False) -> dict[str, dict[str, list[str]]]:
    """For each area, the other areas its packages import, each with the importing files and the modules
    they import (``livecore/gifts/rules.py -> livecore.crates.rules``, not each name imported from it);
    ``through_shared``: the other areas reached instead through a shared module they import, each with the
    way (``livecore/gifts/rules.py -> livecore.shared -> livecore.crates.rules``). Read once per run:
    every area's test reads it."""
    found: dict[str, dict[str, list[str]]] = {name: defaultdict(list) for name in PACKAGED}
    for name, path in _modules("livecore", "livecore_server", "livecore_client").items():
        own = _area(name)
        if own is None:
            continue
        imported = set(_imports(path, type_only=True, deferred=True))
        for module in sorted(imported):
            other = _area(module)
            if other is not None and other != own and module.rpartition(".")[0] not in imported:
                if not through_shared:
                    found[own][other].append(f"{path.relative_to(ROOT)} -> {module}")
            elif through_shared and other is None and module in _graph() and module not in ASSEMBLY:
                for area, way in sorted(_through_shared(module).items()):
                    if area != own:
                        found[own][area].append(f"{path.relative_to(ROOT)} -> {' -> '.join(way)}")
    return found


def test_every_built_in_area_is_a_package_that_declares_it() -> None:
    for area in registry.installed():
        declared = importlib.import_module(f"livecore.{area.name}.area").AREA
        assert declared is area, area.name


# --- the registry refuses a graph that is not one ---------------------------------------------------------


def test_every_built_in_area_builds_only_on_areas_registered_before_it() -> None:
    assert registry.areas() == registry.installed()
    position = {area.name: index for index, area in enumerate(registry.installed())}
    assert all(position[base] < position[a.name] for a in registry.installed() for base in a.builds_on)


def test_an_area_that_builds_on_an_unknown_area_is_refused() -> None:
    with pytest.raises(registry.AreaConflict, match="area quests: it builds on 'achievements', which is no"):
        registry.areas([Area("quests", "", "quests", builds_on=("achievements",))])


@pytest.mark.parametrize(
    "studio",
    [
        [Area("quests", "", "quests", builds_on=("quests",))],
        [
            Area("quests", "", "quests", builds_on=("streaks",)),
            Area("streaks", "", "q", builds_on=("quests",)),
        ],
    ],
    ids=["itself", "through-another"],
)
def test_an_area_that_builds_on_itself_is_refused(studio: list[Area]) -> None:
    with pytest.raises(registry.AreaConflict, match="area quests: it builds on itself, quests -> "):
        registry.areas(studio)


def test_an_area_registered_before_one_it_builds_on_is_refused() -> None:
    studio = [Area("quests", "", "quests", builds_on=("streaks",)), Area("streaks", "", "q")]
    with pytest.raises(
        registry.AreaConflict, match="area quests: it builds on streaks, which is registered after"
    ):
        registry.areas(studio)


def test_an_area_builds_on_what_its_bases_build_on() -> None:
    studio = [
        Area("streaks", "", "q", builds_on=("grants",)),
        Area("quests", "", "quests", builds_on=("streaks", "friends")),
    ]
    found = registry.bases(registry.areas(studio))
    assert found["quests"] == {"streaks", "friends", *found["streaks"], *found["friends"]}
    assert {"grants", "economy", "players"} <= found["quests"]
    assert found["players"] == frozenset()


# --- the packages import what their areas build on, and nothing else ------------------------------------


@pytest.mark.parametrize("area", PACKAGED)
def test_an_area_imports_only_the_areas_it_builds_on(area: str) -> None:
    """Each import of another area's package by this one's, when this area does not build on that one,
    directly or through the areas it builds on (:attr:`livecore.area.Area.builds_on`)."""
    allowed = registry.bases(registry.installed())[area]
    outside = {other: files for other, files in _reaches()[area].items() if other not in allowed}
    if outside:
        listed = "\n".join(f"  {other}: {line}" for other, files in sorted(outside.items()) for line in files)
        pytest.fail(f"{area} builds on {sorted(allowed) or 'nothing'}, yet imports:\n{listed}", pytrace=False)


#: The pairs of areas (an area, another it does not build on) that one reaches through the shared modules
#: it imports, as many as there are now so that the count only falls: the goal is none, each shared module
#: naming no area.
THROUGH_SHARED = 10


def test_no_area_reaches_an_area_it_does_not_build_on_through_shared_modules() -> None:
    """Each area's import of a shared module that imports, itself or through other shared modules, an
    area this one does not build on, with the way."""
    bases = registry.bases(registry.installed())
    outside = {
        (area, other): ways
        for area, reached in _reaches(through_shared=True).items()
        for other, ways in reached.items()
        if other not in bases[area]
    }
    if len(outside) > THROUGH_SHARED:
        listed = "\n".join(f"  {a} -> {o}: {ways[0]}" for (a, o), ways in sorted(outside.items()))
        pytest.fail(
            f"{len(outside)} areas reach one they do not build on through shared modules (at most "
            f"{THROUGH_SHARED}):\n{listed}",
            pytrace=False,
        )


def test_no_two_areas_import_each_other() -> None:
    """Each pair that does, with the imports of the way that has fewer (the likelier one to go) and how
    many the other way has."""
    reaches = _reaches()
    pairs = sorted({tuple(sorted((a, b))) for a in reaches for b in reaches[a] if a in reaches.get(b, {})})
    listed = []
    for a, b in pairs:
        few, many = sorted(((a, b), (b, a)), key=lambda way: len(reaches[way[0]][way[1]]))
        listed.append(f"{few[0]} -> {few[1]} ({len(reaches[many[0]][many[1]])} imports the other way):")
        listed.extend(f"  {line}" for line in reaches[few[0]][few[1]])
    if listed:
        pytest.fail("\n".join(listed), pytrace=False)


#: The shared modules (outside every area's packages and the assembly) that import an area's package: what
#: the core still assembles away from the one top layer. The count only falls; the goal is none.
SHARED_IMPORTING_AREAS = 0


def _shared_importing_areas() -> dict[str, set[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    for name, path in _modules("livecore", "livecore_server", "livecore_client").items():
        if _area(name) is None and name not in ASSEMBLY:
            for module in _imports(path, type_only=True, deferred=True):
                if (other := _area(module)) is not None:
                    found[name].add(other)
    return found


def test_no_more_shared_modules_import_an_area_than_before() -> None:
    shared = _shared_importing_areas()
    listed = "\n".join(f"  {name}: {', '.join(sorted(found))}" for name, found in sorted(shared.items()))
    assert len(shared) <= SHARED_IMPORTING_AREAS, f"{len(shared)} shared modules import areas:\n{listed}"


#: The modules outside the assembly that import one of its modules, as many as there are now so that the
#: count only falls: the assembly is the top, and the goal is none.
IMPORTING_THE_ASSEMBLY = 7


def _importing_the_assembly() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name, path in _modules("livecore", "livecore_server", "livecore_client").items():
        if name not in ASSEMBLY:
            imported = sorted(m for m in set(_imports(path, type_only=True, deferred=True)) if m in ASSEMBLY)
            if imported:
                found[name] = imported
    return found


def test_nothing_outside_the_assembly_imports_it() -> None:
    """The assembly is the top layer: an area's module or a shared one that imports it (every import
    counted) would import every area through it."""
    found = _importing_the_assembly()
    listed = "\n".join(f"  {name} -> {', '.join(modules)}" for name, modules in sorted(found.items()))
    assert len(found) <= IMPORTING_THE_ASSEMBLY, f"{len(found)} modules import the assembly:\n{listed}"


@pytest.mark.parametrize(
    "module",
    [
        "livecore_server.services",
        "livecore_server.http.middlewares",
        "livecore_server.audit",
        "livecore_server.cli",
    ],
)
def test_the_servers_shared_doors_name_no_area(module: str) -> None:
    """The services, the guard, the audit log's writer and the root command reach every area through what
    it declares (``ServerArea.services``, ``admission``, its ``cli`` module): none imports an area's
    package, every import counted."""
    named = sorted({area for imported in _graph()[module] if (area := _area(imported)) is not None})
    assert named == []


def test_no_module_imports_the_list_of_installed_areas() -> None:
    """The list of the installed areas (:mod:`livecore.areas`) is read once, at start, through the
    package's entry point (:func:`livecore.registry.installed`): no module of the three packages imports
    it, every import counted, so each is handed the areas it works on."""
    importing = sorted(name for name, imported in _graph().items() if "livecore.areas" in imported)
    assert importing == []
    found = entry_points(group="livecore", name="areas")
    assert [entry.value for entry in found] == ["livecore.areas:BUILT_IN"]


def test_the_assembly_s_generated_facades_are_current() -> None:
    stale = [str(path.relative_to(ROOT)) for path in assembly.stale()]
    assert not stale, f"stale: {', '.join(stale)}: run python -m livecore.assembly"


def test_the_season_and_its_report_import_no_area() -> None:
    """Each import of an area's package by the simulated season (``livecore/simulation``, but its facade)
    or its report (``livecore_server/simulate``): what a player of an area does, its population fields and
    tables, and its part of the report are the area's own (``Area.season``, ``ServerArea.report``), so a
    studio's area takes part as a built-in one does."""
    found = []
    for path in _modules("livecore/simulation", "livecore_server/simulate").values():
        if path.relative_to(ROOT).as_posix() in FACADES:
            continue
        imported = _imports(path, type_only=True, deferred=True)
        found.extend(f"  {path.relative_to(ROOT)} -> {module}" for module in imported if _area(module))
    assert not found, "the season or its report imports an area:\n" + "\n".join(sorted(found))


# --- an area's names are defined in its own packages ------------------------------------------------------

#: The word of each area's names, with how many definitions may name it outside the area's packages, as
#: many as there are now so that the count only falls: live events seat lobbies, so an attempt's
#: ``lobby_id``, its board entry's and the wire's are the events', as is the 202 ``lobby_forming`` a start
#: answers; a player's profile lists its lobby memberships.
NAMED = {
    "guild": ("guilds", 0),
    "crate": ("crates", 0),
    "gift": ("gifts", 0),
    "lobby": ("lobbies", 8),
    "team": ("teams", 0),
}


def _definitions(path: Path) -> list[tuple[str, int]]:
    """Every name ``path`` defines: functions, classes, assigned names (module, class and local ones)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.append((node.name, node.lineno))
        elif isinstance(node, ast.Assign):
            found.extend((t.id, node.lineno) for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.append((node.target.id, node.lineno))
    return found


def _named_outside(word: str) -> list[str]:
    """``path:line name`` of each definition naming ``word`` outside its area's packages and the facades."""
    package = NAMED[word][0]
    own = (f"livecore/{package}/", f"livecore_server/{package}/", f"livecore_client/resources/{package}")
    outside: list[str] = []
    for path in sorted(ROOT.glob("livecore*/**/*.py")):
        where = path.relative_to(ROOT).as_posix()
        if where.startswith(own) or where in FACADES:
            continue
        outside.extend(f"{where}:{line} {name}" for name, line in _definitions(path) if word in name.lower())
    return outside


@pytest.mark.parametrize("word", list(NAMED))
def test_an_area_s_names_are_defined_in_its_own_packages(word: str) -> None:
    most = NAMED[word][1]
    package = NAMED[word][0]
    outside = [f"  {found}" for found in _named_outside(word)]
    if len(outside) > most:
        listed = "\n".join(outside)
        pytest.fail(
            f"{len(outside)} names of {package} outside its packages (at most {most}):\n{listed}",
            pytrace=False,
        )


# --- the architecture page draws the declared graph ------------------------------------------------------


def test_the_architecture_page_draws_the_declared_graph() -> None:
    text = area_graph.DOC.read_text(encoding="utf-8")
    assert area_graph.rewrite(text) == text, (
        "docs/architecture.md is stale: run python -m livecore.area_graph"
    )


def test_the_drawing_has_each_area_and_an_arrow_to_each_area_it_builds_on() -> None:
    studio = [Area("quests", "", "quests", builds_on=("grants", "friends"))]
    drawn = area_graph.mermaid(registry.areas(studio)).splitlines()
    assert drawn[0] == "flowchart TD"
    assert {"    players", "    quests", "    quests --> grants", "    quests --> friends"} <= set(drawn)
    assert (
        len([line for line in drawn if "-->" in line])
        == sum(len(a.builds_on) for a in registry.installed()) + 2
    )
