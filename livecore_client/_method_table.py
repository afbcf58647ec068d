"""The generated table of every client method in docs/client.md: one row per public method of each of a
client's resources (``sdk.friends.list``), read from the code (its signature, the route its builder asks
for, what it returns, its docstring's first sentence). ``python -m livecore_client._method_table``
rewrites the table; ``--check`` only compares (the test suite runs the comparison, so a new method
without its row fails)."""

from __future__ import annotations

import argparse
import ast
import inspect
import re
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from livecore.api.route import Route

from ._client import BUILDER, resource
from .admin import AdminClient, AsyncAdminClient
from .sdk import AsyncSdkClient, SdkClient
from .server import AsyncServerClient, ServerClient

#: Each sync client, its async twin, and the name its methods are called on in the docs' examples.
CLIENTS: tuple[tuple[type[Any], type[Any], str], ...] = (
    (SdkClient, AsyncSdkClient, "sdk"),
    (ServerClient, AsyncServerClient, "server"),
    (AdminClient, AsyncAdminClient, "admin"),
)
DOC = Path(__file__).resolve().parent.parent / "docs" / "client.md"
_BLOCK = re.compile(r"(<!-- client methods: generated -->\n).*?(<!-- end client methods -->)", re.DOTALL)


def resources(client: type[Any]) -> dict[str, type[Any]]:
    """The client's resource classes by attribute name, in the order its classes bind them."""
    found: dict[str, type[Any]] = {}
    for cls in reversed(client.__mro__):
        for name, value in vars(cls).items():
            if isinstance(value, resource):
                found[name] = value.cls
    return found


def public_methods(client: type[Any]) -> dict[str, Callable[..., Any]]:
    """The methods of the client's resources by dotted name (``friends.list``), resource by resource in
    the order the client binds them, each resource's in the order its class defines them."""
    found: dict[str, Callable[..., Any]] = {}
    for attribute, cls in resources(client).items():
        for klass in reversed(cls.__mro__):
            for name, value in vars(klass).items():
                if callable(value) and not name.startswith("_") and not isinstance(value, type):
                    found[f"{attribute}.{name}"] = value
    return found


def routes_of(method: Callable[..., Any]) -> list[Route]:
    """The routes a method asks for: each ``Call(ROUTE, ...)`` in its builder (or in itself), resolved
    in the builder's module."""
    source_of = getattr(method, BUILDER, method)
    tree = ast.parse(textwrap.dedent(inspect.getsource(source_of)))
    scope = {**vars(sys.modules[source_of.__module__])}
    routes: list[Route] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            value = _resolve(node.args[0], scope)
            if isinstance(value, Route) and value not in routes:
                routes.append(value)
    if not routes:
        # A method that delegates to another builder of its class (a stream, a convenience form).
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute):
                continue
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                for cls in _owners(source_of):
                    helper = getattr(cls, node.attr, None)
                    if helper is not None and callable(helper) and helper is not source_of:
                        routes += [r for r in routes_of(helper) if r not in routes]
                        break
    return routes


def _resolve(node: ast.expr, scope: dict[str, Any]) -> Any:
    """The value a name (``REGISTER``) or a dotted name (``api.ME``, ``guilds.SDK_CREATE``) stands for."""
    if isinstance(node, ast.Name):
        return scope.get(node.id)
    if isinstance(node, ast.Attribute):
        return getattr(_resolve(node.value, scope), node.attr, None)
    return None


def _owners(function: Callable[..., Any]) -> Iterator[type[Any]]:
    module = sys.modules[function.__module__]
    owner = function.__qualname__.rsplit(".", 1)[0]
    cls = getattr(module, owner, None)
    if isinstance(cls, type):
        yield cls


def _signature(name: str, method: Callable[..., Any]) -> str:
    parameters = list(inspect.signature(method).parameters.values())
    if parameters and parameters[0].name == "self":
        parameters = parameters[1:]
    shown: list[str] = []
    keyword_only = False
    for p in parameters:
        if p.kind is p.KEYWORD_ONLY and not keyword_only:
            shown.append("*")
            keyword_only = True
        shown.append(p.name if p.default is p.empty else f"{p.name}=…")
    return f"{name}({', '.join(shown)})"


def _returns(method: Callable[..., Any]) -> str:
    source_of = getattr(method, BUILDER, method)
    annotation = inspect.signature(source_of).return_annotation
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    text = re.sub(r"^Call\[(.*)\]$", r"\1", text)
    # The model's module as the builder names it (``m.`` in the client, ``api.`` in an area's calls).
    return re.sub(r"\b[a-z_]+\.(?=[A-Z])", "", text)


def _summary(method: Callable[..., Any]) -> str:
    doc = inspect.getdoc(method) or ""
    paragraph = " ".join(doc.split("\n\n", 1)[0].split())
    sentence = re.split(r"(?<=[.:;])\s+(?=[A-Z`(])", paragraph, maxsplit=1)[0]
    return sentence.replace("|", "\\|")


def table(client: type[Any], twin: type[Any], var: str) -> str:
    lines = [
        f"### `{client.__name__}` / `{twin.__name__}` ({len(public_methods(client))} methods)",
        "",
        "| Method | Route | Returns | What it does |",
        "|---|---|---|---|",
    ]
    for name, method in public_methods(client).items():
        routes = "<br>".join(f"{r.method} `{r.surface.value}{r.path}`" for r in routes_of(method))
        returns = _returns(method).replace("|", "\\|")
        lines.append(f"| `{var}.{_signature(name, method)}` | {routes} | `{returns}` | {_summary(method)} |")
    return "\n".join(lines)


def render() -> str:
    """Every client's table, as the generated block of docs/client.md holds them."""
    return "\n\n".join(table(client, twin, var) for client, twin, var in CLIENTS) + "\n"


def rewrite(text: str) -> str:
    if not _BLOCK.search(text):
        raise ValueError("docs/client.md has no '<!-- client methods: generated -->' block")
    return _BLOCK.sub(lambda m: m.group(1) + render() + m.group(2), text, count=1)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 when out of date")
    parser.add_argument("doc", nargs="?", type=Path, default=DOC)
    args = parser.parse_args(argv)
    text = args.doc.read_text()
    new = rewrite(text)
    if args.check:
        if new != text:
            print(f"{args.doc} is out of date: run python -m livecore_client._method_table", file=sys.stderr)
            return 1
        return 0
    if new != text:
        args.doc.write_text(new)
        print(f"rewrote: {args.doc}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
