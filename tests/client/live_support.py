"""A module's own game served for the live-server client tests, on each store in turn (the conftest
``live_server`` recipe with another manifest)."""

from __future__ import annotations

from collections.abc import Iterator

import attrs
import pytest

from livecore_server.embedded import serve_in_thread
from livecore_server.services import Services
from tests.conftest import apply_test_manifest, make_services, service_args


@attrs.define
class LiveGame:
    """A running server with the game: its address, its API keys' secrets by name, the game's id, and the
    server's services (to sign a member in, say)."""

    base_url: str
    keys: dict[str, str]
    game_id: str
    services: Services


def serve_game(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, manifest: str, game: str
) -> Iterator[LiveGame]:
    """For a module-scoped fixture parametrized over the stores: ``manifest`` applied to a fresh database
    of the store ``request.param`` names, and a server on it until the module's tests are done."""
    schema = None
    if request.param == "sqlite":
        db = str(tmp_path_factory.mktemp(f"{game}-live") / "live.db")
    else:
        from tests.postgres_support import new_schema

        db, schema = new_schema()
    try:
        seeding = make_services(db)
        applied = apply_test_manifest(seeding, manifest)
        seeding.close()  # the server opens its own
        keys = {name: k["secret"] for name, k in applied["games"][game]["apiKeys"].items()}
        with serve_in_thread(*service_args(db)) as served:
            yield LiveGame(served.base_url, keys, applied["games"][game]["id"], served.services)
    finally:
        if schema is not None:
            from tests.postgres_support import drop_schema

            drop_schema(schema)
