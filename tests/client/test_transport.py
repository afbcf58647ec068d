"""The shared request/response description, without HTTP: request building, response parsing, error
mapping and the retry policy."""

from __future__ import annotations

import json
from typing import Any

import attrs
import httpx
import pytest

import livecore
from livecore.api.route import Idempotency, Route, Surface
from livecore.api.views import IdentityView
from livecore.guilds.api import SDK_JOIN, GuildJoined, GuildJoinPending, LeftResponse
from livecore.players.api import (
    REGISTER,
    SDK_SET_IDENTITY,
    SERVER_SET_IDENTITY,
    IdentityResponse,
    RegisterQuery,
    RegisterRequest,
    RegisterResponse,
    SetIdentityRequest,
)
from livecore.system.api import (
    CLOCK_ADVANCE,
    HEALTH,
    PING,
    ClockAdvanceRequest,
    ClockAdvanceResponse,
    HealthResponse,
    ServerPingResponse,
)
from livecore_client import errors
from livecore_client._transport import (
    Call,
    RetryPolicy,
    build_request,
    connection_error,
    parse_response,
)

KEY = "a" * 32


def fixed_key() -> str:
    return KEY


def register_data(**extra: Any) -> dict[str, Any]:
    identity = {"name": "Brave Otter", "avatar": None, "country": "FR"}
    return {
        "playerId": "ply_1",
        "externalPlayerId": "p1",
        "playerSecret": "sec",
        "country": "FR",
        "syntheticIdentity": identity,
        "displayIdentity": identity,
        "anonymizedIdentity": identity,
        **extra,
    }


def body(data: Any) -> bytes:
    return json.dumps(data).encode()


# --- build_request --------------------------------------------------------------------------------


def test_register_request_shape() -> None:
    call = Call(
        REGISTER,
        RegisterResponse,
        path={"externalId": "p1"},
        query=RegisterQuery(force=True),
        body=RegisterRequest(player_context={"country": "FR"}),
    )
    request = build_request(call, api_key="ck_test", new_key=fixed_key)
    assert request.method == "POST"
    assert request.path == "/sdk/v1/players/p1/register"
    assert request.params == {"force": "true"}
    assert request.headers == {
        "Accept": "application/json",
        "X-Svc-SDK": f"livecore-python/{livecore.__version__}",
        "Authorization": "Bearer ck_test",
        "Idempotency-Key": KEY,
        "Content-Type": "application/json",
    }
    assert json.loads(request.content or b"") == {"playerContext": {"country": "FR"}}
    assert request.idempotency_key == KEY
    assert request.retry_safe


def test_optional_body_left_out() -> None:
    call = Call(REGISTER, RegisterResponse, path={"externalId": "p1"})
    request = build_request(call, api_key="ck")
    assert request.content is None
    assert "Content-Type" not in request.headers
    assert request.params == {}


def test_generated_key_is_16_random_bytes_in_hex() -> None:
    call = Call(REGISTER, RegisterResponse, path={"externalId": "p1"})
    first = build_request(call, api_key="ck").idempotency_key
    second = build_request(call, api_key="ck").idempotency_key
    assert first is not None
    assert second is not None
    assert len(bytes.fromhex(first)) == 16
    assert first != second


def test_path_parameters_are_escaped_within_their_segment() -> None:
    call = Call(REGISTER, RegisterResponse, path={"externalId": "a/b c?"})
    assert build_request(call, api_key="ck").path == "/sdk/v1/players/a%2Fb%20c%3F/register"


@pytest.mark.parametrize("path", [{}, {"externalId": ""}, {"externalId": "p1", "other": "x"}])
def test_bad_path_parameters_refused(path: dict[str, str]) -> None:
    with pytest.raises(ValueError, match="path parameter"):
        build_request(Call(REGISTER, RegisterResponse, path=path), api_key="ck")


def test_player_route_sends_the_secret() -> None:
    call = Call(
        SDK_SET_IDENTITY,
        IdentityResponse,
        path={"externalId": "p1"},
        body=SetIdentityRequest(name="Otter"),
        player_secret="sec",
    )
    request = build_request(call, api_key="ck", new_key=fixed_key)
    assert request.method == "PUT"
    assert request.headers["X-Player-Secret"] == "sec"
    assert request.headers["Idempotency-Key"] == KEY
    assert json.loads(request.content or b"") == {"name": "Otter", "avatar": None}


def test_player_route_without_secret_fails_before_sending() -> None:
    call = Call(
        SDK_SET_IDENTITY,
        IdentityResponse,
        path={"externalId": "p1"},
        body=SetIdentityRequest(name="Otter"),
    )
    with pytest.raises(ValueError, match="player's secret"):
        build_request(call, api_key="ck")


def test_key_route_never_sends_a_player_secret() -> None:
    call = Call(
        SERVER_SET_IDENTITY,
        IdentityResponse,
        path={"externalId": "p1"},
        body=SetIdentityRequest(name="Otter"),
        player_secret="sec",
    )
    request = build_request(call, api_key="sk")
    assert "X-Player-Secret" not in request.headers
    assert request.path == "/server/v1/players/p1/identity"


def test_required_idempotency_always_keyed_and_caller_key_kept() -> None:
    call = Call(
        SERVER_SET_IDENTITY,
        IdentityResponse,
        path={"externalId": "p1"},
        body=SetIdentityRequest(name="Otter"),
    )
    assert build_request(call, api_key="sk", new_key=fixed_key).headers["Idempotency-Key"] == KEY
    mine = attrs.evolve(call, idempotency_key="mine")
    assert build_request(mine, api_key="sk", new_key=fixed_key).headers["Idempotency-Key"] == "mine"


def test_public_route_sends_no_credentials() -> None:
    request = build_request(Call(HEALTH, HealthResponse), api_key="sk")
    assert request.path == "/admin/v1/health"
    assert "Authorization" not in request.headers
    assert request.headers["X-Svc-SDK"].startswith("livecore-python/")


def test_unkeyed_write_is_not_retry_safe() -> None:
    call = Call(CLOCK_ADVANCE, ClockAdvanceResponse, body=ClockAdvanceRequest(seconds=5))
    request = build_request(call, api_key="sk")
    assert "Idempotency-Key" not in request.headers
    assert not request.retry_safe
    assert json.loads(request.content or b"") == {"seconds": 5.0}
    assert build_request(Call(PING, ServerPingResponse), api_key="sk").retry_safe


def test_key_refused_on_a_route_without_idempotency() -> None:
    call = Call(PING, ServerPingResponse, idempotency_key="k")
    with pytest.raises(ValueError, match="does not take an idempotency key"):
        build_request(call, api_key="sk")


def test_call_refuses_a_response_type_the_route_does_not_answer() -> None:
    with pytest.raises(TypeError, match="answers ServerPingResponse"):
        Call(PING, HealthResponse)


def test_call_reads_typed_shapes_made_only_of_its_route_models_fields() -> None:
    """A join answers one wire model holding the seat (200) or the join request (201): each reads into a
    model of its own, and a model naming a field the route never answers is refused."""
    call = Call(
        SDK_JOIN, GuildJoined, variant=(201, GuildJoinPending), path={"externalId": "a", "guildId": "g"}
    )
    assert call.variant == (201, GuildJoinPending)
    with pytest.raises(TypeError, match="answers JoinResponse, not LeftResponse"):
        Call(SDK_JOIN, GuildJoined, variant=(201, LeftResponse))
    with pytest.raises(TypeError, match="answers JoinResponse, not LeftResponse"):
        Call(SDK_JOIN, LeftResponse)


def test_wrong_body_model_refused() -> None:
    call = Call(CLOCK_ADVANCE, ClockAdvanceResponse, body=SetIdentityRequest(name="x"))
    with pytest.raises(TypeError, match="does not take a SetIdentityRequest body"):
        build_request(call, api_key="sk")


def test_missing_required_body_refused() -> None:
    with pytest.raises(ValueError, match="needs a ClockAdvanceRequest body"):
        build_request(Call(CLOCK_ADVANCE, ClockAdvanceResponse), api_key="sk")


# A route whose body has an ``idempotencyKey`` field; none of the routes shipped so far does.
@attrs.frozen
class _GrantRequest:
    amount: int
    idempotency_key: str | None = None


BODY_KEYED = Route(
    name="test.body_keyed",
    surface=Surface.SERVER,
    method="POST",
    path="/grants",
    summary="test route",
    request=_GrantRequest,
    response=ServerPingResponse,
    idempotency=Idempotency.REQUIRED,
    body_idempotency_field=True,
)


def test_body_idempotency_field_carries_the_same_key_as_the_header() -> None:
    request = build_request(
        Call(BODY_KEYED, ServerPingResponse, body=_GrantRequest(amount=3)), api_key="sk", new_key=fixed_key
    )
    assert json.loads(request.content or b"") == {"amount": 3, "idempotencyKey": KEY}
    assert request.headers["Idempotency-Key"] == KEY


def test_body_idempotency_key_from_the_model_is_used_for_both() -> None:
    call = Call(BODY_KEYED, ServerPingResponse, body=_GrantRequest(amount=3, idempotency_key="row-7"))
    request = build_request(call, api_key="sk", new_key=fixed_key)
    assert json.loads(request.content or b"")["idempotencyKey"] == "row-7"
    assert request.headers["Idempotency-Key"] == "row-7"


def test_disagreeing_body_and_argument_keys_refused() -> None:
    call = Call(
        BODY_KEYED,
        ServerPingResponse,
        body=_GrantRequest(amount=3, idempotency_key="row-7"),
        idempotency_key="other",
    )
    with pytest.raises(ValueError, match="differ"):
        build_request(call, api_key="sk")


# --- parse_response -------------------------------------------------------------------------------


def test_parse_success_tolerates_unknown_fields() -> None:
    data = register_data(newField=1)
    data["displayIdentity"] = {**data["displayIdentity"], "frame": "gold"}
    result = parse_response(RegisterResponse, 201, {}, body({"data": data, "meta": {}}))
    assert isinstance(result, RegisterResponse)
    assert result.player_secret == "sec"
    assert result.display_identity == IdentityView(name="Brave Otter", avatar=None, country="FR")


@pytest.mark.parametrize(
    "content",
    [b"", b"<html>", body({"result": {}}), body({"data": {"playerId": "ply_1"}})],
    ids=["empty", "not-json", "no-data", "missing-fields"],
)
def test_parse_malformed_success_raises_validation_error(content: bytes) -> None:
    with pytest.raises(errors.APIResponseValidationError) as info:
        parse_response(RegisterResponse, 200, {"X-Request-Id": "r1"}, content)
    assert info.value.status == 200


ERROR_CASES = [
    (400, "invalid_request", errors.InvalidRequestError),
    (401, "invalid_api_key", errors.AuthenticationError),
    (401, "player_secret_invalid", errors.PlayerSecretInvalidError),
    (403, "permission_denied", errors.PermissionDeniedError),
    (403, "player_banned", errors.PlayerBannedError),
    (404, "not_found", errors.NotFoundError),
    (404, "player_not_found", errors.PlayerNotFoundError),
    (409, "idempotency_conflict", errors.IdempotencyConflictError),
    (409, "player_already_registered", errors.PlayerAlreadyRegisteredError),
    (409, "conflict", errors.ConflictError),
    (422, "invalid_merge", errors.InvalidMergeError),
    (400, "unknown_currency", errors.UnknownCurrencyError),
    (429, "rate_limited", errors.RateLimitError),
    (500, "internal_error", errors.InternalServerError),
    # Codes without a class of their own (or unknown to this release) map by status family.
    (409, "gift_cooldown", errors.GiftCooldownError),
    (410, "gift_expired", errors.GiftExpiredError),
    (409, "some_future_conflict", errors.ConflictError),
    (410, "some_future_gone", errors.GoneError),
    (422, "some_future_rule", errors.UnprocessableEntityError),
    (403, "some_future_refusal", errors.PermissionDeniedError),
    (503, "maintenance", errors.InternalServerError),
]


@pytest.mark.parametrize(("status", "code", "cls"), ERROR_CASES)
def test_error_class_by_code_then_status(status: int, code: str, cls: type[errors.LivecoreAPIError]) -> None:
    headers = {"X-Request-Id": "req_1", "RateLimit-Remaining": "0"}
    envelope = {"error": {"code": code, "message": "nope", "details": {"fields": {"name": "is required"}}}}
    with pytest.raises(errors.LivecoreAPIError) as info:
        parse_response(ServerPingResponse, status, headers, body(envelope))
    error = info.value
    assert type(error) is cls
    assert (error.status, error.code, error.message) == (status, code, "nope")
    assert error.details == {"fields": {"name": "is required"}}
    assert error.headers["ratelimit-remaining"] == "0"
    assert error.request_id == "req_1"
    assert code in str(error)


def test_code_subclasses_catchable_by_their_status_class() -> None:
    assert issubclass(errors.PlayerNotFoundError, errors.NotFoundError)
    assert issubclass(errors.PlayerSecretInvalidError, errors.AuthenticationError)
    assert issubclass(errors.PlayerBannedError, errors.PermissionDeniedError)
    assert issubclass(errors.IdempotencyConflictError, errors.ConflictError)
    assert issubclass(errors.PlayerAlreadyRegisteredError, errors.ConflictError)
    assert issubclass(errors.APITimeoutError, errors.APIConnectionError)
    assert issubclass(errors.LivecoreAPIError, errors.LivecoreClientError)
    assert issubclass(errors.APIConnectionError, errors.LivecoreClientError)


def test_error_without_envelope_keeps_the_body_text() -> None:
    with pytest.raises(errors.InternalServerError) as info:
        parse_response(ServerPingResponse, 502, {}, b"<html>Bad Gateway</html>")
    assert info.value.code is None
    assert info.value.details is None
    assert info.value.request_id is None
    assert "Bad Gateway" in info.value.message


def test_unknown_status_without_class_is_the_base_error() -> None:
    envelope = {"error": {"code": "teapot", "message": "short and stout"}}
    with pytest.raises(errors.LivecoreAPIError) as info:
        parse_response(ServerPingResponse, 418, {}, body(envelope))
    assert type(info.value) is errors.LivecoreAPIError
    assert info.value.details is None


def test_parse_reads_the_variant_of_its_status_and_the_response_otherwise() -> None:
    variant = (201, GuildJoinPending)
    request = {"requestId": "gjr_1", "guildId": "g", "externalPlayerId": "a", "message": None}
    request["createdAt"] = "2026-03-02T12:00:00.000Z"
    requested = parse_response(GuildJoined, 201, {}, body({"data": {"request": request}}), variant=variant)
    assert isinstance(requested, GuildJoinPending) and requested.request.request_id == "gjr_1"
    with pytest.raises(errors.APIResponseValidationError, match="GuildJoined"):
        parse_response(GuildJoined, 200, {}, body({"data": {"request": request}}), variant=variant)


def test_a_2xx_error_envelope_raises() -> None:
    """The 202 ``lobby_forming`` answer is an error envelope, not data."""
    envelope = {"error": {"code": "lobby_forming", "message": "wait", "details": {"size": 2}}}
    with pytest.raises(errors.LivecoreAPIError) as info:
        parse_response(ServerPingResponse, 202, {}, body(envelope))
    assert (info.value.status, info.value.code) == (202, "lobby_forming")


@pytest.mark.parametrize(("header", "expected"), [("7", 7.0), ("0.5", 0.5), ("soon", None), ("-1", None)])
def test_rate_limit_error_retry_after(header: str, expected: float | None) -> None:
    envelope = {"error": {"code": "rate_limited", "message": "slow down"}}
    with pytest.raises(errors.RateLimitError) as info:
        parse_response(ServerPingResponse, 429, {"retry-after": header}, body(envelope))
    assert info.value.retry_after == expected


def test_connection_error_types() -> None:
    timeout = connection_error(httpx.ReadTimeout("slow"))
    assert type(timeout) is errors.APITimeoutError
    assert isinstance(timeout.__cause__, httpx.ReadTimeout)
    assert type(connection_error(httpx.ConnectError("refused"))) is errors.APIConnectionError


# --- RetryPolicy ----------------------------------------------------------------------------------


def api_error(status: int, headers: dict[str, str] | None = None) -> errors.LivecoreAPIError:
    return errors.error_class(status, None)("x", status=status, headers=headers)


def test_backoff_is_capped_exponential_with_full_jitter() -> None:
    policy = RetryPolicy(max_retries=10, base_delay=0.5, max_delay=3.0, rand=lambda: 1.0)
    delays = [policy.delay(n, api_error(503), retry_safe=True) for n in range(5)]
    assert delays == [0.5, 1.0, 2.0, 3.0, 3.0]
    half = RetryPolicy(max_retries=10, base_delay=0.5, max_delay=3.0, rand=lambda: 0.5)
    assert half.delay(2, api_error(503), retry_safe=True) == 1.0


def test_retry_after_honoured_over_backoff() -> None:
    policy = RetryPolicy(rand=lambda: 1.0)
    assert policy.delay(0, api_error(429, {"Retry-After": "4"}), retry_safe=True) == 4.0
    assert policy.delay(0, api_error(503, {"Retry-After": "2"}), retry_safe=True) == 2.0


def test_retry_after_beyond_the_limit_gives_up() -> None:
    policy = RetryPolicy(max_retry_after=30)
    assert policy.delay(0, api_error(429, {"Retry-After": "31"}), retry_safe=True) is None


def test_gives_up_after_max_retries() -> None:
    policy = RetryPolicy(max_retries=2, rand=lambda: 1.0)
    assert policy.delay(1, api_error(500), retry_safe=True) == 1.0
    assert policy.delay(2, api_error(500), retry_safe=True) is None
    assert RetryPolicy(max_retries=0).delay(0, api_error(429), retry_safe=True) is None


@pytest.mark.parametrize("status", [400, 401, 403, 404, 409, 422])
def test_client_errors_other_than_429_not_retried(status: int) -> None:
    assert RetryPolicy().delay(0, api_error(status), retry_safe=True) is None


def test_what_is_retried_for_safe_and_unsafe_requests() -> None:
    policy = RetryPolicy(rand=lambda: 1.0)
    refused = errors.APIConnectionError("refused")
    assert policy.delay(0, refused, retry_safe=True) == 0.5
    assert policy.delay(0, errors.APITimeoutError("t"), retry_safe=True) == 0.5
    # An unkeyed write may have been applied: only the 429, refused before any effect, is retried.
    assert policy.delay(0, refused, retry_safe=False) is None
    assert policy.delay(0, api_error(500), retry_safe=False) is None
    assert policy.delay(0, api_error(429), retry_safe=False) == 0.5
    invalid = errors.APIResponseValidationError("bad", status=200)
    assert policy.delay(0, invalid, retry_safe=True) is None


def test_negative_max_retries_refused() -> None:
    with pytest.raises(ValueError, match="max_retries"):
        RetryPolicy(max_retries=-1)
