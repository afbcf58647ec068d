"""Contract details that schemathesis and a newcomer found (docs/reference/conventions.md).

The probes: a 405's `Allow` listed methods the path does not serve, because `DELETE
/friends/{friendExternalId}` also matched `/friends/code` and `/friends/suggestions`; and a write without
its idempotency key answered only that, hiding every other error of the request.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any
from urllib.parse import quote

import pytest
from yarl import URL

from livecore.api.openapi import build_document
from livecore.api.route import Surface
from tests.conftest import World
from tests.installed import ALL

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
KEYS = {Surface.SDK: "test-client", Surface.SERVER: "test-server", Surface.ADMIN: None}


def _served() -> dict[tuple[Surface, str], set[str]]:
    """Each path of the contract (parameters filled in) with the methods it serves."""
    served: dict[tuple[Surface, str], set[str]] = defaultdict(set)
    for route in ALL:
        served[(route.surface, re.sub(r"\{[^}]+\}", "p1", route.full_path))].add(route.method)
    return served


async def test_allow_lists_exactly_the_methods_of_the_path(world: World) -> None:
    for (surface, path), methods in _served().items():
        for method in METHODS:
            if method in methods:
                continue
            status, body, headers = await world.call(method, path, key=KEYS[surface])
            assert status == 405, (method, path, body)
            assert set(headers["Allow"].split(",")) == methods, (method, path, headers["Allow"])
        # A 405 counts against the key's bucket: a minute per path keeps every path under its limit.
        world.clock.advance(60)


async def test_delete_on_friends_code_and_suggestions_is_not_a_friend_removal(world: World) -> None:
    secret = await world.register("alice")
    for literal in ("code", "suggestions", "requests", "search"):
        path = f"/sdk/v1/players/alice/friends/{literal}"
        status, body, headers = await world.call("DELETE", path, key="test-client", secret=secret)
        assert status == 405, (path, body)
        assert "DELETE" not in headers["Allow"].split(","), headers["Allow"]
    status, _, headers = await world.call(
        "PATCH", "/sdk/v1/players/alice/friends/code", key="test-client", secret=secret
    )
    assert (status, headers["Allow"]) == (405, "GET")


def test_a_friend_removal_documents_the_405_of_the_literal_paths_beside_it() -> None:
    """schemathesis sent DELETE /friends/blocks (a friend id the document refuses) and got a 405 the
    operation did not list."""
    document = build_document(Surface.SDK, ALL, version="test")
    removal = document["paths"]["/sdk/v1/players/{externalId}/friends/{friendExternalId}"]["delete"]
    assert "405" in removal["responses"]


@pytest.mark.parametrize("value", [",", "coins,,energy", "coins,", ""])
async def test_an_empty_item_in_a_query_list_is_refused(world: World, value: str) -> None:
    """schemathesis sent `progression=,` (two empty items; the document says items are not empty) and got
    a 200: the empty items were dropped. It sent `progression=` too (one empty item, as the document
    serializes a list): refused alike, and the empty list is the parameter left out."""
    secret = await world.register("alice")
    path = f"/sdk/v1/players/alice/friends/code?progression={value}"
    status, body, _ = await world.call("GET", path, key="test-client", secret=secret)
    assert status == 400, body
    assert body["error"]["details"]["fields"] == {"progression": "has an empty item"}
    status, body, _ = await world.call(
        "GET", "/sdk/v1/players/alice/friends/code", key="test-client", secret=secret
    )
    assert status == 200, body


async def test_missing_idempotency_key_is_reported_with_every_other_error(world: World) -> None:
    await world.register("alice")
    status, body, _ = await world.call("POST", "/server/v1/players/alice/ban", json={})
    assert status == 400
    assert body["error"]["details"]["fields"] == {"Idempotency-Key": "is required", "reason": "is required"}
    # A route whose body carries the key names its field.
    status, body, _ = await world.call(
        "POST", "/server/v1/players/alice/wallet/coins/credit", json={"amount": "1", "extra": 1}
    )
    assert status == 400
    assert body["error"]["details"]["fields"] == {
        "idempotencyKey": "is required",
        "amount": "must be an integer",
        "extra": "is not a known field",
    }


async def test_path_key_and_body_errors_come_in_one_answer(world: World) -> None:
    status, body, _ = await world.call(
        "POST", URL(f"/server/v1/players/{quote(chr(0x200B))}/ban", encoded=True), json={"reason": 5}
    )
    assert status == 400
    assert body["error"]["details"]["fields"] == {
        "externalId": "must not contain control or format characters",
        "Idempotency-Key": "is required",
        "reason": "must be a string",
    }
    status, body, _ = await world.call(
        "POST", "/server/v1/players/alice/ban", json={}, headers={"Idempotency-Key": "k" * 256}
    )
    assert status == 400
    assert body["error"]["details"]["fields"] == {
        "Idempotency-Key": "must be 1 to 255 characters",
        "reason": "is required",
    }


def _operation(surface: Surface, name: str) -> dict[str, Any]:
    document = build_document(surface, ALL, version="test")
    return next(
        op for item in document["paths"].values() for op in item.values() if op["operationId"] == name
    )


def _body_schema(surface: Surface, name: str) -> dict[str, Any]:
    document = build_document(surface, ALL, version="test")
    ref = _operation(surface, name)["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    schema: dict[str, Any] = document["components"]["schemas"][ref.rsplit("/", 1)[1]]
    return schema


@pytest.mark.parametrize("operation", ["guilds.help.ask", "guilds.help.donate"])
def test_a_help_amount_is_declared_from_1_as_it_is_enforced(operation: str) -> None:
    """schemathesis sent a help request and a donation of `amount` 0 and below, which the documents
    allowed (from int64's minimum) and the service refuses."""
    amount = _body_schema(Surface.SDK, operation)["properties"]["amount"]
    assert amount["minimum"] == 1, amount


def test_a_lobby_push_says_it_seats_no_more_players_than_its_capacity() -> None:
    """schemathesis pushed more players than the lobby's capacity and got a 400 the operation said nothing
    of."""
    push = _operation(Surface.SERVER, "server.lobbies.push")
    described = push["description"] + _body_schema(Surface.SERVER, "server.lobbies.push")["description"]
    assert "more players than the `capacity`" in described.lower(), described


@pytest.mark.parametrize("operation", ["guilds.members.promote", "guilds.members.demote"])
def test_a_promote_or_demote_says_which_role_it_refuses(operation: str) -> None:
    assert "`memberExternalId`" in _operation(Surface.SDK, operation)["description"]


@pytest.mark.parametrize("surface", [Surface.SDK, Surface.SERVER], ids=lambda s: s.name.lower())
def test_every_operation_lists_the_405_413_and_415_its_route_answers(surface: Surface) -> None:
    """schemathesis met a 405 (another method on the path, or a path parameter naming the literal path
    beside it) on every path, and a 413 (a body over 1 MiB) and a 415 (a body not JSON) on every route
    that reads a body (any method but GET), and the documents listed them on none but the friend
    removal's 405."""
    document = build_document(surface, ALL, version="test")
    for item in document["paths"].values():
        for method, op in item.items():
            responses = op["responses"]
            expected = [("405", "method_not_allowed")]
            if method != "get":
                expected += [("413", "payload_too_large"), ("415", "unsupported_media_type")]
            else:
                assert "413" not in responses and "415" not in responses, op["operationId"]
            for status, code in expected:
                assert code in responses.get(status, {}).get("x-error-codes", []), (op["operationId"], status)
                assert "RateLimit-Remaining" in responses[status]["headers"]


async def test_a_write_without_a_body_of_its_own_answers_413_and_415_and_a_read_ignores_a_body(
    world: World,
) -> None:
    """What the documents list: a write reads whatever body comes, a read (GET) none."""
    await world.register("alice")
    large, xml = b"x" * (1024 * 1024 + 1), b"<x/>"
    for data, content_type, expected in [(large, "application/json", 413), (xml, "application/xml", 415)]:
        headers = {"Content-Type": content_type, "Idempotency-Key": "k-body"}
        unban = "/server/v1/players/alice/unban"
        status, body, _ = await world.call("POST", unban, data=data, headers=headers)
        assert status == expected, body
        status, body, _ = await world.call("GET", "/server/v1/ping", data=data, headers=headers)
        assert status == 200, body
