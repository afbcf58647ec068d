"""The ``/mcp`` endpoint of the reference server (docs/operators.md): the admin API's operator routes as
Model Context Protocol tools, for an assistant acting as a member with a personal key.

- One tool per operator route that a personal key may call (not the dashboard-only ones,
  ``livecore.operators.rules.DASHBOARD_ONLY``): ``admin.players.lookup`` is ``players_lookup``, ``admin.me``
  is ``whoami``. Its arguments are the route's path parameters but ``studio`` (the key's own studio is
  used), its query fields and its body fields, by their wire names; its result is the route's response
  as the API answers it (``data``'s content).
- A principal lists the tools its role (and its key's role) allows; a read-only key only the reads.
- A call runs the route through :func:`livecore_server.operators.access.run_route`, as the admin API and
  the portal do: the same authorization, validation, handler, audit entry (actor ``personal_key`` with
  ``via: "mcp"``) and one transaction. A refusal comes back as a tool error, ``code: message``.
- The credential comes first (docs/operators.md#mcp): without a valid ``svc_pk_`` bearer, 401
  ``invalid_api_key`` in the error envelope, before the MCP machinery reads anything; then the ``admin``
  rate-limit bucket, per personal key.
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

import attrs
from aiohttp import web

from livecore import __version__
from livecore.api.convert import unstructure
from livecore.api.openapi import _rule_keywords, _Schemas
from livecore.api.route import Auth, Route, Surface
from livecore.clock import to_millis
from livecore.errors import INVALID_API_KEY, RATE_LIMITED, LivecoreError, invalid_request
from livecore.limits import ID
from livecore.operators.area_action import action_of, permits, roles_of
from livecore.operators.rules import DASHBOARD_ONLY, Operator, Via
from livecore.ratelimit import BucketName
from livecore.roles import Role
from livecore_server.http.endpoint import Binding
from livecore_server.http.middlewares import REQUEST_IDS, envelope_for, handle_in_time
from livecore_server.operators.access import (
    credential_of,
    no_credential,
    run_route,
    sent_operator_credential,
    take_admin_token,
)
from livecore_server.operators.mcp import McpEndpoint, McpTool
from livecore_server.services import SERVICES, Services

_PATH_PARAM = re.compile(r"\{([^{}/]+)\}")
# The studio is the key's own: never an argument.
_OWN_STUDIO = "studio"
_NAMES = {"admin.me": "whoami"}
_PARAM_DESCRIPTIONS = {
    "game": "The game: its key (`space-race`) or id (`gam_...`).",
    "externalId": "The player's external id.",
    "grantId": "The grant's id.",
    "attemptId": "The attempt's id (`att_...`).",
    "endpointId": "The webhook endpoint's id (`whe_...`).",
    "deliveryId": "The webhook delivery's id (`dlv_...`).",
    "keyId": "The key's id.",
}
# The answer's headers so far (the rate limit's), for the envelope of a refusal.
_HEADERS = web.RequestKey("mcp_headers", dict[str, str])


@attrs.frozen
class McpCaller:
    """The principal of one ``/mcp`` request: the member acting by its personal key (``via`` MCP), the
    services it acts on and its address (audited where the route audits one)."""

    operator: Operator
    services: Services
    remote: str | None


@attrs.frozen
class RouteTool:
    """A tool and the route it runs."""

    tool: McpTool
    route: Route


def tool_name(route: Route) -> str:
    return _NAMES.get(route.name) or route.name.removeprefix("admin.").replace(".", "_")


def build_tools(bindings: Iterable[Binding]) -> list[RouteTool]:
    """A tool for every operator route of ``bindings`` a personal key may call."""
    out = []
    for binding in bindings:
        route = binding.route
        if route.surface is not Surface.ADMIN or route.auth is not Auth.MEMBER or route.action is None:
            continue
        if route.action in DASHBOARD_ONLY:
            continue
        out.append(RouteTool(_tool(binding), route))
    names = [t.tool.name for t in out]
    if len(set(names)) != len(names):
        raise ValueError(f"two MCP tools have the same name: {sorted(names)}")
    return out


def tools_for(tools: list[RouteTool], caller: McpCaller) -> list[McpTool]:
    """The tools ``caller`` may use: its roles allow the route's action, and a read-only key only reads."""
    return [
        t.tool
        for t in tools
        if (action := action_of(t.route)) is not None and permits(caller.operator, action)
    ]


@attrs.frozen
class _Arguments:
    """A route's tool arguments: what its path, query and body take, and where each one goes."""

    path_params: list[str]
    query_names: set[str]
    sources: dict[str, str]
    input_schema: dict[str, Any]


def _tool(binding: Binding) -> McpTool:
    route = binding.route
    arguments_of = _arguments(route)
    path_params, query_names, sources = (
        arguments_of.path_params,
        arguments_of.query_names,
        arguments_of.sources,
    )
    properties = arguments_of.input_schema["properties"]

    async def run(caller: McpCaller, arguments: dict[str, Any]) -> Any:
        unknown = sorted(set(arguments) - set(properties))
        if unknown:
            raise invalid_request(
                f"Unknown argument: {', '.join(unknown)}.",
                {n: "is not an argument of this tool" for n in unknown},
            )
        params: dict[str, str] = {_OWN_STUDIO: caller.operator.studio_id}
        errors: dict[str, str] = {}
        for name in path_params:
            value = arguments.get(name)
            if not isinstance(value, str):
                errors[name] = "is required" if value is None else "must be a string"
            else:
                params[name] = value
        if errors:
            raise invalid_request(f"The request is invalid: {', '.join(sorted(errors))}.", errors)
        query = {n: _query_text(v) for n, v in arguments.items() if n in query_names and v is not None}
        body = {n: v for n, v in arguments.items() if sources.get(n) == "body"}
        result = await run_route(
            caller.services, binding, caller.operator, params, body=body, query=query, remote=caller.remote
        )
        return unstructure(result)

    return McpTool(
        name=tool_name(route),
        description=_description(route),
        input_schema=arguments_of.input_schema,
        read_only=not route.is_write,
        run=run,
    )


@functools.cache
def _arguments(route: Route) -> _Arguments:
    """Worked out once per route and process: every app a process builds (each API test's) serves the same
    tools, and their schemas were a tenth of an app's start."""
    path_params = [p for p in _PATH_PARAM.findall(route.path) if p != _OWN_STUDIO]
    schemas = _Schemas()
    properties: dict[str, Any] = {}
    required: list[str] = []
    sources: dict[str, str] = {}

    def add(name: str, schema: dict[str, Any], source: str, needed: bool) -> None:
        if name in properties:
            raise ValueError(f"{route.name}: argument {name!r} is both {sources[name]} and {source}")
        properties[name], sources[name] = schema, source
        if needed:
            required.append(name)

    for name in path_params:
        schema = _rule_keywords(ID, {"type": "string"})
        if name in _PARAM_DESCRIPTIONS:
            schema["description"] = _PARAM_DESCRIPTIONS[name]
        add(name, schema, "path", True)
    query_names: set[str] = set()
    if route.query is not None:
        for param in schemas.query_parameters(route.query):
            add(param["name"], _inline(param["schema"], {}), "query", param["required"])
            query_names.add(param["name"])
    if route.request is not None:
        schemas.collect(route.request, "input")
        components = schemas.components()
        body = _inline(schemas.schema(route.request, "input"), components)
        for name, schema in body["properties"].items():
            add(name, schema, "body", name in body.get("required", ()) and not route.request_optional)
    input_schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        input_schema["required"] = required
    input_schema["additionalProperties"] = False
    return _Arguments(path_params, query_names, sources, input_schema)


def _description(route: Route) -> str:
    action = action_of(route)
    assert action is not None
    if not route.is_write:
        return f"{route.summary}\n\nRead-only."
    roles = ", ".join(role.value for role in Role if role in roles_of(action))
    return f"{route.summary}\n\nWrites; audited as `{action.value}`. Roles that may: {roles}."


def _inline(schema: Any, components: Mapping[str, Any], seen: tuple[str, ...] = ()) -> Any:
    """``schema`` with every ``#/components/schemas/`` reference replaced by its component: a tool's input
    schema stands alone."""
    if isinstance(schema, list):
        return [_inline(item, components, seen) for item in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref")
    if isinstance(ref, str):
        name = ref.removeprefix("#/components/schemas/")
        if name in seen:
            raise ValueError(f"the model {name} refers to itself: it cannot be inlined")
        return _inline(copy.deepcopy(components[name]), components, (*seen, name))
    return {key: _inline(value, components, seen) for key, value in schema.items()}


def _query_text(value: Any) -> str:
    """A query argument as its query string would spell it (``structure_query`` then checks it)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(_query_text(item) for item in value)
    return str(value)


# --- the endpoint ------------------------------------------------------------------------------------------


async def authenticate(request: web.Request) -> McpCaller:
    """A personal key (``Authorization: Bearer svc_pk_...``) valid now, then a token of the ``admin``
    bucket for it; without a valid key, 401 ``invalid_api_key`` (counted against the address, as on the
    admin API)."""
    services = request.app[SERVICES]
    headers = request[_HEADERS]
    throttle = services.auth_throttle
    now_ms = to_millis(services.clock.now())
    throttle.check(request, now_ms, headers)
    operator = await credential_of(services, request, via=Via.MCP, cookie=False)
    if operator is None:
        address = throttle.address(request)
        decision = await services.ratelimiter.take(f"addr:{address}", BucketName.ADMIN, now_ms)
        headers.update(decision.headers())
        if not decision.allowed:
            raise LivecoreError(RATE_LIMITED, "Too many requests; retry after the Retry-After delay.")
        if sent_operator_credential(request, cookie=False):
            await throttle.count(request, now_ms, headers)
        raise LivecoreError(INVALID_API_KEY, no_credential(request, portal=False))
    await take_admin_token(services, operator, headers)
    return McpCaller(operator=operator, services=services, remote=throttle.address(request))


def endpoint(bindings: Iterable[Binding]) -> McpEndpoint:
    """The ``/mcp`` endpoint serving the operator routes of ``bindings``."""
    tools = build_tools(bindings)
    return McpEndpoint(lambda caller: tools_for(tools, caller), authenticate, version=__version__)


def handler(mcp: McpEndpoint) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """``mcp``'s handler for a route of the root app, outside the namespaces (and their guard): refusals
    (the credential's first) are answered in the error envelope, and the body must arrive in time."""

    async def handle(request: web.Request) -> web.StreamResponse:
        headers = {"X-Request-Id": request.app[REQUEST_IDS].new()}
        request[_HEADERS] = headers
        try:
            return await handle_in_time(request, mcp.handle, request.app[SERVICES].config.body_timeout)
        except Exception as exc:
            return envelope_for(exc, request, headers)

    return handle
