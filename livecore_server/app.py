"""The application factory: one app whose router holds every route of the namespaces (``/sdk/v1``,
``/server/v1``, ``/admin/v1``), each handler behind its namespace's key, rate limit and error envelope
(``livecore_server.http.middlewares.namespace``), then the portal, ``/mcp`` and the envelope's 404.

Routes come from the areas served (:mod:`livecore_server.registry`); each area lists its handler bindings.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import re
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from urllib.parse import urlsplit

import orjson
from aiohttp import web

from livecore import __version__, registry
from livecore.api.route import Auth, Route, Surface, literal_rivals
from livecore.area import Area
from livecore.clock import Clock, to_millis
from livecore.contributions import Contributions
from livecore.hot_routes import HOT
from livecore.rand import RandomSource
from livecore_server import metrics, plugins, statement_tally
from livecore_server import registry as server_registry
from livecore_server.area import ServerArea, admission_of
from livecore_server.audit import audited
from livecore_server.config import Config
from livecore_server.http.endpoint import PARSER_LINE_MAX, Binding, make_handler
from livecore_server.http.envelope import json_response
from livecore_server.http.middlewares import REQUEST_IDS, Handler, envelope_for, namespace
from livecore_server.http.protocol import answer_in_envelopes
from livecore_server.operators import mcp_tools
from livecore_server.operators.portal.pages import portal_app
from livecore_server.scheduler import catch_up
from livecore_server.services import SERVICES, Services, build_services
from livecore_server.serving import ServingMark
from livecore_server.storage.area_storage import AreaStorage
from livecore_server.storage.sqlite import DatabaseFileLost
from livecore_server.workers.dispatcher import Dispatcher

log = logging.getLogger("livecore_server")

MAX_BODY = 1024 * 1024  # the contract's limit for every request body: 413 above it


def bindings_of(served: Iterable[ServerArea]) -> tuple[Binding, ...]:
    """The bindings of the ``served`` areas' routes, in their order; a write of an area's own admin action
    is audited in its transaction (livecore_server/audit.py)."""
    return tuple(audited(b) for area in served for b in area.served)


def hot_routes(served: Iterable[Area]) -> frozenset[str]:
    """The names of the routes the ``served`` areas declare hot (livecore.hot_routes.HOT), which the app
    adds first."""
    return frozenset(route.name for route in Contributions(served).of(HOT))


# aiohttp tries the dynamic routes under one literal prefix (every /players/{externalId}/... route of a
# namespace) one by one, in the order they were added, until one matches path and method. Heartbeats, by
# far the most frequent request (every online player, about every 30 s), are added first, so they pay no
# pattern matching of the other routes (docs/architecture.md, "Hot-path choices"): the routes the areas
# declare hot (livecore.hot_routes.HOT). No other route's pattern matches their path, so nothing else
# resolves differently (tests/server/test_routing.py).


@functools.cache
def router_paths(paths: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`router_path` of each of a surface's ``paths``, worked out once per process for each set of
    routes: comparing every path with every other is most of what an app's routing costs to build."""
    return tuple(router_path(path, paths) for path in paths)


def router_path(path: str, siblings: Iterable[str]) -> str:
    """``path`` for aiohttp's router: a path parameter does not match the literal segments that rival it
    (``livecore.api.route.literal_rivals``), so ``/friends/code`` is never ``/friends/{friendExternalId}``
    and a 405's ``Allow`` lists only the methods of the path asked (aiohttp lists those of every route whose
    pattern matches it)."""
    for name, words in literal_rivals(path, siblings).items():
        alternatives = "|".join(re.escape(w) for w in words)
        path = path.replace(f"{{{name}}}", f"{{{name}:(?!(?:{alternatives})(?:/|$))[^/]+}}")
    return path


def _openapi_route(surface: Surface) -> Route:
    return Route(
        name=f"openapi.{surface.name.lower()}",
        surface=surface,
        method="GET",
        path="/openapi.json",
        summary="This surface's OpenAPI 3.1 document.",
        auth=Auth.PUBLIC,
    )


def _openapi_handler(surface: Surface, served: Sequence[Route]) -> Handler:
    """The surface's document, built on its first request and kept: building the three documents took
    most of an app's start, which every server and every API test pays."""
    from livecore.api.openapi import build_document

    @functools.cache
    def body() -> bytes:
        return orjson.dumps(build_document(surface, served, version=__version__))

    async def handler(request: web.Request) -> web.StreamResponse:
        return json_response(body(), 200)

    return handler


def _docs_url() -> str | None:
    """Where the operator hosts the human docs (``LIVECORE_DOCS_URL``), when it is an absolute http(s)
    address: the server serves no docs of its own and the project hosts none, so a relative link would
    lead nowhere."""
    configured = os.environ.get("LIVECORE_DOCS_URL")
    if not configured:
        return None
    parsed = urlsplit(configured)
    if parsed.scheme in ("http", "https") and parsed.netloc:
        return configured
    log.warning("LIVECORE_DOCS_URL is not an absolute http(s) address; GET / links no docs: %r", configured)
    return None


def _front_door() -> Handler:
    """``GET /``: what this server is, and where to go next (docs/server.md, "The front door"): links to
    what the server serves, and to the docs at an absolute address when the operator names one."""
    links = {
        "portal": "/portal/",
        "sdkOpenapi": f"{Surface.SDK.value}/openapi.json",
        "serverOpenapi": f"{Surface.SERVER.value}/openapi.json",
        "adminOpenapi": f"{Surface.ADMIN.value}/openapi.json",
    }
    if (docs := _docs_url()) is not None:
        links["docs"] = docs
    body = orjson.dumps({"service": "livecore", "version": __version__, "links": links})

    async def handler(request: web.Request) -> web.StreamResponse:
        return json_response(body, 200, {"X-Request-Id": request.app[REQUEST_IDS].new()})

    return handler


async def _to_portal(request: web.Request) -> web.StreamResponse:
    raise web.HTTPMovedPermanently("/portal/")


def _miss(resources: list[web.AbstractResource]) -> Handler:
    """A namespace's (or the root's) answer to a path none of its routes (``resources``) take, as
    aiohttp's router gives it: 405 with the methods of every route whose path matches in ``Allow``, else
    404. It asks each route in turn, which only a miss pays."""

    async def miss(request: web.Request) -> web.StreamResponse:
        allowed: set[str] = set()
        for resource in resources:
            allowed |= (await resource.resolve(request))[1]
        if allowed:
            raise web.HTTPMethodNotAllowed(request.method, allowed)
        raise web.HTTPNotFound()

    return miss


def _unrouted(misses: dict[str, Handler], own: Handler) -> Handler:
    """The root's last route, for every path no other route takes. Under a namespace's prefix (``misses``
    maps each to its guarded :func:`_miss`: the envelope, with the namespace's headers, key and rate
    limit), the namespace answers; anywhere else, ``own`` (the :func:`_miss` of the root's own routes:
    ``/``, ``/metrics``) in the envelope, a 405 on one of their paths and a 404 elsewhere. The path is
    read as aiohttp's router reads it (percent-decoded, but for ``%2F``)."""

    async def handler(request: web.Request) -> web.StreamResponse:
        path = request.rel_url.path_safe
        for prefix, miss in misses.items():
            if path == prefix or path.startswith(f"{prefix}/"):
                return await miss(request)
        try:
            return await own(request)
        except web.HTTPException as exc:
            return envelope_for(exc, request, {"X-Request-Id": request.app[REQUEST_IDS].new()})

    return handler


async def _bench_baseline(request: web.Request) -> web.StreamResponse:
    """The benchmark baseline: a bare handler serializing ~200 bytes of JSON with the same library, on the
    same loop, with no middleware."""
    return web.Response(body=orjson.dumps(_BASELINE), headers={"Content-Type": "application/json"})


_BASELINE = {
    "data": {
        "ok": True,
        "studioId": "std_baseline000000000000000000",
        "gameId": "gam_baseline000000000000000000",
        "environment": "test",
        "keyPrefix": "lc_test_base",
        "time": "2026-01-01T00:00:00.000Z",
    }
}


DISPATCHER = web.AppKey("dispatcher", Dispatcher)


def create_app(
    config: Config, clock: Clock, rng: RandomSource | None = None, extra: Iterable[Binding] = ()
) -> web.Application:
    """Build the app. Its :class:`Services` are built from ``config``, ``clock`` and ``rng`` when it
    starts and closed when it stops (``app[SERVICES]`` while it runs). ``extra`` adds bindings (tests
    mount a deprecated test-only route this way)."""
    # aiohttp closes a connection that has not sent a whole request head keepalive_timeout seconds after
    # it opened or after its previous response: that is the header timeout (docs/server.md, "Slow
    # clients"), whatever runs the app (run_app, an AppRunner, a test server). Its parser takes lines up
    # to PARSER_LINE_MAX so that the namespaces refuse lines over MAX_LINE themselves (counted).
    root = web.Application(
        client_max_size=MAX_BODY,
        handler_args={
            "keepalive_timeout": config.header_timeout,
            "max_line_size": PARSER_LINE_MAX,
            "max_field_size": PARSER_LINE_MAX,
        },
    )
    answer_in_envelopes(root)  # what aiohttp's HTTP parser refuses, too
    # A studio's own areas, after the service's (livecore_server/plugins.py): named by the config (serve
    # --area, entry points) or by the studios' applied manifests.
    studio = plugins.served(config.db, config.areas)
    served = (*server_registry.installed(), *studio)
    core = registry.checked([a.area for a in served])
    bindings = (*bindings_of(served), *extra)
    first = hot_routes(core)
    misses: dict[str, Handler] = {}
    admission = admission_of(served)
    for surface in Surface:
        guard = namespace(surface, root, admission)
        own = sorted(
            (b for b in bindings if b.route.surface is surface), key=lambda b: b.route.name not in first
        )
        routed = router_paths(tuple(b.route.path for b in own))
        for b, path in zip(own, routed, strict=True):
            root.router.add_route(
                b.route.method, surface.value + path, guard(b.route, make_handler(b, root)), name=b.route.name
            )
        names = [b.route.name for b in own]
        openapi = _openapi_route(surface)
        root.router.add_get(
            openapi.full_path,
            guard(openapi, _openapi_handler(surface, registry.routes(core))),
            name=openapi.name,
        )
        names.append(openapi.name)
        misses[surface.value] = guard(None, _miss([root.router[name] for name in names]))
    # The root's own paths, which answer another method 405 (:func:`_unrouted`).
    root_paths = [
        root.router.add_get("/", _front_door()).resource,
        root.router.add_get("/metrics", metrics.handler).resource,
    ]
    if config.bench_baseline:
        root_paths.append(root.router.add_get("/bench/baseline", _bench_baseline).resource)
    # Before the portal's sub-app, which would take the bare prefix itself and answer a plain 404.
    root_paths.append(root.router.add_get("/portal", _to_portal).resource)
    root.add_subapp("/portal", portal_app(bindings, config.oidc, config.public_url))
    # The operator routes as MCP tools, for a personal key (livecore_server/operators/mcp_tools.py).
    mcp = mcp_tools.endpoint(bindings)
    root.router.add_route("*", "/mcp", mcp_tools.handler(mcp))
    root.cleanup_ctx.append(mcp.lifetime)  # needs nothing of the services: started before them
    # Last, so every route above matches first.
    root_miss = _miss([path for path in root_paths if path is not None])
    root.router.add_route("*", "/{tail:.*}", _unrouted(misses, root_miss))
    root.cleanup_ctx.append(_lifetime(config, clock, rng, served, server_registry.storage(studio)))
    root.on_shutdown.append(_end_streams)
    return root


async def _end_streams(app: web.Application) -> None:
    """The server is closing: the areas' services end what they run now, board streams among them
    (aiohttp then waits for open requests, which a stream would never end on its own)."""
    if SERVICES in app:
        for service in app[SERVICES].area_services:
            await service.aclose()


def _lifetime(
    config: Config,
    clock: Clock,
    rng: RandomSource | None,
    served: tuple[ServerArea, ...],
    storage: AreaStorage,
) -> Callable[[web.Application], AsyncIterator[None]]:
    """The app's cleanup context: the services, the webhook dispatcher and the background tasks start
    with the app, in that order, and stop with it in the reverse order."""

    async def ctx(app: web.Application) -> AsyncIterator[None]:
        # What starts and stops the services writes synchronously: on a thread, so that the loop goes on
        # (another app's paused transactions on this loop may hold what those writes wait for).
        services = await asyncio.to_thread(build_services, config, clock, rng, served=served, storage=storage)
        stop_tally = statement_tally.start(services.store, config.statement_tally)
        mark = ServingMark(services.store, services.keys)
        try:
            await asyncio.to_thread(mark.put)
            app[SERVICES] = services
            services.store.start()
            dispatcher = Dispatcher(services, timeout=config.webhook_timeout)
            await dispatcher.start()
            try:
                app[DISPATCHER] = dispatcher
                area_services = list(services.area_services)

                def written(player_id: str) -> None:
                    for service in area_services:
                        service.player_written(player_id)

                def watching(on: bool) -> None:
                    for service in area_services:
                        service.watching(on)
                    dispatcher.told(on)

                await catch_up(services.store, services.runtime, registry.jobs(services.areas))
                tasks = [
                    asyncio.create_task(_housekeeping(services, mark, config.flush_seconds)),
                    asyncio.create_task(services.store.watch(written, watching)),
                    *(asyncio.create_task(work) for s in area_services for work in s.background(config)),
                ]
                if not services.manual_clock:
                    tasks.append(asyncio.create_task(services.scheduler.run_forever()))
                try:
                    yield
                finally:
                    for service in area_services:
                        await service.aclose()
                    with contextlib.suppress(Exception):  # else its rows count until their lease ends
                        await services.stream_slots.close()
                    for task in tasks:
                        task.cancel()
                    for task in tasks:
                        with contextlib.suppress(asyncio.CancelledError):
                            await task
            finally:
                await dispatcher.stop()
        finally:
            stop_tally()
            with contextlib.suppress(Exception):  # else it counts until its lease runs out
                await asyncio.to_thread(mark.remove)
            await asyncio.to_thread(services.close)

    return ctx


async def _housekeeping(services: Services, mark: ServingMark, every: float) -> None:
    """Real-time chores that are not service rules: flush key usage and presence, drop refilled buckets,
    renew this process's serving mark."""
    while True:
        await asyncio.sleep(every)
        try:
            await mark.renew()
            await services.flush_buffers()
            await services.ratelimiter.prune()
            await services.stream_slots.sync()
            await services.auth_throttle.prune(to_millis(services.clock.now()))
        except DatabaseFileLost:
            pass  # logged once, when it was found out
        except Exception:
            log.exception("housekeeping failed")
