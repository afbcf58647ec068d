"""Fixtures: a real server app on a real database, with a manual clock, for API tests; and a live
server on 127.0.0.1 in a thread for client tests.

Every test that uses ``world`` (or ``db_url``) runs twice: on SQLite (``[sqlite]``) and on PostgreSQL
(``[postgres]``, a schema without rows of this run's fresh database; skipped when PostgreSQL is not
reachable, failed instead under LIVECORE_REQUIRE_POSTGRES=1). A module that tests one store only
overrides the ``backend`` fixture.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import shutil
import tempfile
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import attrs
import orjson
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from livecore.clock import Clock, ManualClock
from livecore.rand import RandomSource, SeededRandomSource
from livecore_server.app import DISPATCHER, create_app
from livecore_server.config import Config
from livecore_server.embedded import serve_in_thread
from livecore_server.http.endpoint import Binding
from livecore_server.manifest import parse_manifest
from livecore_server.operators.apply import apply_manifest
from livecore_server.registry import installed, storage
from livecore_server.services import SERVICES, Services, build_services
from livecore_server.storage.server_store import open_store
from livecore_server.workers.dispatcher import Dispatcher
from tests.budget import register_profiles
from tests.kept import keep_every_event
from tests.secrets_scan import secrets_in_clear
from tests.waiting import until

register_profiles()

START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

TEST_MANIFEST = """
studio = "acme"

[games.space-race]
name = "Space Race"

[games.space-race.gifting]
enabled = true

[games.space-race.resources.coins]
type = "currency"
giftable = true
max_per_gift = 100

[games.space-race.api_keys.test-client]
env = "test"
permission = "client_sdk"

[games.space-race.api_keys.test-server]
env = "test"
permission = "server_integration"

[games.space-race.api_keys.live-client]
env = "live"
permission = "client_sdk"

[games.space-race.api_keys.live-server]
env = "live"
permission = "server_integration"

[games.space-race.api_keys.tight-server]
env = "test"
permission = "server_integration"
rate_limits = { server_api = 3 }

[games.space-race.api_keys.tight-client]
env = "test"
permission = "client_sdk"
rate_limits = { sdk_read = 2, sdk_write = 2 }

[games.other-game]
name = "Other Game"

[games.other-game.api_keys.test-server]
env = "test"
permission = "server_integration"

[games.other-game.api_keys.test-client]
env = "test"
permission = "client_sdk"

[members.olga]
email = "olga@acme.test"
role = "OWNER"

[members.gina]
email = "gina@acme.test"
role = "GAME_ADMIN"

[members.dev]
email = "dev@acme.test"
role = "GAME_DEVELOPER"

[members.debby]
email = "debby@acme.test"
role = "GAME_DEBUGGER"

[members.vic]
email = "vic@acme.test"
role = "VIEWER"
"""


BACKENDS = ("sqlite", "postgres")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The store API tests run on; override in a module to pin one."""
    return str(request.param)


@functools.cache
def migrated_sqlite() -> Path:
    """A SQLite file with the built-in areas' migrations applied and no rows, made once per test
    process."""
    path = Path(tempfile.mkdtemp(prefix="livecore-migrated-")) / "migrated.db"
    open_store(str(path), areas=storage()).close()
    return path


@pytest.fixture
def db_url(backend: str, tmp_path: Path) -> Iterator[str]:
    """An empty database for one test: a copy of a migrated SQLite file (a copy costs a millisecond, the
    migrations about 70), or a PostgreSQL schema without rows (a migrated one that an earlier test
    emptied, when there is one: tests/postgres_support.py)."""
    if backend == "sqlite":
        path = tmp_path / "test.db"
        shutil.copyfile(migrated_sqlite(), path)
        yield str(path)
        return
    from tests.postgres_support import reused_schema

    with reused_schema() as url:
        yield url


@pytest.fixture(scope="session")
def valid_openapi() -> Callable[[dict[str, Any]], None]:
    """``valid_openapi(doc)`` fails the test unless ``doc`` is valid OpenAPI 3.1. Validating a document
    takes about a second (several without jsonschema-rs), so each distinct document is validated once
    per test process and every test that needs it valid reuses the verdict."""
    from openapi_spec_validator import OpenAPIV31SpecValidator, validate

    valid: set[str] = set()

    def check(doc: dict[str, Any]) -> None:
        digest = hashlib.sha256(orjson.dumps(doc, option=orjson.OPT_SORT_KEYS)).hexdigest()
        if digest not in valid:
            validate(doc, cls=OpenAPIV31SpecValidator)
            valid.add(digest)

    return check


@pytest.fixture(scope="session", autouse=True)
def _drop_postgres_run_databases() -> Iterator[None]:
    yield
    from tests.postgres_support import drop_run_databases

    drop_run_databases()


@attrs.define
class World:
    """A server app on a real database with the test manifest applied and a manual clock."""

    services: Services
    client: TestClient[web.Request, web.Application]
    keys: dict[str, str]
    other_keys: dict[str, str]
    applied: dict[str, Any]

    @property
    def clock(self) -> ManualClock:
        assert isinstance(self.services.clock, ManualClock)
        return self.services.clock

    @property
    def dispatcher(self) -> Dispatcher:
        return self.client.app[DISPATCHER]

    async def call(
        self,
        method: str,
        path: str,
        *,
        key: str | None = "test-server",
        json: Any = None,
        headers: dict[str, str] | None = None,
        secret: str | None = None,
        **kw: Any,
    ) -> tuple[int, Any, Any]:
        """Make a request; ``key`` names a manifest key (or is a raw ``Bearer`` value if it starts with
        ``lc_``). Returns status, parsed JSON body and headers."""
        h = dict(headers or {})
        if key is not None:
            h["Authorization"] = f"Bearer {self.keys.get(key, key)}"
        if secret is not None:
            h["X-Player-Secret"] = secret
        resp = await self.client.request(method, path, json=json, headers=h, **kw)
        body = await resp.json() if resp.content_type == "application/json" else await resp.text()
        return resp.status, body, resp.headers

    async def register(self, external_id: str, *, key: str = "test-client") -> str:
        status, body, _ = await self.call("POST", f"/sdk/v1/players/{external_id}/register", key=key)
        assert status == 201, body
        secret: str = body["data"]["playerSecret"]
        return secret

    def events(self) -> list[Any]:
        return self.services.store.run(lambda tx: tx.outbox.events(), write=False)

    def rows(self, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Rows of a read-only statement (``?`` placeholders) on whichever store the world runs."""
        return self.services.store.run(
            lambda tx: [tuple(r) for r in tx.execute(statement, params)], write=False
        )

    @property
    def on_postgres(self) -> bool:
        return self.services.config.postgres

    def event_kinds(self) -> list[str]:
        return [e.kind for e in self.events()]

    def only_hourly_jobs(self) -> None:
        only_hourly_jobs(self.services)


def only_hourly_jobs(services: Services) -> None:
    """Leave out the scheduled jobs that run more often than hourly (the minute grant-expiry sweep), for
    tests that advance the clock by hours or days and have nothing for them to do: one run per minute of
    service time over a day is 1,440 transactions, many seconds on PostgreSQL on a loaded machine. The
    hourly jobs still run at each of their due times; a grant past its expiry is expired whether the
    sweep has marked it or not."""
    scheduler = services.scheduler
    scheduler.jobs = [job for job in scheduler.jobs if job.interval >= timedelta(hours=1)]


def service_args(
    db: Path | str, *, manual: bool = True, seed: int = 7, **config: Any
) -> tuple[Config, Clock, RandomSource]:
    """What services on a SQLite file or a PostgreSQL URL are built from (the server key of a test
    schema's URL is kept beside the test's files, not in the working directory): for ``build_services``,
    ``create_app`` and ``serve_in_thread``."""
    from livecore_server.clock import SystemClock

    clock = ManualClock(START) if manual else SystemClock()
    if str(db).startswith("postgresql://") and "key_file" not in config:
        config["key_file"] = _pg_key_file()
    return Config(db=str(db), **config), clock, SeededRandomSource(seed)


def make_services(db: Path | str, *, manual: bool = True, seed: int = 7, **config: Any) -> Services:
    """Services of no server (the caller closes them)."""
    return build_services(
        *service_args(db, manual=manual, seed=seed, **config), served=installed(), storage=storage()
    )


def make_app(
    db: Path | str, *, extra: Iterable[Binding] = (), manual: bool = True, seed: int = 7, **config: Any
) -> web.Application:
    """A server app; ``app[SERVICES]`` once it started."""
    return create_app(*service_args(db, manual=manual, seed=seed, **config), extra=extra)


def _pg_key_file() -> str:
    return str(Path(tempfile.gettempdir()) / "livecore-tests-postgres.key")


def apply_test_manifest(services: Services, extra: str = "") -> dict[str, Any]:
    manifest = parse_manifest(TEST_MANIFEST + extra)
    return apply_manifest(services.store, services.keys, services.runtime, manifest)


def keep_every_event_of(services: Services) -> None:
    """Have the server keep every event of its games from now on (tests/kept.py)."""
    now = services.clock.now()
    services.store.run(lambda tx: keep_every_event(tx, now, services.keys))


async def start_world(
    db: Path | str,
    *,
    manifest_extra: str = "",
    bindings: list[Binding] | None = None,
    every_event: bool = True,
    **config: Any,
) -> World:
    """A world whose server keeps every event its games' writes emit (``every_event``, tests/kept.py), or
    only those the endpoints of the manifest subscribe to."""
    app = make_app(db, extra=bindings or [], **config)
    client = TestClient(TestServer(app))
    await client.start_server()
    services = app[SERVICES]
    # Writes on a thread of their own: a synchronous write may not wait on the loop's thread.
    applied = await asyncio.to_thread(apply_test_manifest, services, manifest_extra)
    if every_event:
        await asyncio.to_thread(keep_every_event_of, services)
    game = applied["games"]["space-race"]
    other = applied["games"]["other-game"]
    return World(
        services=services,
        client=client,
        keys={name: k["secret"] for name, k in game["apiKeys"].items()},
        other_keys={name: k["secret"] for name, k in other["apiKeys"].items()},
        applied=applied,
    )


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh schema of this run's PostgreSQL database (dropped after), for tests of PostgreSQL itself
    (several processes, shared state); skipped without PostgreSQL, like every ``[postgres]`` test."""
    from tests.postgres_support import drop_schema, new_schema

    url, schema = new_schema()
    try:
        yield url
    finally:
        drop_schema(schema)


@pytest.fixture
def every_event() -> bool:
    """Whether the ``world`` keeps every event (tests/kept.py): the tests read what their requests emit
    from its outbox (:meth:`World.events`). Overridden to False (in a module, or a test's
    ``@pytest.mark.parametrize("every_event", [False])``) where the test lists a game's endpoints or
    deliveries, or tests what a server keeps."""
    return True


@pytest.fixture
def extra_bindings() -> list[Binding]:
    """Override in a test module to mount test-only routes."""
    return []


@pytest.fixture
def world_config() -> dict[str, Any]:
    """Override in a test module to build the world's services with other ``Config`` values."""
    return {}


@pytest.fixture
async def world(
    request: pytest.FixtureRequest,
    db_url: str,
    extra_bindings: list[Binding],
    world_config: dict[str, Any],
    every_event: bool,
) -> AsyncIterator[World]:
    w = await start_world(db_url, bindings=extra_bindings, every_event=every_event, **world_config)
    try:
        yield w
        if not request.node.get_closest_marker("secrets_in_clear"):
            # Secrets at rest, after every API test: what the whole suite wrote is scanned.
            assert secrets_in_clear(w) == {}, "a secret is stored in clear (tests/secrets_scan.py)"
    finally:
        await w.client.close()


@attrs.define
class LiveServer:
    """A real server on 127.0.0.1 in its own thread and event loop (sync clients block their caller)."""

    base_url: str
    keys: dict[str, str]
    services: Services


@pytest.fixture(scope="module", params=BACKENDS)
def live_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """The clients' live server, on each store in turn (its scheduled jobs hourly at most)."""
    schema = None
    if request.param == "sqlite":
        db = str(tmp_path_factory.mktemp("live") / "live.db")
    else:
        from tests.postgres_support import new_schema

        db, schema = new_schema()
    try:
        seeding = make_services(db)
        applied = apply_test_manifest(seeding)
        seeding.close()  # the server opens its own
        keys = {name: k["secret"] for name, k in applied["games"]["space-race"]["apiKeys"].items()}
        with serve_in_thread(*service_args(db)) as served:
            only_hourly_jobs(served.services)  # the client tests advance the clock by up to a day
            yield LiveServer(base_url=served.base_url, keys=keys, services=served.services)
    finally:
        if schema is not None:
            from tests.postgres_support import drop_schema

            drop_schema(schema)


def login_link(served: Services, member: str) -> str:
    """A sign-in link token of ``member`` for a server running in another thread, made as
    ``livecore-server members login-link`` makes it: through a connection of its own to the server's
    database (never the running server's, which belongs to its thread), on the server's clock."""
    from livecore_server.operators.sessions import issue_login_link

    own = build_services(served.config, served.clock, served=installed(), storage=storage())
    try:
        return issue_login_link(own, member)
    finally:
        own.close()


@attrs.define
class Received:
    headers: dict[str, str]
    body: bytes

    @property
    def envelope(self) -> Any:
        return orjson.loads(self.body)


@attrs.define
class Receiver:
    """A real HTTP endpoint on 127.0.0.1 that records what it receives and answers as told:
    ``statuses`` are the next answers in order, then ``default_status``; while ``gate`` is set and not
    open, requests wait (a slow or hung endpoint)."""

    default_status: int = 200
    statuses: list[int] = attrs.Factory(list)
    respond: Callable[[Any], int] | None = None  # envelope -> status, when answers depend on the event
    gate: asyncio.Event | None = None
    received: list[Received] = attrs.Factory(list)
    answered: list[tuple[str, int]] = attrs.Factory(list)  # (event id, status) of completed answers
    url: str = ""
    _runner: web.AppRunner | None = None

    async def start(self, port: int = 0) -> Receiver:
        app = web.Application()
        app.router.add_post("/hooks", self._handle)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}/hooks"
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _handle(self, request: web.Request) -> web.Response:
        body = await request.read()
        self.received.append(Received(dict(request.headers), body))
        if self.gate is not None:
            await self.gate.wait()
        envelope = Received({}, body).envelope
        if self.respond is not None:
            status = self.respond(envelope)
        else:
            status = self.statuses.pop(0) if self.statuses else self.default_status
        self.answered.append((envelope["id"], status))
        return web.Response(status=status)

    async def wait_for(self, count: int) -> list[Received]:
        await until(
            lambda: len(self.received) >= count, lambda: f"{count} requests, got {len(self.received)}"
        )
        return self.received

    def idle(self) -> bool:
        """Every request received was answered, and no sender has a connection open: whatever was on
        the wire has been read."""
        assert self._runner is not None and self._runner.server is not None
        return len(self.answered) == len(self.received) and not self._runner.server.connections

    def kinds(self) -> list[str]:
        return [r.envelope["eventName"] for r in self.received]


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    """A :class:`Receiver` answering 200, stopped after the test."""
    r = await Receiver().start()
    try:
        yield r
    finally:
        await r.stop()


def webhook_manifest(**endpoints: tuple[str, str, str]) -> str:
    """``name=(env, url, events-toml)`` -> manifest text for the space-race game."""
    return "".join(
        f'\n[games.space-race.webhooks.{name}]\nenv = "{env}"\nurl = "{url}"\nevents = {events}\n'
        for name, (env, url, events) in endpoints.items()
    )
