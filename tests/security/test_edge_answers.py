"""The answers of the HTTP edge, with and without ``serve --client-address-header``
(docs/reference/conventions.md#errors), replayed over a raw socket.

The probes: behind a proxy, every request aiohttp's parser refuses (``Content-Encoding: br``,
``Content-Length: -5``, a control byte in a header, a request line that is not HTTP) answered 500
``internal_error`` with a traceback, without ``X-Request-Id`` and uncounted; an unknown ``Expect`` got
aiohttp's plain-text 417 echoing the header; the 405s of ``/`` and ``/metrics``, the 404s outside the
namespaces and ``/mcp``'s 401 carried no ``X-Request-Id``; an undecodable gzip body after an early 401
logged a traceback at ERROR. Each is now an answer in the error envelope with a request id, and one INFO
line in the log at most.

Later probes: a ``Content-Encoding`` aiohttp does not decode and does not refuse either (``compress``,
``x-gzip``, ``gzip, br``, ``*``, ``gzip;q=1``) was read as no encoding, so a plain body sent as
``compress`` was applied (a 201); ``OPTIONS *`` and ``CONNECT host:443`` got aiohttp's plain-text 404
without a request id.
"""

from __future__ import annotations

import gzip
import logging
import zlib
from typing import Any

import orjson
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


# Every Content-Encoding but gzip and deflate, each alone: one the parser does not know, and lists. A
# header given twice is a list too (the last pair).
UNDECODED: list[list[tuple[str, str | bytes]]] = [
    [("Content-Encoding", value)]
    for value in ("compress", "x-gzip", "gzip, br", "deflate, deflate", "*", "gzip;q=1", "identity", "")
] + [[("Content-Encoding", "gzip"), ("Content-Encoding", "gzip")]]


def _encoded(headers: list[tuple[str, str | bytes]], body: bytes) -> bytes:
    """``body`` as aiohttp would read it under ``headers``: gzipped once when the last one says gzip."""
    return gzip.compress(body) if headers[-1][1] == "gzip" else body


def _refused_encoding(answer: Answer) -> None:
    _with_request_id(answer, 400, "invalid_request")
    assert answer.fields == {"Content-Encoding": "must be gzip or deflate, or left out"}, answer
    assert "ratelimit-remaining" in answer.headers and answer.headers["connection"] == "close"


async def test_a_server_grant_sent_with_an_encoding_other_than_gzip_or_deflate_is_a_400_granting_nothing(
    world: World,
) -> None:
    await world.register("ann")
    grant = orjson.dumps(
        {"entries": [{"type": "currency", "key": "coins", "amount": 5}], "idempotencyKey": "g1"}
    )
    base = {"Authorization": f"Bearer {world.keys['test-server']}", "Content-Type": "application/json"}
    remaining = []
    for encoding in UNDECODED:
        headers = [*_proxied(base).items(), *encoding]
        answer = await exchange(
            world, request("POST", "/server/v1/players/ann/grants", headers, _encoded(encoding, grant))
        )
        _refused_encoding(answer)
        remaining.append(int(answer.headers["ratelimit-remaining"]))
    # Each counted against the caller's address, one token apiece.
    assert remaining == list(range(remaining[0], remaining[0] - len(UNDECODED), -1))
    assert world.rows("SELECT count(*) FROM grants") == [(0,)]
    # The same grant, gzipped as HTTP allows (any case), is the first one applied under its key.
    headers = [*_proxied(base).items(), ("Content-Encoding", "GZIP")]
    answer = await exchange(
        world, request("POST", "/server/v1/players/ann/grants", headers, gzip.compress(grant))
    )
    assert answer.status == 201 and "idempotent-replay" not in answer.headers, answer
    assert world.rows("SELECT count(*) FROM grants") == [(1,)]


async def test_a_gift_sent_with_content_encoding_compress_is_a_400_sending_nothing(world: World) -> None:
    ann, bob = await world.register("ann"), await world.register("bob")
    client = {"Authorization": f"Bearer {world.keys['test-client']}", "Content-Type": "application/json"}
    status, body, _ = await world.call(
        "POST",
        "/sdk/v1/players/ann/friends/requests",
        key="test-client",
        secret=ann,
        json={"externalPlayerId": "bob"},
    )
    assert status == 201, body
    request_id = body["data"]["request"]["requestId"]
    status, body, _ = await world.call(
        "POST", f"/sdk/v1/players/bob/friends/requests/{request_id}/accept", key="test-client", secret=bob
    )
    assert status == 200, body
    gift = orjson.dumps(
        {
            "externalPlayerId": "bob",
            "type": "currency",
            "resourceKey": "coins",
            "amount": 1,
            "idempotencyKey": "g1",
        }
    )
    headers = _proxied({**client, "X-Player-Secret": ann, "Content-Encoding": "compress"})
    answer = await exchange(world, request("POST", "/sdk/v1/players/ann/friends/gifts", headers, gift))
    _refused_encoding(answer)
    assert world.rows("SELECT count(*) FROM gifts") == [(0,)]
    headers["Content-Encoding"] = "deflate"
    answer = await exchange(
        world, request("POST", "/sdk/v1/players/ann/friends/gifts", headers, zlib.compress(gift))
    )
    assert answer.status == 201, answer
    assert world.rows("SELECT count(*) FROM gifts") == [(1,)]


async def test_an_encoding_other_than_gzip_or_deflate_is_a_400_on_every_path_body_or_not(
    world: World,
) -> None:
    for path in ("/server/v1/ping", "/sdk/v1/players/alice/wallet", "/", "/nothing", "/mcp", "/portal/"):
        headers = _proxied(
            {"Authorization": f"Bearer {world.keys['test-server']}", "Content-Encoding": "compress"}
        )
        _refused_encoding(await exchange(world, request("GET", path, headers)))
        headers["Content-Type"] = "application/json"
        _refused_encoding(await exchange(world, request("POST", path, headers, b"{}")))


@pytest.mark.parametrize(
    "raw",
    [
        b"OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"CONNECT host:443 HTTP/1.1\r\nHost: host:443\r\n\r\n",
    ],
    ids=["OPTIONS *", "CONNECT host:443"],
)
async def test_a_request_target_that_is_not_a_path_is_a_404_with_a_request_id(
    world: World, raw: bytes
) -> None:
    answer = await exchange(world, raw)
    _with_request_id(answer, 404, "not_found")
    assert answer.error["message"] == "No such route: the request target is not a path."
    # As any path outside the namespaces, and the server goes on answering.
    _with_request_id(await exchange(world, request("GET", "/nothing", _proxied({}))), 404, "not_found")


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
