"""Domain errors and their stable codes.

Every refusal the service can give is a :class:`LivecoreError` carrying a stable ``code`` (clients match on
it), a human ``message`` (clients must not), optional ``details`` and an HTTP status hint, so the transport
layer turns it into the error envelope (docs/reference/conventions.md#errors) without the core knowing HTTP.

A code is a :class:`Code`, declared once with its status and meaning: the generic ones here, an area's in
its own package (``livecore/<area>/errors.py``), listed in its :attr:`livecore.area.Area.errors`; the
registry (:mod:`livecore.registry`) refuses two areas claiming one. The table of every code is
docs/reference/errors.md; a code's status never depends on the call site.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

import attrs


class FileProblems(ValueError):
    """A file or a set of arguments refused whole, every problem at once: ``problems`` maps each
    offending field path (``games.arena.events.sprint.window_seconds``, ``segments``) to what is wrong.
    The manifest's, the population's and the fitting's refusals are of this kind."""

    def __init__(self, problems: Mapping[str, str]) -> None:
        self.problems: dict[str, str] = dict(sorted(problems.items()))
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(f"{path}: {message}" for path, message in self.problems.items())


@attrs.frozen
class Code:
    """An error code (``guild_full``, a studio's own area's ``quest_not_found``): its stable ``value`` and
    its HTTP status, declared once by the area that owns it (:attr:`livecore.area.Area.errors`)."""

    value: str
    status: int
    #: What the code means, for the reference's table of codes (docs/reference/errors.md) and a studio's
    #: area's page (``python -m livecore.api.reference --area``).
    meaning: str = attrs.field(default="", eq=False)

    def __str__(self) -> str:
        return self.value


# The codes no area owns: what any route may answer.
INVALID_REQUEST = Code(
    "invalid_request",
    400,
    (
        "The body, query or a header failed validation; `details.fields` names each offending field by "
        "its wire path."
    ),
)
INVALID_API_KEY = Code("invalid_api_key", 401, "The API key is missing, unknown or revoked.")
PERMISSION_DENIED = Code(
    "permission_denied",
    403,
    (
        "The key's permission set does not fit the surface, or a test-only route or option was called "
        "with a live key."
    ),
)
NOT_FOUND = Code(
    "not_found", 404, "No such route, or a record id in the path names nothing the caller may see."
)
METHOD_NOT_ALLOWED = Code(
    "method_not_allowed", 405, "The path exists but not with this method (see the `Allow` header)."
)
PAYLOAD_TOO_LARGE = Code("payload_too_large", 413, "The body is over 1 MiB.")
UNSUPPORTED_MEDIA_TYPE = Code("unsupported_media_type", 415, "A body that is not `application/json`.")
REQUEST_TIMEOUT = Code(
    "request_timeout",
    408,
    (
        "The body did not arrive within the server's body timeout (30 s unless the operator changed it); "
        "the connection is closed."
    ),
)
RATE_LIMITED = Code(
    "rate_limited",
    429,
    (
        "The key's bucket is empty, or too many wrong player secrets came for this player from this "
        "address; `Retry-After` says when to retry."
    ),
)
IDEMPOTENCY_CONFLICT = Code(
    "idempotency_conflict",
    409,
    "The idempotency key was used before with a different request, or that request is still in flight.",
)
INTERNAL_ERROR = Code("internal_error", 500, "A fault of the service; quote the `X-Request-Id`.")
STORAGE_UNAVAILABLE = Code(
    "storage_unavailable",
    503,
    (
        "The server cannot write to its database: its SQLite file was moved, deleted or replaced while it "
        "ran (the server logs why). Nothing was applied; the operator restarts it."
    ),
)
CONFLICT = Code("conflict", 409, "The request conflicts with the record's current state.")

#: The generic codes, in the reference's order (the system area lists them).
GENERIC = (
    INVALID_REQUEST,
    INVALID_API_KEY,
    PERMISSION_DENIED,
    NOT_FOUND,
    METHOD_NOT_ALLOWED,
    PAYLOAD_TOO_LARGE,
    UNSUPPORTED_MEDIA_TYPE,
    REQUEST_TIMEOUT,
    RATE_LIMITED,
    IDEMPOTENCY_CONFLICT,
    INTERNAL_ERROR,
    STORAGE_UNAVAILABLE,
    CONFLICT,
)


class LivecoreError(Exception):
    """A refusal with a stable code. ``status`` is a hint for the transport, the code's."""

    def __init__(
        self,
        code: Code,
        message: str,
        details: Mapping[str, Any] | None = None,
        *,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = dict(details) if details else None
        # Extra response headers the refusal implies (Retry-After on 429); transport-neutral strings.
        self.headers = dict(headers) if headers else {}

    @property
    def status(self) -> int:
        return self.code.status

    def __repr__(self) -> str:
        return f"LivecoreError({self.code.value!r}, {self.message!r}, details={self.details!r})"


class ErrorFields(TypedDict):
    "''The members of the error envelope's ``error`` object (docs/reference/conventions.md#errors).''"

    code: str
    message: str
    details: NotRequired[dict[str, Any]]


def error_fields(err: LivecoreError) -> ErrorFields:
    """What the error envelope says of ``err``: its code, its message and, when it has any, its details.
    The server renders it and :func:`livecore.exceptions.api_error` raises what a client reads from it,
    so an embedded refusal and an answered one cannot say different things."""
    fields = ErrorFields(code=err.code.value, message=err.message)
    if err.details:
        fields["details"] = err.details
    return fields


def invalid_request(message: str, fields: Mapping[str, str] | None = None) -> LivecoreError:
    "''A 400 whose ``details.fields`` maps each offending field path to what is wrong with it.''"
    return LivecoreError(INVALID_REQUEST, message, {"fields": dict(fields)} if fields else None)
