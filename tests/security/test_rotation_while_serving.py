"""Probe: ``rotate-server-key`` while ``serve`` runs. A server reads its key ring once, as it starts; a
rotation to a key it lacks left it unable to read what the rotation re-encrypted (1,401 stored answers
unreadable in the chaos run). Each serving process keeps a mark in the database naming its ring's keys,
and the command refuses, with one line and nothing changed, while a live mark lacks the key it rotates
to; it goes ahead once the server stopped, or when every server's ring holds that key (the rolling
procedure of docs/server.md#rotating-the-server-key). A real ``serve`` process on each store."""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
import psycopg
import pytest

from livecore.clock import to_millis
from livecore_server import rotation, serving
from livecore_server.crypto import (
    ENV_VAR,
    KEY_CHECK,
    PREVIOUS_ENV_VAR,
    ROTATING,
    ServerKeyError,
    ServerKeys,
    encode_key,
    key_id,
)
from livecore_server.serving import ServersRunning, ServingMark
from tests.conftest import TEST_MANIFEST, make_services
from tests.server.test_scale_out import _cli, _ready, _serve, _stop


def _ring(current: bytes | None, *previous: bytes) -> dict[str, str]:
    """The environment of a process with this ring (None: the key file)."""
    env = {k: v for k, v in os.environ.items() if k not in (ENV_VAR, PREVIOUS_ENV_VAR)}
    if current is not None:
        env[ENV_VAR] = encode_key(current)
    if previous:
        env[PREVIOUS_ENV_VAR] = ",".join(encode_key(k) for k in previous)
    return env


def _cli_run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_cli(*args), env=env, capture_output=True, text=True, timeout=120)


def _reader(db: str) -> Callable[[str], list[tuple[Any, ...]]]:
    def rows(query: str) -> list[tuple[Any, ...]]:
        if db.startswith("postgresql"):
            with psycopg.connect(db) as conn:
                return [tuple(r) for r in conn.execute(query).fetchall()]
        with sqlite3.connect(db) as conn:
            return [tuple(r) for r in conn.execute(query).fetchall()]

    return rows


def _meta(db: str) -> dict[str, str]:
    return {str(name): str(value) for name, value in _reader(db)("SELECT name, value FROM server_meta")}


@contextmanager
def _serving(db: str, env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    base, proc = _serve(db, env, log)
    try:
        asyncio.run(_ready(base, proc, log))
        yield proc
    finally:
        _stop([proc])


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, bytes | None]:
    """A database with the test manifest applied, and the server key its processes take from the
    environment (PostgreSQL), or None: the key file beside it (SQLite)."""
    if request.param == "sqlite":
        db, key = str(tmp_path / "live.db"), None
    else:
        db, key = request.getfixturevalue("pg_url"), os.urandom(32)
    manifest = tmp_path / "m.toml"
    manifest.write_text(TEST_MANIFEST)
    applied = _cli_run(_ring(key), "apply", str(manifest), "--db", db)
    assert applied.returncode == 0, applied.stderr
    return db, key


def test_rotating_while_a_server_runs_with_a_ring_that_lacks_the_new_key_is_refused(
    database: tuple[str, bytes | None], tmp_path: Path
) -> None:
    db, old = database
    new = os.urandom(32)
    # With a key file the command mints the new key; with the variable the operator did.
    rotating = _ring(None) if old is None else _ring(new, old)
    key_file = Path(f"{db}.key")
    before_file = key_file.read_bytes() if old is None else b""
    before = _meta(db)

    with _serving(db, _ring(old), tmp_path / "serve.log") as proc:
        refused = _cli_run(rotating, "rotate-server-key", "--db", db)
        assert refused.returncode == 1, refused.stdout + refused.stderr
        assert refused.stdout == ""
        (line,) = refused.stderr.strip().splitlines()
        assert line.startswith(f"Error: 1 server process (pid {proc.pid} on {socket.gethostname()}) holds")
        assert "with a key ring that lacks key" in line and "nothing was changed" in line
        # Nothing changed: the database's key, no rotation under way, the key file as it was.
        after = _meta(db)
        assert (after.get(KEY_CHECK), after.get(ROTATING)) == (before[KEY_CHECK], None)
        if old is None:
            assert key_file.read_bytes() == before_file
        assert proc.poll() is None

    # The server stopped, and its mark went with it: the rotation goes ahead.
    assert not [name for name in _meta(db) if name.startswith(serving.PREFIX)]
    done = _cli_run(rotating, "rotate-server-key", "--db", db)
    assert done.returncode == 0, done.stderr
    assert "every encrypted value is under the current key" in done.stdout
    assert _meta(db)[KEY_CHECK] != before[KEY_CHECK]


def test_rotating_while_every_server_holds_the_new_key_goes_ahead(pg_url: str, tmp_path: Path) -> None:
    """The rolling procedure: servers restarted with the new key in their ring (current or not) keep
    serving while the command re-encrypts."""
    old, new = os.urandom(32), os.urandom(32)
    manifest = tmp_path / "m.toml"
    manifest.write_text(TEST_MANIFEST)
    assert _cli_run(_ring(old), "apply", str(manifest), "--db", pg_url).returncode == 0
    with _serving(pg_url, _ring(old, new), tmp_path / "serve.log") as proc:
        done = _cli_run(_ring(new, old), "rotate-server-key", "--db", pg_url)
        assert done.returncode == 0, done.stderr
        assert proc.poll() is None


def test_a_mark_whose_lease_ran_out_does_not_count_and_goes_at_the_next_start(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server killed without stopping leaves its mark: it counts for LEASE_SECONDS, no longer."""
    services = make_services(db_url)
    try:
        now_ms = serving.wall_ms()
        killed = orjson.dumps({"pid": 1, "host": "gone", "ring": ["00000000"], "until": now_ms + 30_000})
        services.store.run(lambda tx: tx.meta.put(f"{serving.PREFIX}proc_killed", killed.decode(), now_ms))
        other = key_id(os.urandom(32)).hex()
        with pytest.raises(ServersRunning, match=r"^1 server process \(pid 1 on gone\) holds"):
            services.store.run(lambda tx: serving.refuse_lacking(tx, other), write=False)
        monkeypatch.setattr(serving, "wall_ms", lambda: now_ms + 30_000)
        services.store.run(lambda tx: serving.refuse_lacking(tx, other), write=False)  # no longer counts
        ServingMark(services.store, services.keys).put()
        (name,) = services.store.run(lambda tx: list(tx.meta.starting_with(serving.PREFIX)), write=False)
        assert name != f"{serving.PREFIX}proc_killed"
    finally:
        services.close()


def test_a_server_that_starts_as_a_rotation_begins_refuses_to_serve(db_url: str) -> None:
    """The server checked its key before the rotation made its key the database's, and the rotation read
    the marks before the server's was in: the server, looking again once its mark is in, sees the new key
    and stops (had its mark been in first, the rotation would have seen it)."""
    services = make_services(db_url)
    try:
        now_ms = to_millis(services.clock.now())
        services.store.run(lambda tx: tx.meta.put(KEY_CHECK, ServerKeys(os.urandom(32)).check_value, now_ms))
        with pytest.raises(ServerKeyError, match="rotated as this server started"):
            ServingMark(services.store, services.keys).put()
        assert services.store.run(lambda tx: tx.meta.starting_with(serving.PREFIX), write=False) == {}
    finally:
        services.close()


def test_a_mark_put_as_the_rotation_starts_stops_it_before_any_value_moves(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other order: the server's mark went in after the rotation read the marks, before its key
    became the database's (so the server's check passed): the rotation looks again and stops."""
    old, new = os.urandom(32), os.urandom(32)
    monkeypatch.setenv(ENV_VAR, encode_key(old))
    monkeypatch.delenv(PREVIOUS_ENV_VAR, raising=False)
    services = make_services(db_url)
    try:
        keys = ServerKeys(new, [old])
        started = rotation.start

        def start_beside_a_server(store: Any, ring: ServerKeys, now_ms: int) -> None:
            started(store, ring, now_ms)
            held = {
                "pid": 2,
                "host": "here",
                "ring": list(services.keys.ring_ids),
                "until": serving.wall_ms() + 30_000,
            }
            late = orjson.dumps(held).decode()
            store.run(lambda tx: tx.meta.put(f"{serving.PREFIX}proc_late", late, now_ms))

        monkeypatch.setattr(rotation, "start", start_beside_a_server)
        with pytest.raises(ServersRunning):
            rotation.rotate(services.store, keys, to_millis(services.clock.now()))
    finally:
        services.close()
