"""A server's services open when its app starts and close when it stops, and stay the same object."""

from __future__ import annotations

import asyncio
from pathlib import Path

import attrs
import pytest
from aiohttp import web

from livecore_server.app import DISPATCHER
from livecore_server.operators.webhooks import send_sample
from livecore_server.services import SERVICES
from tests.conftest import apply_test_manifest, make_app, webhook_manifest
from tests.waiting import until


async def test_services_open_with_the_app_and_close_with_it(tmp_path: Path) -> None:
    app = make_app(tmp_path / "life.db")
    assert SERVICES not in app  # nothing is opened by building the app
    runner = web.AppRunner(app)
    await runner.setup()
    try:
        services = app[SERVICES]
        assert not services.store.closed
        assert app[DISPATCHER].services is services
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            services.config = services.config  # type: ignore[misc]
    finally:
        await runner.cleanup()
    assert services.store.closed


async def test_a_sample_wakes_the_running_dispatcher(db_url: str) -> None:
    """Deliveries written outside the outbox (a sample here; a replay, an unpause) reach the running
    dispatcher as its commit does."""
    app = make_app(db_url)
    runner = web.AppRunner(app)
    await runner.setup()
    try:
        services = app[SERVICES]
        hook = webhook_manifest(hook=("test", "http://127.0.0.1:9/h", '["*"]'))
        hooks = await asyncio.to_thread(apply_test_manifest, services, hook)
        dispatcher = app[DISPATCHER]
        # Each wake recorded as it comes: the running dispatcher clears its event as it takes a wake,
        # which it may do before this test looks.
        woken: list[bool] = []
        set_wake = dispatcher._wake.set

        def recorded() -> None:
            woken.append(True)
            set_wake()

        dispatcher._wake.set = recorded  # type: ignore[method-assign]
        await asyncio.to_thread(send_sample, services, hooks["games"]["space-race"]["webhooks"]["hook"]["id"])
        await until(lambda: bool(woken), "the sample's commit to wake the dispatcher")
    finally:
        await runner.cleanup()
