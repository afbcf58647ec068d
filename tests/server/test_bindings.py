"""Every handler declares the body and query its route parses: ``Request[Body, Query]`` (a core handler's,
livecore.api.request), ``OperatorRequest[Body, Query]`` (an operator route's core handler's,
livecore.operators.request), ``AdminRequest[Body, Query]`` (another area's admin route's, livecore.api.admin)
or ``Call[Body, Query]`` (a server handler's) on the handler (and
on its read-ahead declaration) names the route's request model (``| None`` when the body is optional) and
its query model, or ``None`` where the route takes none. mypy checks the handler bodies against these
declarations; this checks the declarations against the routes."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from typing import Any

import pytest

from livecore.api.admin import AdminRequest
from livecore.api.request import Request
from livecore.api.route import Route
from livecore.operators.request import OperatorRequest
from livecore_server import registry
from livecore_server.app import bindings_of
from livecore_server.http.endpoint import Binding, Call


def expected(route: Route) -> tuple[Any, Any]:
    body: Any = type(None)
    if route.request is not None and route.method not in ("GET", "HEAD"):
        body = route.request | None if route.request_optional else route.request
    return body, type(None) if route.query is None else route.query


def declared(fn: Callable[..., Any]) -> tuple[Any, Any]:
    first = next(iter(inspect.signature(fn).parameters))
    hint = typing.get_type_hints(fn)[first]
    assert typing.get_origin(hint) in (Call, Request, OperatorRequest, AdminRequest), (
        f"{fn.__qualname__} takes {hint}, not Request[Body, Query]"
    )
    body, query = typing.get_args(hint)
    return body, query


BINDINGS = bindings_of(registry.installed())


@pytest.mark.parametrize("binding", BINDINGS, ids=lambda b: b.route.name)
def test_handler_declares_its_routes_body_and_query(binding: Binding) -> None:
    functions = [binding.handler] if binding.reads is None else [binding.handler, binding.reads]
    for fn in functions:
        assert declared(fn) == expected(binding.route), fn.__qualname__


def test_a_mismatched_declaration_is_caught() -> None:
    route = next(b.route for b in BINDINGS if b.route.request is not None and not b.route.request_optional)

    def handler(call: Call[None, None], tx: Any) -> None: ...

    assert declared(handler) != expected(route)
