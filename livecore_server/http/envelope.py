"""JSON in and out, and the envelopes (docs/reference/conventions.md#errors): ``{"data": ...}`` for success,
``{"error": {code, message, details?}}`` for everything else.

orjson rather than the standard library: it measured faster on every request and response and renders
the same JSON (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from aiohttp import web

from livecore.api.convert import unstructure
from livecore.errors import LivecoreError

JSON = "application/json"


def dumps(value: Any) -> bytes:
    return orjson.dumps(value)


def loads(raw: bytes) -> Any:
    return orjson.loads(raw)


def data_body(model: Any) -> bytes:
    return orjson.dumps({"data": unstructure(model)})


_JSON_HEADERS = {"Content-Type": JSON}


def json_response(body: bytes, status: int, headers: Mapping[str, str] | None = None) -> web.Response:
    return web.Response(
        body=body, status=status, headers={**_JSON_HEADERS, **headers} if headers else _JSON_HEADERS
    )


def error_body(err: LivecoreError) -> bytes:
    error: dict[str, Any] = {"code": err.code.value, "message": err.message}
    if err.details:
        error["details"] = err.details
    return orjson.dumps({"error": error})


def error_response(err: LivecoreError, headers: Mapping[str, str] | None = None) -> web.Response:
    merged = {**err.headers, **(headers or {})}
    return json_response(error_body(err), err.status, merged)
