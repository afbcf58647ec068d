"""create_app adds the hot routes first (livecore_server.app.hot_routes), ahead of the bindings' order: every
request must resolve exactly as it would in that order, to the same route or to none. (A path no route
takes reaches the root's last route, whose 404 or 405 does not depend on the order: every route of the
namespace whose path matches is in its ``Allow``, tests/security/test_contract.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request

from livecore import registry
from livecore_server import app as app_module
from livecore_server import registry as server_registry
from tests.conftest import make_app

BINDINGS = app_module.bindings_of(server_registry.installed())
FIRST = app_module.hot_routes(registry.installed())

# Parameters filled with a plain word, and with the literal words of sibling routes (so /friends/{id}
# is also tried as /friends/code, /friends/requests, ...).
SAMPLES = ("alice", "code", "requests", "gifts", "blocks", "presence", "claim", "inbox", "wallet")
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def _requests() -> list[tuple[str, str]]:
    paths = {
        re.sub(r"\{[^}]+\}", sample, b.route.surface.value + b.route.path)
        for b in BINDINGS
        for sample in SAMPLES
    }
    return [(method, path) for path in sorted(paths) for method in METHODS]


async def _resolved(app: web.Application) -> list[tuple[str, str, object]]:
    answers = []
    for method, path in _requests():
        match = await app.router.resolve(make_mocked_request(method, path, app=app))
        answers.append((method, path, match.route.name))
    return answers


async def test_every_request_resolves_as_in_the_declared_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Routing needs no running app: the services are never built.
    hot_first = await _resolved(make_app(tmp_path / "routing.db"))
    monkeypatch.setattr(app_module, "hot_routes", lambda served: frozenset())
    declared = await _resolved(make_app(tmp_path / "routing.db"))
    assert hot_first == declared
    assert any(answer[2] in FIRST for answer in hot_first)
    assert any(answer[2] is None for answer in hot_first)


def test_the_hot_routes_are_routes() -> None:
    assert set(FIRST) <= {b.route.name for b in BINDINGS}
