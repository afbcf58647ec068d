"""Request bodies that are JSON but not what the contract takes (docs/reference/conventions.md#requests).

The probes: a JSON `null` body gave a 500 on 17 of the 33 routes that take a body; nesting 253 deep was
accepted (and then killed the webhook dispatcher), 254 and deeper gave a 500; a key given twice was read
as its last value. A body is one JSON object, nested at most 32 levels deep, with no key twice in one
object: anything else is a 400 `invalid_request` naming `body`, and changes nothing.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from livecore.api.route import Surface
from livecore.limits import JSON_DEPTH_MAX
from tests.conftest import World
from tests.installed import ALL
from tests.server.admin_support import admin, sign_in

JSON_HEADERS = {"Content-Type": "application/json", "Idempotency-Key": "k-hostile"}
# Every route that reads a body, with its path parameters filled in (an operator's studio and game are
# the test manifest's: another studio's is refused before the body is read).
_FILL = {"studio": "acme", "game": "space-race"}
BODY_ROUTES = [
    (
        route.method,
        re.sub(r"\{([^}]+)\}", lambda m: _FILL.get(m.group(1), "alice"), route.full_path),
        route.surface,
    )
    for route in ALL
    if route.method not in ("GET", "HEAD")
]


def _key(surface: Surface) -> str:
    return "test-client" if surface is Surface.SDK else "test-server"


@pytest.mark.parametrize("top", [b"null", b"[]", b"1", b'"text"', b"true"])
async def test_null_and_other_non_object_bodies_are_400_on_every_route(world: World, top: bytes) -> None:
    # With the player's secret: one that is missing is refused before the body is read. Operator routes
    # with the owner's session (every action allowed; a personal key is refused dashboard-only routes
    # before their body is read).
    secret = await world.register("alice")
    owner = await sign_in(world, "olga")
    for method, path, surface in BODY_ROUTES:
        if surface is Surface.ADMIN:
            status, body, _ = await admin(world, method, path, owner, data=top, headers=JSON_HEADERS)
        else:
            status, body, _ = await world.call(
                method, path, key=_key(surface), data=top, headers=JSON_HEADERS, secret=secret
            )
        assert status == 400, (method, path, body)
        assert body["error"]["code"] == "invalid_request", (method, path)
        assert body["error"]["details"]["fields"] == {"body": "must be an object"}, (method, path)


async def _register_nested(world: World, levels: int) -> tuple[int, Any]:
    """Register with a body nested ``levels`` deep, the top-level object included."""
    inner = levels - 2  # the top object and the innermost empty one
    raw = b'{"playerContext": ' + b'{"a": ' * inner + b"{}" + b"}" * inner + b"}"
    status, body, _ = await world.call(
        "POST",
        "/sdk/v1/players/alice/register",
        key="test-client",
        data=raw,
        headers={"Content-Type": "application/json"},
    )
    return status, body


@pytest.mark.parametrize("levels", [JSON_DEPTH_MAX + 1, 253, 254, 300, 10_000])
async def test_nesting_253_300_and_10000_levels_is_400_never_500(world: World, levels: int) -> None:
    status, body = await _register_nested(world, levels)
    assert status == 400, body
    assert body["error"]["details"]["fields"] == {"body": "must not nest deeper than 32 levels"}
    assert world.event_kinds() == []  # nobody registered, no webhook event to choke on
    status, body = await _register_nested(world, JSON_DEPTH_MAX)
    assert status == 201, body  # at the limit


@pytest.mark.parametrize(
    "raw",
    [
        b'{"name": "Ann", "name": "Eve"}',
        b'{"name": "Ann", "\\u006eame": "Eve"}',  # the same key, written with an escape
        b'{"name": "Ann", "avatar": {"x": 1, "x": 2}}',
    ],
)
async def test_a_key_given_twice_is_400_and_changes_nothing(world: World, raw: bytes) -> None:
    secret = await world.register("alice")
    status, body, _ = await world.call(
        "PUT",
        "/sdk/v1/players/alice/identity",
        key="test-client",
        secret=secret,
        data=raw,
        headers={"Content-Type": "application/json"},
    )
    assert status == 400, body
    assert body["error"]["details"]["fields"] == {"body": "must not repeat a key in one object"}
    _, profile, _ = await world.call("GET", "/server/v1/players/alice", key="test-server")
    assert profile["data"]["player"]["displayIdentity"]["name"] != "Eve"
    # Colons and escapes inside strings repeat nothing.
    status, body, _ = await world.call(
        "PUT",
        "/sdk/v1/players/alice/identity",
        key="test-client",
        secret=secret,
        data=b'{"name": "A:n:n", "avatar": "https:\\u002f\\u002fx.test\\u003a1"}',
        headers={"Content-Type": "application/json"},
    )
    assert status == 200, body
    assert body["data"]["displayIdentity"] == {"name": "A:n:n", "avatar": "https://x.test:1", "country": None}
