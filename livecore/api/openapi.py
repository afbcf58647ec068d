"""The OpenAPI 3.1 documents of the public surfaces, generated from the route declarations.

The contract (docs/reference/conventions.md#versioning-and-deprecation) publishes one document for the client
surface (``/sdk/v1``) and one for the server surface (``/server/v1``); the operators' surface (``/admin/v1``)
has one too, built the same way, though it is not part of the public contract. Everything here is derived
from the areas' routes (:func:`livecore.registry.routes`) and the attrs wire models, so the documents
cannot drift from the server and the clients:

- JSON Schema (the 2020-12 dialect OpenAPI 3.1 uses) is generated generically from the attrs models:
  properties by camelCase wire name, nested models as ``#/components/schemas/<ClassName>`` references.
- A model reached from a request body is *closed* (``additionalProperties: false``: the server refuses unknown
  keys); a model reached from a response stays open, since the contract
  (docs/reference/conventions.md#versioning-and-deprecation) lets new fields land in v1. A model reached both
  ways gets two components: ``<ClassName>`` (response) and ``<ClassName>Input`` (request).
- ``required`` lists the fields without a default; a response field marked ``omit_if_none`` is left out
  of ``required`` and is never ``null`` (the converter omits it instead). A request field's default is said
  in its ``description``, not as a ``default`` keyword: generators (openapi-typescript by default) make a
  property with a ``default`` required, and a caller may leave such a field out.
- A free-form object (``metadata``, ``parameters``) says ``additionalProperties: true``: generators read an
  object with no properties and no ``additionalProperties`` as an object that holds nothing.
- Requests publish their limits (docs/reference/conventions.md#requests), from the rules their fields
  name (:mod:`livecore.limits`): ``minLength``/``maxLength``, ``minimum``/``maximum`` (every integer
  within signed 64 bits), ``minItems``/``maxItems`` (``minProperties``/``maxProperties`` for a map), a
  free-form object's size (``x-max-json-bytes``), ``oneOf`` for a body that takes exactly one of some
  fields (``EXACTLY_ONE_OF``), and the literal values a path parameter never takes (``not``/``enum``).

Pure: no I/O. Serialise the returned dictionaries with any JSON encoder.
"""

from __future__ import annotations

import collections.abc
import copy
import enum
import http
import inspect
import re
import types
import typing
from collections.abc import Iterable
from datetime import date, datetime
from typing import Any, Literal

import attrs
import orjson

from livecore.api.auth import credential_refusals, documented_credential, documented_surface
from livecore.api.convert import ABSENT, Absent, camel
from livecore.api.parts import wire_fields
from livecore.api.route import Auth, Idempotency, Route, Surface, literal_rivals, refusals
from livecore.api.views import ErrorEnvelope
from livecore.enums import Values
from livecore.errors import (
    IDEMPOTENCY_CONFLICT,
    INVALID_API_KEY,
    INVALID_REQUEST,
    METHOD_NOT_ALLOWED,
    NOT_FOUND,
    PAYLOAD_TOO_LARGE,
    PERMISSION_DENIED,
    RATE_LIMITED,
    UNSUPPORTED_MEDIA_TYPE,
    Code,
)
from livecore.idempotency import BODY_FIELD, KEY
from livecore.limits import (
    ANY_TEXT,
    ID,
    INT64,
    JSON_DEPTH_MAX,
    FreeForm,
    Moment,
    Range,
    Rule,
    Text,
    count_of,
    rule_of,
)
from livecore.platforms import APP_VERSION, APP_VERSION_HEADER, PLATFORM, PLATFORM_HEADER

OPENAPI_VERSION = "3.1.0"
JSON_SCHEMA_DIALECT = "https://spec.openapis.org/oas/3.1/dialect/base"

#: The surfaces of the public contract, each with its document
#: (docs/reference/conventions.md#versioning-and-deprecation).
PUBLIC_SURFACES: tuple[Surface, ...] = (Surface.SDK, Surface.SERVER)
#: Every surface with a document: the public ones and the operators' (docs/reference/admin.md).
DOCUMENTED_SURFACES: tuple[Surface, ...] = (*PUBLIC_SURFACES, Surface.ADMIN)

_Mode = Literal["input", "output"]
_NONE_TYPE = type(None)
_PATH_PARAM = re.compile(r"\{([^{}/]+)\}")
_JSON = "application/json"
_EVENT_STREAM = "text/event-stream"

_REQUESTS = (
    "\n\nA request body is one JSON object, nested at most "
    f"{JSON_DEPTH_MAX} levels deep, with no key repeated in an object. No string of a request (body, "
    "query, path or header) may hold NUL; names and ids hold no other control or format character "
    "either; integers fit in signed 64 bits. Anything else is 400 `invalid_request`."
)

_TITLES: dict[Surface, tuple[str, str]] = {
    Surface.SDK: (
        "livecore client API",
        "The game-client surface (`/sdk/v1`). Every call carries the game's `client_sdk` API key as "
        "`Authorization: Bearer <API_KEY>`; routes that read or change one player's state also need that "
        "player's secret in `X-Player-Secret` (minted by register). Send `X-Svc-SDK: <name>/<version>` on "
        "every request, and the game's build as `X-Svc-Platform` and `X-Svc-App-Version`." + _REQUESTS,
    ),
    Surface.SERVER: (
        "livecore server API",
        "The studio-backend surface (`/server/v1`). Every call carries a `server_integration` API key as "
        "`Authorization: Bearer <API_KEY>`; never ship that key in a game client. Every state-changing "
        "route needs an idempotency key. Send `X-Svc-SDK: <name>/<version>` on every request." + _REQUESTS,
    ),
}

_API_KEY_SCHEMES: dict[str, Any] = {
    "apiKey": {
        "type": "http",
        "scheme": "bearer",
        "description": "The game's API key: `client_sdk` on `/sdk/v1`, `server_integration` on `/server/v1`.",
    },
    "playerSecret": {
        "type": "apiKey",
        "in": "header",
        "name": "X-Player-Secret",
        "description": "The player's secret, minted by register; needed on every player-scoped route.",
    },
}

_RATE_LIMIT_HEADERS = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")

_HEADERS: dict[str, Any] = {
    "RateLimit-Limit": {
        "description": "Requests allowed per minute in this route's rate-limit bucket.",
        "required": True,
        "schema": {"type": "integer", "minimum": 0},
    },
    "RateLimit-Remaining": {
        "description": "Requests left in the bucket.",
        "required": True,
        "schema": {"type": "integer", "minimum": 0},
    },
    "RateLimit-Reset": {
        "description": "Seconds until the bucket is full again (a delta, not a timestamp).",
        "required": True,
        "schema": {"type": "integer", "minimum": 0},
    },
    "Retry-After": {
        "description": "Seconds to wait before retrying.",
        "required": True,
        "schema": {"type": "integer", "minimum": 0},
    },
    "Idempotent-Replay": {
        "description": "`true` when this is the stored answer to an earlier request with the same "
        "idempotency key and body; the write was not applied again.",
        "required": False,
        "schema": {"type": "string", "enum": ["true"]},
    },
}

_BODY_KEY = (
    "The write's idempotency key, in the body rather than the `Idempotency-Key` header (both given must "
    f"be equal): {KEY.describe()}."
)

# A header's value as the documents give it: visible ASCII, words apart by spaces. HTTP drops the white
# space around a value and encodes header text as Latin-1, where any byte past ASCII alone is not the
# UTF-8 the service reads; a value of UTF-8 beyond ASCII is taken too, but no JSON Schema string says
# "these bytes".
_HEADER_PATTERN = r"^(?:[!-~]+(?: +[!-~]+)*)?(?![\s\S])"
# A header the service only records (``X-Svc-SDK``): any text HTTP carries, tabs included.
_ANY_HEADER_PATTERN = r"^[\t -~]*(?![\s\S])"


def _header_schema(rule: Text | None) -> dict[str, Any]:
    if rule is None:
        return {"type": "string", "pattern": _ANY_HEADER_PATTERN}
    return {**_rule_keywords(rule, {"type": "string"}), "pattern": _HEADER_PATTERN}


_SDK_HEADER = "XSvcSdk"
_PARAMETERS: dict[str, Any] = {
    _SDK_HEADER: {
        "name": "X-Svc-SDK",
        "in": "header",
        "required": False,
        "description": "SDK identification, `<name>/<version>`; direct REST callers should send their own.",
        "schema": _header_schema(None),
        "example": "livecore-python/0.1.0",
    },
}


def build_document(surface: Surface, routes: Iterable[Route], *, version: str) -> dict[str, Any]:
    """The OpenAPI 3.1 document of ``surface`` (one of :data:`DOCUMENTED_SURFACES`) from ``routes``.

    Routes of other surfaces are ignored. ``version`` is the document's ``info.version`` (the package
    version, say). Raises :class:`ValueError` for a surface with no document, a repeated operation name
    or a repeated method and path, and :class:`TypeError` for a model field type with no JSON Schema.
    """
    title, description = _head(surface)
    selected = [route for route in routes if route.surface is surface]
    _check_unique(selected)

    schemas = _Schemas()
    schemas.collect(ErrorEnvelope, "output")
    for route in selected:
        if route.request is not None:
            schemas.collect(route.request, "input")
        if route.response is not None:
            schemas.collect(route.response, "output")
        for _, model in route.stream:
            schemas.collect(model, "output")

    paths: dict[str, dict[str, Any]] = {}
    sibling_paths = [route.path for route in selected]
    for route in selected:
        op = _operation(route, schemas, sibling_paths)
        paths.setdefault(route.full_path, {})[route.method.lower()] = op

    tags = sorted({_tag(route) for route in selected})
    return {
        "openapi": OPENAPI_VERSION,
        "jsonSchemaDialect": JSON_SCHEMA_DIALECT,
        "info": {
            "title": title,
            "version": version,
            "description": description,
            "license": {"name": "Apache-2.0", "identifier": "Apache-2.0"},
        },
        "servers": [{"url": "/"}],
        "tags": [{"name": tag} for tag in tags],
        "paths": paths,
        "components": {
            "schemas": schemas.components(),
            "securitySchemes": copy.deepcopy(_schemes(surface)),
            "headers": copy.deepcopy(_HEADERS),
            "parameters": copy.deepcopy(
                {**_PARAMETERS, **_BUILD_PARAMETERS} if surface is Surface.SDK else _PARAMETERS
            ),
        },
    }


def build_documents(
    routes: Iterable[Route], *, version: str, surfaces: Iterable[Surface] = PUBLIC_SURFACES
) -> dict[Surface, dict[str, Any]]:
    """The documents of ``surfaces`` (the public contract's two unless told), by surface."""
    selected = tuple(routes)
    return {surface: build_document(surface, selected, version=version) for surface in surfaces}


# --- Operations -----------------------------------------------------------------------------------


def _check_unique(routes: list[Route]) -> None:
    names: set[str] = set()
    endpoints: set[tuple[str, str]] = set()
    for route in routes:
        endpoint = (route.method.upper(), route.full_path)
        if route.name in names:
            raise ValueError(f"two routes are named {route.name!r}")
        if endpoint in endpoints:
            raise ValueError(f"two routes answer {endpoint[0]} {endpoint[1]}")
        names.add(route.name)
        endpoints.add(endpoint)


def _tag(route: Route) -> str:
    return route.path.strip("/").split("/", 1)[0] or "root"


def _operation(route: Route, schemas: _Schemas, sibling_paths: list[str]) -> dict[str, Any]:
    op: dict[str, Any] = {
        "operationId": route.name,
        "summary": route.summary,
        "description": _description(route),
        "tags": [_tag(route)],
        "parameters": _parameters(route, schemas, sibling_paths),
    }
    if route.request is not None:
        op["requestBody"] = {
            "required": not route.request_optional,
            "content": {_JSON: {"schema": schemas.schema(route.request, "input")}},
        }
    op["responses"] = _responses(route, schemas)
    op["security"] = _security(route)
    if route.deprecated is not None:
        op["deprecated"] = True
        deprecation: dict[str, Any] = {"reason": route.deprecated.reason}
        if route.deprecated.sunset is not None:
            deprecation["sunset"] = route.deprecated.sunset.isoformat()
        if route.deprecated.successor is not None:
            deprecation["successor"] = route.deprecated.successor
        op["x-deprecation"] = deprecation
    if route.test_only:
        op["x-test-only"] = True
    if route.action is not None:
        op["x-operator-action"] = route.action.value
    op["x-rate-limit-bucket"] = route.bucket.value
    return op


def _description(route: Route) -> str:
    lines = [route.summary]
    if route.auth is Auth.PLAYER:
        lines.append("Needs the API key and the player's secret (`X-Player-Secret`).")
    elif route.auth is Auth.KEY_OR_PLAYER:
        lines.append(
            "Needs the API key; with the player's secret (`X-Player-Secret`) the answer tells more of the "
            "player, and a wrong secret is a 401."
        )
    elif route.auth is Auth.PUBLIC:
        lines.append("Needs no credentials.")
    elif (documented := documented_credential(route.auth)) is not None:
        lines.append(documented.needs(route))
    if route.idempotency is Idempotency.REQUIRED:
        lines.append(f"Needs an idempotency key ({_key_source(route)}); a missing key is a 400.")
    elif route.idempotency is Idempotency.OPTIONAL:
        lines.append(f"Takes an optional idempotency key ({_key_source(route)}).")
    if route.idempotent_on is not None:
        lines.append(
            f"Idempotent on the body field `{camel(route.idempotent_on)}`: the same value again answers the "
            "record it made (200), with other values a 409 `idempotency_conflict`; an `Idempotency-Key` "
            "header is ignored."
        )
    if route.idempotency is not Idempotency.NONE:
        replay = "200" if route.status == 201 else str(route.status)
        lines.append(
            f"Repeating a request with the same key and body answers the stored response ({replay}, "
            "`Idempotent-Replay: true`) without applying it again; a different body under the same key is "
            "a 409 `idempotency_conflict`."
        )
    if route.stream:
        names = ", ".join(f"`{name}`" for name, _ in route.stream)
        lines.append(
            f"Answers `{_EVENT_STREAM}` (server-sent events: {names}), each event with an `id` and its "
            "`data` one JSON object (the schema gives each event); comment lines (`: ping`) come every 15 "
            "seconds. Errors before the stream starts are JSON envelopes."
        )
    if route.test_only:
        lines.append("Test-environment keys only: a live key gets 403 `permission_denied`.")
    if route.deprecated is not None:
        text = f"Deprecated: {route.deprecated.reason}"
        if route.deprecated.sunset is not None:
            text += f" Removed after {route.deprecated.sunset.isoformat()}."
        if route.deprecated.successor is not None:
            text += f" Use `{route.deprecated.successor}` instead."
        lines.append(text)
    return "\n\n".join(lines)


def _key_source(route: Route) -> str:
    if route.body_idempotency_field:
        return "body field `idempotencyKey`, or the `Idempotency-Key` header"
    return "`Idempotency-Key` header"


def _head(surface: Surface) -> tuple[str, str]:
    """The title and description of ``surface``'s document: a public surface's own, else those of the area
    whose members' credential it takes (the operators' surface)."""
    if surface in _TITLES:
        return _TITLES[surface]
    documented = documented_surface(surface)
    if documented is not None:
        return documented.title, documented.description + _REQUESTS
    raise ValueError(f"{surface.value} has no document; documents exist for {DOCUMENTED_SURFACES}")


def _schemes(surface: Surface) -> dict[str, Any]:
    """The security schemes of ``surface``'s document: the API key's and the player's secret on a public
    surface, else those of the credential the surface takes."""
    if surface in _TITLES:
        return _API_KEY_SCHEMES
    documented = documented_surface(surface)
    assert documented is not None, surface
    return dict(documented.schemes)


def _security(route: Route) -> list[dict[str, list[str]]]:
    auth = route.auth
    if auth is Auth.PUBLIC:
        return []
    if (documented := documented_credential(auth)) is not None:
        return documented.security(route)
    if auth is Auth.PLAYER:
        return [{"apiKey": [], "playerSecret": []}]
    if auth is Auth.KEY_OR_PLAYER:
        return [{"apiKey": [], "playerSecret": []}, {"apiKey": []}]
    return [{"apiKey": []}]


def _parameters(route: Route, schemas: _Schemas, sibling_paths: list[str]) -> list[dict[str, Any]]:
    params: list[dict[str, Any]] = []
    seen: set[str] = set()
    rivals = literal_rivals(route.path, sibling_paths)
    for name in _PATH_PARAM.findall(route.path):
        if name in seen:
            raise ValueError(f"{route.name}: path parameter {{{name}}} appears twice")
        seen.add(name)
        schema = _rule_keywords(ID, {"type": "string"})
        if name in rivals:
            schema["not"] = {"enum": list(rivals[name])}
        params.append({"name": name, "in": "path", "required": True, "schema": schema})
    if route.query is not None:
        params.extend(schemas.query_parameters(route.query))
    if route.idempotency is not Idempotency.NONE:
        # A key the route requires is the header's to carry, unless the body's field is itself required:
        # OpenAPI cannot say "this header or that body field", so the other one is the alternative.
        required = route.idempotency is Idempotency.REQUIRED and not _body_key_required(route)
        description = "Makes the write safe to retry; kept 24 hours per game, environment and route."
        if route.body_idempotency_field:
            description += (
                " The body field `idempotencyKey` may carry the key instead of this header; when both are "
                "given they must be equal (else 400 `invalid_request`)."
            )
        params.append(
            {
                "name": "Idempotency-Key",
                "in": "header",
                "required": required,
                "description": description,
                "schema": _header_schema(KEY),
            }
        )
    params.append({"$ref": f"#/components/parameters/{_SDK_HEADER}"})
    if route.surface is Surface.SDK:
        params.extend({"$ref": f"#/components/parameters/{name}"} for name in _BUILD_PARAMETERS)
    return params


def _body_key_required(route: Route) -> bool:
    """Whether the route's body requires its ``idempotencyKey`` field."""
    if not route.body_idempotency_field or route.request is None:
        return False
    field = attrs.fields_dict(route.request).get("idempotency_key")
    return field is not None and field.default is attrs.NOTHING


#: What every path answers a method it does not serve (or a path parameter naming the literal path beside
#: it): a document has no place for a path's own answers, so each of its operations lists it.
EVERY_PATH: tuple[Code, ...] = (METHOD_NOT_ALLOWED,)
#: What every route that reads a body (any method but GET) answers a body over 1 MiB or not JSON.
EVERY_BODY: tuple[Code, ...] = (PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE)


def _error_codes(route: Route, *, every_route: bool = False) -> dict[int, list[str]]:
    """Every error status of ``route`` with the codes it can carry: the generic ones, then the route's;
    with ``every_route``, those of :data:`EVERY_PATH` and :data:`EVERY_BODY` that apply to it, which the
    reference says once for all routes (docs/reference/conventions.md#errors)."""
    codes: dict[int, list[str]] = {}

    def add(code: Code) -> None:
        listed = codes.setdefault(code.status, [])
        if code.value not in listed:
            listed.append(code.value)

    add(INVALID_REQUEST)
    if route.auth is not Auth.PUBLIC:
        add(INVALID_API_KEY)
        for code in credential_refusals(route.auth):
            add(code)
        add(PERMISSION_DENIED)
    add(NOT_FOUND)
    if route.idempotency is not Idempotency.NONE:
        add(IDEMPOTENCY_CONFLICT)
    add(RATE_LIMITED)
    for code in refusals(route):
        add(code)
    if every_route:
        for code in (*EVERY_PATH, *(EVERY_BODY if route.is_write else ())):
            add(code)
    return codes


def _headers(route: Route, *, status: int, success: bool) -> dict[str, Any]:
    headers: dict[str, Any] = {name: _header_ref(name) for name in _RATE_LIMIT_HEADERS}
    if status == 429:
        headers["Retry-After"] = _header_ref("Retry-After")
    if success and route.idempotency is not Idempotency.NONE and route.is_write:
        headers["Idempotent-Replay"] = _header_ref("Idempotent-Replay")
    deprecation = route.deprecated
    if deprecation is not None:
        headers["Deprecation"] = {
            "description": "This route is deprecated.",
            "required": True,
            "schema": {"type": "string", "enum": ["true"]},
        }
        headers["X-Svc-Deprecation-Reason"] = {
            "description": "Why the route is deprecated.",
            "required": True,
            "schema": {"type": "string", "example": deprecation.reason},
        }
        if deprecation.sunset is not None:
            headers["Sunset"] = {
                "description": "When the route will be removed (IMF-fixdate, RFC 8594).",
                "required": True,
                "schema": {"type": "string"},
            }
        if deprecation.successor is not None:
            headers["Link"] = {
                "description": f'`<{deprecation.successor}>; rel="successor-version"`',
                "required": True,
                "schema": {"type": "string"},
            }
    return headers


def _phrase(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return f"Status {status}"


def _replayable(route: Route) -> bool:
    """A repeat of the write answers 200 instead of its 201: by its idempotency key or its own body key."""
    return route.idempotency is not Idempotency.NONE or route.idempotent_on is not None


def _header_ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/headers/{name}"}


def _responses(route: Route, schemas: _Schemas) -> dict[str, Any]:
    # Every node is built afresh (no shared sub-objects), so YAML dumpers write no anchors.
    success: dict[str, Any] = {"description": _phrase(route.status)}
    success_schema: dict[str, Any] | None = None
    if route.stream:
        success["content"] = _stream_content(route, schemas)
    elif route.response is not None or route.status != 204:
        data = schemas.schema(route.response, "output") if route.response is not None else {}
        success_schema = {"type": "object", "properties": {"data": data}, "required": ["data"]}
    responses: dict[int, dict[str, Any]] = {}

    for status, codes in _error_codes(route, every_route=True).items():
        listed = ", ".join(f"`{code}`" for code in codes)
        response: dict[str, Any] = {
            "description": f"{_phrase(status)}: {listed}.",
            "headers": _headers(route, status=status, success=False),
            "content": {_JSON: {"schema": schemas.schema(ErrorEnvelope, "output")}},
            "x-error-codes": codes,
        }
        if status == route.status:  # a non-error refusal sharing the success status (202 lobby_forming)
            success["description"] += f", or the error envelope with {listed}"
            envelope = schemas.schema(ErrorEnvelope, "output")
            success_schema = envelope if success_schema is None else {"oneOf": [success_schema, envelope]}
            success["x-error-codes"] = codes
            continue
        responses[status] = response

    success["headers"] = _headers(route, status=route.status, success=True)
    if success_schema is not None and not route.stream:
        success["content"] = {_JSON: {"schema": success_schema}}
    responses[route.status] = success
    if route.status == 201 and _replayable(route) and 200 not in responses:
        replay = {key: copy.deepcopy(value) for key, value in success.items() if key != "description"}
        responses[200] = {
            "description": "Idempotent replay of an earlier 201 (`Idempotent-Replay: true`)."
            if route.idempotent_on is None
            else f"The record an earlier 201 made, for the same `{camel(route.idempotent_on)}`."
        }
        responses[200].update(replay)
    return {str(status): responses[status] for status in sorted(responses)}


def _stream_content(route: Route, schemas: _Schemas) -> dict[str, Any]:
    """A stream's success content. Its ``schema`` is one event, as OpenAPI 3.2's ``itemSchema`` has it
    (and OpenAPI 3.1 readers take the ``schema`` of a sequential media type): the event's name, its ``id``
    and its ``data``, a JSON text whose schema is the event's model."""
    events = [
        {
            "type": "object",
            "properties": {
                "event": {"const": name},
                "id": {"type": "string"},
                "data": {
                    "type": "string",
                    "contentMediaType": _JSON,
                    "contentSchema": schemas.schema(model, "output"),
                },
            },
            "required": ["event", "id", "data"],
        }
        for name, model in route.stream
    ]
    return {_EVENT_STREAM: {"schema": {"oneOf": events}}}


# --- JSON Schema from attrs models -----------------------------------------------------------------


class _Schemas:
    """Component schemas of one document: collect every model first (so a model reached both from a
    request and a response is known to need two variants), then render."""

    def __init__(self) -> None:
        self._uses: dict[type, set[_Mode]] = {}

    def collect(self, tp: Any, mode: _Mode) -> None:
        for cls in _models_in(tp):
            modes = self._uses.setdefault(cls, set())
            if mode not in modes:
                modes.add(mode)
                for _, hint in wire_fields(cls):
                    self.collect(hint, mode)

    def ref_name(self, cls: type, mode: _Mode) -> str:
        modes = self._uses.get(cls)
        if modes is None or mode not in modes:
            raise KeyError(f"{cls.__qualname__} was not collected as an {mode} model")
        return f"{cls.__name__}Input" if mode == "input" and "output" in modes else cls.__name__

    def components(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        owners: dict[str, type] = {}
        for cls, modes in self._uses.items():
            for mode in sorted(modes):
                name = self.ref_name(cls, mode)
                if name in owners:
                    raise ValueError(
                        f"two models render as component {name!r}: "
                        f"{owners[name].__module__}.{owners[name].__qualname__} and "
                        f"{cls.__module__}.{cls.__qualname__}"
                    )
                owners[name] = cls
                out[name] = self._object(cls, mode)
        return {name: out[name] for name in sorted(out)}

    def query_parameters(self, model: type) -> list[dict[str, Any]]:
        hints = typing.get_type_hints(model)
        params: list[dict[str, Any]] = []
        for field in attrs.fields(model):
            type_ = _strip_none(hints[field.name])
            if _models_in(type_):
                raise TypeError(f"query parameter {model.__name__}.{field.name} must be a scalar or a list")
            schema = _with_rules(self.schema(type_, "input"), field)
            has_default, default = _json_default(field.default)
            if has_default and default is not None:
                schema = {**schema, "default": default}
            param: dict[str, Any] = {
                "name": camel(field.name),
                "in": "query",
                "required": field.default is attrs.NOTHING,
                "schema": schema,
            }
            if description := field.metadata.get("description"):
                param["description"] = description
            if schema.get("type") == "array":
                param["style"] = "form"
                param["explode"] = False
                # A list given has an item: the empty list is the parameter left out, and an empty value
                # is refused as an empty item (livecore.api.convert).
                param["schema"] = {**schema, "minItems": max(1, schema.get("minItems", 0))}
            params.append(param)
        return params

    def schema(self, tp: Any, mode: _Mode) -> dict[str, Any]:
        """The JSON Schema of a type expression; models become references."""
        tp = _stands_for(tp)
        if tp is Any or tp is object:
            return {}
        if isinstance(tp, typing.NewType):
            return self.schema(tp.__supertype__, mode)
        origin = typing.get_origin(tp)
        args = typing.get_args(tp)
        if origin is typing.Annotated:
            return self.schema(args[0], mode)
        if origin is typing.Union or origin is types.UnionType:
            return self._union(args, mode)
        if origin is Literal:
            return _enum_schema(list(args))
        if isinstance(tp, type):
            if attrs.has(tp):
                return {"$ref": f"#/components/schemas/{self.ref_name(tp, mode)}"}
            if issubclass(tp, enum.Enum):
                return _enum_schema([member.value for member in tp])
            if issubclass(tp, Values):
                return _enum_schema([member.value for member in tp.listed()])
            scalar = _scalar(tp)
            if scalar is not None:
                if mode == "output":
                    return scalar
                # A request's integers are refused outside signed 64 bits, its strings holding NUL.
                if tp is int:
                    return _rule_keywords(INT64, scalar)
                return {**scalar, "pattern": ANY_TEXT.pattern()} if tp is str else scalar
        container = origin if origin is not None else tp
        if container in (dict, collections.abc.Mapping, collections.abc.MutableMapping):
            value = args[1] if len(args) == 2 else Any
            if args and args[0] is not str:
                raise TypeError(f"JSON object keys must be strings: {tp!r}")
            # A free-form object says it is open: generators read a bare ``{"type": "object"}`` as
            # an object that holds nothing (openapi-typescript: ``Record<string, never>``).
            return {"type": "object", "additionalProperties": self.schema(value, mode) or True}
        if container in (list, collections.abc.Sequence, collections.abc.MutableSequence):
            return {"type": "array", "items": self.schema(args[0] if args else Any, mode)}
        if container in (set, frozenset, collections.abc.Set, collections.abc.MutableSet):
            return {
                "type": "array",
                "uniqueItems": True,
                "items": self.schema(args[0] if args else Any, mode),
            }
        if container is tuple:
            if not args or (len(args) == 2 and args[1] is Ellipsis):
                return {"type": "array", "items": self.schema(args[0] if args else Any, mode)}
            return {
                "type": "array",
                "prefixItems": [self.schema(arg, mode) for arg in args],
                "minItems": len(args),
                "maxItems": len(args),
            }
        raise TypeError(f"no JSON Schema for type {tp!r}")

    def _union(self, args: tuple[Any, ...], mode: _Mode) -> dict[str, Any]:
        # ``Absent`` is a field left out (livecore.api.convert), not a value.
        members = [arg for arg in args if arg is not _NONE_TYPE and arg is not Absent]
        if len(members) == 1:
            inner = self.schema(members[0], mode)
        else:
            inner = {"anyOf": [self.schema(member, mode) for member in members]}
        return _nullable(inner) if _NONE_TYPE in args else inner

    def _object(self, cls: type, mode: _Mode) -> dict[str, Any]:
        properties: dict[str, Any] = {}
        required: list[str] = []
        for field, type_ in wire_fields(cls):
            name = camel(field.name)
            omitted_when_none = bool(field.metadata.get("omit_if_none"))
            if omitted_when_none and mode == "output":
                type_ = _strip_none(type_)  # never null on the wire: left out instead
            prop = self.schema(type_, mode)
            if mode == "input":
                prop = _with_rules(prop, field)
            if field.default is attrs.NOTHING and not omitted_when_none:
                required.append(name)
            description = field.metadata.get("description")
            if description is None and mode == "input" and name == BODY_FIELD:
                description = _BODY_KEY
            if mode == "input" and name not in required:
                # In words, not as ``default``: generators make a property with a ``default`` required
                # (openapi-typescript by default), and a request may leave the field out.
                has_default, default = _json_default(field.default)
                if has_default and default is not None:  # a nullable field left out is null: unsaid
                    said = description or prop.get("description")
                    left_out = f"Left out: `{orjson.dumps(default).decode()}`."
                    description = f"{said.rstrip('.')}. {left_out}" if said else left_out
            if description:
                prop = {**prop, "description": description}
            properties[name] = prop
        schema: dict[str, Any] = {"type": "object"}
        doc = cls.__dict__.get("__doc__")
        if isinstance(doc, str) and doc.strip():
            schema["description"] = inspect.cleandoc(doc).replace("``", "`")  # reST literals to Markdown
        schema["properties"] = properties
        if required:
            schema["required"] = required
        if mode == "input":
            schema["additionalProperties"] = False
            one_of = [camel(name) for name in getattr(cls, "EXACTLY_ONE_OF", ())]
            if one_of:
                schema["oneOf"] = [_only(name, one_of, properties[name]) for name in one_of]
        return schema


def _only(name: str, names: list[str], prop: dict[str, Any]) -> dict[str, Any]:
    """The branch of a body's ``oneOf`` where ``name`` is given and the other ``names`` are not."""
    given = {key: value for key, value in prop.items() if key not in ("type", "default", "description")}
    kinds = [t for t in prop["type"] if t != "null"] if isinstance(prop.get("type"), list) else [prop["type"]]
    given["type"] = kinds[0] if len(kinds) == 1 else kinds
    others = {other: {"type": "null"} for other in names if other != name}
    return {"required": [name], "properties": {name: given, **others}}


def rule_text(field: attrs.Attribute[Any]) -> str | None:
    """A request field's limits in words (the reference's tables): its rule, and for a list its count."""
    rule, count = rule_of(field), count_of(field)
    parts = []
    if count is not None:
        parts.append(f"{count.describe()} items")
    if rule is not None:
        parts.append(("each " if count is not None else "") + rule.describe())
    return "; ".join(parts) or None


def _with_rules(schema: dict[str, Any], field: attrs.Attribute[Any]) -> dict[str, Any]:
    """``schema`` (a request field's) with the limits its field declares."""
    rule, count = rule_of(field), count_of(field)
    out = dict(schema)
    if "items" in out:
        if rule is not None:
            out["items"] = _rule_keywords(rule, out["items"])
        if count is not None:
            if count.min_items:
                out["minItems"] = count.min_items
            if count.max_items is not None:
                out["maxItems"] = count.max_items
            if count.unique:
                out["uniqueItems"] = True
    elif isinstance(rule, Range) and out.get("type") == "object":  # a mapping of numbers: each value's
        out["additionalProperties"] = _rule_keywords(rule, {"type": "number"})
    elif rule is not None:
        out = _rule_keywords(rule, out)
    if count is not None and out.get("type") == "object":  # a mapping's count is of its keys
        if count.min_items:
            out["minProperties"] = count.min_items
        if count.max_items is not None:
            out["maxProperties"] = count.max_items
    return out


def _rule_keywords(rule: Rule, schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with the JSON Schema keywords of ``rule`` (a keyword of one type is ignored by the others,
    so a nullable schema stays nullable)."""
    out = dict(schema)
    if isinstance(rule, Text):
        if rule.min_length:
            out["minLength"] = rule.min_length
        if rule.max_length is not None:
            out["maxLength"] = rule.max_length
        out["pattern"] = rule.pattern()
        out["description"] = rule.describe()
    elif isinstance(rule, FreeForm):
        out["description"] = rule.describe()
        out["x-max-json-bytes"] = rule.max_bytes
    elif isinstance(rule, Moment):
        out["anyOf"] = [{"type": "string", "format": f} for f in ("date", "date-time")]
        out["description"] = rule.describe()
    else:
        if schema.get("type") == "integer" or "integer" in schema.get("type", ()):
            out["format"] = "int64"
        out["minimum"] = rule.minimum
        out["maximum"] = rule.maximum
    return out


# What an SDK request reports of the game's build (livecore.platforms): the player keeps the last of
# each.
_BUILD_PARAMETERS: dict[str, Any] = {
    "XSvcPlatform": {
        "name": PLATFORM_HEADER,
        "in": "header",
        "required": False,
        "description": "The platform the game runs on: `ios`, `android`, `web`, `windows`, `macos`, `linux`, "
        "`editor` or a key the game declares; kept on the player, the last one sent.",
        "schema": _header_schema(PLATFORM),
        "example": "ios",
    },
    "XSvcAppVersion": {
        "name": APP_VERSION_HEADER,
        "in": "header",
        "required": False,
        "description": "The game's build; kept on the player, the last one sent.",
        "schema": _header_schema(APP_VERSION),
        "example": "1.4.2",
    },
}


def _stands_for(tp: Any) -> Any:
    """What a type is documented as: a model whose records are registered by other areas
    (``registered_records``: a grant entry of a registered kind) is the union of those records, so the
    documents show each record with its own fields; any other type is itself (so is a model registered
    nothing for)."""
    registered = getattr(tp, "registered_records", None) if isinstance(tp, type) else None
    records = tuple(registered()) if registered is not None else ()
    if not records or tp in records:
        return tp
    return typing.Union[records]  # noqa: UP007 - built from a runtime tuple


def _models_in(tp: Any) -> list[type]:
    """The attrs classes a type expression names directly (not those inside the classes)."""
    tp = _stands_for(tp)
    if isinstance(tp, type) and attrs.has(tp) and typing.get_origin(tp) is None:
        return [tp]
    if isinstance(tp, typing.NewType):
        return _models_in(tp.__supertype__)
    if typing.get_origin(tp) is Literal:
        return []
    found: list[type] = []
    for arg in typing.get_args(tp):
        found.extend(cls for cls in _models_in(arg) if cls not in found)
    return found


def _scalar(tp: type) -> dict[str, Any] | None:
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if tp is datetime:
        return {"type": "string", "format": "date-time"}
    if tp is date:
        return {"type": "string", "format": "date"}
    return None


def _enum_schema(values: list[Any]) -> dict[str, Any]:
    schema: dict[str, Any] = {}
    types_ = []
    for json_type, python_type in (("string", str), ("boolean", bool), ("integer", int), ("number", float)):
        if any(_json_type_of(value) is python_type for value in values):
            types_.append(json_type)
    if None in values:
        types_.append("null")
    if types_:
        schema["type"] = types_[0] if len(types_) == 1 else types_
    schema["enum"] = list(values)
    return schema


def _json_type_of(value: Any) -> type | None:
    for python_type in (bool, str, int, float):
        if isinstance(value, python_type):
            return python_type
    return None


def _nullable(inner: dict[str, Any]) -> dict[str, Any]:
    if not inner:
        return inner  # any value already includes null
    if "type" in inner and "$ref" not in inner:
        out = dict(inner)
        current = out["type"] if isinstance(out["type"], list) else [out["type"]]
        out["type"] = current if "null" in current else [*current, "null"]
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return out
    if set(inner) == {"anyOf"}:
        return {"anyOf": [*inner["anyOf"], {"type": "null"}]}
    return {"anyOf": [inner, {"type": "null"}]}


def _strip_none(tp: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        members = [arg for arg in typing.get_args(tp) if arg is not _NONE_TYPE]
        if len(members) == 1:
            return members[0]
        if len(members) < len(typing.get_args(tp)):
            return typing.Union[tuple(members)]  # noqa: UP007 - built from a runtime tuple
    return tp


def _json_default(default: Any) -> tuple[bool, Any]:
    """A field default as a JSON value, when it is one (only empty-container factories are evaluated)."""
    if default is attrs.NOTHING or default is ABSENT:  # enum members themselves: tested first
        return False, None
    if isinstance(default, attrs.Factory):  # type: ignore[arg-type]  # attrs.Factory is a class at runtime
        if not default.takes_self and default.factory in (list, tuple, set, frozenset):
            return True, []
        if not default.takes_self and default.factory is dict:
            return True, {}
        return False, None
    if isinstance(default, enum.Enum | Values):
        return True, default.value
    if default is None or isinstance(default, bool | int | float | str):
        return True, default
    if isinstance(default, tuple | frozenset) and not default:
        return True, []
    return False, None
