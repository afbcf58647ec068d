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

from livecore_server.app import create_app
from livecore_server.services import Services


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serve_in_thread(services: Services, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve ``services`` until the block ends; yields the base URL. Closes the services on exit."""
    port = port or free_port(host)
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(create_app(services))
    ready = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(runner.setup())
        loop.run_until_complete(web.TCPSite(runner, host, port).start())
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, name="livecore-server", daemon=True)
    thread.start()
    if not ready.wait(10):
        raise RuntimeError("the embedded server did not start")
    try:
        yield f"http://{host}:{port}"
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


@contextmanager
def demo_server() -> Iterator[Demo]:
    """What ``livecore-server demo`` serves (the built-in demo manifest), on a temporary SQLite file, in
    a thread: for examples and tools that want a demo without a server process."""
    from livecore_server.cli import apply_demo  # the CLI module imports this one

    with tempfile.TemporaryDirectory() as tmp:
        services, applied = apply_demo(f"{tmp}/demo.db")
        keys = applied["games"]["space-race"]["apiKeys"]
        with serve_in_thread(services) as base_url:
            yield Demo(base_url, keys["demo-client"]["secret"], keys["demo-server"]["secret"])
