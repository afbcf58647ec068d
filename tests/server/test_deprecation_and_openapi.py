"""docs/reference/conventions.md#versioning-and-deprecation: deprecation headers (on a test-only route) and
the two served OpenAPI 3.1 documents."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest

from livecore.api.route import Deprecation, Route, Surface
from livecore_server.http.endpoint import Binding, Call, bind_direct
from tests.conftest import World

OLD_PING = Route(
    name="test.old_ping",
    surface=Surface.SERVER,
    method="GET",
    path="/test/old-ping",
    summary="A deprecated route, mounted only by this test.",
    deprecated=Deprecation(
        reason="Use /server/v1/ping.", sunset=date(2027, 6, 1), successor="/server/v1/ping"
    ),
)


async def _old_ping(call: Call) -> dict[str, bool]:
    return {"ok": True}


@pytest.fixture
def extra_bindings() -> list[Binding]:
    return [bind_direct(OLD_PING, _old_ping)]


async def test_deprecated_route_carries_the_spec_headers(world: World) -> None:
    status, body, h = await world.call("GET", "/server/v1/test/old-ping")
    assert status == 200
    assert body == {"data": {"ok": True}}
    assert h["Deprecation"] == "true"
    assert h["Sunset"] == "Tue, 01 Jun 2027 00:00:00 GMT"
    assert h["Link"] == '</server/v1/ping>; rel="successor-version"'
    assert h["X-Svc-Deprecation-Reason"] == "Use /server/v1/ping."


async def test_deprecation_headers_ride_on_errors_too(world: World) -> None:
    status, _, h = await world.call("GET", "/server/v1/test/old-ping", key="test-client")
    assert status == 403
    assert h["Deprecation"] == "true"


async def test_other_routes_are_not_deprecated(world: World) -> None:
    _, _, h = await world.call("GET", "/server/v1/ping")
    assert "Deprecation" not in h


@pytest.mark.parametrize(
    ("surface", "expected"),
    [
        ("sdk", "/sdk/v1/players/{externalId}/register"),
        ("server", "/server/v1/ping"),
        ("admin", "/admin/v1/studios/{studio}/games/{game}/grants"),
    ],
)
async def test_served_openapi_documents_are_valid_31(
    world: World, surface: str, expected: str, valid_openapi: Callable[[dict[str, Any]], None]
) -> None:
    status, doc, _ = await world.call("GET", f"/{surface}/v1/openapi.json", key=None)
    assert status == 200
    assert doc["openapi"].startswith("3.1")
    valid_openapi(doc)  # once per run: the same document on SQLite and PostgreSQL
    assert expected in doc["paths"]
    assert all(p.startswith(f"/{surface}/v1/") for p in doc["paths"])
