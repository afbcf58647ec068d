"""The /mcp endpoint (livecore_server/operators/mcp.py) through a real aiohttp server on 127.0.0.1, spoken to
with the ``mcp`` package's own streamable HTTP client, in both of the package's protocol eras: the
``initialize`` handshake and the per-request ``server/discover`` envelope.

The tools and the authentication are dummies: ``Bearer good`` is alice, who may use tools ``a`` and ``b``;
``Bearer reader`` is rita, who may use only the read-only ``a``; anything else is refused with 401."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import attrs
import httpx
import httpx2
import orjson
import pytest
from aiohttp import web
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from livecore_server.operators.mcp import McpEndpoint, McpTool, _Exchange, _scope


@attrs.frozen
class Principal:
    name: str
    tools: tuple[str, ...]


PRINCIPALS = {"good": Principal("alice", ("a", "b")), "reader": Principal("rita", ("a",))}


class Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)
        self.code, self.message = code, message


class ToolRefused(Exception):
    """Like LivecoreError: a ``code`` and a ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)
        self.code, self.message = code, message


A_SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
B_SCHEMA = {"type": "object", "properties": {"player": {"type": "string"}}}


@attrs.define
class Dummy:
    """The app's dummy tools and what they saw."""

    runs: list[tuple[str, Principal, dict[str, Any]]] = attrs.Factory(list)
    listings: int = 0

    async def a(self, principal: Principal, arguments: dict[str, Any]) -> Any:
        self.runs.append(("a", principal, arguments))
        return {"principal": principal.name, "double": arguments["n"] * 2}

    async def b(self, principal: Principal, arguments: dict[str, Any]) -> Any:
        self.runs.append(("b", principal, arguments))
        if arguments.get("player") == "ghost":
            raise ToolRefused("not_found", "No such player.")
        return [arguments.get("player"), "granted"]

    def tools(self, principal: Principal) -> list[McpTool]:
        self.listings += 1
        every = [
            McpTool("a", "Doubles n.", A_SCHEMA, read_only=True, run=self.a),
            McpTool("b", "Grants a player something.", B_SCHEMA, read_only=False, run=self.b),
        ]
        return [tool for tool in every if tool.name in principal.tools]


async def authenticate(request: web.Request) -> Principal:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    principal = PRINCIPALS.get(token) if scheme.lower() == "bearer" else None
    if principal is None:
        raise Refused("invalid_api_key", "Missing or unknown API key.")
    return principal


@web.middleware
async def refusals(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    try:
        return await handler(request)
    except Refused as exc:
        return web.json_response({"error": {"code": exc.code, "message": exc.message}}, status=401)


@attrs.frozen
class Served:
    url: str
    dummy: Dummy


@pytest.fixture
async def served() -> AsyncIterator[Served]:
    dummy = Dummy()
    endpoint = McpEndpoint(dummy.tools, authenticate)
    app = web.Application(middlewares=[refusals])
    app.router.add_route("*", "/mcp", endpoint.handle)
    app.cleanup_ctx.append(endpoint.lifetime)
    runner = web.AppRunner(app)
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        yield Served(f"http://127.0.0.1:{port}/mcp", dummy)
    finally:
        await runner.cleanup()


@pytest.fixture(params=["initialize", "discover"])
def era(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@asynccontextmanager
async def session(url: str, token: str, era: str) -> AsyncIterator[ClientSession]:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as client,
    ):
        await (client.initialize() if era == "initialize" else client.discover())
        yield client


def only_text(result: Any) -> str:
    [content] = result.content
    assert content.type == "text"
    return str(content.text)


async def test_list_tools_is_exactly_the_principals_tools(served: Served, era: str) -> None:
    async with session(served.url, "good", era) as alice:
        listed = (await alice.list_tools()).tools
    assert [(t.name, t.description, t.input_schema) for t in listed] == [
        ("a", "Doubles n.", A_SCHEMA),
        ("b", "Grants a player something.", B_SCHEMA),
    ]
    assert [t.annotations.read_only_hint for t in listed if t.annotations] == [True, False]

    async with session(served.url, "reader", era) as rita:
        listed = (await rita.list_tools()).tools
    assert [(t.name, t.input_schema) for t in listed] == [("a", A_SCHEMA)]


async def test_call_tool_returns_the_json_result_as_text_and_structured(served: Served, era: str) -> None:
    async with session(served.url, "good", era) as alice:
        result = await alice.call_tool("a", {"n": 21})
        listed = await alice.call_tool("b", {"player": "p1"})
    assert not result.is_error
    text = only_text(result)
    assert text == orjson.dumps({"principal": "alice", "double": 42}, option=orjson.OPT_INDENT_2).decode()
    assert result.structured_content == orjson.loads(text)
    # Structured content is an object by the protocol: a list comes as text only.
    assert orjson.loads(only_text(listed)) == ["p1", "granted"]
    assert listed.structured_content is None
    assert served.dummy.runs == [
        ("a", PRINCIPALS["good"], {"n": 21}),
        ("b", PRINCIPALS["good"], {"player": "p1"}),
    ]


async def test_a_tool_error_with_code_and_message_is_a_tool_error_result(served: Served, era: str) -> None:
    async with session(served.url, "good", era) as alice:
        result = await alice.call_tool("b", {"player": "ghost"})
    assert result.is_error
    assert only_text(result) == "not_found: No such player."


async def test_a_tool_outside_the_principals_list_is_an_error_and_does_not_run(
    served: Served, era: str
) -> None:
    async with session(served.url, "reader", era) as rita:
        with pytest.raises(MCPError, match="Unknown tool: b"):
            await rita.call_tool("b", {"player": "p1"})
        with pytest.raises(MCPError, match="Unknown tool: nope"):
            await rita.call_tool("nope", {})
    assert served.dummy.runs == []


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic good"}, {"Authorization": "Bearer"}],
    ids=["missing", "wrong", "not-bearer", "empty"],
)
async def test_a_missing_or_wrong_bearer_gets_401_before_any_mcp_processing(
    served: Served, headers: dict[str, str]
) -> None:
    # A request the MCP machinery would answer on its own (the stateless transport needs no handshake).
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "a", "arguments": {"n": 1}}}
    accept = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    async with httpx.AsyncClient() as http:
        refused = await http.post(served.url, json=call, headers={**accept, **headers})
        assert refused.status_code == 401
        assert refused.json() == {
            "error": {"code": "invalid_api_key", "message": "Missing or unknown API key."}
        }
        assert (served.dummy.listings, served.dummy.runs) == (0, [])

        accepted = await http.post(served.url, json=call, headers={**accept, "Authorization": "Bearer good"})
    assert accepted.status_code == 200
    assert accepted.json()["result"]["structuredContent"] == {"principal": "alice", "double": 2}


async def test_each_run_sees_the_principal_its_own_request_authenticated(served: Served, era: str) -> None:
    """Two principals' sessions interleave their calls; each run sees its own request's principal."""

    async def calls(token: str) -> list[str]:
        async with session(served.url, token, era) as client:
            results = await asyncio.gather(*(client.call_tool("a", {"n": n}) for n in range(5)))
        return [orjson.loads(only_text(result))["principal"] for result in results]

    alice, rita = await asyncio.gather(calls("good"), calls("reader"))
    assert alice == ["alice"] * 5
    assert rita == ["rita"] * 5
    assert sorted(principal.name for _, principal, _ in served.dummy.runs) == ["alice"] * 5 + ["rita"] * 5


async def test_get_is_405_as_there_is_no_standalone_stream(served: Served) -> None:
    async with httpx.AsyncClient() as http:
        refused = await http.get(served.url, headers={"Accept": "text/event-stream"})
        answered = await http.get(
            served.url, headers={"Accept": "text/event-stream", "Authorization": "Bearer good"}
        )
    assert refused.status_code == 401
    assert (answered.status_code, answered.headers["Allow"]) == (405, "POST")


async def test_the_bridge_streams_each_body_chunk_as_it_is_sent() -> None:
    """An event stream (``more_body``) reaches the client chunk by chunk, not when the response ends."""
    second = asyncio.Event()

    async def asgi(scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert (await receive())["body"] == b"hello"
        assert (scope["method"], scope["path"], scope["query_string"]) == ("POST", "/events", b"x=1")
        assert b"authorization" not in dict(scope["headers"])
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"text/event-stream")],
            }
        )
        await send({"type": "http.response.body", "body": b"data: one\n\n", "more_body": True})
        await second.wait()
        await send({"type": "http.response.body", "body": b"data: two\n\n", "more_body": False})

    async def handler(request: web.Request) -> web.StreamResponse:
        exchange = _Exchange(request, await request.read())
        await asgi(_scope(request), exchange.receive, exchange.send)
        assert exchange.response is not None
        return exchange.response

    app = web.Application()
    app.router.add_post("/events", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        url = f"http://127.0.0.1:{runner.addresses[0][1]}/events?x=1"
        async with (
            httpx.AsyncClient() as http,
            http.stream("POST", url, content=b"hello", headers={"Authorization": "Bearer good"}) as response,
        ):
            assert response.headers["content-type"] == "text/event-stream"
            chunks = response.aiter_bytes()
            assert await anext(chunks) == b"data: one\n\n"
            second.set()
            assert [chunk async for chunk in chunks] == [b"data: two\n\n"]
    finally:
        await runner.cleanup()
