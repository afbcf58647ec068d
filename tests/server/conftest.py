"""Fixtures shared by the server API tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.server.gift_support import Game, games, start_gift_world


@pytest.fixture
async def g(db_url: str) -> AsyncIterator[dict[str, Game]]:
    """The gift world's games by key (tests/server/gift_support.py), on the test's store."""
    world = await start_gift_world(db_url)
    try:
        yield games(world)
    finally:
        await world.client.close()
