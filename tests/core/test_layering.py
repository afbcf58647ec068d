"""The layout's promises (docs/architecture.md, "Areas"): no import circle inside the core, the server or
the client, every import counted (type-only and deferred ones too), the core imports nothing of the server
or the client, and no store port grows past 25 methods. Which area may import which is
tests/core/test_area_graph.py's."""

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


def _imports(path: Path, *, type_only: bool = False, deferred: bool = False) -> Iterator[str]:
    """What a module imports as it loads: its top-level imports, outside ``if TYPE_CHECKING`` unless
    ``type_only`` counts those too, and outside functions and classes unless ``deferred`` counts those too
    (an import inside a function runs when it is called: how a module defers a heavy dependency, still a
    dependency). ``from package import module`` names the module; a relative import is read from the
    module's own package."""
    package = _module(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test) and not type_only:
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and not deferred:
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


def _circles(modules: dict[str, Path]) -> list[list[str]]:
    """The import circles among ``modules``, every import counted."""
    graph = {
        name: {m for m in _imports(path, type_only=True, deferred=True) if m in modules and m != name}
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


@pytest.mark.parametrize("package", ["livecore", "livecore_server", "livecore_client"])
def test_no_import_circle_counting_type_only_and_deferred_imports(package: str) -> None:
    """Within each package, no module imports itself through others, not even for the type checker or
    inside a function: the core's areas build on each other in one direction and the shared modules
    know them through the registry; the server's storage is built from the areas' declarations; the
    client's resources build on the shared base and the clients assemble them."""
    circles = _circles(_modules(package))
    if circles:
        pytest.fail("\n".join(f"{len(c)} modules: {', '.join(c)}" for c in circles), pytrace=False)


def test_the_core_imports_nothing_of_the_server_or_the_client() -> None:
    for name, path in _modules("livecore").items():
        imported = _imports(path, type_only=True, deferred=True)
        outside = [m for m in imported if m.startswith(("livecore_server", "livecore_client"))]
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
