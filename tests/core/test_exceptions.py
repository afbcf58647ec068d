"""The exception classes of a refusal (livecore/exceptions.py): each stable code raises its class through
``api_error``, under the class of its HTTP status, with what the error envelope would carry."""

from __future__ import annotations

import ast
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import pytest

import livecore.errors
import livecore.exceptions
from livecore import registry
from livecore.errors import (
    CONFLICT,
    INTERNAL_ERROR,
    METHOD_NOT_ALLOWED,
    NOT_FOUND,
    PAYLOAD_TOO_LARGE,
    RATE_LIMITED,
    REQUEST_TIMEOUT,
    STORAGE_UNAVAILABLE,
    UNSUPPORTED_MEDIA_TYPE,
    Code,
    LivecoreError,
    error_fields,
)
from livecore.exceptions import (
    _BY_CODE,
    ConflictError,
    Detail,
    Header,
    InternalServerError,
    LivecoreAPIError,
    LivecoreClientError,
    NotFoundError,
    RateLimitError,
    UnprocessableEntityError,
    api_error,
    error_class,
    retry_after_seconds,
)
from livecore.gifts.errors import GIFT_COOLDOWN, GiftCooldownError
from livecore.guilds.errors import GUILD_FULL, HELP_COOLDOWN, HelpCooldownError
from livecore.live_events.errors import ANTI_CHEAT_REJECTED, LOBBY_FORMING, AntiCheatRejectedError
from livecore.teams.errors import LOCKED_ELSEWHERE, LockedElsewhereError

# The codes whose class is their status family's: generic answers of the transport, and 202 lobby_forming,
# which a client reads as an answer of its own.
FAMILY_ONLY = {
    METHOD_NOT_ALLOWED,
    PAYLOAD_TOO_LARGE,
    UNSUPPORTED_MEDIA_TYPE,
    REQUEST_TIMEOUT,
    INTERNAL_ERROR,
    STORAGE_UNAVAILABLE,
    CONFLICT,
    LOBBY_FORMING,
}


CODES = registry.error_codes(registry.installed())


def test_every_code_but_the_generic_ones_has_a_class_of_its_own() -> None:
    assert {code for code in CODES if code.value not in _BY_CODE} == FAMILY_ONLY
    assert set(_BY_CODE) <= {code.value for code in CODES}


def test_the_shared_modules_name_no_area() -> None:
    """The codes and classes of an area are its own: the shared error modules import none of them."""
    areas = {area.name for area in registry.installed()} - {"system"}
    for module in (livecore.errors, livecore.exceptions):
        tree = ast.parse(Path(module.__file__ or "").read_text())
        imported = {
            part
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom | ast.Import)
            for name in (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            )
            for part in name.split(".")
        }
        assert imported.isdisjoint(areas), module.__name__


def test_a_code_has_one_class() -> None:
    with pytest.raises(TypeError, match="guild_full"):

        class _Again(ConflictError, code=GUILD_FULL):
            pass

    assert error_class(409, "guild_full").__name__ == "GuildFullError"


@pytest.mark.parametrize("code", CODES, ids=str)
def test_each_code_raises_its_class_under_its_status_family(code: Code) -> None:
    details = {"fields": {"name": "is required"}, "n": 3}
    err = LivecoreError(code, "Refused.", details, headers={"Retry-After": "7", "Connection": "close"})
    exc = api_error(err)
    status = code.status
    assert type(exc) is (_BY_CODE[code.value] if code.value in _BY_CODE else error_class(status, None))
    assert type(exc) is error_class(status, code.value)
    assert isinstance(exc, error_class(status, None))  # except <status family> catches it
    assert isinstance(exc, LivecoreClientError)
    assert (exc.status, exc.code, exc.message) == (status, code.value, "Refused.")
    assert exc.details == details and exc.details is not err.details
    assert exc.headers["retry-after"] == "7" and exc.headers["Connection"] == "close"
    assert exc.request_id is None  # no request was sent
    assert code.value in str(exc)


@pytest.mark.parametrize(
    ("status", "family"),
    [
        (400, "InvalidRequestError"),
        (401, "AuthenticationError"),
        (403, "PermissionDeniedError"),
        (404, "NotFoundError"),
        (409, "ConflictError"),
        (410, "GoneError"),
        (422, "UnprocessableEntityError"),
        (429, "RateLimitError"),
        (500, "InternalServerError"),
        (503, "InternalServerError"),
        (202, "LivecoreAPIError"),
        (405, "LivecoreAPIError"),
    ],
)
def test_the_status_family_of_each_status(status: int, family: str) -> None:
    assert error_class(status, None).__name__ == family
    assert error_class(status, "a_code_of_a_later_release").__name__ == family


def test_the_envelope_and_the_exception_say_the_same() -> None:
    err = LivecoreError(GUILD_FULL, "The guild is full.", {"maxMembers": 30})
    assert error_fields(err) == {
        "code": "guild_full",
        "message": "The guild is full.",
        "details": {"maxMembers": 30},
    }
    exc = api_error(err)
    assert (exc.code, exc.message, exc.details) == ("guild_full", "The guild is full.", {"maxMembers": 30})


def test_a_refusal_without_details_or_headers() -> None:
    err = LivecoreError(NOT_FOUND, "No such thing.", {})
    assert error_fields(err) == {"code": "not_found", "message": "No such thing."}
    exc = api_error(err)
    assert exc.details is None
    assert dict(exc.headers) == {} and exc.request_id is None


def test_an_area_code_maps_by_its_status() -> None:
    quest_not_found = Code("quest_not_found", 404)
    exc = api_error(LivecoreError(quest_not_found, "No such quest."))
    assert type(exc) is NotFoundError
    assert (exc.status, exc.code) == (404, "quest_not_found")
    assert type(api_error(LivecoreError(Code("quest_locked", 423), "Locked."))) is LivecoreAPIError


def test_typed_details_read_from_an_embedded_refusal() -> None:
    until = "2026-03-02T12:00:00.000Z"
    gift = api_error(LivecoreError(GIFT_COOLDOWN, "Too soon.", {"cooldownUntil": until}))
    assert isinstance(gift, GiftCooldownError)
    assert gift.cooldown_until == datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    help_ = api_error(LivecoreError(HELP_COOLDOWN, "Too soon.", {"retryAt": "not a time"}))
    assert isinstance(help_, HelpCooldownError) and help_.retry_at is None
    seated = {"externalPlayerIds": ["a", 7, "b"]}
    locked = api_error(LivecoreError(LOCKED_ELSEWHERE, "Seated.", seated))
    assert isinstance(locked, LockedElsewhereError) and locked.external_player_ids == ["a", "b"]
    cheat = api_error(LivecoreError(ANTI_CHEAT_REJECTED, "No.", {"validator": "speed"}))
    assert isinstance(cheat, AntiCheatRejectedError) and isinstance(cheat, UnprocessableEntityError)
    assert cheat.validator == "speed"
    limited = api_error(LivecoreError(RATE_LIMITED, "Slow down.", headers={"retry-after": "2"}))
    assert isinstance(limited, RateLimitError) and limited.retry_after == 2.0


def test_a_declared_attribute_is_read_by_the_base_and_an_unreadable_type_is_refused() -> None:
    class QuestLockedError(ConflictError):
        quest: Annotated[str | None, Detail("questKey")]
        hint: Annotated[float | None, Header("X-Quest-Hint")]

    exc = QuestLockedError("x", status=409, details={"questKey": "q1"}, headers={"x-quest-hint": "1.5"})
    assert (exc.quest, exc.hint) == ("q1", 1.5)
    assert vars(QuestLockedError("x", status=409)).keys() >= {"quest", "hint"}
    with pytest.raises(TypeError, match=r"_Unread\.count: no reader"):

        class _Unread(ConflictError):
            count: Annotated[int, Detail("questCount")]


def test_headers_are_kept_as_given_and_read_in_any_case() -> None:
    given = {"x-request-id": "req_1", "Retry-After": "5"}
    exc = RateLimitError("x", status=429, code="rate_limited", headers=given)
    assert exc.headers is given
    assert exc.request_id == "req_1" and exc.retry_after == 5.0
    bare = ConflictError("x", status=409)
    assert len(bare.headers) == 0 and bare.headers.get("X-Request-Id") is None and bare.request_id is None


def test_embedded_headers_are_read_only_and_match_in_any_case() -> None:
    exc = api_error(LivecoreError(RATE_LIMITED, "Slow.", headers={"Retry-After": "3"}))
    headers = exc.headers
    assert headers["RETRY-AFTER"] == headers.get("retry-after") == "3"
    assert "retry-after" in headers and list(headers) == ["Retry-After"] and len(headers) == 1
    assert not hasattr(headers, "__setitem__")
    assert "Retry-After" in repr(headers)


@pytest.mark.parametrize(("header", "expected"), [("7", 7.0), ("0.5", 0.5), ("soon", None), ("-1", None)])
def test_retry_after_seconds(header: str, expected: float | None) -> None:
    assert retry_after_seconds({"retry-after": header}) == expected
    assert retry_after_seconds({"Retry-After": header}) == expected
    assert retry_after_seconds({}) is None


def test_a_5xx_refusal_is_an_internal_server_error() -> None:
    for code in (INTERNAL_ERROR, STORAGE_UNAVAILABLE):
        assert type(api_error(LivecoreError(code, "Down."))) is InternalServerError
