"""Run a livecore server inside another program: a real HTTP server on a background thread.

For examples, integration tests of a studio backend, and tools that want a server without a process of
their own. The server has its own event loop on its thread; the caller's code (sync clients included)
talks to it over 127.0.0.1 as any client would.
"""

from __future__ import annotations

import asyncio
import socket
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import attrs
from aiohttp import web

from livecore.clock import Clock
from livecore.rand import RandomSource
from livecore_server.app import create_app
from livecore_server.clock import SystemClock
from livecore_server.config import Config
from livecore_server.registry import installed, storage
from livecore_server.services import SERVICES, Services, build_services


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


@attrs.frozen
class Served:
    base_url: str
    services: Services  # the running server's, for callers that seed or inspect its store


@contextmanager
def serve_in_thread(
    config: Config, clock: Clock, rng: RandomSource | None = None, host: str = "127.0.0.1", port: int = 0
) -> Iterator[Served]:
    """Serve until the block ends. The server's services are built from ``config``, ``clock`` and ``rng``
    as it starts, and closed as it stops."""
    port = port or free_port(host)
    loop = asyncio.new_event_loop()
    app = create_app(config, clock, rng)
    runner = web.AppRunner(app)
    ready = threading.Event()
    failed: list[BaseException] = []

    def run() -> None:
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(runner.setup())
            loop.run_until_complete(web.TCPSite(runner, host, port).start())
        except BaseException as exc:
            failed.append(exc)
            return
        finally:
            ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, name="livecore-server", daemon=True)
    thread.start()
    if not ready.wait(10):
        raise RuntimeError("the embedded server did not start")
    if failed:
        thread.join(10)
        loop.close()
        raise failed[0]
    try:
        yield Served(f"http://{host}:{port}", app[SERVICES])
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


@attrs.frozen
class Demo:
    base_url: str
    client_key: str  # the demo game's test client_sdk key
    server_key: str  # its test server_integration key
    owner_key: str  # a personal key of the demo studio's owner, as `members personal-key owner` makes it


@contextmanager
def demo_server() -> Iterator[Demo]:
    """What ``livecore-server demo`` serves (the built-in demo manifest), on a temporary SQLite file, in
    a thread: for examples and tools that want a demo without a server process."""
    from livecore_server.demo import DEMO_MEMBER, apply_demo
    from livecore_server.operators.sessions import issue_personal_key

    with tempfile.TemporaryDirectory() as tmp:
        db = f"{tmp}/demo.db"
        applying = build_services(Config(db=db), SystemClock(), served=installed(), storage=storage())
        try:
            applied, _ = apply_demo(applying)
            owner_key = issue_personal_key(applying, DEMO_MEMBER).secret
        finally:
            applying.close()
        keys = applied["games"]["space-race"]["apiKeys"]
        with serve_in_thread(Config(db=db), SystemClock()) as served:
            yield Demo(
                served.base_url, keys["demo-client"]["secret"], keys["demo-server"]["secret"], owner_key
            )
