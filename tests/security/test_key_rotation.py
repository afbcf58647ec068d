"""``livecore-server rotate-server-key`` on SQLite and PostgreSQL: every encrypted value (webhook signing
secrets, idempotent answers, the demo's secrets) is re-encrypted under the ring's current key, webhook
secrets are the same secrets, API keys, player secrets and sign-in links made under the old key still
work once it has left the ring, a second run changes nothing, and a run stopped half-way is finished by
the next. The two-process run, with requests flowing, is tests/server/test_key_rotation_live.py."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from livecore.clock import to_millis
from livecore_server.app import SERVICES
from livecore_server.crypto import (
    ENV_VAR,
    KEY_CHECK,
    KEYED,
    PREVIOUS_ENV_VAR,
    ROTATING,
    Purpose,
    ServerKeys,
    _derive,
    _seal,
    encode_key,
    key_id,
    load_server_key,
    write_key_ring,
)
from livecore_server.operators.sessions import issue_login_link, redeem_link
from livecore_server.operators.webhooks import rotate_secret
from livecore_server.rotation import ENCRYPTED, rotate
from livecore_server.services import Services
from tests.conftest import make_app, make_services, start_world, webhook_manifest
from tests.security.cli_support import refused_in_one_line, run

OLD, NEW = os.urandom(32), os.urandom(32)
HOOKS = webhook_manifest(
    one=("test", "https://hooks.example.test/one", '["*"]'),
    two=("live", "https://hooks.example.test/two", '["*"]'),
)


class Stop(Exception):
    pass


def use_ring(monkeypatch: pytest.MonkeyPatch, current: bytes | None, *previous: bytes) -> dict[str, Any]:
    """Services built in this process, and ``run``, read this ring (None: the key file)."""
    env: dict[str, Any] = {
        ENV_VAR: encode_key(current) if current else None,
        PREVIOUS_ENV_VAR: ",".join(encode_key(k) for k in previous) or None,
    }
    for name, value in env.items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    return env


def encrypted_values(services: Services) -> dict[str, list[bytes]]:
    """Every encrypted value of the database, by column."""

    def read(tx: Any) -> dict[str, list[bytes]]:
        found = {}
        for column in ENCRYPTED:
            rows = tx.sealed.page(column.table, column.keys, column.column, None, 10_000, column.where)
            found[column.what] = [bytes.fromhex(v) if column.hex_text else bytes(v) for _, v in rows]
        return found

    return services.store.run(read, write=False)


async def make_secrets(db: str) -> dict[str, Any]:
    """Under the ring in force: the test manifest with two webhooks, a player, idempotent credits, a
    sign-in link, one webhook secret stored as versions before key ids stored it, and the other one
    rotated (its predecessor kept for the overlap)."""
    w = await start_world(db, manifest_extra=HOOKS, every_event=False)
    try:
        game = w.applied["games"]["space-race"]
        player = await w.register("p1")
        answers = {}
        for i in range(5):
            status, body, _ = await w.call(
                "POST", "/server/v1/players/p1/wallet/coins/credit", json={"amount": i + 1},
                headers={"Idempotency-Key": f"credit-{i}"},
            )  # fmt: skip
            assert status == 200, body
            answers[f"credit-{i}"] = body
        link = await asyncio.to_thread(issue_login_link, w.services, "olga")
        one = game["webhooks"]["one"]
        master = load_server_key(db).master  # the environment's, else the SQLite file's key file
        legacy = _seal(AESGCM(_derive(master, Purpose.SECRET.value)), one["secret"].encode(), one["id"])
        await w.services.store.run_async(
            lambda tx: tx.execute(
                "UPDATE webhook_endpoints SET secret_enc = ? WHERE id = ?", (legacy, one["id"])
            )
        )
        two = game["webhooks"]["two"]
        _, rotated = await asyncio.to_thread(rotate_secret, w.services, two["id"], 3600)
        return {
            "keys": w.keys,
            "player": player,
            "answers": answers,
            "link": link,
            "webhooks": {one["id"]: one["secret"], two["id"]: rotated},
            "previous": {two["id"]: two["secret"]},
        }
    finally:
        await w.client.close()


@asynccontextmanager
async def still_works(db: str, made: dict[str, Any]) -> AsyncIterator[Services]:
    """Everything made before the rotation works under the ring in force, on a server that stops as the
    block ends (before the next server or command opens the file)."""
    client = TestClient(TestServer(make_app(db)))
    await client.start_server()
    try:
        services = client.app[SERVICES]
        auth = {"Authorization": f"Bearer {made['keys']['test-client']}", "X-Player-Secret": made["player"]}
        r = await client.get("/sdk/v1/players/p1/wallet", headers=auth)
        assert r.status == 200, await r.text()
        server = {"Authorization": f"Bearer {made['keys']['test-server']}", "Idempotency-Key": "credit-0"}
        r = await client.post("/server/v1/players/p1/wallet/coins/credit", json={"amount": 1}, headers=server)
        assert r.status == 200 and r.headers.get("Idempotent-Replay") == "true"
        assert await r.json() == made["answers"]["credit-0"]
        for endpoint_id, secret in made["webhooks"].items():
            blob = services.store.run(lambda tx, e=endpoint_id: secret_enc(tx, e), write=False)
            assert services.keys.decrypt(blob, context=endpoint_id) == secret  # signs as before
        for endpoint_id, secret in made["previous"].items():
            blob = services.store.run(lambda tx, e=endpoint_id: secret_enc(tx, e, "previous_"), write=False)
            assert services.keys.decrypt(blob, context=endpoint_id) == secret  # signs beside it
        yield services
    finally:
        await client.close()


def secret_enc(tx: Any, endpoint_id: str, which: str = "") -> bytes:
    rows = list(tx.execute(f"SELECT {which}secret_enc FROM webhook_endpoints WHERE id = ?", (endpoint_id,)))
    return bytes(rows[0][0])


def under(services: Services, master: bytes) -> dict[str, tuple[int, int]]:
    """By column: how many values name ``master``, and how many there are."""
    return {
        what: (sum(v[:1] == KEYED and v[1:5] == key_id(master) for v in values), len(values))
        for what, values in encrypted_values(services).items()
    }


async def test_rotating_re_encrypts_every_value_and_locks_no_one_out(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_ring(monkeypatch, OLD)
    made = await make_secrets(db_url)

    # Stopped after its first batch of idempotent answers, with both keys in the ring.
    env = use_ring(monkeypatch, NEW, OLD)
    services = await asyncio.to_thread(make_services, db_url)
    try:

        def stop(column: Any, tally: Any) -> None:
            if column.table == "idempotency":
                raise Stop

        with pytest.raises(Stop):
            await asyncio.to_thread(
                rotate,
                services.store,
                services.keys,
                to_millis(services.clock.now()),
                batch=2,
                after_batch=stop,
            )
        counts = under(services, NEW)
        assert counts["webhook signing secrets"] == (2, 2)
        assert counts["previous webhook signing secrets"] == (1, 1)
        assert counts["idempotent answers"][0] == 2 < counts["idempotent answers"][1]
        state = services.store.run(lambda tx: (tx.meta.get(KEY_CHECK), tx.meta.get(ROTATING)), write=False)
        assert state == (ServerKeys(NEW).check_value, key_id(NEW).hex())
    finally:
        services.close()

    # The command finishes it; run again, it finds nothing to do.
    result = await asyncio.to_thread(run, "rotate-server-key", "--db", db_url, "--batch", "2", env=env)
    assert result.exit_code == 0, result.output
    assert "idempotent answers: 3 re-encrypted, 2 already under key" in result.stdout
    assert "webhook signing secrets: 0 re-encrypted, 2 already" in result.stdout
    assert "previous webhook signing secrets: 0 re-encrypted, 1 already" in result.stdout
    assert "the demo's secrets: 0 re-encrypted, 0 already" in result.stdout
    assert encode_key(NEW) not in result.output and encode_key(OLD) not in result.output
    result = await asyncio.to_thread(run, "rotate-server-key", "--db", db_url, env=env)
    assert result.exit_code == 0, result.output
    assert "idempotent answers: 0 re-encrypted, 5 already under key" in result.stdout

    # The old key leaves the ring: every API key, player secret, answer and webhook secret still works.
    use_ring(monkeypatch, NEW)
    async with still_works(db_url, made) as services:
        assert under(services, NEW) == {
            "webhook signing secrets": (2, 2),
            "previous webhook signing secrets": (1, 1),
            "idempotent answers": (5, 5),
            "the demo's secrets": (0, 0),
        }
        assert services.store.run(lambda tx: tx.meta.get(ROTATING), write=False) is None
        # A sign-in link minted under the old key still signs in.
        assert await redeem_link(services, made["link"], None) is not None

    # A process started with the old key alone is refused: the database is the new key's now.
    result = await asyncio.to_thread(
        run, "webhooks", "endpoints", "--db", db_url, env=use_ring(monkeypatch, OLD)
    )
    refused_in_one_line(result, "wrong server key for this database")


async def test_with_a_key_file_the_command_writes_the_new_key_into_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "game.db")
    use_ring(monkeypatch, None)
    made = await make_secrets(db)
    key_file = tmp_path / "game.db.key"
    old = key_file.read_bytes()

    result = await asyncio.to_thread(run, "rotate-server-key", "--db", db)
    assert result.exit_code == 0, result.output
    assert f"new server key written to {key_file}" in result.stderr
    ring = load_server_key(db)
    assert ring.previous == (old,) and ring.master != old
    assert encode_key(ring.master) not in result.output
    async with still_works(db, made) as services:
        assert under(services, ring.master)["webhook signing secrets"] == (2, 2)

    # The old key dropped from the file: still every secret works.
    write_key_ring(key_file, ring.master)
    async with still_works(db, made):
        pass

    # A run stopped after the key file was written is finished by the next, under the same key.
    write_key_ring(key_file, os.urandom(32), [ring.master])
    interrupted = load_server_key(db)
    result = await asyncio.to_thread(run, "rotate-server-key", "--db", db)
    assert result.exit_code == 0, result.output
    assert "new server key" not in result.stderr
    assert load_server_key(db).master == interrupted.master
    # Run again once finished, it rotates once more: the file's earlier key is dropped.
    result = await asyncio.to_thread(run, "rotate-server-key", "--db", db)
    assert result.exit_code == 0 and "new server key written" in result.stderr
    again = load_server_key(db)
    assert again.previous == (interrupted.master,)
    async with still_works(db, made):
        pass


async def test_a_value_under_a_key_the_ring_lacks_stops_the_rotation_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "game.db")
    use_ring(monkeypatch, OLD)
    made = await make_secrets(db)
    stray = ServerKeys(os.urandom(32))
    endpoint_id = next(iter(made["webhooks"]))
    services = await asyncio.to_thread(make_services, db)
    try:
        await services.store.run_async(
            lambda tx: tx.execute(
                "UPDATE webhook_endpoints SET secret_enc = ? WHERE id = ?",
                (stray.encrypt("whsec_lost", context=endpoint_id), endpoint_id),
            )
        )
    finally:
        services.close()

    env = use_ring(monkeypatch, NEW, OLD)
    result = await asyncio.to_thread(run, "rotate-server-key", "--db", db, env=env)
    assert result.exit_code == 1
    assert "webhook signing secrets: 1 re-encrypted, 0 already" in result.stdout
    assert result.stderr.strip().splitlines() == [
        "Error: 1 values open under no key of the ring (a key missing from it, or damaged) and were left"
        " as they are: add the missing key to LIVECORE_PREVIOUS_SECRET_KEYS and run the command again"
    ]
    services = await asyncio.to_thread(make_services, db)
    try:
        assert services.store.run(lambda tx: tx.meta.get(ROTATING), write=False) == key_id(NEW).hex()
        assert under(services, NEW)["webhook signing secrets"] == (1, 2)
        assert under(services, NEW)["idempotent answers"] == (5, 5)
    finally:
        services.close()
