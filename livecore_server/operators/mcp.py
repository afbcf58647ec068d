"""A Model Context Protocol endpoint inside an aiohttp app, served by the official ``mcp`` package.

Generic on purpose: it knows nothing of livecore. The caller gives it the tools a principal may use and
how a request is authenticated; it serves them with the package's low-level server over the streamable
HTTP transport, stateless and with JSON responses, so every request stands alone and is authenticated
on its own.

The package's transport is an ASGI app; :class:`McpEndpoint` bridges one aiohttp request to it.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from typing import Any

import attrs
import orjson
from aiohttp import web
from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.exceptions import MCPError

# The package snapshots the context of the task that hands it a message and runs the handler in that
# snapshot, so a principal set around the request reaches the handlers.
_PRINCIPAL: contextvars.ContextVar[Any] = contextvars.ContextVar("mcp_principal")

# Already checked by ``authenticate``: the package has no use for credentials, so it never sees them.
_WITHHELD_HEADERS = frozenset({b"authorization", b"cookie"})


@attrs.frozen
class McpTool:
    """A tool: ``run(principal, arguments)`` returns a JSON-able result, or raises an error with ``code``
    and ``message`` that the client gets as a tool error."""

    name: str
    description: str
    input_schema: dict[str, Any]
    read_only: bool
    run: Callable[[Any, dict[str, Any]], Awaitable[Any]]

    def describe(self) -> types.Tool:
        return types.Tool(
            name=self.name,
            description=self.description,
            input_schema=self.input_schema,
            annotations=types.ToolAnnotations(read_only_hint=self.read_only),
        )


class McpEndpoint:
    """The handler of ``/mcp`` (every method) and, for ``app.cleanup_ctx``, its :meth:`lifetime`."""

    def __init__(
        self,
        tools: Callable[[Any], list[McpTool]],
        authenticate: Callable[[web.Request], Awaitable[Any]],
        *,
        name: str = "livecore",
        version: str = "",
    ) -> None:
        self._tools = tools
        self._authenticate = authenticate
        self._server: Server[Any] = Server(
            name, version=version, on_list_tools=self._list_tools, on_call_tool=self._call_tool
        )
        self._manager: StreamableHTTPSessionManager | None = None

    async def lifetime(self, app: web.Application) -> AsyncIterator[None]:
        """Runs the package's session manager while the app runs."""
        manager = StreamableHTTPSessionManager(self._server, stateless=True, json_response=True)
        running, stop = asyncio.Event(), asyncio.Event()

        async def run() -> None:
            async with manager.run():
                running.set()
                await stop.wait()

        # The manager holds an anyio task group, which the task that entered it must leave; aiohttp may
        # start and clean up an app from different tasks, so the manager runs in a task of its own.
        task = asyncio.create_task(run())
        ready = asyncio.create_task(running.wait())
        await asyncio.wait([task, ready], return_when=asyncio.FIRST_COMPLETED)
        ready.cancel()
        if task.done():
            task.result()  # it could not start: its error
        self._manager = manager
        try:
            yield
        finally:
            self._manager = None
            stop.set()
            await task

    async def handle(self, request: web.Request) -> web.StreamResponse:
        # First, before the package sees anything: a refusal propagates to mcp_tools.handler's envelope.
        principal = await self._authenticate(request)
        if self._manager is None:
            raise web.HTTPServiceUnavailable(reason="The MCP endpoint is not running.")
        if request.method == "GET":
            # The package would open a standalone event stream, which a stateless server never writes to
            # and which aiohttp cannot tell is abandoned; the protocol lets a server without one say 405.
            raise web.HTTPMethodNotAllowed("GET", ["POST"])
        exchange = _Exchange(request, await request.read())
        token = _PRINCIPAL.set(principal)
        try:
            await self._manager.handle_request(_scope(request), exchange.receive, exchange.send)
        finally:
            _PRINCIPAL.reset(token)
            exchange.finished.set()
        if exchange.response is None:
            raise RuntimeError("the MCP transport sent no response")
        return exchange.response

    async def _list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool.describe() for tool in self._tools(_PRINCIPAL.get())])

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        principal = _PRINCIPAL.get()
        tool = next((tool for tool in self._tools(principal) if tool.name == params.name), None)
        if tool is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
        try:
            result = await tool.run(principal, params.arguments or {})
        except Exception as exc:
            # MCPError has a code and a message too, but it is the package's own protocol error.
            if isinstance(exc, MCPError) or not (hasattr(exc, "code") and hasattr(exc, "message")):
                raise
            text = f"{exc.code}: {exc.message}"
            return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)
        text = orjson.dumps(result, option=orjson.OPT_INDENT_2).decode()
        # Structured content is a JSON object by the protocol; parsed back so it is exactly the text's.
        structured = orjson.loads(text) if isinstance(result, dict) else None
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)], structured_content=structured
        )


def _scope(request: web.Request) -> dict[str, Any]:
    """The ASGI scope of an aiohttp request."""
    transport = request.transport
    peer = transport.get_extra_info("peername") if transport else None
    sock = transport.get_extra_info("sockname") if transport else None
    headers = [(name.lower(), value) for name, value in request.raw_headers]
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": f"{request.version.major}.{request.version.minor}",
        "method": request.method,
        "scheme": request.scheme,
        "path": request.path,
        "raw_path": request.rel_url.raw_path.encode(),
        "query_string": request.query_string.encode(),
        "root_path": "",
        "headers": [(name, value) for name, value in headers if name not in _WITHHELD_HEADERS],
        "server": tuple(sock[:2]) if isinstance(sock, tuple) else None,
        "client": tuple(peer[:2]) if isinstance(peer, tuple) else None,
    }


class _Exchange:
    """ASGI ``receive`` and ``send`` for one aiohttp request whose body was read up front (requests are
    small JSON). ``send`` streams the response, so a server-sent event stream works too."""

    def __init__(self, request: web.Request, body: bytes) -> None:
        self._request = request
        self._body: bytes | None = body
        self.response: web.StreamResponse | None = None
        self.finished = asyncio.Event()

    async def receive(self) -> dict[str, Any]:
        if self._body is not None:
            body, self._body = self._body, None
            return {"type": "http.request", "body": body, "more_body": False}
        # Only a watch for the client leaving asks again: answer it once the exchange is over.
        await self.finished.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            response = web.StreamResponse(status=message["status"])
            for name, value in message.get("headers", []):
                response.headers.add(name.decode("latin-1"), value.decode("latin-1"))
            await response.prepare(self._request)
            self.response = response
        elif message["type"] == "http.response.body" and self.response is not None:
            await self.response.write(message.get("body", b""))
            if not message.get("more_body", False):
                await self.response.write_eof()
                self.finished.set()
