"""Probe: secrets at rest. A full workload through the real app (register with an idempotency key and its
replay, a forced rotation, identity, friends, gifts, grants, wallet, purchases, bans, webhook endpoints
and their deliveries, API keys minted by ``apply`` from the command line and by the demo), then every
table of the database, as its catalogue lists them, is read whole: no API key, player secret, webhook
signing secret or personal key may be there in clear, nor in the log.

The register answer kept under an idempotency key held the player's secret in clear for 24 hours on
both stores; it is sealed under the server key now, and a replay still hands the secret back.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import logging
import os
import re
import sqlite3
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from livecore_server import cli
from livecore_server.cli_options import open_services, server_config
from livecore_server.config import sqlite_path
from livecore_server.crypto import ENV_VAR, key_file_for
from livecore_server.demo import apply_demo
from livecore_server.operators.webhooks import rotate_secret
from livecore_server.registry import storage
from livecore_server.storage.sqlite import connect
from tests.conftest import (
    TEST_MANIFEST,
    Receiver,
    World,
    apply_test_manifest,
    make_services,
    start_world,
    webhook_manifest,
)
from tests.secrets_scan import IN_CLEAR, every_value, secrets_in_clear
from tests.server.admin_support import GAME, admin, ok, sign_in
from tests.server.test_webhook_secret_rotation import HOOK, _advance, _endpoint, _rotate
from tests.waiting import until

ECONOMY = """
[games.space-race.resources.sword]
type = "item"
giftable = true
max_per_gift = 2
"""

MORE_KEYS = """
[games.space-race.api_keys.cli-server]
env = "live"
permission = "server_integration"

[games.space-race.webhooks.cli-hook]
env = "live"
url = "https://hooks.example.com/livecore"
events = ["player.registered", "gift.sent"]
"""


class Workload:
    def __init__(self, world: World) -> None:
        self.world = world
        self.secrets: set[str] = {k for k in world.keys.values()} | set(world.other_keys.values())
        for game in world.applied["games"].values():
            self.secrets |= {hook["secret"] for hook in game["webhooks"].values() if hook["secret"]}

    async def ok(self, method: str, path: str, **kw: Any) -> Any:
        status, body, _ = await self.world.call(method, path, **kw)
        assert 200 <= status < 300, (method, path, body)
        return body["data"]

    async def register(self, who: str, *, query: str = "") -> str:
        key = f"register-{who}-{uuid.uuid4()}"
        path = f"/sdk/v1/players/{who}/register{query}"
        data = await self.ok("POST", path, key="test-client", headers={"Idempotency-Key": key})
        secret: str = data["playerSecret"]
        self.secrets.add(secret)
        # The client lost the answer and sends the same request again: the same secret comes back.
        status_again, again, headers = await self.world.call(
            "POST", path, key="test-client", headers={"Idempotency-Key": key}
        )
        assert (status_again, headers.get("Idempotent-Replay")) == (200, "true"), again
        assert again["data"]["playerSecret"] == secret
        return secret

    async def player(self, method: str, who: str, path: str, secret: str, json: Any = None) -> Any:
        return await self.ok(
            method,
            f"/sdk/v1/players/{who}{path}",
            key="test-client",
            secret=secret,
            json=json,
            headers={"Idempotency-Key": str(uuid.uuid4())} if method != "GET" else None,
        )

    async def server(self, method: str, path: str, json: Any = None) -> Any:
        return await self.ok(
            method,
            f"/server/v1{path}",
            json=json,
            headers={"Idempotency-Key": str(uuid.uuid4())} if method != "GET" else None,
        )

    async def run(self) -> None:
        ann = await self.register("ann")
        bob = await self.register("bob")
        await self.register("cat")
        # A test key may rotate a secret in place; the rotated secret's answer is kept under its key too.
        cat = await self.register("cat", query="?force=true")
        await self.player("PUT", "ann", "/identity", ann, {"name": "Ann"})
        await self.server("PUT", "/players/bob/identity", {"name": "Bob"})
        request = await self.player("POST", "ann", "/friends/requests", ann, {"externalPlayerId": "bob"})
        await self.player("POST", "bob", f"/friends/requests/{request['request']['requestId']}/accept", bob)
        await self.player("POST", "cat", "/presence", cat, {"status": "racing"})
        await self.server("POST", "/players/ann/wallet/coins/credit", {"amount": 50, "reason": "quest"})
        await self.server("POST", "/players/ann/inventory/sword/grant", {"quantity": 2, "reason": "quest"})
        gift = await self.ok(
            "POST",
            "/sdk/v1/players/ann/friends/gifts",
            key="test-client",
            secret=ann,
            json={"externalPlayerId": "bob", "type": "currency", "resourceKey": "coins", "amount": 5},
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )
        await self.player("POST", "bob", f"/friends/gifts/{gift['gift']['giftId']}/claim", bob)
        coins = [{"type": "currency", "key": "coins", "amount": 3}]
        grant = await self.ok(  # the key in the body, as this route names it
            "POST", "/server/v1/players/cat/grants", json={"idempotencyKey": "grant-1", "entries": coins}
        )
        await self.player("POST", "cat", f"/grants/{grant['grant']['grantId']}/claim", cat)
        purchase = {
            "transactionId": "tx-1",
            "store": "apple",
            "productId": "gem_pack",
            "productType": "consumable",
            "amountMinor": 499,
            "currency": "USD",
        }
        await self.server("POST", "/players/bob/purchases", purchase)
        await self.server("POST", "/players/cat/ban", {"reason": "cheating"})
        await self.server("POST", "/players/cat/unban")
        await self.ok("GET", "/server/v1/players/ann/export")
        # Wrong credentials of the right shape: refused, and kept nowhere (nor logged).
        wrong_secret, wrong_key = "ps_" + "W" * 43, "lc_test_" + "W" * 43
        status, _, _ = await self.world.call(
            "PUT", "/sdk/v1/players/ann/identity", key="test-client", secret=wrong_secret, json={"name": "X"}
        )
        assert status == 401
        status, _, _ = await self.world.call("GET", "/server/v1/ping", key=wrong_key)
        assert status == 401


def cli_env(world: World) -> dict[str, str]:
    """The world's server key, for CLI commands on its database."""
    config = world.services.config
    path = Path(config.key_file) if config.key_file else key_file_for(sqlite_path(config.db))
    return {ENV_VAR: base64.urlsafe_b64encode(path.read_bytes()).decode()}


def cli_mints(world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """API keys and a webhook secret minted by ``apply`` from the command line, and the demo's keys."""
    manifest = tmp_path / "more.toml"
    manifest.write_text(TEST_MANIFEST + ECONOMY + MORE_KEYS)
    db = world.services.config.db
    env = cli_env(world)
    result = CliRunner().invoke(cli.main, ["apply", str(manifest), "--db", db, "--json"], env=env)
    assert result.exit_code == 0, result.output
    minted = set(re.findall(IN_CLEAR, result.stdout))
    assert len(minted) == 2, result.stdout  # the new key and the new webhook's secret
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    services = open_services(server_config(db))
    try:
        demo, player_secret = apply_demo(services)
    finally:
        services.close()
    for game in demo["games"].values():
        minted |= {key["secret"] for key in game["apiKeys"].values()}
    if player_secret is not None:
        minted.add(player_secret)  # the demo keeps it sealed, never in clear
    return minted


@pytest.fixture
async def hooked_world(db_url: str) -> AsyncIterator[tuple[World, Receiver]]:
    receiver = await Receiver().start()
    world = await start_world(
        db_url, manifest_extra=ECONOMY + webhook_manifest(hooks=("test", receiver.url, '["*"]'))
    )
    try:
        yield world, receiver
    finally:
        await world.client.close()
        await receiver.stop()


async def test_no_secret_in_clear_in_any_table_after_a_full_workload(
    hooked_world: tuple[World, Receiver],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    world, receiver = hooked_world
    workload = Workload(world)
    await workload.run()
    await world.dispatcher.drain_due()
    assert receiver.kinds(), "the webhook endpoint received the workload's events"
    workload.secrets |= await asyncio.to_thread(cli_mints, world, tmp_path, monkeypatch)
    assert len({s[:3] for s in workload.secrets}) == 3  # ps_, lc_, whs(ec_)

    assert secrets_in_clear(world) == {}
    for table, values in every_value(world).items():
        leaked = [s for s in workload.secrets if any(s in value for value in values)]
        assert leaked == [], f"table {table} holds {len(leaked)} minted secrets in clear"
    assert not IN_CLEAR.findall(caplog.text)


@pytest.mark.secrets_in_clear  # it writes the clear answers an earlier version kept, to see them go
async def test_answers_kept_in_clear_by_an_earlier_version(world: World) -> None:
    """Upgrading: a register's answer kept in clear is dropped by a migration (a replay of it then
    answers 409, as after 24 hours); another answer kept in clear still replays until it expires."""
    register = "/sdk/v1/players/ann/register"
    status, registered, _ = await world.call(
        "POST", register, key="test-client", headers={"Idempotency-Key": "r"}
    )
    assert status == 201
    identity = "/server/v1/players/ann/identity"
    status, named, _ = await world.call(
        "PUT", identity, json={"name": "Ann"}, headers={"Idempotency-Key": "i"}
    )
    assert status == 200

    def in_clear(tx: Any) -> None:
        for key, body in (("r", registered), ("i", named)):
            tx.execute("UPDATE idempotency SET body = ? WHERE key = ?", (orjson.dumps(body), key))

    await world.services.store.run_async(in_clear)
    migrations = storage().history.postgres if world.on_postgres else storage().history.sqlite
    (name,) = [name for name, _ in migrations if name.endswith("_no_player_secret_in_clear")]
    await world.services.store.run_async(
        lambda tx: tx.execute("DELETE FROM _migrations WHERE name = ?", (name,))
    )
    (await asyncio.to_thread(make_services, world.services.config.db)).close()  # migrates again

    assert every_value(world)["idempotency"] != [] and not any(
        registered["data"]["playerSecret"] in value for value in every_value(world)["idempotency"]
    )
    status, again, _ = await world.call("POST", register, key="test-client", headers={"Idempotency-Key": "r"})
    assert (status, again["error"]["code"]) == (409, "player_already_registered")
    status, replayed, headers = await world.call(
        "PUT", identity, json={"name": "Ann"}, headers={"Idempotency-Key": "i"}
    )
    assert (status, replayed, headers.get("Idempotent-Replay")) == (200, named, "true")


@pytest.mark.parametrize("backend", ["sqlite"])  # the database file and its WAL
@pytest.mark.parametrize("every_event", [False])
async def test_a_webhook_secret_cleared_when_its_overlap_ends_is_in_neither_the_file_nor_its_wal(
    world: World, receiver: Receiver
) -> None:
    """The cleared column's ciphertext used to stay in the page's free space and in the WAL's earlier
    frames: SQLite's ``secure_delete`` zeroes it in the file, and a TRUNCATE checkpoint empties the WAL."""
    world.only_hourly_jobs()
    dev = await sign_in(world, "dev")
    # Several endpoints share the table's page, so a cleared value is not simply overwritten by the next.
    endpoints = [(await _endpoint(world, dev, receiver, name=f"backend-{n}"))[0] for n in range(3)]
    for endpoint_id in endpoints:
        await _rotate(world, dev, endpoint_id, 60)
    query = "SELECT previous_secret_enc FROM webhook_endpoints WHERE previous_secret_enc IS NOT NULL"
    old = [bytes(stored) for (stored,) in world.rows(query)]
    assert len(old) == 3
    db = Path(world.services.config.db)
    files = (db, db.with_name(f"{db.name}-wal"))

    def holding() -> list[str]:
        return [f.name for f in files if f.exists() for value in old if value in f.read_bytes()]

    await until(holding, "the old secrets' ciphertexts written to the file or its WAL")
    await _advance(world, 60)  # the overlaps end: the old secrets are cleared
    assert world.rows(query) == []
    await until(lambda: holding() == [], lambda: f"the old ciphertexts to leave {holding()}")


@pytest.mark.parametrize("backend", ["sqlite"])  # the database file and its WAL
@pytest.mark.parametrize("every_event", [False])
@pytest.mark.parametrize("overlaps", [(0,), (60, 60), (60, 0)], ids=["no-overlap", "during-overlap", "both"])
async def test_a_webhook_secret_dropped_at_once_is_in_neither_the_file_nor_its_wal(
    world: World, receiver: Receiver, overlaps: tuple[int, ...]
) -> None:
    """A rotation without an overlap drops the secret it replaces, and a second rotation during an
    overlap drops the first one's previous secret (and, without an overlap of its own, the first one's
    secret too): none waits for an overlap to end, and the WAL used to be emptied only when one did, so
    a dropped ciphertext stayed in it until the server stopped, to be opened under the key file beside
    the database. The kept answers that showed a replaced secret are withdrawn as it is replaced, and
    their sealed bodies leave the files too."""
    world.only_hourly_jobs()
    dev = await sign_in(world, "dev")
    secrets = "SELECT secret_enc, previous_secret_enc FROM webhook_endpoints ORDER BY id"

    def stored() -> set[bytes]:
        return {bytes(value) for row in world.rows(secrets) for value in row if value is not None}

    def kept_answers() -> set[bytes]:
        return {bytes(body) for (body,) in world.rows("SELECT body FROM idempotency") if body}

    async def write(path: str, json: Any, status: int = 200) -> None:
        headers = {"Idempotency-Key": str(uuid.uuid4())}
        ok(await admin(world, "POST", path, dev, json=json, headers=headers), status)

    # Several endpoints share the table's page, so a dropped value is not simply overwritten by the next.
    for n in range(3):
        await write(f"{GAME}/webhooks", {**HOOK, "name": f"backend-{n}", "url": receiver.url}, 201)
    endpoints = [endpoint_id for (endpoint_id,) in world.rows("SELECT id FROM webhook_endpoints ORDER BY id")]
    db = Path(world.services.config.db)
    files = (db, db.with_name(f"{db.name}-wal"))

    def written(values: set[bytes]) -> bool:
        return all(any(f.exists() and value in f.read_bytes() for f in files) for value in values)

    gone: set[bytes] = set()
    for overlap in overlaps:
        before, answers = stored(), kept_answers()
        await until(functools.partial(written, before | answers), "the ciphertexts in the file or its WAL")
        for endpoint_id in endpoints:
            await write(f"{GAME}/webhooks/{endpoint_id}/rotate-secret", {"overlapSeconds": overlap})
        gone |= (before - stored()) | answers
    # Per endpoint: the answers of the create and of each rotation but the last, and the secrets dropped.
    assert len(gone) == 3 * {(0,): 2, (60, 60): 3, (60, 0): 4}[overlaps]
    assert not gone & (stored() | kept_answers())

    def holding() -> list[str]:
        return [f.name for f in files if f.exists() for value in gone if value in f.read_bytes()]

    # No overlap ends meanwhile: the WAL is emptied because secrets were dropped and answers withdrawn.
    await until(lambda: holding() == [], lambda: f"the dropped ciphertexts to leave {holding()}")


def test_a_command_drops_a_webhook_secret_and_empties_the_wal_beside_a_running_server(tmp_path: Path) -> None:
    """``webhooks rotate-secret`` from the command line has no checkpointer thread, and a checkpoint
    cannot run inside the transaction that drops the secret (SQLite: ``database table is locked``): it
    runs once that commits. Another connection (a server's) keeps the WAL from going when the command's
    own closes."""
    db = tmp_path / "live.db"
    seeding = make_services(db)
    try:
        hooks = webhook_manifest(hooks=("test", "https://hooks.example.com/livecore", '["*"]'))
        hook = apply_test_manifest(seeding, hooks)["games"]["space-race"]["webhooks"]["hooks"]
    finally:
        seeding.close()
    server = sqlite3.connect(db)  # stands for the running server
    try:
        server.execute("SELECT count(*) FROM webhook_endpoints").fetchall()
        services = make_services(db)
        try:
            ((old,),) = services.store.run(
                lambda tx: list(tx.execute("SELECT secret_enc FROM webhook_endpoints")), write=False
            )
            rotate_secret(services, hook["id"], 0)
            wal = Path(f"{db}-wal")
            assert not wal.exists() or wal.stat().st_size == 0
            assert bytes(old) not in db.read_bytes()
        finally:
            services.close()
    finally:
        server.close()


def test_sqlite_connections_zero_what_they_delete(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Deleted or shrunk content leaves the file (``secure_delete``): without it a cleared value stays in
    the page's free space, wherever SQLite does not happen to write over it. Some builds of SQLite turn it
    on by default (Debian's), most do not: the store's connections must not depend on the build."""
    opened = sqlite3.connect

    def built_without_it(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = opened(*args, **kwargs)
        conn.execute("PRAGMA secure_delete=OFF")
        return conn

    monkeypatch.setattr(sqlite3, "connect", built_without_it)
    path = str(tmp_path / "z.db")
    conn = connect(path)
    try:
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a BLOB, b BLOB, c TEXT)")
        rows = [(n, os.urandom(60), None, "x" * 50) for n in range(200)]
        conn.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", rows)
        conn.execute("UPDATE t SET b = a, a = ? WHERE id = 100", (os.urandom(60),))
        ((old,),) = conn.execute("SELECT b FROM t WHERE id = 100").fetchall()
        conn.execute("UPDATE t SET b = NULL WHERE id = 100")
        conn.execute("DELETE FROM t WHERE id = 50")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    data = Path(path).read_bytes()
    assert (old in data, rows[50][1] in data) == (False, False)  # cleared, deleted
