"""The portal in a real browser: headless Chromium (Debian's ``chromium`` package) driven by Playwright,
against a real server on 127.0.0.1 with a manual clock (docs/testing.md#browser-tests).

Without Chromium the tests are skipped and the summary says why; CI sets ``LIVECORE_REQUIRE_BROWSER=1``
(.ci/run installs the package when it is missing), which makes them mandatory. Screenshots of the main
pages are written to ``$LIVECORE_SCREENSHOTS`` when it is set (``nox -s screenshots`` refreshes those
of docs/portal.md).
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import attrs
import httpx
import pytest

from livecore_server.embedded import serve_in_thread
from livecore_server.services import Services
from tests.conftest import apply_test_manifest, login_link, make_services, service_args, webhook_manifest

playwright = pytest.importorskip("playwright.sync_api")


def chromium_path() -> str | None:
    return os.environ.get("LIVECORE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


# Module-scoped, not session-scoped: while Playwright's sync API runs, its event loop is the thread's
# running loop, and the asyncio tests that a worker runs after this module could not start theirs.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        if os.environ.get("LIVECORE_REQUIRE_BROWSER") == "1":
            pytest.fail("Chromium is required (LIVECORE_REQUIRE_BROWSER=1) and was not found")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    with playwright.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, args=["--no-sandbox", "--disable-gpu"])
        yield launched
        launched.close()


class Receiver:
    """A webhook receiver in a thread: answers ``status`` (500 to make deliveries fail) and keeps what
    it got."""

    def __init__(self) -> None:
        self.status = 200
        self.received: list[dict[str, Any]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                import json

                receiver.received.append(
                    {"headers": dict(self.headers), "body": json.loads(body), "raw": body}
                )
                self.send_response(receiver.status)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()


@attrs.define
class Portal:
    """A live server with the test manifest (members olga, gina, dev, debby, vic), a webhook endpoint
    ``hooks`` to :attr:`receiver`, and a manual clock."""

    base_url: str
    services: Services
    keys: dict[str, str]
    receiver: Receiver
    endpoint_id: str
    webhook_secret: str  # the endpoint's signing secret as the manifest made it
    shots: Path | None

    def link(self, member: str) -> str:
        return f"{self.base_url}/portal/login/{login_link(self.services, member)}"

    def advance(self, seconds: float) -> None:
        """Move the manual clock and run what came due (the dev route of the server API)."""
        r = httpx.post(
            f"{self.base_url}/server/v1/dev/clock/advance",
            json={"seconds": seconds},
            headers={"Authorization": f"Bearer {self.keys['test-server']}"},
        )
        assert r.status_code == 200, r.text

    def shot(self, page: Any, name: str) -> None:
        if self.shots is not None:
            page.screenshot(path=str(self.shots / f"{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Portal]:
    db = str(tmp_path_factory.mktemp("portal") / "portal.db")
    receiver = Receiver()
    seeding = make_services(db)
    applied = apply_test_manifest(
        seeding, webhook_manifest(hooks=("test", receiver.url, '["player.registered"]'))
    )
    seeding.close()
    game = applied["games"]["space-race"]
    keys = {name: k["secret"] for name, k in game["apiKeys"].items()}
    shots = os.environ.get("LIVECORE_SCREENSHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
    try:
        with serve_in_thread(*service_args(db)) as served:
            served.services.scheduler.jobs = [
                j for j in served.services.scheduler.jobs if j.interval.total_seconds() >= 3600
            ]
            yield Portal(
                served.base_url,
                served.services,
                keys,
                receiver,
                game["webhooks"]["hooks"]["id"],
                game["webhooks"]["hooks"]["secret"],
                Path(shots) if shots else None,
            )
    finally:
        receiver.close()


@pytest.fixture
def page(browser: Any, portal: Portal) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    context.set_default_timeout(15_000)
    opened = context.new_page()
    yield opened
    context.close()
