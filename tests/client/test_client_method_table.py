"""docs/client.md lists every client method in one generated table (livecore_client/_method_table.py)."""

from __future__ import annotations

import inspect

import pytest

from livecore_client._method_table import CLIENTS, DOC, public_methods, resources, rewrite, routes_of


def test_the_client_method_table_lists_every_method_of_every_client() -> None:
    text = DOC.read_text()
    assert rewrite(text) == text, "docs/client.md is out of date: run python -m livecore_client._method_table"
    for client, _, var in CLIENTS:
        for name in public_methods(client):
            assert f"| `{var}.{name}(" in text, f"{client.__name__}.{name} has no row"


@pytest.mark.parametrize(("client", "twin"), [(c, t) for c, t, _ in CLIENTS], ids=lambda c: c.__name__)
def test_every_client_method_has_its_async_twin_with_the_same_parameters(client: type, twin: type) -> None:
    sync, asynchronous = public_methods(client), public_methods(twin)
    assert set(sync) == set(asynchronous)
    for name, method in sync.items():
        # Parameters only: an iterator's twin returns an async iterator.
        assert inspect.signature(method).parameters == inspect.signature(asynchronous[name]).parameters, name


@pytest.mark.parametrize(("client", "twin"), [(c, t) for c, t, _ in CLIENTS], ids=lambda c: c.__name__)
def test_every_client_method_names_its_route_and_says_what_it_does(client: type, twin: type) -> None:
    for name, method in public_methods(client).items():
        assert routes_of(method), f"{client.__name__}.{name} asks for no route the table can show"
        assert inspect.getdoc(method), f"{client.__name__}.{name} has no docstring"


def test_a_method_without_its_row_fails_the_check() -> None:
    text = DOC.read_text()
    row = next(line for line in text.splitlines() if line.startswith("| `sdk.players.register("))
    assert rewrite(text.replace(row + "\n", "")) == text
    assert text.replace(row + "\n", "") != text


@pytest.mark.parametrize(
    "client", [c for sync, twin, _ in CLIENTS for c in (sync, twin)], ids=lambda c: c.__name__
)
def test_a_client_holds_resources_and_no_flat_methods(client: type) -> None:
    public = {name for name in dir(client) if not name.startswith("_")}
    assert public - set(resources(client)) <= {"close", "aclose", "with_resources"}
