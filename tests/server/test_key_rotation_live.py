"""The server key rotates under load (docs/server.md#rotating-the-server-key): two ``livecore-server
serve`` processes on one PostgreSQL database keep answering every request, SDK and server calls and
webhook deliveries alike, while ``rotate-server-key`` re-encrypts the database's values, and afterwards
a process whose ring holds the new key alone serves everything made under the old one.

The two processes are a rolling restart caught half-way: one already has the new key current (the old
one previous), the other still the old key current (the new one previous). Each reads what the other and
the rotation write."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import subprocess
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from livecore.webhooks.signing import verify_header
from livecore_server.crypto import ENV_VAR, KEYED, PREVIOUS_ENV_VAR, key_id
from tests.conftest import Receiver
from tests.server.test_scale_out import MANIFEST, _cli, _ready, _rows, _serve, _stop
from tests.waiting import until


def _key() -> tuple[str, bytes]:
    raw = os.urandom(32)
    return base64.urlsafe_b64encode(raw).decode(), raw


def _ring(current: str, *previous: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != PREVIOUS_ENV_VAR}
    env[ENV_VAR] = current
    if previous:
        env[PREVIOUS_ENV_VAR] = ",".join(previous)
    return env


def _apply(url: str, env: dict[str, str], manifest: Path) -> dict[str, Any]:
    applied = subprocess.run(
        _cli("apply", str(manifest), "--db", url, "--json"), env=env, capture_output=True, timeout=60
    )
    assert applied.returncode == 0, applied.stderr.decode()
    game: dict[str, Any] = json.loads(applied.stdout)["games"]["arena"]
    return game


def signed_as_before(receiver: Receiver, secrets: list[str]) -> None:
    """Every delivery received is signed with its endpoint's secret, as minted before the rotation."""
    for got in receiver.received:
        header = next(v for k, v in got.headers.items() if k.lower() == "x-signature")
        verify_header(got.body, header, secrets, now=int(time.time()))


async def test_two_processes_answer_every_request_while_the_server_key_rotates(
    pg_url: str, receiver: Receiver, tmp_path: Path
) -> None:
    old, _ = _key()
    new, new_raw = _key()
    manifest = tmp_path / "arena.toml"
    manifest.write_text(MANIFEST.replace("{url}", receiver.url))
    game = await asyncio.to_thread(_apply, pg_url, _ring(old), manifest)
    keys = {name: k["secret"] for name, k in game["apiKeys"].items()}
    hook_secrets = [hook["secret"] for hook in game["webhooks"].values()]
    rings = [_ring(new, old), _ring(old, new)]
    logs = [tmp_path / f"server{i}.log" for i in range(3)]
    procs: list[subprocess.Popen[bytes]] = []
    bases: list[str] = []
    try:
        for env, log in zip(rings, logs, strict=False):
            base, proc = _serve(pg_url, env, log)
            bases.append(base)
            procs.append(proc)
        await asyncio.gather(*(_ready(b, p, log) for b, p, log in zip(bases, procs, logs, strict=False)))
        async with httpx.AsyncClient(timeout=30) as http:
            client = {"Authorization": f"Bearer {keys['client']}"}
            server = {"Authorization": f"Bearer {keys['server']}"}
            secrets: dict[str, str] = {}
            answers: dict[str, Any] = {}
            turn = 0

            def base() -> str:
                nonlocal turn
                turn += 1
                return bases[turn % 2]

            async def register(name: str) -> None:
                r = await http.post(f"{base()}/sdk/v1/players/{name}/register", headers=client)
                assert r.status_code == 201, r.text
                secrets[name] = r.json()["data"]["playerSecret"]

            async def credit(name: str, idem: str, *, at: str | None = None) -> httpx.Response:
                return await http.post(
                    f"{at or base()}/server/v1/players/{name}/wallet/gold/credit",
                    json={"amount": 1},
                    headers={**server, "Idempotency-Key": idem},
                )

            # Before the rotation: players, and idempotent answers for the rotation to re-encrypt, made
            # under both processes' current keys.
            for i in range(6):
                await register(f"early{i}")
            for chunk in range(4):
                made = await asyncio.gather(
                    *(credit(f"early{i % 6}", f"before-{chunk}-{i}") for i in range(25))
                )
                for i, r in enumerate(made):
                    assert r.status_code == 200, r.text
                    answers[f"before-{chunk}-{i}"] = (f"early{i % 6}", r.json())

            rotation = await asyncio.create_subprocess_exec(
                *_cli("rotate-server-key", "--db", pg_url, "--batch", "1"),
                env=rings[0],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            during: list[tuple[str, int]] = []
            n = 0
            while rotation.returncode is None:
                n += 1
                who = f"early{n % 6}"
                r = await http.get(
                    f"{base()}/sdk/v1/players/{who}/wallet",
                    headers={**client, "X-Player-Secret": secrets[who]},
                )
                during.append(("sdk wallet", r.status_code))
                r = await credit(who, f"during-{n}")
                during.append(("credit", r.status_code))
                replayed = f"before-{n % 4}-{n % 25}"
                r = await credit(answers[replayed][0], replayed)
                during.append(("replay", r.status_code))
                assert r.json() == answers[replayed][1]
                await register(f"during{n}")
                r = await http.get(
                    f"{base()}/sdk/v1/players/during{n}/wallet",
                    headers={**client, "X-Player-Secret": secrets[f"during{n}"]},
                )
                during.append(("sdk wallet of a new player", r.status_code))
            out, err = await rotation.communicate()
            assert rotation.returncode == 0, err.decode()
            assert n >= 2, "the rotation ended before requests flowed beside it"
            assert [d for d in during if d[1] != 200] == [], during
            assert b"idempotent answers: " in out and new.encode() not in out + err

            # Every event reached the endpoint, signed with the webhook's secret as before.
            events = {row[0] for row in _rows(pg_url, "SELECT id FROM outbox")}
            await until(
                lambda: {r.envelope["id"] for r in receiver.received} >= events,
                "every event to be delivered",
            )
            signed_as_before(receiver, hook_secrets)

            # The rolling restart ends: the old key's process stops, the rotation runs once more for what
            # it wrote meanwhile, and a process with the new key alone serves everything made before.
            await asyncio.to_thread(_stop, procs[1:])
            again = await asyncio.to_thread(
                subprocess.run,
                _cli("rotate-server-key", "--db", pg_url),
                env=rings[0],
                capture_output=True,
                timeout=120,
            )
            assert again.returncode == 0, again.stderr.decode()
            blobs = [bytes(r[0]) for r in _rows(pg_url, "SELECT secret_enc FROM webhook_endpoints")]
            blobs += [bytes(r[0]) for r in _rows(pg_url, "SELECT body FROM idempotency")]
            assert {b[:5] for b in blobs} == {KEYED + key_id(new_raw)}
            base_c, proc_c = _serve(pg_url, _ring(new), logs[2])
            procs.append(proc_c)
            await _ready(base_c, proc_c, logs[2])
            for who, secret in secrets.items():
                r = await http.get(
                    f"{base_c}/sdk/v1/players/{who}/wallet", headers={**client, "X-Player-Secret": secret}
                )
                assert r.status_code == 200, r.text
            replayed = "before-0-0"
            r = await credit(answers[replayed][0], replayed, at=base_c)
            assert r.status_code == 200 and r.json() == answers[replayed][1]
            r = await credit("early0", str(uuid.uuid4()), at=base_c)
            assert r.status_code == 200, r.text
            events = {row[0] for row in _rows(pg_url, "SELECT id FROM outbox")}
            await until(
                lambda: {r.envelope["id"] for r in receiver.received} >= events,
                "the last event to be delivered",
            )
            signed_as_before(receiver, hook_secrets)
    finally:
        await asyncio.to_thread(_stop, procs)
