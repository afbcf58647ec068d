"""``GET /metrics``: this process's gauges in Prometheus's text format (docs/deployment.md#monitoring), for
a scraper on the operator's network. Counts only: no key, address or player is named."""

from __future__ import annotations

from aiohttp import web

from livecore_server.services import SERVICES, Services

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def render(services: Services) -> str:
    gauges = (
        (
            "livecore_open_streams",
            "Event-board streams open in this process.",
            services.stream_slots.total(),
        ),
        (
            "livecore_locked_out_addresses",
            "Client addresses this process refuses for failed authentications right now.",
            services.auth_throttle.locked_out(),
        ),
    )
    return "".join(
        f"# HELP {name} {text}\n# TYPE {name} gauge\n{name} {value}\n" for name, text, value in gauges
    )


async def handler(request: web.Request) -> web.StreamResponse:
    body = render(request.app[SERVICES])
    return web.Response(
        body=body.encode(), headers={"Content-Type": CONTENT_TYPE, "Cache-Control": "no-store"}
    )
