"""The exceptions of a refused call, wherever it ran: one class per meaning, so callers catch what they can
handle.

The typed clients (:mod:`livecore_client`) raise them for the service's error envelope, and an embedded
simulation raises them for the core's own refusal (:func:`api_error`): the stable code is the contract, so
code written against the client catches the same class from either. What only a call over the network can
raise (no answer, an answer off the contract) stays in :mod:`livecore_client.errors`, which re-exports
these under the same names.

Callers should match on the class or on ``code`` (stable, docs/reference/errors.md), never on ``message``.
A class per stable code subclasses the class of its HTTP status, so ``except NotFoundError`` also catches
:class:`~livecore.players.errors.PlayerNotFoundError`. The classes of the generic codes and of the status
families are here; an area's are in its package, beside its codes (``livecore/<area>/errors.py``), each
naming the code it is raised for (``class GuildFullError(ConflictError, code=GUILD_FULL)``). An unknown
code still maps by status, because new codes may appear (docs/reference/errors.md).

A class whose refusal carries a field worth a typed attribute declares it, and the base reads it:
``retry_at: Annotated[datetime | None, Detail("retryAt")]`` is the ``details`` field ``retryAt`` as a time
(``None`` when absent or unreadable: details are advisory), ``Header("Retry-After")`` a header's value.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, ClassVar, get_type_hints

from livecore.clock import parse_ts
from livecore.errors import (
    IDEMPOTENCY_CONFLICT,
    INVALID_API_KEY,
    INVALID_REQUEST,
    NOT_FOUND,
    PERMISSION_DENIED,
    RATE_LIMITED,
    Code,
    LivecoreError,
    error_fields,
)

__all__ = [
    "AuthenticationError",
    "ConflictError",
    "GoneError",
    "IdempotencyConflictError",
    "InternalServerError",
    "InvalidRequestError",
    "LivecoreAPIError",
    "LivecoreClientError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "UnprocessableEntityError",
    "api_error",
    "error_class",
    "retry_after_seconds",
]

REQUEST_ID_HEADER = "X-Request-Id"


class LivecoreClientError(Exception):
    """Anything a client or an embedded simulation raises about a call; catch it to handle every failure
    in one place."""


#: The class of each code, as the class declares it: checked first, the code says exactly what went wrong.
_BY_CODE: dict[str, type[LivecoreAPIError]] = {}


@dataclass(frozen=True)
class Detail:
    """Marks a refusal class's attribute (``Annotated[<type>, Detail("wireName")]``) as the ``details``
    field ``name``, read as its type says (:data:`_READERS`)."""

    name: str


@dataclass(frozen=True)
class Header:
    """Marks a refusal class's attribute (``Annotated[<type>, Header("Name")]``) as the header ``name``
    (matched in any case), read as its type says (:data:`_READERS`)."""

    name: str


def _seconds(raw: object) -> float | None:
    """A number of seconds, written as a number or as a header writes it."""
    if isinstance(raw, bool) or not isinstance(raw, str | int | float):
        return None
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


def _time(raw: object) -> datetime | None:
    if not isinstance(raw, str):
        return None
    try:
        return parse_ts(raw)
    except ValueError:
        return None


def _text(raw: object) -> str | None:
    return raw if isinstance(raw, str) else None


def _texts(raw: object) -> list[str]:
    return [x for x in raw if isinstance(x, str)] if isinstance(raw, list) else []


#: How a declared attribute of each type reads its raw value: what is absent or unreadable reads as nothing,
#: since details are advisory and never break the refusal itself.
_READERS: dict[object, Callable[[object], object]] = {
    str | None: _text,
    datetime | None: _time,
    float | None: _seconds,
    list[str]: _texts,
}


def _reader(cls: type, attr: str, hint: Any) -> Callable[[LivecoreAPIError], object]:
    """The reader of ``cls``'s declared attribute ``attr``: its mark's source, read as its type says."""
    mark = next(mark for mark in hint.__metadata__ if isinstance(mark, Detail | Header))
    read = _READERS.get(hint.__origin__)
    if read is None:
        raise TypeError(f"{cls.__name__}.{attr}: no reader of {hint.__origin__} (one of {list(_READERS)})")
    if isinstance(mark, Header):
        return lambda exc: read(_header(exc.headers, mark.name))
    return lambda exc: read(exc.details.get(mark.name) if exc.details is not None else None)


class LivecoreAPIError(LivecoreClientError):
    """The call was refused. ``code`` is ``None`` only when the body was not an error envelope (for
    example an HTML page from a proxy). ``headers`` is the mapping given, kept as it is: a client gives
    its response's headers, whose names match in any case, and ``request_id`` is read the same way from
    any mapping.

    A subclass raised for one code names it, ``class GuildFullError(ConflictError, code=GUILD_FULL)``, and
    :func:`error_class` gives it for that code from then on. Its attributes annotated with a
    :class:`Detail` or a :class:`Header` are read when it is built, after the ones here (so a declared
    ``request_id`` is the refusal's field)."""

    # Each declared attribute's reader of the built exception, the base classes' included.
    _reads: ClassVar[dict[str, Callable[[LivecoreAPIError], object]]] = {}

    def __init_subclass__(cls, *, code: Code | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._reads = {
            attr: _reader(cls, attr, hint)
            for attr, hint in get_type_hints(cls, include_extras=True).items()
            if any(isinstance(mark, Detail | Header) for mark in getattr(hint, "__metadata__", ()))
        }
        if code is None:
            return
        taken = _BY_CODE.setdefault(code.value, cls)
        # The same class defined again (its module reloaded) takes its place; another class may not.
        if taken is not cls and (taken.__module__, taken.__qualname__) != (cls.__module__, cls.__qualname__):
            raise TypeError(f"{cls.__name__}: the code {code.value!r} is {taken.__name__}'s already")
        _BY_CODE[code.value] = cls

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str | None = None,
        details: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details: dict[str, Any] | None = dict(details) if details is not None else None
        self.headers: Mapping[str, str] = headers if headers is not None else _Headers({})
        self.request_id: str | None = _header(self.headers, REQUEST_ID_HEADER)
        for attr, read in self._reads.items():
            setattr(self, attr, read(self))

    def __str__(self) -> str:
        return f"[{self.status} {self.code or 'no code'}] {self.message}"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status={self.status}, code={self.code!r}, message={self.message!r}, "
            f"details={self.details!r})"
        )


class InvalidRequestError(LivecoreAPIError, code=INVALID_REQUEST):
    """400: the request failed validation; ``details["fields"]`` names each offending field."""


class AuthenticationError(LivecoreAPIError, code=INVALID_API_KEY):
    """401: missing, unknown or revoked API key (on the admin API: personal key, expired included)."""


class PermissionDeniedError(LivecoreAPIError, code=PERMISSION_DENIED):
    """403: the key's permission set does not allow the route (e.g. a client key on a server route)."""


class NotFoundError(LivecoreAPIError, code=NOT_FOUND):
    """404: no such resource (including a player of the other environment)."""


class ConflictError(LivecoreAPIError):
    """409: the request conflicts with the current state."""


class IdempotencyConflictError(ConflictError, code=IDEMPOTENCY_CONFLICT):
    """409: the idempotency key was already used with a different body (or is still in flight)."""


class GoneError(LivecoreAPIError):
    """410: the thing existed but is no longer available, for good."""


class UnprocessableEntityError(LivecoreAPIError):
    """422: well-formed but refused by a rule (e.g. an invalid merge)."""


class RateLimitError(LivecoreAPIError, code=RATE_LIMITED):
    """429: the key's bucket is empty; ``retry_after`` is the server's hint in seconds, if sent."""

    retry_after: Annotated[float | None, Header("Retry-After")]


class InternalServerError(LivecoreAPIError):
    """5xx: the service failed; the clients retry these before raising."""


# Then the status family, for codes without a class of their own (and codes added after this release).
_BY_STATUS: dict[int, type[LivecoreAPIError]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    410: GoneError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}


def error_class(status: int, code: str | None) -> type[LivecoreAPIError]:
    """The class of a refusal with this status and code: the code's own, else its status family's, else
    :class:`InternalServerError` for a 5xx and :class:`LivecoreAPIError` for anything else."""
    if code is not None and code in _BY_CODE:
        return _BY_CODE[code]
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    return InternalServerError if status >= 500 else LivecoreAPIError


def api_error(err: LivecoreError) -> LivecoreAPIError:
    """The exception a client raises for ``err`` had the service answered it: the class of its code, with
    the status and the code, message and details of the error envelope the server renders from it
    (:func:`~livecore.errors.error_fields`), and the headers the refusal implies (``Retry-After`` on a
    429), their names matching in any case as a response's do. No request was sent, so ``request_id`` is
    ``None``."""
    fields = error_fields(err)
    code = fields["code"]
    details = fields.get("details")
    headers = _Headers(err.headers)
    return error_class(err.status, code)(
        fields["message"], status=err.status, code=code, details=details, headers=headers
    )


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """``Retry-After`` in seconds (docs/reference/conventions.md#rate-limits: always a delta), or ``None``
    when absent or unusable."""
    return _seconds(_header(headers, "Retry-After"))


class _Headers(Mapping[str, str]):
    """Read-only headers whose names match in any case, as HTTP's do: what :func:`api_error` gives and an
    error built without headers holds, so ``err.headers["retry-after"]`` reads as it does on a client's
    error, with no HTTP library in the core."""

    def __init__(self, headers: Mapping[str, str]) -> None:
        self._by_folded = {name.lower(): (name, value) for name, value in headers.items()}

    def __getitem__(self, name: str) -> str:
        return self._by_folded[name.lower()][1]

    def __iter__(self) -> Iterator[str]:
        return (name for name, _ in self._by_folded.values())

    def __len__(self) -> int:
        return len(self._by_folded)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self)!r})"


def _header(headers: Mapping[str, str], name: str) -> str | None:
    """``name``'s value in ``headers``, its name matched in any case (as HTTP's are) whatever mapping holds
    them."""
    if (value := headers.get(name)) is not None:
        return value
    folded = name.lower()
    return next((value for key, value in headers.items() if key.lower() == folded), None)
