"""The OpenAPI documents: valid OpenAPI 3.1, complete, and generated generically from routes and models."""

from __future__ import annotations

import enum
import json
import typing
from collections.abc import Callable, Iterator
from datetime import date, datetime
from typing import Any, Literal

import attrs
import pytest
from openapi_spec_validator import OpenAPIV31SpecValidator
from openapi_spec_validator.shortcuts import get_validator_cls

from livecore.api.convert import OMIT_IF_NONE
from livecore.api.openapi import DOCUMENTED_SURFACES, PUBLIC_SURFACES, build_document, build_documents
from livecore.api.route import Auth, Deprecation, Idempotency, Route, Surface
from livecore.api.views import ErrorEnvelope
from livecore.gifts.errors import GIFT_EXPIRED
from livecore.limits import ANY_TEXT, ID, INT64_MAX, INT64_MIN
from livecore.live_events.api import SDK_BOARD_STREAM, SDK_EVENTS
from livecore.live_events.errors import LOBBY_FORMING
from livecore.operators.api import ME, PERSONAL_KEY_REVOKE
from livecore.player_tools.admin import PLAYER_BAN
from livecore.players.api import REGISTER, SDK_SET_IDENTITY, SERVER_SET_IDENTITY
from livecore.players.errors import PLAYER_BANNED
from livecore.system.api import CLOCK_ADVANCE, HEALTH, PING
from tests import installed as r
from tests.installed import ALL

VERSION = "9.9.9"

# --- Models and routes of the tests' own, so the generator is tested and not just today's routes -----


class Color(enum.StrEnum):
    RED = "red"
    BLUE = "blue"


@attrs.frozen
class Tag:
    """A label with a weight."""

    label: str
    weight: int = 1


@attrs.frozen
class WidgetRequest:
    name: str
    count: int
    ratio: float = 0.5
    color: Color = Color.RED
    tags: list[Tag] = attrs.Factory(list)
    note: str | None = None
    tag: Tag | None = None
    extra: dict[str, Any] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


@attrs.frozen
class WidgetResponse:
    widget_id: str
    created_at: datetime
    tags: list[Tag]
    owner: Tag | None
    badge: str | None = attrs.field(metadata=OMIT_IF_NONE)  # no default, still omitted when None
    spins: int = 0
    progression: dict[str, int] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


@attrs.frozen
class WidgetQuery:
    q: str
    keys: list[str] | None = None
    limit: int = 20
    pending: bool = False
    color: Color | None = None


@attrs.frozen
class Part:
    part_no: str


@attrs.frozen
class Gadget:
    parts: list[Part]


@attrs.frozen
class Kitchen:
    """Every supported field type."""

    any_value: Any
    day: date
    pair: tuple[str, int]
    many: tuple[int, ...]
    unique: frozenset[str]
    by_key: dict[str, Part]
    mode: Literal["a", "b"]
    maybe_mode: Literal["a", "b"] | None
    either: int | str
    either_or_none: Part | int | None
    maybe_list: list[int] | None
    maybe_color: Color | None


WIDGET_CREATE = Route(
    name="widgets.create",
    surface=Surface.SDK,
    method="POST",
    path="/players/{externalId}/widgets/{widgetId}",
    summary="Create a widget.",
    auth=Auth.PLAYER,
    status=201,
    request=WidgetRequest,
    response=WidgetResponse,
    query=WidgetQuery,
    idempotency=Idempotency.OPTIONAL,
    errors=(GIFT_EXPIRED, PLAYER_BANNED, LOBBY_FORMING),
)

GADGET_GET = Route(
    name="gadgets.get",
    surface=Surface.SERVER,
    method="GET",
    path="/gadgets/{gadgetId}",
    summary="Read a gadget.",
    response=Gadget,
)

KITCHEN_PUT = Route(
    name="kitchen.put",
    surface=Surface.SERVER,
    method="PUT",
    path="/kitchen",
    summary="Every type there is.",
    request=Kitchen,
    response=Kitchen,
    idempotency=Idempotency.REQUIRED,
    body_idempotency_field=True,
)

PUBLIC_READ = Route(
    name="open.read",
    surface=Surface.SDK,
    method="GET",
    path="/open",
    summary="Needs no key.",
    auth=Auth.PUBLIC,
    response=Tag,
)

OLD_ROUTE = Route(
    name="widgets.old",
    surface=Surface.SDK,
    method="GET",
    path="/players/{externalId}/old-widgets",
    summary="The old way.",
    auth=Auth.PLAYER,
    response=WidgetResponse,
    deprecated=Deprecation(
        reason="Use the widgets route.", sunset=date(2027, 1, 31), successor="/sdk/v2/widgets"
    ),
)

EXTRA_ROUTES = (WIDGET_CREATE, GADGET_GET, KITCHEN_PUT, PUBLIC_READ, OLD_ROUTE)


# --- Helpers ----------------------------------------------------------------------------------------


def _doc(surface: Surface, *extra: Route) -> dict[str, Any]:
    return build_document(surface, (*r.ALL, *extra), version=VERSION)


def _op(doc: dict[str, Any], route: Route) -> dict[str, Any]:
    operation: dict[str, Any] = doc["paths"][route.full_path][route.method.lower()]
    return operation


def _schema(doc: dict[str, Any], name: str) -> dict[str, Any]:
    schema: dict[str, Any] = doc["components"]["schemas"][name]
    return schema


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def _resolve(doc: dict[str, Any], ref: str) -> Any:
    assert ref.startswith("#/"), ref
    node: Any = doc
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def _all_docs() -> list[tuple[Surface, dict[str, Any]]]:
    docs = [(s, build_document(s, ALL, version=VERSION)) for s in DOCUMENTED_SURFACES]
    docs += [(s, _doc(s, *EXTRA_ROUTES)) for s in PUBLIC_SURFACES]
    return docs


ALL_DOCS = _all_docs()
DOC_IDS = [
    f"{s.name}-{'extra' if i >= len(DOCUMENTED_SURFACES) else 'current'}" for i, (s, _) in enumerate(ALL_DOCS)
]


# --- Validity and coverage --------------------------------------------------------------------------


@pytest.mark.parametrize(("surface", "doc"), ALL_DOCS, ids=DOC_IDS)
def test_document_is_valid_openapi_3_1(
    surface: Surface, doc: dict[str, Any], valid_openapi: Callable[[dict[str, Any]], None]
) -> None:
    assert doc["openapi"] == "3.1.0"
    assert doc["info"]["version"] == VERSION
    valid_openapi(doc)
    assert json.loads(json.dumps(doc)) == doc  # plain JSON: no tuples or dates left
    assert get_validator_cls(doc) is OpenAPIV31SpecValidator  # detected as 3.1 on its own


@pytest.mark.parametrize(("surface", "doc"), ALL_DOCS, ids=DOC_IDS)
def test_every_reference_resolves(surface: Surface, doc: dict[str, Any]) -> None:
    for ref in _refs(doc):
        _resolve(doc, ref)


@pytest.mark.parametrize("surface", PUBLIC_SURFACES)
def test_every_route_of_the_surface_appears_with_method_and_status(surface: Surface) -> None:
    doc = _doc(surface, *EXTRA_ROUTES)
    mine = [route for route in (*r.ALL, *EXTRA_ROUTES) if route.surface is surface]
    assert mine
    operations = [op for item in doc["paths"].values() for op in item.values()]
    assert len(operations) == len(mine)
    for route in mine:
        op = _op(doc, route)
        assert op["operationId"] == route.name
        assert op["summary"] == route.summary
        assert str(route.status) in op["responses"]
        content = op["responses"][str(route.status)]["content"]
        if route.stream:
            assert list(content) == ["text/event-stream"]
        else:
            assert "data" in content["application/json"]["schema"]["properties"]
    assert all(path.startswith(surface.value + "/") for path in doc["paths"])


def test_current_routes_are_documented() -> None:
    docs = build_documents(ALL, version=VERSION)
    sdk, server = docs[Surface.SDK], docs[Surface.SERVER]
    assert _op(sdk, REGISTER)["responses"]["201"]
    assert "/sdk/v1/players/{externalId}/register" in sdk["paths"]
    assert _op(server, PING)["operationId"] == "ping"
    assert _op(server, SERVER_SET_IDENTITY)["operationId"] == "server.players.set_identity"


def test_the_public_documents_leave_the_admin_routes_to_their_own() -> None:
    docs = build_documents(ALL, version=VERSION, surfaces=DOCUMENTED_SURFACES)
    for surface in PUBLIC_SURFACES:
        assert not any(path.startswith("/admin") for path in docs[surface]["paths"])
        assert "HealthResponse" not in docs[surface]["components"]["schemas"]
    admin = docs[Surface.ADMIN]
    assert all(path.startswith("/admin/v1/") for path in admin["paths"])
    operations = [op for item in admin["paths"].values() for op in item.values()]
    assert sorted(op["operationId"] for op in operations) == sorted(
        route.name for route in r.ALL if route.surface is Surface.ADMIN
    )
    assert len({doc["info"]["title"] for doc in docs.values()}) == 3
    assert "/portal/" in admin["info"]["description"] and "/mcp" in admin["info"]["description"]


def test_the_admin_document_describes_a_member_s_credentials_as_the_server_takes_them() -> None:
    admin = build_document(Surface.ADMIN, ALL, version=VERSION)
    schemes = admin["components"]["securitySchemes"]
    assert set(schemes) == {"personalKey", "session", "csrfToken"}
    assert schemes["personalKey"]["type"] == "http" and schemes["personalKey"]["scheme"] == "bearer"
    assert (schemes["session"]["in"], schemes["session"]["name"]) == ("cookie", "livecore_session")
    assert (schemes["csrfToken"]["in"], schemes["csrfToken"]["name"]) == ("header", "X-CSRF-Token")
    # A read takes either credential; a session's write also takes its CSRF token, a key's does not.
    assert _op(admin, ME)["security"] == [{"personalKey": []}, {"session": []}]
    assert _op(admin, PLAYER_BAN)["security"] == [{"personalKey": []}, {"session": [], "csrfToken": []}]
    assert _op(admin, HEALTH)["security"] == []
    ban = _op(admin, PLAYER_BAN)
    assert ban["x-operator-action"] == "player.ban"
    assert "`GAME_DEBUGGER`" in ban["description"] and "`VIEWER`" not in ban["description"]
    assert "csrf_invalid" in ban["responses"]["403"]["x-error-codes"]
    revoke = _op(admin, PERSONAL_KEY_REVOKE)
    assert "dashboard-only" in revoke["description"]
    assert "dashboard_only" in revoke["responses"]["403"]["x-error-codes"]
    assert "invalid_api_key" in _op(admin, ME)["responses"]["401"]["x-error-codes"]


def test_surfaces_are_separate_documents() -> None:
    sdk = _doc(Surface.SDK, *EXTRA_ROUTES)
    server = _doc(Surface.SERVER, *EXTRA_ROUTES)
    assert "Gadget" not in sdk["components"]["schemas"]
    assert "WidgetRequest" not in server["components"]["schemas"]
    assert sdk["info"]["title"] != server["info"]["title"]
    assert sdk["servers"] == [{"url": "/"}]


# --- Schemas ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("surface", "doc"), ALL_DOCS, ids=DOC_IDS)
def test_property_names_are_camel_case(surface: Surface, doc: dict[str, Any]) -> None:
    for schema in doc["components"]["schemas"].values():
        for name in schema.get("properties", {}):
            assert "_" not in name, name


def test_wire_names_of_a_model() -> None:
    register = _schema(_doc(Surface.SDK), "RegisterResponse")
    assert {"playerSecret", "externalPlayerId", "displayIdentity", "anonymizedIdentity"} <= set(
        register["properties"]
    )
    widget = _schema(_doc(Surface.SDK, WIDGET_CREATE), "WidgetResponse")
    assert list(widget["properties"]) == [
        "widgetId",
        "createdAt",
        "tags",
        "owner",
        "badge",
        "spins",
        "progression",
    ]


def test_required_lists_fields_without_defaults() -> None:
    doc = _doc(Surface.SDK, WIDGET_CREATE)
    assert _schema(doc, "WidgetRequest")["required"] == ["name", "count"]
    assert _schema(doc, "SetIdentityRequest")["required"] == ["name"]
    assert "required" not in _schema(doc, "RegisterRequest")  # every field has a default
    assert _schema(doc, "ErrorBody")["required"] == ["code", "message"]


def test_omit_if_none_fields_are_not_required_and_never_null_in_responses() -> None:
    doc = _doc(Surface.SDK, WIDGET_CREATE)
    response = _schema(doc, "WidgetResponse")
    assert response["required"] == ["widgetId", "createdAt", "tags", "owner"]
    assert response["properties"]["badge"] == {"type": "string"}
    assert response["properties"]["progression"] == {
        "type": "object",
        "additionalProperties": {"type": "integer"},
    }
    request = _schema(doc, "WidgetRequest")
    assert "extra" not in request["required"]
    assert request["properties"]["extra"]["type"] == ["object", "null"]  # a client may send null
    # Free-form, and said so: generators read an object with no properties as one that holds nothing.
    assert request["properties"]["extra"]["additionalProperties"] is True


def test_request_models_are_closed_and_response_models_open() -> None:
    doc = _doc(Surface.SDK, WIDGET_CREATE)
    assert _schema(doc, "WidgetRequest")["additionalProperties"] is False
    assert "additionalProperties" not in _schema(doc, "WidgetResponse")
    for surface in PUBLIC_SURFACES:
        current = build_document(surface, ALL, version=VERSION)
        for route in r.ALL:
            if route.surface is surface and route.request is not None:
                ref = _op(current, route)["requestBody"]["content"]["application/json"]["schema"]["$ref"]
                assert _resolve(current, ref)["additionalProperties"] is False
            if route.surface is surface and route.response is not None:
                model = (
                    typing.get_args(route.response)[0]
                    if typing.get_origin(route.response)
                    else route.response
                )
                assert "additionalProperties" not in _schema(current, model.__name__)


def test_model_used_both_ways_gets_a_closed_input_variant() -> None:
    schemas = _doc(Surface.SDK, WIDGET_CREATE)["components"]["schemas"]
    assert schemas["TagInput"]["additionalProperties"] is False
    assert "additionalProperties" not in schemas["Tag"]
    assert schemas["Tag"]["description"] == "A label with a weight."
    request = schemas["WidgetRequest"]["properties"]
    assert request["tags"] == {
        "type": "array",
        "items": {"$ref": "#/components/schemas/TagInput"},
        "description": "Left out: `[]`.",
    }
    assert request["tag"] == {"anyOf": [{"$ref": "#/components/schemas/TagInput"}, {"type": "null"}]}
    response = schemas["WidgetResponse"]["properties"]
    assert response["tags"] == {"type": "array", "items": {"$ref": "#/components/schemas/Tag"}}
    assert response["owner"] == {"anyOf": [{"$ref": "#/components/schemas/Tag"}, {"type": "null"}]}
    # Only in responses: one component, no Input variant.
    assert "PartInput" not in _doc(Surface.SERVER, GADGET_GET)["components"]["schemas"]


# A request's integers are published within signed 64 bits (responses' are left as they are).
INT64 = {"type": "integer", "format": "int64", "minimum": INT64_MIN, "maximum": INT64_MAX}
# A request string that names no rule: no NUL.
TEXT = {"type": "string", "pattern": ANY_TEXT.pattern()}

# A path parameter is an id.
PATH_ID = {
    "type": "string",
    "minLength": 1,
    "maxLength": 200,
    "description": "1 to 200 characters; no control or format characters",
    "pattern": ID.pattern(),
}


def test_scalar_enum_and_default_schemas() -> None:
    doc = _doc(Surface.SDK, WIDGET_CREATE)
    request = _schema(doc, "WidgetRequest")["properties"]
    assert request["name"] == {"type": "string", "pattern": ANY_TEXT.pattern()}
    assert request["count"] == INT64
    # A default is said in words: with a ``default`` keyword generators would make the field required.
    assert request["ratio"] == {"type": "number", "description": "Left out: `0.5`."}
    color = {"type": "string", "enum": ["red", "blue"], "description": 'Left out: `"red"`.'}
    assert request["color"] == color
    assert request["note"] == {"type": ["string", "null"], "pattern": TEXT["pattern"]}  # null: unsaid
    required = _schema(doc, "WidgetRequest")["required"]
    assert "ratio" not in required and "color" not in required and "note" not in required
    response = _schema(doc, "WidgetResponse")["properties"]
    assert response["createdAt"] == {"type": "string", "format": "date-time"}
    assert response["spins"] == {"type": "integer"}  # defaults are documented on requests only


@pytest.mark.parametrize(("surface", "doc"), ALL_DOCS, ids=DOC_IDS)
def test_no_request_property_carries_a_default_keyword(surface: Surface, doc: dict[str, Any]) -> None:
    """A request's default is said in words: openapi-typescript, by default, makes a property with a
    ``default`` required, and a caller may leave it out (tests/typescript compiles the generated types)."""
    for name, schema in doc["components"]["schemas"].items():
        if schema.get("additionalProperties") is False:  # a request's model
            for prop, value in schema["properties"].items():
                assert "default" not in value, (name, prop)


def test_every_supported_type() -> None:
    props = _schema(_doc(Surface.SERVER, KITCHEN_PUT), "KitchenInput")["properties"]
    part = {"$ref": "#/components/schemas/PartInput"}
    assert props["anyValue"] == {}
    assert props["day"] == {"type": "string", "format": "date"}
    assert props["pair"] == {
        "type": "array",
        "prefixItems": [TEXT, INT64],
        "minItems": 2,
        "maxItems": 2,
    }
    assert props["many"] == {"type": "array", "items": INT64}
    assert props["unique"] == {"type": "array", "uniqueItems": True, "items": TEXT}
    assert props["byKey"] == {"type": "object", "additionalProperties": part}
    assert props["mode"] == {"type": "string", "enum": ["a", "b"]}
    assert props["maybeMode"] == {"type": ["string", "null"], "enum": ["a", "b", None]}
    assert props["either"] == {"anyOf": [INT64, TEXT]}
    assert props["eitherOrNone"] == {"anyOf": [part, INT64, {"type": "null"}]}
    assert props["maybeList"] == {"type": ["array", "null"], "items": INT64}
    assert props["maybeColor"] == {"type": ["string", "null"], "enum": ["red", "blue", None]}


def test_a_new_route_with_a_new_nested_model_generates_its_components(
    valid_openapi: Callable[[dict[str, Any]], None],
) -> None:
    before = build_document(Surface.SERVER, ALL, version=VERSION)["components"]["schemas"]
    assert "Gadget" not in before
    assert "Part" not in before
    doc = _doc(Surface.SERVER, GADGET_GET)
    schemas = doc["components"]["schemas"]
    assert schemas["Gadget"]["properties"]["parts"] == {
        "type": "array",
        "items": {"$ref": "#/components/schemas/Part"},
    }
    assert schemas["Part"] == {
        "type": "object",
        "properties": {"partNo": {"type": "string"}},
        "required": ["partNo"],
    }
    data = _op(doc, GADGET_GET)["responses"]["200"]["content"]["application/json"]["schema"]
    assert data == {
        "type": "object",
        "properties": {"data": {"$ref": "#/components/schemas/Gadget"}},
        "required": ["data"],
    }
    valid_openapi(doc)


def test_error_envelope_schema() -> None:
    schemas = build_document(Surface.SDK, ALL, version=VERSION)["components"]["schemas"]
    assert schemas["ErrorEnvelope"]["required"] == ["error"]
    assert schemas["ErrorEnvelope"]["properties"]["error"] == {"$ref": "#/components/schemas/ErrorBody"}
    assert set(schemas["ErrorBody"]["properties"]) == {"code", "message", "details"}


# --- Operations -----------------------------------------------------------------------------------


def test_path_and_query_parameters() -> None:
    params = _op(_doc(Surface.SDK, WIDGET_CREATE), WIDGET_CREATE)["parameters"]
    by_name = {p["name"]: p for p in params if "name" in p}
    for name in ("externalId", "widgetId"):
        assert by_name[name] == {"name": name, "in": "path", "required": True, "schema": PATH_ID}
    assert by_name["q"] == {"name": "q", "in": "query", "required": True, "schema": TEXT}
    assert by_name["keys"] == {
        "name": "keys",
        "in": "query",
        "required": False,
        "schema": {"type": "array", "items": TEXT, "minItems": 1},
        "style": "form",
        "explode": False,
    }
    assert by_name["limit"]["schema"] == {**INT64, "default": 20}
    assert by_name["pending"]["schema"] == {"type": "boolean", "default": False}
    assert by_name["color"]["schema"] == {"type": "string", "enum": ["red", "blue"]}
    register = {p.get("name"): p for p in _op(_doc(Surface.SDK), REGISTER)["parameters"]}
    assert register["force"]["in"] == "query"
    assert register["force"]["schema"] == {"type": "boolean", "default": False}


@pytest.mark.parametrize(("surface", "doc"), ALL_DOCS, ids=DOC_IDS)
def test_every_operation_takes_the_sdk_header(surface: Surface, doc: dict[str, Any]) -> None:
    assert doc["components"]["parameters"]["XSvcSdk"]["name"] == "X-Svc-SDK"
    assert doc["components"]["parameters"]["XSvcSdk"]["required"] is False
    for item in doc["paths"].values():
        for op in item.values():
            assert {"$ref": "#/components/parameters/XSvcSdk"} in op["parameters"]


def test_every_sdk_operation_takes_the_build_headers_with_their_limits() -> None:
    sdk, server = _doc(Surface.SDK), _doc(Surface.SERVER)
    params = sdk["components"]["parameters"]
    assert params["XSvcPlatform"]["name"] == "X-Svc-Platform"
    assert params["XSvcAppVersion"]["name"] == "X-Svc-App-Version"
    platform, version = params["XSvcPlatform"]["schema"], params["XSvcAppVersion"]["schema"]
    assert (platform["minLength"], platform["maxLength"]) == (1, 32)
    assert (version["minLength"], version["maxLength"]) == (1, 64)
    assert all(not p["required"] for p in (params["XSvcPlatform"], params["XSvcAppVersion"]))
    for item in sdk["paths"].values():
        for op in item.values():
            assert {"$ref": "#/components/parameters/XSvcPlatform"} in op["parameters"]
            assert {"$ref": "#/components/parameters/XSvcAppVersion"} in op["parameters"]
    # The studio backend reports no game build.
    assert "XSvcPlatform" not in server["components"]["parameters"]


def test_request_body_required_unless_optional() -> None:
    doc = _doc(Surface.SDK, WIDGET_CREATE)
    assert _op(doc, REGISTER)["requestBody"]["required"] is False
    body = _op(doc, WIDGET_CREATE)["requestBody"]
    assert body == {
        "required": True,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/WidgetRequest"}}},
    }
    assert "requestBody" not in _op(build_document(Surface.SERVER, ALL, version=VERSION), PING)


def test_security_by_auth() -> None:
    sdk = _doc(Surface.SDK, WIDGET_CREATE, PUBLIC_READ)
    schemes = sdk["components"]["securitySchemes"]
    assert schemes["apiKey"] == {
        "type": "http",
        "scheme": "bearer",
        "description": schemes["apiKey"]["description"],
    }
    assert schemes["playerSecret"]["type"] == "apiKey"
    assert schemes["playerSecret"]["in"] == "header"
    assert schemes["playerSecret"]["name"] == "X-Player-Secret"
    for route in (SDK_SET_IDENTITY, WIDGET_CREATE):
        assert _op(sdk, route)["security"] == [{"apiKey": [], "playerSecret": []}]  # both, in one requirement
        assert "player_secret_invalid" in _op(sdk, route)["responses"]["401"]["x-error-codes"]
    assert _op(sdk, REGISTER)["security"] == [{"apiKey": []}]
    assert "player_secret_invalid" not in _op(sdk, REGISTER)["responses"]["401"]["x-error-codes"]
    server = build_document(Surface.SERVER, ALL, version=VERSION)
    assert _op(server, PING)["security"] == [{"apiKey": []}]
    public = _op(sdk, PUBLIC_READ)
    assert public["security"] == []
    assert "401" not in public["responses"]
    assert "403" not in public["responses"]


def test_a_key_or_player_route_takes_the_key_with_or_without_the_secret() -> None:
    sdk = build_document(Surface.SDK, ALL, version=VERSION)
    op = _op(sdk, SDK_EVENTS)
    assert op["security"] == [{"apiKey": [], "playerSecret": []}, {"apiKey": []}]
    assert "player_secret_invalid" in op["responses"]["401"]["x-error-codes"]
    assert "with the player's secret" in op["description"]


def test_a_stream_route_answers_server_sent_events_of_its_declared_models() -> None:
    sdk = build_document(Surface.SDK, ALL, version=VERSION)
    op = _op(sdk, SDK_BOARD_STREAM)
    success = op["responses"]["200"]
    assert list(success["content"]) == ["text/event-stream"]
    stream = success["content"]["text/event-stream"]
    events = stream["schema"]["oneOf"]  # one event, as OpenAPI 3.2's itemSchema
    names = ("ready", "score_update", "closed")
    assert [e["properties"]["event"] for e in events] == [{"const": name} for name in names]
    assert [e["properties"]["data"]["contentSchema"] for e in events] == [
        {"$ref": f"#/components/schemas/{name}"}
        for name in ("StreamReady", "StreamScoreUpdate", "StreamClosed")
    ]
    assert {e["properties"]["data"]["contentMediaType"] for e in events} == {"application/json"}
    assert all(e["required"] == ["event", "id", "data"] for e in events)
    assert "EntryView" in sdk["components"]["schemas"]
    assert "text/event-stream" in op["description"]
    # Errors before the stream starts are envelopes, as everywhere.
    assert op["responses"]["404"]["x-error-codes"] == ["not_found", "leaderboard_not_found"]
    assert op["responses"]["404"]["content"]["application/json"]


def test_error_responses() -> None:
    doc = _doc(Surface.SDK, WIDGET_CREATE)
    responses = _op(doc, WIDGET_CREATE)["responses"]
    assert set(responses) == {
        *("200", "201", "202", "400", "401", "403", "404", "405", "409", "410", "413", "415", "429")
    }
    for status, response in responses.items():
        if status in ("200", "201"):
            continue
        assert response["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/ErrorEnvelope"
        }
    assert responses["403"]["x-error-codes"] == ["permission_denied", "player_banned"]
    assert responses["409"]["x-error-codes"] == ["idempotency_conflict"]
    assert responses["410"]["x-error-codes"] == ["gift_expired"]
    assert responses["202"]["x-error-codes"] == ["lobby_forming"]
    assert "`gift_expired`" in responses["410"]["description"]
    # A read has no idempotency, hence no 409 unless it declares one.
    ping = _op(build_document(Surface.SERVER, ALL, version=VERSION), PING)["responses"]
    assert set(ping) == {"200", "400", "401", "403", "404", "405", "429"}  # a read has no body: no 413, 415


def test_an_error_status_equal_to_the_success_status_shares_the_response(
    valid_openapi: Callable[[dict[str, Any]], None],
) -> None:
    route = attrs.evolve(
        WIDGET_CREATE, name="widgets.join", path="/join", status=202, errors=(LOBBY_FORMING,)
    )
    doc = _doc(Surface.SDK, route)
    accepted = _op(doc, route)["responses"]["202"]
    schema = accepted["content"]["application/json"]["schema"]
    assert schema["oneOf"][1] == {"$ref": "#/components/schemas/ErrorEnvelope"}
    assert accepted["x-error-codes"] == ["lobby_forming"]
    valid_openapi(doc)


@pytest.mark.parametrize(("surface", "doc"), ALL_DOCS, ids=DOC_IDS)
def test_every_response_documents_rate_limit_headers(surface: Surface, doc: dict[str, Any]) -> None:
    assert doc["components"]["headers"]["RateLimit-Reset"]["schema"]["type"] == "integer"
    for item in doc["paths"].values():
        for op in item.values():
            for status, response in op["responses"].items():
                headers = response["headers"]
                for name in ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"):
                    assert headers[name] == {"$ref": f"#/components/headers/{name}"}
                assert ("Retry-After" in headers) == (status == "429")


def test_idempotency_parameters_and_replay() -> None:
    sdk = _doc(Surface.SDK, WIDGET_CREATE)
    server = _doc(Surface.SERVER, KITCHEN_PUT)

    def key_required(doc: dict[str, Any], route: Route) -> bool | None:
        """Whether the Idempotency-Key header is required; None when the operation does not take it."""
        for param in _op(doc, route)["parameters"]:
            if param.get("name") == "Idempotency-Key":
                assert param["in"] == "header"
                return bool(param["required"])
        return None

    assert key_required(server, SERVER_SET_IDENTITY) is True
    # The body field idempotencyKey may carry it instead: the header is required, the field its alternative.
    assert key_required(server, KITCHEN_PUT) is True
    assert key_required(sdk, SDK_SET_IDENTITY) is False
    assert key_required(server, PING) is None
    assert key_required(server, CLOCK_ADVANCE) is None

    created = _op(sdk, WIDGET_CREATE)["responses"]
    assert created["201"]["headers"]["Idempotent-Replay"] == {
        "$ref": "#/components/headers/Idempotent-Replay"
    }
    # docs/reference/conventions.md#idempotency: a replayed 201 answers 200 with the same body.
    assert created["200"]["headers"]["Idempotent-Replay"] == created["201"]["headers"]["Idempotent-Replay"]
    assert created["200"]["content"] == created["201"]["content"]
    assert "Idempotent-Replay" not in created["400"]["headers"]
    identity = _op(server, SERVER_SET_IDENTITY)["responses"]
    assert "Idempotent-Replay" in identity["200"]["headers"]
    assert "Idempotent-Replay" not in _op(server, PING)["responses"]["200"]["headers"]


def test_deprecated_route(valid_openapi: Callable[[dict[str, Any]], None]) -> None:
    doc = _doc(Surface.SDK, OLD_ROUTE)
    op = _op(doc, OLD_ROUTE)
    assert op["deprecated"] is True
    assert op["x-deprecation"] == {
        "reason": "Use the widgets route.",
        "sunset": "2027-01-31",
        "successor": "/sdk/v2/widgets",
    }
    for response in op["responses"].values():
        assert {"Deprecation", "Sunset", "Link", "X-Svc-Deprecation-Reason"} <= set(response["headers"])
    plain = attrs.evolve(OLD_ROUTE, deprecated=Deprecation(reason="Going away."))
    headers = _op(_doc(Surface.SDK, plain), plain)["responses"]["200"]["headers"]
    assert "Deprecation" in headers
    assert "Sunset" not in headers
    assert "Link" not in headers
    current = {surface: _doc(surface) for surface in PUBLIC_SURFACES}
    for route in r.ALL:
        if route.surface in PUBLIC_SURFACES:
            assert "deprecated" not in _op(current[route.surface], route)
    valid_openapi(doc)


def test_test_only_route_is_marked() -> None:
    doc = build_document(Surface.SERVER, ALL, version=VERSION)
    assert _op(doc, CLOCK_ADVANCE)["x-test-only"] is True
    assert "x-test-only" not in _op(doc, PING)
    assert "403" in _op(doc, CLOCK_ADVANCE)["responses"]


@pytest.mark.parametrize(("surface", "doc"), ALL_DOCS, ids=DOC_IDS)
def test_no_node_is_shared(surface: Surface, doc: dict[str, Any]) -> None:
    """Each dict and list appears once in the tree, so a YAML dump has no anchors and mutating one
    document cannot change another."""
    seen: set[int] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict | list):
            assert id(node) not in seen, node
            seen.add(id(node))
            for child in node.values() if isinstance(node, dict) else node:
                walk(child)

    walk(doc)
    other = build_document(surface, ALL, version=VERSION)
    scheme = "personalKey" if surface is Surface.ADMIN else "apiKey"
    other["components"]["securitySchemes"][scheme]["scheme"] = "changed"
    assert (
        build_document(surface, ALL, version=VERSION)["components"]["securitySchemes"][scheme]["scheme"]
        == "bearer"
    )


def test_output_is_deterministic() -> None:
    first = json.dumps(_doc(Surface.SDK, *EXTRA_ROUTES))
    assert first == json.dumps(_doc(Surface.SDK, *EXTRA_ROUTES))


# --- Refusals ---------------------------------------------------------------------------------------


def test_duplicate_routes_are_refused() -> None:
    with pytest.raises(ValueError, match="named"):
        _doc(Surface.SDK, attrs.evolve(WIDGET_CREATE, path="/other"), WIDGET_CREATE)
    with pytest.raises(ValueError, match="answer"):
        _doc(Surface.SDK, WIDGET_CREATE, attrs.evolve(WIDGET_CREATE, name="widgets.again"))


def test_two_models_with_one_name_are_refused() -> None:
    @attrs.frozen
    class Part:  # same name as the module-level Part, another class
        other: int

    clash = Route(
        name="parts", surface=Surface.SERVER, method="GET", path="/parts", summary="x", response=Part
    )
    with pytest.raises(ValueError, match="'Part'"):
        _doc(Surface.SERVER, GADGET_GET, clash)


@attrs.frozen
class Unsupported:
    blob: bytes


def test_a_type_without_json_schema_is_refused() -> None:
    route = Route(
        name="u", surface=Surface.SERVER, method="GET", path="/u", summary="x", response=Unsupported
    )
    with pytest.raises(TypeError, match="bytes"):
        _doc(Surface.SERVER, route)


def test_models_module_error_envelope_is_the_one_used() -> None:
    assert (
        ErrorEnvelope.__name__ in build_document(Surface.SDK, ALL, version=VERSION)["components"]["schemas"]
    )
