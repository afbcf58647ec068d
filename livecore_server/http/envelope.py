"""JSON in and out, and the envelopes (docs/reference/conventions.md#errors): ``{"data": ...}`` for success,
``{"error": {code, message, details?}}`` for everything else.

orjson rather than the standard library: it measured faster on every request and response and renders
the same JSON (docs/decisions/0008-orjson.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import orjson
from aiohttp import web

from livecore.api.convert import unstructure
from livecore.errors import LivecoreError, error_fields, invalid_request
from livecore.limits import JSON_DEPTH_MAX, TOO_DEEP

JSON = "application/json"


def dumps(value: Any) -> bytes:
    return orjson.dumps(value)


def loads(raw: bytes) -> dict[str, Any]:
    """A request body (docs/reference/conventions.md#requests): one JSON object, nested at most
    :data:`~livecore.limits.JSON_DEPTH_MAX` levels deep, no key twice in one object; else a 400 naming
    ``body``."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        # orjson stops at 1,024 levels: a body that deep is refused for its depth, as any past the limit.
        raise _body_error(TOO_DEEP if "depth" in str(exc) else "is not valid JSON") from None
    if not isinstance(value, dict):
        raise _body_error("must be an object")
    members, colons = _tally(value, 1)
    if _repeats_a_key(raw, members, colons):
        raise _body_error("must not repeat a key in one object")
    return value


def check_built(body: dict[str, Any]) -> None:
    """A body built rather than parsed (a portal form's, an ``/mcp`` tool's) held to the nesting
    :func:`loads` holds a parsed one to: else the same 400 naming ``body``."""
    _tally(body, 1)


def _body_error(problem: str) -> LivecoreError:
    return invalid_request(f"The body {problem}.", {"body": problem})


def _tally(value: dict[str, Any] | list[Any], depth: int) -> tuple[int, int]:
    """The members of every object in ``value`` (at nesting ``depth``), and the ``:`` in its strings and
    keys; a 400 past the depth limit. Recursive: the limit bounds it."""
    if depth > JSON_DEPTH_MAX:
        raise _body_error(TOO_DEEP)
    if isinstance(value, dict):
        members, colons = len(value), sum(key.count(":") for key in value)
        children: Iterable[Any] = value.values()
    else:
        members, colons, children = 0, 0, value
    for child in children:
        if isinstance(child, str):
            colons += child.count(":")
        elif isinstance(child, dict | list):
            more, more_colons = _tally(child, depth + 1)
            members += more
            colons += more_colons
    return members, colons


def _repeats_a_key(raw: bytes, members: int, colons: int) -> bool:
    """Whether an object of the body repeats a key (orjson keeps the last one, silently). Every ``:``
    outside the strings of a JSON text separates one member, so without escapes that may spell a ``:``
    or a key (``\\u``) the counts answer; with them, the standard library's parser, slower, decides."""
    if b"\\u" not in raw:
        return raw.count(b":") != members + colons
    try:
        json.loads(raw, object_pairs_hook=_refuse_repeats)
    except _RepeatedKey:
        return True
    return False


class _RepeatedKey(Exception):
    pass


def _refuse_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _RepeatedKey
    return out


def data_body(model: Any) -> bytes:
    return orjson.dumps({"data": unstructure(model)})


_JSON_HEADERS = {"Content-Type": JSON}


def json_response(body: bytes, status: int, headers: Mapping[str, str] | None = None) -> web.Response:
    return web.Response(
        body=body, status=status, headers={**_JSON_HEADERS, **headers} if headers else _JSON_HEADERS
    )


def error_body(err: LivecoreError) -> bytes:
    return orjson.dumps({"error": error_fields(err)})


def error_response(err: LivecoreError, headers: Mapping[str, str] | None = None) -> web.Response:
    merged = {**err.headers, **(headers or {})}
    response = json_response(error_body(err), err.status, merged)
    if merged.get("Connection") == "close":
        response.force_close()  # the header alone would not end a kept-alive connection
    return response
