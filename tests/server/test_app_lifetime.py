"""A server's services open when its app starts and close when it stops, and stay the same object."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from aiohttp import web

from livecore_server.app import DISPATCHER
from livecore_server.services import SERVICES
from tests.conftest import make_app


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


async def test_due_deliveries_wake_the_running_dispatcher(tmp_path: Path) -> None:
    app = make_app(tmp_path / "wake.db")
    runner = web.AppRunner(app)
    await runner.setup()
    try:
        dispatcher = app[DISPATCHER]
        dispatcher._wake.clear()
        app[SERVICES].deliveries_due.notify()
        assert dispatcher._wake.is_set()
    finally:
        await runner.cleanup()
