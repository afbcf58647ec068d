"""A test scaffold for a studio's own area: its own pytest suite runs the area served, on SQLite and on
PostgreSQL, as a server with the studio's manifest applied, and embedded, in a
:class:`livecore.Simulation` (docs/extending.md#testing-it).

The suite's ``conftest.py`` takes the fixture::

    from livecore_server.testing import livecore_db  # noqa: F401 (a fixture)

A test that takes ``livecore_db`` runs once per store: ``[sqlite]`` on a new file, ``[postgres]`` on a new
schema of the database ``LIVECORE_TEST_POSTGRES`` names (``postgresql://user@host/db``), skipped when it
names none, failed instead when ``LIVECORE_REQUIRE_POSTGRES=1`` (CI). The test serves its manifest and
calls the routes as a client does::

    def test_a_claim_grants_the_bonus(livecore_db: str) -> None:
        with served(MANIFEST, db=livecore_db) as server:
            secret = server.register("ada")
            status, body = server.call("POST", "/sdk/v1/players/ada/daily/claim", secret=secret)

Embedded, the same manifest runs in ``Simulation.from_manifest(MANIFEST, areas=[AREA])``.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

import attrs
import httpx
import pytest

from livecore.clock import ManualClock
from livecore.scope import Environment, Permission
from livecore_server.config import Config
from livecore_server.embedded import serve_in_thread
from livecore_server.manifest import parse_manifest
from livecore_server.operators.apply import apply_manifest
from livecore_server.registry import installed, storage
from livecore_server.services import Services, build_services

#: Where a served manifest's clock starts, unless the test says: a Monday, 12:00 UTC.
START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@attrs.frozen
class ServedGame:
    """One game of a manifest a real server serves on 127.0.0.1: ``call`` a route as a client does."""

    base_url: str
    services: Services
    #: The game's test-environment keys of each permission, as the manifest's ``apply`` minted them.
    client_key: str
    server_key: str

    def call(
        self, method: str, path: str, *, secret: str | None = None, json: Any = None, key: str | None = None
    ) -> tuple[int, Any]:
        """Make a request: ``path`` in full (``/sdk/v1/players/ada/daily/claim``), with the game's client
        key on ``/sdk``, its server key elsewhere (or ``key``), the player's ``secret`` when given, and an
        idempotency key on a server write. Returns the status and the parsed JSON body."""
        headers = {"Authorization": f"Bearer {key or self._key_for(path)}"}
        if secret is not None:
            headers["X-Player-Secret"] = secret
        if method != "GET" and path.startswith("/server/"):
            headers["Idempotency-Key"] = secrets.token_hex(8)
        answer = httpx.request(method, self.base_url + path, headers=headers, json=json, timeout=60)
        return answer.status_code, answer.json()

    def register(self, external_id: str) -> str:
        """Register a player; its secret."""
        status, body = self.call("POST", f"/sdk/v1/players/{external_id}/register")
        assert status == 201, body
        secret: str = body["data"]["playerSecret"]
        return secret

    def ban(self, external_id: str, reason: str = "cheating") -> None:
        status, body = self.call("POST", f"/server/v1/players/{external_id}/ban", json={"reason": reason})
        assert status == 200, body

    def advance(self, seconds: int) -> None:
        """Move the server's manual clock, running what comes due on the way (scheduled jobs)."""
        status, body = self.call("POST", "/server/v1/dev/clock/advance", json={"seconds": seconds})
        assert status == 200, body

    def _key_for(self, path: str) -> str:
        return self.client_key if path.startswith("/sdk/") else self.server_key


@contextmanager
def served(
    manifest: str,
    *,
    db: str,
    areas: Sequence[str] = (),
    game: str | None = None,
    start: datetime = START,
) -> Iterator[ServedGame]:
    """Apply ``manifest`` (TOML text; its ``[plugins] areas`` name the studio's areas, or ``areas`` does,
    as ``serve --area``) to ``db``, then serve it, on a manual clock from ``start``, until the block ends.
    The game is ``game``, else the manifest's first; it needs a test-environment key of each
    permission."""
    parsed = parse_manifest(manifest, areas=areas)
    config = Config(db=db, areas=tuple(areas), key_file=_key_file(db))
    clock = ManualClock(start)
    applying = build_services(config, clock, served=installed(), storage=storage())
    try:
        applied = apply_manifest(applying.store, applying.keys, applying.runtime, parsed)
    finally:
        applying.close()
    games = applied["games"]
    keys = games[game or next(iter(games))]["apiKeys"]
    by_permission = {
        k["permission"]: k["secret"] for k in keys.values() if k["env"] == Environment.TEST.value
    }
    with serve_in_thread(config, clock) as server:
        yield ServedGame(
            server.base_url,
            server.services,
            client_key=by_permission[Permission.CLIENT_SDK.value],
            server_key=by_permission[Permission.SERVER_INTEGRATION.value],
        )


def _key_file(db: str) -> str | None:
    """A PostgreSQL database's server key, kept beside the test's files (a SQLite file keeps its own)."""
    if not db.startswith("postgresql://"):
        return None
    return str(Path(tempfile.gettempdir()) / "livecore-area-tests.key")


@pytest.fixture(params=["sqlite", "postgres"])
def livecore_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new database for one test, on each store: a SQLite file, and a new schema of the PostgreSQL
    database ``LIVECORE_TEST_POSTGRES`` names (dropped after the test)."""
    if request.param == "sqlite":
        yield str(tmp_path / "livecore.db")
        return
    with _postgres_schema() as url:
        yield url


@contextmanager
def _postgres_schema() -> Iterator[str]:
    import psycopg
    from psycopg import sql

    base = os.environ.get("LIVECORE_TEST_POSTGRES")
    if not base:
        message = "LIVECORE_TEST_POSTGRES names no PostgreSQL database"
        if os.environ.get("LIVECORE_REQUIRE_POSTGRES") == "1":
            pytest.fail(message + " [LIVECORE_REQUIRE_POSTGRES=1]")
        pytest.skip(message)
    schema = f"lc_area_{secrets.token_hex(6)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    try:
        yield _with_query(base, {"options": f"-csearch_path={schema}"})
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


def _with_query(url: str, query: Mapping[str, str]) -> str:
    return urlunsplit(urlsplit(url)._replace(query=urlencode(query)))
