"""Headers that are not UTF-8 text (docs/reference/conventions.md#requests).

The probe: `Authorization: Bearer \\xff`, and the same byte in `X-Player-Secret` and `Idempotency-Key`,
gave a 500 with a traceback each; 1,200 of them drew no 429 and wrote 18,000 log lines. Each is now a 400
`invalid_request` naming the header, counted against the client's address as a request without a valid
key is, and logged as nothing more than the access line.
"""

from __future__ import annotations

import pytest

from livecore.ratelimit import DEFAULT_LIMITS, BucketName
from tests.conftest import World
from tests.security.raw_http import Answer, exchange, request

pytestmark = pytest.mark.usefixtures("no_error_logged")
NOT_UTF8 = b"\xff\xfe"


def _assert_refused(answer: Answer, header: str) -> None:
    assert answer.status == 400, answer
    assert answer.error["code"] == "invalid_request"
    assert answer.fields == {header: "must be UTF-8 text"}


async def test_bearer_not_utf8_is_400_counted_against_the_address(world: World) -> None:
    path = "/sdk/v1/players/alice/wallet"
    first = await exchange(world, request("GET", path, {"Authorization": b"Bearer " + NOT_UTF8}))
    _assert_refused(first, "Authorization")
    # The address's bucket: a request without a key finds it one token lower.
    keyless = await exchange(world, request("GET", path))
    assert keyless.status == 401
    limit = DEFAULT_LIMITS[BucketName.SDK_READ]
    assert first.headers["ratelimit-limit"] == keyless.headers["ratelimit-limit"] == str(limit)
    assert int(keyless.headers["ratelimit-remaining"]) == int(first.headers["ratelimit-remaining"]) - 1


async def test_player_secret_not_utf8_is_400_not_counted_on_the_key(world: World) -> None:
    await world.register("alice")
    key = world.keys["tight-client"]  # sdk_read = 2: a take from it would show a limit of 2
    headers = {"Authorization": f"Bearer {key}", "X-Player-Secret": NOT_UTF8}
    answer = await exchange(world, request("GET", "/sdk/v1/players/alice/wallet", headers))
    _assert_refused(answer, "X-Player-Secret")
    assert answer.headers["ratelimit-limit"] == str(DEFAULT_LIMITS[BucketName.SDK_READ])


async def test_idempotency_key_not_utf8_is_400_and_changes_nothing(world: World) -> None:
    await world.register("alice")
    headers = {
        "Authorization": f"Bearer {world.keys['test-server']}",
        "Idempotency-Key": b"k-" + NOT_UTF8,
        "Content-Type": "application/json",
    }
    answer = await exchange(
        world, request("POST", "/server/v1/players/alice/ban", headers, b'{"reason": "cheating"}')
    )
    _assert_refused(answer, "Idempotency-Key")
    assert "player.banned" not in world.event_kinds()


async def test_a_flood_of_non_utf8_bearers_is_throttled_without_tracebacks(world: World) -> None:
    raw = request("GET", "/sdk/v1/players/alice/wallet", {"Authorization": b"Bearer " + NOT_UTF8})
    limit = DEFAULT_LIMITS[BucketName.SDK_READ]  # the service clock stands still: no refill
    statuses = [(await exchange(world, raw)).status for _ in range(limit + 1)]
    assert set(statuses[:limit]) == {400}
    assert statuses[limit] == 429
