"""Errors that left the envelope (docs/reference/conventions.md#errors), replayed over a raw socket.

The probes: an invalid gzip body gave a 500; `Content-Encoding: br` a plain-text 400; a header over 8 KB
a plain-text 400 that echoed the header back; a NUL in a header a plain-text 400; and each logged a
traceback. Every one is now a 400 `invalid_request` in the JSON error envelope, quoting nothing of the
request, with one INFO line in the log.
"""

from __future__ import annotations

import gzip

import pytest

from tests.conftest import World
from tests.security.raw_http import Answer, exchange, request

pytestmark = pytest.mark.usefixtures("no_error_logged")
SECRET = "Bearer lc_test_" + "S" * 9_000  # an over-long header that must not come back


def _assert_envelope_400(answer: Answer) -> None:
    assert answer.status == 400, answer
    assert answer.error["code"] == "invalid_request"
    assert b"SSSS" not in answer.body and b"\\x00" not in answer.body


async def _write(world: World, headers: dict[str, str | bytes], body: bytes) -> Answer:
    base: dict[str, str | bytes] = {
        "Authorization": f"Bearer {world.keys['test-server']}",
        "Idempotency-Key": "k-protocol",
        "Content-Type": "application/json",
    }
    return await exchange(world, request("POST", "/server/v1/players/alice/ban", {**base, **headers}, body))


async def test_invalid_gzip_body_is_400_in_the_envelope(world: World) -> None:
    await world.register("alice")
    answer = await _write(world, {"Content-Encoding": "gzip"}, b"this is not gzip")
    _assert_envelope_400(answer)
    assert answer.fields == {"body": "does not decode as its Content-Encoding says"}
    assert answer.headers["connection"] == "close"
    # A valid gzip body is read as usual.
    ok = await _write(world, {"Content-Encoding": "gzip"}, gzip.compress(b'{"reason": "cheating"}'))
    assert ok.status == 200, ok


async def test_content_encoding_br_is_400_in_the_envelope(world: World) -> None:
    answer = await _write(world, {"Content-Encoding": "br"}, b"\x1b\x03\x00\xf8")
    _assert_envelope_400(answer)
    assert "gzip" in str(answer.error["message"])


async def test_header_over_8_kb_is_400_in_the_envelope_without_echo(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    answer = await exchange(world, request("GET", "/server/v1/ping", {"Authorization": SECRET}))
    _assert_envelope_400(answer)
    assert answer.fields == {"Authorization": "is longer than 8,190 bytes"}
    assert "ratelimit-remaining" in answer.headers  # counted by the rate limiter, as any bad request
    assert "SSSS" not in caplog.text  # nor in the log


async def test_request_line_over_8_kb_is_400_in_the_envelope_and_counted(world: World) -> None:
    path = "/server/v1/ping?" + "q" * 9_000
    answer = await exchange(
        world, request("GET", path, {"Authorization": f"Bearer {world.keys['test-server']}"})
    )
    _assert_envelope_400(answer)
    assert answer.fields == {"path": "makes the request line longer than 8,190 bytes"}
    assert "ratelimit-remaining" in answer.headers


@pytest.mark.parametrize("value", [b"a\x00b", b"\x00", b"a\x01b"])
async def test_nul_in_a_header_is_400_in_the_envelope(world: World, value: bytes) -> None:
    answer = await exchange(world, request("GET", "/server/v1/ping", {"X-Player-Secret": value}))
    _assert_envelope_400(answer)


async def test_a_request_line_that_is_not_http_is_400_in_the_envelope(world: World) -> None:
    answer = await exchange(world, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n")  # TLS hello
    _assert_envelope_400(answer)


REFUSED_BY_THE_PARSER = {
    "Content-Encoding br": request(
        "POST",
        "/server/v1/players/alice/ban",
        {"Content-Type": "application/json", "Content-Encoding": "br"},
        b"\x1b\x03\x00\xf8",
    ),
    "a control byte in a header": request("GET", "/server/v1/ping", {"X-Player-Secret": b"a\x01b"}),
    "a request line that is not HTTP": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
}


@pytest.mark.parametrize("raw", REFUSED_BY_THE_PARSER.values(), ids=REFUSED_BY_THE_PARSER.keys())
async def test_a_refusal_of_the_http_layer_carries_a_request_id_and_the_rate_limit_headers(
    world: World, raw: bytes
) -> None:
    """schemathesis got these 400s without the `X-Request-Id` and `RateLimit-*` headers the documents
    promise on every 400. They are counted against the caller's address, as a request without a valid
    key is."""
    first, second = await exchange(world, raw), await exchange(world, raw)
    for answer in (first, second):
        _assert_envelope_400(answer)
        assert answer.headers["x-request-id"].startswith("req_"), answer.headers
        assert {"ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"} <= set(answer.headers)
    assert first.headers["x-request-id"] != second.headers["x-request-id"]
    remaining = int(second.headers["ratelimit-remaining"])
    assert remaining == int(first.headers["ratelimit-remaining"]) - 1, (first.headers, second.headers)


@pytest.mark.parametrize("world_config", [{"address_requests_per_minute": 2}])
async def test_an_address_out_of_tokens_gets_429_for_an_unreadable_request_too(world: World) -> None:
    raw = REFUSED_BY_THE_PARSER["a control byte in a header"]
    answers = [await exchange(world, raw) for _ in range(3)]
    assert [a.status for a in answers] == [400, 400, 429], answers
    assert answers[2].error["code"] == "rate_limited"
    assert "retry-after" in answers[2].headers and "x-request-id" in answers[2].headers
