"""docs/reference/conventions.md#rate-limits: token buckets per key and bucket, headers on every response,
429."""

from __future__ import annotations

import pytest

from tests.conftest import World


async def test_every_response_carries_the_three_headers(world: World) -> None:
    for method, path, key in [
        ("GET", "/server/v1/ping", "test-server"),
        ("GET", "/server/v1/ping", None),  # 401
        ("GET", "/server/v1/ping", "test-client"),  # 403
        ("GET", "/server/v1/nope", "test-server"),  # 404
        ("GET", "/admin/v1/health", None),
    ]:
        _, _, headers = await world.call(method, path, key=key)
        for name in ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"):
            assert name in headers, (path, key, name)


async def test_defaults_are_the_spec_values(world: World) -> None:
    _, _, h = await world.call("GET", "/server/v1/ping")
    assert h["RateLimit-Limit"] == "1000"
    assert h["RateLimit-Remaining"] == "999"
    _, _, h = await world.call("POST", "/sdk/v1/players/p1/register", key="test-client")
    assert h["RateLimit-Limit"] == "120"


async def test_manifest_override_and_429_with_retry_after(world: World) -> None:
    for remaining in ("2", "1", "0"):
        status, _, h = await world.call("GET", "/server/v1/ping", key="tight-server")
        assert status == 200
        assert h["RateLimit-Limit"] == "3"
        assert h["RateLimit-Remaining"] == remaining
    status, body, h = await world.call("GET", "/server/v1/ping", key="tight-server")
    assert status == 429
    assert body["error"]["code"] == "rate_limited"
    # 3 per minute: one token every 20 s; the bucket is full again after 60 s.
    assert h["Retry-After"] == "20"
    assert h["RateLimit-Reset"] == "60"
    # Other keys are unaffected.
    status, _, _ = await world.call("GET", "/server/v1/ping", key="test-server")
    assert status == 200


async def test_bucket_refills_with_the_service_clock(world: World) -> None:
    for _ in range(3):
        await world.call("GET", "/server/v1/ping", key="tight-server")
    assert (await world.call("GET", "/server/v1/ping", key="tight-server"))[0] == 429
    world.clock.advance(19)
    assert (await world.call("GET", "/server/v1/ping", key="tight-server"))[0] == 429
    world.clock.advance(1)
    assert (await world.call("GET", "/server/v1/ping", key="tight-server"))[0] == 200


async def test_sdk_reads_and_writes_are_separate_buckets(world: World) -> None:
    for i in range(2):
        status, _, _ = await world.call("POST", f"/sdk/v1/players/w{i}/register", key="tight-client")
        assert status == 201
    status, body, _ = await world.call("POST", "/sdk/v1/players/w9/register", key="tight-client")
    assert (status, body["error"]["code"]) == (429, "rate_limited")
    # A read on the same key still has its own tokens (404 for a route that does not exist, but not 429).
    status, _, h = await world.call("GET", "/sdk/v1/players/w0/nothing", key="tight-client")
    assert status == 404
    assert h["RateLimit-Limit"] == "2"


async def test_rate_limited_write_changes_nothing(world: World) -> None:
    for i in range(2):
        await world.call("POST", f"/sdk/v1/players/w{i}/register", key="tight-client")
    before = world.event_kinds()
    status, _, _ = await world.call("POST", "/sdk/v1/players/late/register", key="tight-client")
    assert status == 429
    assert world.event_kinds() == before
    status, _, _ = await world.call("POST", "/sdk/v1/players/late/register", key="test-client")
    assert status == 201  # "late" was never created by the refused call


async def test_unknown_keys_are_limited_by_address(world: World) -> None:
    _, _, h = await world.call("GET", "/server/v1/ping", key="lc_test_bogus")
    first = int(h["RateLimit-Remaining"])
    _, _, h = await world.call("GET", "/server/v1/ping", key="lc_test_bogus2")
    assert int(h["RateLimit-Remaining"]) == first - 1


@pytest.mark.parametrize("world_config", [{"address_requests_per_minute": 2}])
async def test_the_operator_sets_the_limit_of_requests_without_a_valid_key(world: World) -> None:
    """``serve --address-requests-per-minute``: one limit for every bucket of an address's keyless
    requests; a valid key's bucket keeps its own."""
    answers = [await world.call("GET", "/server/v1/ping", key="lc_test_bogus") for _ in range(3)]
    assert [status for status, _, _ in answers] == [401, 401, 429]
    assert answers[0][2]["RateLimit-Limit"] == "2"
    status, _, h = await world.call("GET", "/server/v1/ping")
    assert status == 200 and h["RateLimit-Limit"] != "2"
