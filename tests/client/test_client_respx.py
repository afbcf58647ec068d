"""The clients end to end over a mocked HTTP layer: request shape, parsing, errors and retries, sync and
async."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
import respx

import livecore
from livecore_client import (
    APIConnectionError,
    APITimeoutError,
    AsyncSdkClient,
    AsyncServerClient,
    ConflictError,
    IdempotencyConflictError,
    InternalServerError,
    InvalidRequestError,
    LivecoreAPIError,
    NotFoundError,
    PlayerBannedError,
    PlayerNotFoundError,
    PlayerSecretInvalidError,
    RateLimitError,
    RetryPolicy,
    SdkClient,
    ServerClient,
    models,
)
from livecore_client.resources.system import ADVANCE_SECONDS_PER_DAY
from tests.client.support import BASE, Sleeps, sent_json

SDK_HEADER = f"livecore-python/{livecore.__version__}"
IDENTITY: dict[str, Any] = {"name": "Brave Otter", "avatar": None, "country": "FR"}
REGISTER_DATA = {
    "playerId": "ply_1",
    "externalPlayerId": "p1",
    "playerSecret": "sec_1",
    "country": "FR",
    "syntheticIdentity": IDENTITY,
    "displayIdentity": IDENTITY,
    "anonymizedIdentity": IDENTITY,
}
IDENTITY_DATA = {"displayIdentity": {"name": "Otter", "avatar": "a.png", "country": "FR"}}
PING_DATA = {
    "ok": True,
    "studioId": "std_1",
    "gameId": "gam_1",
    "environment": "test",
    "keyPrefix": "sk_test_ab",
    "time": "2026-01-02T03:04:05.678Z",
}


def ok(data: dict[str, Any], status: int = 200) -> httpx.Response:
    return httpx.Response(status, json={"data": data})


def refusal(status: int, code: str, headers: dict[str, str] | None = None, **details: Any) -> httpx.Response:
    error: dict[str, Any] = {"code": code, "message": f"{code} message"}
    if details:
        error["details"] = details
    return httpx.Response(status, json={"error": error}, headers=headers)


# --- Request shape and parsing --------------------------------------------------------------------


def test_register_request_and_response(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{BASE}/sdk/v1/players/p1/register").mock(
        return_value=ok({**REGISTER_DATA, "addedLater": {"x": 1}}, status=201)
    )
    result = sdk.players.register("p1", player_context={"country": "FR"})

    request = route.calls.last.request
    assert request.url == f"{BASE}/sdk/v1/players/p1/register"
    assert request.headers["Authorization"] == "Bearer ck_test"
    assert request.headers["X-Svc-SDK"] == SDK_HEADER
    assert request.headers["Content-Type"] == "application/json"
    assert len(bytes.fromhex(request.headers["Idempotency-Key"])) == 16
    assert "X-Player-Secret" not in request.headers  # register mints the secret, it cannot need one
    assert sent_json(route) == {"playerContext": {"country": "FR"}}
    assert result == models.RegisterResponse(
        player_id="ply_1",
        external_player_id="p1",
        player_secret="sec_1",
        country="FR",
        synthetic_identity=models.IdentityView(**IDENTITY),
        display_identity=models.IdentityView(**IDENTITY),
        anonymized_identity=models.IdentityView(**IDENTITY),
    )


def test_register_force_and_no_body(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{BASE}/sdk/v1/players/p1/register").mock(return_value=ok(REGISTER_DATA, 201))
    sdk.players.register("p1", force=True, idempotency_key="my-key")
    request = route.calls.last.request
    assert request.url.params["force"] == "true"
    assert request.content == b""
    assert request.headers["Idempotency-Key"] == "my-key"
    sdk.players.register("p1")
    assert "force" not in route.calls.last.request.url.params


def test_sdk_set_identity_sends_player_secret(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.put(f"{BASE}/sdk/v1/players/p1/identity").mock(return_value=ok(IDENTITY_DATA))
    result = sdk.players.set_identity("p1", name="Otter", avatar="a.png")
    assert route.calls.last.request.headers["X-Player-Secret"] == "sec_1"
    assert sent_json(route) == {"name": "Otter", "avatar": "a.png"}
    assert result.display_identity.avatar == "a.png"

    sdk.players.set_identity("p1", name="Otter", player_secret="sec_2")
    assert route.calls.last.request.headers["X-Player-Secret"] == "sec_2"


def test_sdk_set_identity_without_any_secret_sends_nothing(respx_mock: respx.MockRouter) -> None:
    route = respx_mock.put(f"{BASE}/sdk/v1/players/p1/identity")
    with SdkClient("ck_test", base_url=BASE) as client, pytest.raises(ValueError, match="player's secret"):
        client.players.set_identity("p1", name="Otter")
    assert not route.called


def test_server_calls(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    ping = respx_mock.get(f"{BASE}/server/v1/ping").mock(return_value=ok({**PING_DATA, "region": "eu"}))
    identity = respx_mock.put(f"{BASE}/server/v1/players/p%2F1/identity").mock(return_value=ok(IDENTITY_DATA))
    clock = respx_mock.post(f"{BASE}/server/v1/dev/clock/advance").mock(
        return_value=ok({"now": "2026-01-02T03:05:00.000Z"})
    )
    health = respx_mock.get(f"{BASE}/admin/v1/health").mock(
        return_value=ok({"status": "ok", "version": "0.1.0", "time": "2026-01-02T03:04:05.000Z"})
    )

    assert server.system.ping().key_prefix == "sk_test_ab"
    assert ping.calls.last.request.headers["Authorization"] == "Bearer sk_test"
    assert "Idempotency-Key" not in ping.calls.last.request.headers

    server.players.set_identity("p/1", name="Otter")
    request = identity.calls.last.request
    assert len(request.headers["Idempotency-Key"]) == 32  # required on server writes, always sent
    assert "X-Player-Secret" not in request.headers
    assert sent_json(identity) == {"name": "Otter", "avatar": None}

    assert server.system.advance_clock(55).now == datetime(2026, 1, 2, 3, 5, tzinfo=UTC)
    assert sent_json(clock) == {"seconds": 55.0}

    assert server.system.health().status == "ok"
    assert "Authorization" not in health.calls.last.request.headers
    assert health.calls.last.request.headers["X-Svc-SDK"] == SDK_HEADER


def test_base_url_path_prefix_kept(policy: RetryPolicy, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{BASE}/livecore/server/v1/ping").mock(return_value=ok(PING_DATA))
    with ServerClient("sk", base_url=f"{BASE}/livecore/", retry_policy=policy) as client:
        client.system.ping()
    assert route.called


# --- Errors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [
        (400, "invalid_request", InvalidRequestError),
        (401, "player_secret_invalid", PlayerSecretInvalidError),
        (403, "player_banned", PlayerBannedError),
        (404, "player_not_found", PlayerNotFoundError),
        (404, "not_found", NotFoundError),
        (409, "idempotency_conflict", IdempotencyConflictError),
        (409, "some_future_conflict", ConflictError),  # a code without a class maps by status
    ],
)
def test_error_answers_raise_their_class(
    sdk: SdkClient, respx_mock: respx.MockRouter, status: int, code: str, cls: type[LivecoreAPIError]
) -> None:
    respx_mock.put(f"{BASE}/sdk/v1/players/p1/identity").mock(
        return_value=refusal(status, code, {"X-Request-Id": "req_9"}, fields={"name": "too long"})
    )
    with pytest.raises(cls) as info:
        sdk.players.set_identity("p1", name="Otter")
    error = info.value
    assert type(error) is cls
    assert (error.status, error.code, error.message) == (status, code, f"{code} message")
    assert error.details == {"fields": {"name": "too long"}}
    assert error.headers["x-request-id"] == "req_9"
    assert error.request_id == "req_9"


# --- Retries --------------------------------------------------------------------------------------


def test_429_retry_after_honoured(sdk: SdkClient, respx_mock: respx.MockRouter, sleeps: Sleeps) -> None:
    route = respx_mock.post(f"{BASE}/sdk/v1/players/p1/register").mock(
        side_effect=[
            refusal(429, "rate_limited", {"Retry-After": "3"}),
            refusal(429, "rate_limited", {"Retry-After": "1.5"}),
            ok(REGISTER_DATA, 201),
        ]
    )
    assert sdk.players.register("p1").player_secret == "sec_1"
    assert sleeps == [3.0, 1.5]
    assert route.call_count == 3


def test_5xx_retried_with_the_same_idempotency_key(
    server: ServerClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    route = respx_mock.put(f"{BASE}/server/v1/players/p1/identity").mock(
        side_effect=[
            httpx.Response(502, text="bad gateway"),
            refusal(503, "internal_error"),
            ok(IDENTITY_DATA),
        ]
    )
    server.players.set_identity("p1", name="Otter")
    keys = {call.request.headers["Idempotency-Key"] for call in route.calls}
    bodies = {call.request.content for call in route.calls}
    assert route.call_count == 3
    assert len(keys) == 1
    assert len(bodies) == 1
    assert sleeps == [0.25, 0.5]  # backoff without Retry-After: 0.5 * min(20, 0.5 * 2**n)


def test_retries_exhausted_raise_the_last_error(
    server: ServerClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    route = respx_mock.get(f"{BASE}/server/v1/ping").mock(
        side_effect=[refusal(500, "internal_error"), refusal(502, "internal_error"), refusal(503, "busy")]
    )
    with pytest.raises(InternalServerError) as info:
        server.system.ping()
    assert (info.value.status, info.value.code) == (503, "busy")
    assert route.call_count == 3  # max_retries=2 by default
    assert len(sleeps) == 2


def test_max_retries_from_the_constructor(policy: RetryPolicy, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{BASE}/server/v1/ping").mock(return_value=refusal(429, "rate_limited"))
    with (
        ServerClient("sk", base_url=BASE, max_retries=0, retry_policy=policy) as client,
        pytest.raises(RateLimitError),
    ):
        client.system.ping()
    assert route.call_count == 1


def test_connection_error_retried(server: ServerClient, respx_mock: respx.MockRouter, sleeps: Sleeps) -> None:
    route = respx_mock.get(f"{BASE}/server/v1/ping").mock(
        side_effect=[httpx.ConnectError("refused"), httpx.ReadTimeout("slow"), ok(PING_DATA)]
    )
    assert server.system.ping().ok
    assert route.call_count == 3
    assert sleeps == [0.25, 0.5]


def test_timeouts_exhausted_raise_api_timeout_error(
    server: ServerClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.get(f"{BASE}/server/v1/ping").mock(side_effect=httpx.ReadTimeout("slow"))
    with pytest.raises(APITimeoutError) as info:
        server.system.ping()
    assert isinstance(info.value.__cause__, httpx.ReadTimeout)
    assert route.call_count == 3


@pytest.mark.parametrize(
    ("status", "code"), [(400, "invalid_request"), (404, "player_not_found"), (409, "idempotency_conflict")]
)
def test_no_retry_on_4xx_other_than_429(
    sdk: SdkClient, respx_mock: respx.MockRouter, sleeps: Sleeps, status: int, code: str
) -> None:
    route = respx_mock.put(f"{BASE}/sdk/v1/players/p1/identity").mock(return_value=refusal(status, code))
    with pytest.raises(LivecoreAPIError) as info:
        sdk.players.set_identity("p1", name="Otter")
    assert info.value.status == status
    assert route.call_count == 1
    assert sleeps == []


def test_unkeyed_write_not_resent_after_an_unknown_outcome(
    server: ServerClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    route = respx_mock.post(f"{BASE}/server/v1/dev/clock/advance").mock(
        side_effect=[
            refusal(429, "rate_limited", {"Retry-After": "1"}),
            refusal(503, "busy"),
            ok({"now": "x"}),
        ]
    )
    with pytest.raises(InternalServerError):
        server.system.advance_clock(10)
    assert route.call_count == 2  # the 429 was retried, the 503 (maybe applied) was not
    assert sleeps == [1.0]


# --- Timeouts -------------------------------------------------------------------------------------

NOW = {"now": "2026-01-21T03:04:05.000Z"}


def read_timeout(route: respx.Route) -> Any:
    return route.calls.last.request.extensions["timeout"]["read"]


def test_advance_clock_waits_for_the_work_of_the_days_it_advances(
    policy: RetryPolicy, respx_mock: respx.MockRouter
) -> None:
    """The server answers an advance once every job due on the way has run (a 20-day advance took 31 s):
    the answer is waited for the client's timeout plus ADVANCE_SECONDS_PER_DAY a day advanced; every other
    call keeps the client's timeout, and a client without a read timeout keeps none."""
    clock = respx_mock.post(f"{BASE}/server/v1/dev/clock/advance").mock(return_value=ok(NOW))
    ping = respx_mock.get(f"{BASE}/server/v1/ping").mock(return_value=ok(PING_DATA))
    with ServerClient("sk", base_url=BASE, retry_policy=policy) as server:
        server.system.advance_clock(20 * 86_400)
        assert read_timeout(clock) == 10.0 + 20 * ADVANCE_SECONDS_PER_DAY
        server.system.advance_clock(3600)
        assert read_timeout(clock) == pytest.approx(10.0 + ADVANCE_SECONDS_PER_DAY / 24)
        server.system.ping()
        assert read_timeout(ping) == 10.0
    with ServerClient("sk", base_url=BASE, timeout=30.0, retry_policy=policy) as server:
        server.system.advance_clock(2 * 86_400)
        assert read_timeout(clock) == 30.0 + 2 * ADVANCE_SECONDS_PER_DAY
    with (
        httpx.Client(timeout=None) as endless,
        ServerClient("sk", base_url=BASE, http_client=endless, retry_policy=policy) as server,
    ):
        server.system.advance_clock(86_400)
        assert read_timeout(clock) is None


async def test_async_advance_clock_waits_for_the_work_of_the_days_it_advances(
    async_server: AsyncServerClient, respx_mock: respx.MockRouter
) -> None:
    clock = respx_mock.post(f"{BASE}/server/v1/dev/clock/advance").mock(return_value=ok(NOW))
    await async_server.system.advance_clock(20 * 86_400)
    assert read_timeout(clock) == 10.0 + 20 * ADVANCE_SECONDS_PER_DAY


# --- Lifecycle ------------------------------------------------------------------------------------


def test_context_manager_closes_only_its_own_http_client() -> None:
    with SdkClient("ck", base_url=BASE) as owned:
        pass
    assert owned._http.is_closed
    mine = httpx.Client()
    with ServerClient("sk", base_url=BASE, http_client=mine):
        pass
    assert not mine.is_closed
    mine.close()


def test_empty_api_key_refused() -> None:
    with pytest.raises(ValueError, match="api_key"):
        SdkClient("")


def test_the_sdk_client_reports_its_platform_and_app_version_on_every_request(
    policy: RetryPolicy, respx_mock: respx.MockRouter
) -> None:
    register = respx_mock.post(f"{BASE}/sdk/v1/players/p1/register").mock(return_value=ok(REGISTER_DATA, 201))
    identity = respx_mock.put(f"{BASE}/sdk/v1/players/p1/identity").mock(return_value=ok(IDENTITY_DATA))
    with SdkClient(
        "ck_test", base_url=BASE, platform="ios", app_version="1.4.2", retry_policy=policy
    ) as client:
        client.players.register("p1")
        client.players.set_identity("p1", name="Otter", player_secret="sec_1")
    for route in (register, identity):
        request = route.calls.last.request
        assert (request.headers["X-Svc-Platform"], request.headers["X-Svc-App-Version"]) == ("ios", "1.4.2")
    # One given, one sent; neither given, neither sent.
    with SdkClient("ck_test", base_url=BASE, app_version="2.0", retry_policy=policy) as client:
        client.players.register("p1")
    assert register.calls.last.request.headers["X-Svc-App-Version"] == "2.0"
    assert "X-Svc-Platform" not in register.calls.last.request.headers
    with SdkClient("ck_test", base_url=BASE, retry_policy=policy) as client:
        client.players.register("p1")
    assert "X-Svc-Platform" not in register.calls.last.request.headers
    assert "X-Svc-App-Version" not in register.calls.last.request.headers


@pytest.mark.parametrize(
    "given",
    [{"platform": ""}, {"platform": "x" * 33}, {"app_version": "1.0\u200b"}],
    ids=["empty-platform", "long-platform", "format-character"],
)
def test_a_platform_or_app_version_the_service_would_refuse_fails_at_construction(
    given: dict[str, str],
) -> None:
    with pytest.raises(ValueError, match="X-Svc-"):
        SdkClient("ck_test", base_url=BASE, **given)
    with pytest.raises(ValueError, match="X-Svc-"):
        AsyncSdkClient("ck_test", base_url=BASE, **given)


# --- Async twins ----------------------------------------------------------------------------------


async def test_async_register_request_and_response(
    async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.post(f"{BASE}/sdk/v1/players/p1/register").mock(
        return_value=ok({**REGISTER_DATA, "addedLater": 1}, 201)
    )
    result = await async_sdk.players.register("p1", force=True, player_context={"country": "DE"})
    request = route.calls.last.request
    assert request.headers["Authorization"] == "Bearer ck_test"
    assert request.headers["X-Svc-SDK"] == SDK_HEADER
    assert len(bytes.fromhex(request.headers["Idempotency-Key"])) == 16
    assert request.url.params["force"] == "true"
    assert sent_json(route) == {"playerContext": {"country": "DE"}}
    assert result.player_secret == "sec_1"


async def test_async_set_identity_sends_player_secret(
    async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.put(f"{BASE}/sdk/v1/players/p1/identity").mock(return_value=ok(IDENTITY_DATA))
    await async_sdk.players.set_identity("p1", name="Otter", player_secret="sec_2")
    assert route.calls.last.request.headers["X-Player-Secret"] == "sec_2"
    assert sent_json(route) == {"name": "Otter", "avatar": None}


async def test_the_async_sdk_client_reports_its_platform_and_app_version(
    policy: RetryPolicy, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.put(f"{BASE}/sdk/v1/players/p1/identity").mock(return_value=ok(IDENTITY_DATA))
    async with AsyncSdkClient(
        "ck_test", base_url=BASE, platform="switch", app_version="7", retry_policy=policy
    ) as client:
        await client.players.set_identity("p1", name="Otter", player_secret="sec_1")
    request = route.calls.last.request
    assert (request.headers["X-Svc-Platform"], request.headers["X-Svc-App-Version"]) == ("switch", "7")


async def test_async_server_calls(async_server: AsyncServerClient, respx_mock: respx.MockRouter) -> None:
    respx_mock.get(f"{BASE}/server/v1/ping").mock(return_value=ok(PING_DATA))
    clock = respx_mock.post(f"{BASE}/server/v1/dev/clock/advance").mock(
        return_value=ok({"now": "2026-01-02T03:05:00.000Z"})
    )
    assert (await async_server.system.ping()).game_id == "gam_1"
    assert (await async_server.system.advance_clock(1.5)).now.minute == 5
    assert sent_json(clock) == {"seconds": 1.5}


async def test_async_error_class(async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter) -> None:
    respx_mock.post(f"{BASE}/sdk/v1/players/p1/register").mock(
        return_value=refusal(403, "player_banned", {"X-Request-Id": "r"}, until="never")
    )
    with pytest.raises(PlayerBannedError) as info:
        await async_sdk.players.register("p1")
    assert (info.value.status, info.value.code) == (403, "player_banned")
    assert info.value.details == {"until": "never"}


async def test_async_429_retry_after_honoured(
    async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    route = respx_mock.post(f"{BASE}/sdk/v1/players/p1/register").mock(
        side_effect=[refusal(429, "rate_limited", {"Retry-After": "2"}), ok(REGISTER_DATA, 201)]
    )
    await async_sdk.players.register("p1")
    assert sleeps == [2.0]
    assert route.call_count == 2


async def test_async_5xx_and_connection_errors_retried_with_one_key(
    async_server: AsyncServerClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    route = respx_mock.put(f"{BASE}/server/v1/players/p1/identity").mock(
        side_effect=[httpx.ConnectError("refused"), refusal(500, "internal_error"), ok(IDENTITY_DATA)]
    )
    await async_server.players.set_identity("p1", name="Otter", idempotency_key="k-1")
    assert [call.request.headers["Idempotency-Key"] for call in route.calls] == ["k-1", "k-1", "k-1"]
    assert sleeps == [0.25, 0.5]


async def test_async_retries_exhausted_raise_the_last_error(
    async_server: AsyncServerClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.get(f"{BASE}/server/v1/ping").mock(side_effect=httpx.ConnectError("refused"))
    with pytest.raises(APIConnectionError) as info:
        await async_server.system.ping()
    assert type(info.value) is APIConnectionError
    assert route.call_count == 3


async def test_async_no_retry_on_4xx(
    async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    route = respx_mock.put(f"{BASE}/sdk/v1/players/p1/identity").mock(
        return_value=refusal(401, "player_secret_invalid")
    )
    with pytest.raises(PlayerSecretInvalidError):
        await async_sdk.players.set_identity("p1", name="Otter")
    assert route.call_count == 1
    assert sleeps == []


async def test_async_context_manager_closes_its_own_http_client() -> None:
    async with AsyncServerClient("sk", base_url=BASE) as owned:
        pass
    assert owned._http.is_closed
