"""``GET /metrics``: this process's gauges in Prometheus's text format (docs/deployment.md#monitoring), for
a scraper on the operator's network. Counts only: no key, address or player is named."""

from __future__ import annotations

import gc

from aiohttp import web

from livecore_server.http.middlewares import REQUEST_IDS
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
    return (
        "".join(
            f"# HELP {name} {text}\n# TYPE {name} gauge\n{name} {value}\n" for name, text, value in gauges
        )
        + _scheduled(services)
        + _writes(services)
        + _collector()
    )


def _collector() -> str:
    """Python's garbage collector in this process: the objects frozen out of its reach at start (the
    server's ``serve`` freezes them, docs/deployment.md#garbage-collection) and its collections by
    generation, the full ones (2) being those that pause every request."""
    name = "python_gc_collections_total"
    return (
        "# HELP python_gc_frozen_objects Objects the garbage collector no longer walks (frozen at start).\n"
        "# TYPE python_gc_frozen_objects gauge\n"
        f"python_gc_frozen_objects {gc.get_freeze_count()}\n"
        f"# HELP {name} Collections of each generation by Python's garbage collector.\n"
        f"# TYPE {name} counter\n"
        + "".join(
            f'{name}{{generation="{generation}"}} {stats["collections"]}\n'
            for generation, stats in enumerate(gc.get_stats())
        )
    )


def _writes(services: Services) -> str:
    """On PostgreSQL: the write transactions this process committed, and those it ran again because
    they lost a race, by the error's class (docs/deployment.md#monitoring)."""
    counts = getattr(services.store, "write_counts", None)
    if counts is None:
        return ""
    name = "livecore_write_retries_total"
    return (
        "# HELP livecore_writes_total Write transactions this process committed.\n"
        "# TYPE livecore_writes_total counter\n"
        f"livecore_writes_total {counts.committed}\n"
        f"# HELP {name} Write transactions this process ran again after losing a race, by cause.\n"
        f"# TYPE {name} counter\n"
        + "".join(f'{name}{{cause="{cause}"}} {n}\n' for cause, n in sorted(counts.retried.items()))
    )


def _scheduled(services: Services) -> str:
    """What each scheduled job's runs cost in this process since it started, by job."""
    tallies = sorted(services.scheduler.tallies.items())
    counters = (
        ("livecore_scheduled_runs_total", "Runs of each scheduled job in this process.", "runs"),
        (
            "livecore_scheduled_transactions_total",
            "Transactions the runs of each scheduled job took, their claims and the look-ups of their due"
            " times included.",
            "transactions",
        ),
        ("livecore_scheduled_seconds_total", "Seconds the runs of each scheduled job took.", "seconds"),
    )
    return "".join(
        f"# HELP {name} {text}\n# TYPE {name} counter\n"
        + "".join(f'{name}{{job="{job}"}} {getattr(tally, field)}\n' for job, tally in tallies)
        for name, text, field in counters
    )


async def handler(request: web.Request) -> web.StreamResponse:
    body = render(request.app[SERVICES])
    request_id = request.app[REQUEST_IDS].new()
    return web.Response(
        body=body.encode(),
        headers={"Content-Type": CONTENT_TYPE, "Cache-Control": "no-store", "X-Request-Id": request_id},
    )
