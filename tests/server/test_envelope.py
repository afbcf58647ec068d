"""docs/reference/conventions.md#errors: every non-2xx answer is the error envelope, including aiohttp's own
errors."""

from __future__ import annotations

from typing import Any

from tests.conftest import World, make_app


def assert_envelope(body: Any, code: str) -> None:
    assert set(body) == {"error"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert set(body["error"]) <= {"code", "message", "details"}


async def test_unknown_route_is_404_envelope(world: World) -> None:
    for path in ("/server/v1/nothing-here", "/nothing", "/admin/v1/nothing"):
        status, body, headers = await world.call("GET", path)
        assert status == 404, path
        assert_envelope(body, "not_found")
        assert headers["Content-Type"].startswith("application/json")


async def test_wrong_method_is_405_envelope_with_allow(world: World) -> None:
    status, body, headers = await world.call("DELETE", "/server/v1/ping")
    assert status == 405
    assert_envelope(body, "method_not_allowed")
    assert "GET" in headers["Allow"]


# Each namespace with its key, a path of it and the methods that path serves.
NAMESPACES = (
    ("/sdk/v1", "test-client", "/sdk/v1/players/alice/register", "POST"),
    ("/server/v1", "test-server", "/server/v1/ping", "GET"),
    ("/admin/v1", None, "/admin/v1/health", "GET"),
)


async def test_a_path_no_route_takes_is_answered_by_its_namespace(world: World) -> None:
    """A namespace answers every path under its prefix, those none of its routes take included: the 404,
    and the 405 with ``Allow``, carry its request id and rate-limit headers, after its key is checked."""
    for prefix, key, path, allowed in NAMESPACES:
        for missing in (prefix, f"{prefix}/", f"{prefix}/nothing-here", f"{path}/nothing-here"):
            status, body, headers = await world.call("GET", missing, key=key)
            assert status == 404, (missing, body)
            assert_envelope(body, "not_found")
            assert headers["X-Request-Id"].startswith("req_") and "RateLimit-Limit" in headers, missing
        status, body, headers = await world.call("PATCH", path, key=key)
        assert (status, headers["Allow"]) == (405, allowed), (path, body)
        assert_envelope(body, "method_not_allowed")
        assert headers["X-Request-Id"].startswith("req_") and "RateLimit-Limit" in headers, path
    # The key comes first, as on any route of the namespace.
    status, body, _ = await world.call("GET", "/server/v1/nothing-here", key=None)
    assert status == 401, body
    status, body, _ = await world.call("GET", "/sdk/v1/nothing-here", key="test-server")
    assert status == 403, body


async def test_a_path_outside_the_namespaces_is_a_404_envelope_with_a_request_id_and_no_rate_limit(
    world: World,
) -> None:
    for method in ("GET", "POST", "DELETE"):
        for path in ("/nothing", "/server/v10/ping", "/serverx/v1/ping", "/v1/ping", "/mcp/x"):
            status, body, headers = await world.call(method, path)
            assert status == 404, (method, path, body)
            assert_envelope(body, "not_found")
            assert headers["X-Request-Id"].startswith("req_"), (method, path)
            assert "RateLimit-Limit" not in headers, (method, path)


async def test_malformed_json_is_400(world: World) -> None:
    status, body, _ = await world.call(
        "PUT",
        "/server/v1/players/a/identity",
        data=b"{not json",
        headers={"Content-Type": "application/json", "Idempotency-Key": "k"},
    )
    assert status == 400
    assert_envelope(body, "invalid_request")
    assert body["error"]["details"]["fields"] == {"body": "is not valid JSON"}


async def test_non_utf8_body_is_400(world: World) -> None:
    status, body, _ = await world.call(
        "PUT",
        "/server/v1/players/a/identity",
        data=b'{"name": "\xff\xfe"}',
        headers={"Content-Type": "application/json", "Idempotency-Key": "k"},
    )
    assert status == 400
    assert_envelope(body, "invalid_request")


async def test_wrong_content_type_is_415(world: World) -> None:
    status, body, _ = await world.call(
        "PUT",
        "/server/v1/players/a/identity",
        data=b'{"name":"x"}',
        headers={"Content-Type": "text/plain", "Idempotency-Key": "k"},
    )
    assert status == 415
    assert_envelope(body, "unsupported_media_type")


async def test_body_over_one_mib_is_413(world: World) -> None:
    big = b'{"name":"' + b"x" * (1024 * 1024) + b'"}'
    status, body, _ = await world.call(
        "PUT",
        "/server/v1/players/a/identity",
        data=big,
        headers={"Content-Type": "application/json", "Idempotency-Key": "k"},
    )
    assert status == 413
    assert_envelope(body, "payload_too_large")


async def test_validation_errors_name_every_offending_field(world: World) -> None:
    await world.register("alice")
    status, body, _ = await world.call(
        "PUT",
        "/server/v1/players/alice/identity",
        json={"name": 5, "avatar": 3, "colour": "red"},
        headers={"Idempotency-Key": "k"},
    )
    assert status == 400
    assert_envelope(body, "invalid_request")
    assert body["error"]["details"]["fields"] == {
        "name": "must be a string",
        "avatar": "must be a string",
        "colour": "is not a known field",
    }


async def test_missing_required_field_is_named(world: World) -> None:
    status, body, _ = await world.call(
        "PUT", "/server/v1/players/alice/identity", json={}, headers={"Idempotency-Key": "k"}
    )
    assert status == 400
    assert body["error"]["details"]["fields"] == {"name": "is required"}


async def test_non_object_body_is_400(world: World) -> None:
    status, body, _ = await world.call(
        "PUT", "/server/v1/players/alice/identity", json=["name"], headers={"Idempotency-Key": "k"}
    )
    assert status == 400
    assert body["error"]["details"]["fields"] == {"body": "must be an object"}


async def test_unknown_query_parameter_is_400(world: World) -> None:
    status, body, _ = await world.call("GET", "/server/v1/ping?verbose=1")
    assert status == 400
    assert body["error"]["details"]["fields"] == {"verbose": "is not a known parameter"}


async def test_bad_query_value_is_400(world: World) -> None:
    status, body, _ = await world.call("POST", "/sdk/v1/players/a/register?force=maybe", key="test-client")
    assert status == 400
    assert body["error"]["details"]["fields"] == {"force": "must be true or false"}


async def test_internal_errors_are_500_envelope_without_internals(world: World) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    from livecore.api.route import Route, Surface
    from livecore_server.http.endpoint import bind_direct

    async def boom(call: Any) -> Any:
        raise RuntimeError("secret internals")

    failing = bind_direct(
        Route(name="test.boom", surface=Surface.SERVER, method="GET", path="/test/boom", summary="x"), boom
    )
    # The same database as the world, its server stepped aside (one server per SQLite file).
    await world.client.close()
    client = TestClient(TestServer(make_app(world.services.config.db, extra=[failing])))
    await client.start_server()
    try:
        resp = await client.get(
            "/server/v1/test/boom", headers={"Authorization": f"Bearer {world.keys['test-server']}"}
        )
        body = await resp.json()
    finally:
        await client.close()
    assert resp.status == 500
    assert_envelope(body, "internal_error")
    assert "secret internals" not in str(body)
    assert "RateLimit-Remaining" in resp.headers


async def test_every_namespaced_answer_has_a_request_id(world: World) -> None:
    ids = set()
    for key in ("test-server", None):
        _, _, headers = await world.call("GET", "/server/v1/ping", key=key)
        assert headers["X-Request-Id"].startswith("req_")
        ids.add(headers["X-Request-Id"])
    assert len(ids) == 2


async def test_the_bare_portal_path_redirects_to_the_portal(world: World) -> None:
    resp = await world.client.get("/portal", allow_redirects=False)
    assert resp.status == 301
    assert resp.headers["Location"] == "/portal/"
