"""The layout's promises (docs/architecture.md, "Areas"): no import circle inside the core or the server
(nor in the client, nor through a lobby and an event board, type-only imports counted), the core imports
nothing of the server or the client, and no store port grows past 25 methods."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WIDEST_PORT = 25


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules(*packages: str) -> dict[str, Path]:
    return {_module(p): p for package in packages for p in (ROOT / package).rglob("*.py")}


def _is_module(name: str) -> bool:
    where = ROOT.joinpath(*name.split("."))
    return where.with_suffix(".py").is_file() or (where / "__init__.py").is_file()


def _imports(path: Path, *, type_only: bool = False) -> Iterator[str]:
    """What a module imports as it loads: its top-level imports, outside ``if TYPE_CHECKING`` unless
    ``type_only`` counts those too (an import inside a function runs when it is called, and is how a
    module defers a heavy dependency). ``from package import module`` names the module; a relative
    import is read from the module's own package."""
    package = _module(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test) and not type_only:
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for found in ast.walk(node):
            if isinstance(found, ast.Import):
                yield from (alias.name for alias in found.names)
            elif isinstance(found, ast.ImportFrom):
                base = package[: len(package) - found.level + 1] if found.level else []
                module = ".".join([*base, *([found.module] if found.module else [])])
                named = [f"{module}.{alias.name}" for alias in found.names]
                if not all(_is_module(name) for name in named):
                    yield module
                yield from named


def _circles(modules: dict[str, Path], *, type_only: bool = False) -> list[list[str]]:
    graph = {
        name: {m for m in _imports(path, type_only=type_only) if m in modules and m != name}
        for name, path in modules.items()
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


@pytest.mark.parametrize("packages", [("livecore",), ("livecore", "livecore_server")], ids=["core", "server"])
def test_no_import_circle(packages: tuple[str, ...]) -> None:
    assert _circles(_modules(*packages)) == []


def test_no_import_circle_in_the_client_counting_type_only_imports() -> None:
    """The resources build on the shared base and the clients assemble them: no resource names a client,
    not even for the type checker."""
    assert _circles(_modules("livecore_client"), type_only=True) == []


def test_live_events_build_on_lobbies_so_a_lobby_and_an_event_board_are_on_no_circle() -> None:
    """Live events seat lobbies: an event board may read a lobby's seats, a lobby's rules never an event
    board, counting type-only imports."""
    on_board_or_lobby = [
        circle
        for circle in _circles(_modules("livecore"), type_only=True)
        if {"livecore.live_events.boards", "livecore.lobbies.rules"} & set(circle)
    ]
    assert on_board_or_lobby == []


def test_the_core_imports_nothing_of_the_server_or_the_client() -> None:
    for name, path in _modules("livecore").items():
        outside = [m for m in _imports(path) if m.startswith(("livecore_server", "livecore_client"))]
        assert outside == [], name


def test_no_store_port_has_more_than_25_methods() -> None:
    widest: dict[str, int] = {}
    for name, path in _modules("livecore").items():
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef) and any(
                ast.unparse(b).endswith("Protocol") for b in node.bases
            ):
                methods = [
                    item
                    for item in node.body
                    if isinstance(item, ast.FunctionDef)
                    and "property" not in map(ast.unparse, item.decorator_list)
                ]
                widest[f"{name}.{node.name}"] = len(methods)
    assert max(widest.values()) <= WIDEST_PORT, sorted(widest.items(), key=lambda kv: -kv[1])[:3]


def _area(module: str) -> str:
    """The area whose package holds a module: ``livecore.<area>``, ``livecore_server.<area>`` or the
    client's ``livecore_client.resources.<area>`` (a shared module answers its own name)."""
    parts = module.split(".")
    if parts[:2] == ["livecore_client", "resources"]:
        parts = parts[1:]
    return parts[1] if len(parts) > 1 else module


def test_player_tools_build_on_players_and_economy_so_neither_imports_player_tools() -> None:
    """Merge, erasure and migration fold players and their holdings: the player tools import players and
    economy, never the other way (the core's, the server's and the client's packages of each, type-only
    imports counted)."""
    upward = {
        name: sorted(m for m in _imports(path, type_only=True) if _area(m) == "player_tools")
        for name, path in _modules("livecore", "livecore_server", "livecore_client").items()
        if _area(name) in ("players", "economy")
    }
    assert {name: found for name, found in upward.items() if found} == {}


def test_friends_build_on_players_so_no_players_module_imports_friends() -> None:
    """Presence (a player's online status) and the name match of the players' search are the players';
    friends read them. Friends import players, never the other way (the core's, the server's and the
    client's packages of each, type-only imports counted)."""
    upward = {
        name: sorted(m for m in _imports(path, type_only=True) if _area(m) == "friends")
        for name, path in _modules("livecore", "livecore_server", "livecore_client").items()
        if _area(name) == "players"
    }
    assert {name: found for name, found in upward.items() if found} == {}


def test_leaderboards_build_on_live_events_so_no_live_events_module_imports_leaderboards() -> None:
    """Leagues reuse the event boards' ranking and an event's attempts feed leagues: leaderboards import
    live events, never the other way; the feeding is a step the leaderboards area registers with live
    events (the core's, the server's and the client's packages of each, type-only imports counted)."""
    upward = {
        name: sorted(m for m in _imports(path, type_only=True) if _area(m) == "leaderboards")
        for name, path in _modules("livecore", "livecore_server", "livecore_client").items()
        if _area(name) == "live_events"
    }
    assert {name: found for name, found in upward.items() if found} == {}
