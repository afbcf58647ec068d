"""The answers of the HTTP edge, with and without ``serve --client-address-header``
(docs/reference/conventions.md#errors), replayed over a raw socket.

The probes: behind a proxy, every request aiohttp's parser refuses (``Content-Encoding: br``,
``Content-Length: -5``, a control byte in a header, a request line that is not HTTP) answered 500
``internal_error`` with a traceback, without ``X-Request-Id`` and uncounted; an unknown ``Expect`` got
aiohttp's plain-text 417 echoing the header; the 405s of ``/`` and ``/metrics``, the 404s outside the
namespaces and ``/mcp``'s 401 carried no ``X-Request-Id``; an undecodable gzip body after an early 401
logged a traceback at ERROR. Each is now an answer in the error envelope with a request id, and one INFO
line in the log at most.
"""

from __future__ import annotations

import gzip
import logging
from typing import Any

import pytest

from tests.conftest import World
from tests.security.raw_http import Answer, exchange, request

pytestmark = pytest.mark.usefixtures("no_error_logged")
# What each proxy header says of the client behind it.
PROXIED = {
    "X-Forwarded-For": "203.0.113.9",
    "Forwarded": "for=203.0.113.9;proto=https",
    "X-Real-IP": "203.0.113.9",
}


@pytest.fixture(params=[None, *PROXIED], ids=lambda header: header or "direct")
def world_config(request: pytest.FixtureRequest) -> dict[str, Any]:
    return {"client_address_header": request.param}


def _with_request_id(answer: Answer, status: int, code: str) -> None:
    assert (answer.status, answer.error["code"]) == (status, code), answer
    assert answer.headers["x-request-id"].startswith("req_"), answer.headers


async def _refused_and_counted(world: World, raw: bytes) -> None:
    """``raw`` twice: each a 400 ``invalid_request`` in the envelope with its own request id, the second
    one token lower in the caller's address's bucket."""
    first, second = await exchange(world, raw), await exchange(world, raw)
    for answer in (first, second):
        _with_request_id(answer, 400, "invalid_request")
        assert {"ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"} <= set(answer.headers)
    assert first.headers["x-request-id"] != second.headers["x-request-id"]
    assert int(second.headers["ratelimit-remaining"]) == int(first.headers["ratelimit-remaining"]) - 1


def _proxied(headers: dict[str, str | bytes]) -> dict[str, str | bytes]:
    """``headers`` as a proxy passes them on: with the client's address, in each proxy header."""
    return {**headers, **PROXIED}


async def test_content_encoding_br_is_a_counted_400(world: World) -> None:
    headers = _proxied({"Content-Type": "application/json", "Content-Encoding": "br"})
    await _refused_and_counted(world, request("POST", "/server/v1/ping", headers, b"\x1b\x03\x00\xf8"))


async def test_a_negative_content_length_is_a_counted_400(world: World) -> None:
    headers = _proxied({"Content-Type": "application/json", "Content-Length": "-5"})
    await _refused_and_counted(world, request("POST", "/server/v1/ping", headers))


async def test_a_control_byte_in_a_header_is_a_counted_400(world: World) -> None:
    await _refused_and_counted(world, request("GET", "/server/v1/ping", _proxied({"X-Note": b"a\x01b"})))


async def test_a_request_line_that_is_not_http_is_a_counted_400(world: World) -> None:
    await _refused_and_counted(world, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n")


ECHO = "x-never-echoed"


@pytest.mark.parametrize("path", ["/server/v1/ping", "/", "/nothing", "/mcp", "/portal/"])
async def test_an_unknown_expectation_is_a_400_in_the_envelope_quoting_nothing(
    world: World, path: str
) -> None:
    headers = _proxied(
        {"Authorization": f"Bearer {world.keys['test-server']}", "Expect": ECHO, "Content-Type": "text/plain"}
    )
    answer = await exchange(world, request("POST", path, headers, b"{}"))
    _with_request_id(answer, 400, "invalid_request")
    assert answer.fields == {"Expect": "must be 100-continue"}
    assert ECHO.encode() not in answer.body and ECHO not in str(answer.headers)
    # 100-continue still works.
    headers["Expect"] = "100-continue"
    ok = await exchange(world, request("GET", "/server/v1/ping", headers))
    assert ok.status == 100, ok


@pytest.mark.parametrize("path", ["/", "/metrics"])
async def test_a_root_path_answers_with_a_request_id(world: World, path: str) -> None:
    answer = await exchange(world, request("GET", path, _proxied({})))
    assert answer.status == 200 and answer.headers["x-request-id"].startswith("req_"), answer


@pytest.mark.parametrize("path", ["/", "/metrics"])
async def test_a_wrong_method_on_a_root_path_is_a_405_with_a_request_id(world: World, path: str) -> None:
    answer = await exchange(world, request("DELETE", path, _proxied({})))
    _with_request_id(answer, 405, "method_not_allowed")
    assert answer.headers["allow"] == "GET,HEAD"


async def test_a_path_outside_the_namespaces_is_a_404_with_a_request_id(world: World) -> None:
    answer = await exchange(world, request("GET", "/nothing", _proxied({})))
    _with_request_id(answer, 404, "not_found")


async def test_a_portal_page_that_does_not_exist_is_the_portals_404_page_with_a_request_id(
    world: World,
) -> None:
    answer = await exchange(world, request("GET", "/portal/nothing-here", _proxied({})))
    assert answer.status == 404, answer
    assert answer.headers["content-type"].startswith("text/html"), answer.headers
    assert answer.headers["x-request-id"].startswith("req_"), answer.headers
    assert b"not_found" in answer.body
    page = await exchange(world, request("GET", "/portal/", _proxied({})))
    assert page.status == 200 and page.headers["x-request-id"].startswith("req_"), page.headers


async def test_the_mcp_endpoint_without_a_key_is_a_401_with_a_request_id(world: World) -> None:
    headers = _proxied({"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
    answer = await exchange(world, request("POST", "/mcp", headers, b"{}"))
    _with_request_id(answer, 401, "invalid_api_key")


async def test_an_undecodable_gzip_body_after_an_early_401_logs_one_line(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    headers = _proxied({"Content-Type": "application/json", "Content-Encoding": "gzip"})
    body = b"this is not gzip" + gzip.compress(b"{}")
    answer = await exchange(world, request("POST", "/server/v1/players/alice/ban", headers, body))
    _with_request_id(answer, 401, "invalid_api_key")
    ours = [r for r in caplog.records if r.name == "livecore_server" or r.name.startswith("aiohttp")]
    assert [(r.name, r.levelno, r.exc_info) for r in ours] == [("aiohttp.access", logging.INFO, None)], ours
