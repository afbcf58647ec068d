"""Probe: a database moved without its server key. The database keeps a check value of its server key;
every command that opens it (``serve``, ``demo``, ``apply``, ``webhooks ...``) refuses another key with
one line, changes nothing, and leaves no new key file behind. Before, a moved SQLite file got a new
``<db>.key``, and every API key then failed 401 without a word."""

from __future__ import annotations

import base64
import json
import os
import shutil
import sqlite3
from pathlib import Path

import attrs
import pytest
from aiohttp import web

from livecore_server.crypto import ENV_VAR, KEY_CHECK, ServerKeyError
from livecore_server.registry import installed, storage
from livecore_server.services import build_services
from tests.conftest import service_args
from tests.security.cli_support import apply_manifest, key_rows, no_serving, refused_in_one_line, run

# Without the check, serve and demo would serve: every test here stands in for serving.
pytestmark = pytest.mark.usefixtures("no_serving")
__all__ = ["no_serving"]  # a fixture, used by name


def new_key() -> str:
    return base64.urlsafe_b64encode(os.urandom(32)).decode()


COMMANDS = (
    ("serve", "--port", "0"),
    ("demo", "--port", "0"),
    ("apply", "MANIFEST"),
    ("webhooks", "endpoints"),
)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_sqlite_database_moved_without_its_key_file_is_refused(
    tmp_path: Path, command: tuple[str, ...], no_serving: list[web.Application]
) -> None:
    home, moved = tmp_path / "home", tmp_path / "moved"
    home.mkdir()
    moved.mkdir()
    manifest = apply_manifest(home, str(home / "live.db"))
    shutil.copy(home / "live.db", moved / "live.db")
    before = key_rows(moved / "live.db")
    args = [str(manifest) if a == "MANIFEST" else a for a in command]

    result = run(*args, "--db", str(moved / "live.db"))
    refused_in_one_line(result, f"no server key for this database: {moved / 'live.db.key'} did not exist")
    assert not (moved / "live.db.key").exists()  # no stray new key
    assert key_rows(moved / "live.db") == before  # the demo rotated nothing
    assert no_serving == []

    # With its key file beside it, the same database opens.
    shutil.copy(home / "live.db.key", moved / "live.db.key")
    result = run("webhooks", "endpoints", "--db", str(moved / "live.db"))
    assert result.exit_code == 0, result.output


def test_a_wrong_server_key_in_the_environment_is_refused(db_url: str, tmp_path: Path) -> None:
    key = new_key()
    manifest = apply_manifest(tmp_path, db_url, env={ENV_VAR: key})
    for args in (("serve", "--port", "0"), ("apply", str(manifest)), ("webhooks", "endpoints")):
        result = run(*args, "--db", db_url, env={ENV_VAR: new_key()})
        refused_in_one_line(result, f"wrong server key for this database: {ENV_VAR} is not the key")
    assert run("webhooks", "endpoints", "--db", db_url, env={ENV_VAR: key}).exit_code == 0


def test_apply_json_reports_a_wrong_key_as_json(tmp_path: Path) -> None:
    db = str(tmp_path / "k.db")
    manifest = apply_manifest(tmp_path, db)
    result = run("apply", str(manifest), "--db", db, "--json", env={ENV_VAR: new_key()})
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "server_key" and "wrong server key" in error["message"]


def test_services_refuse_another_key_and_the_database_keeps_its_check_value(
    db_url: str, tmp_path: Path
) -> None:
    config, clock, rng = service_args(db_url)
    services = build_services(config, clock, rng, served=installed(), storage=storage())
    check = services.keys.check_value
    stored = services.store.run(lambda tx: tx.meta.get(KEY_CHECK), write=False)
    services.close()
    assert stored == check and len(check) == 64
    other = tmp_path / "other.key"
    other.write_bytes(os.urandom(32))
    with pytest.raises(ServerKeyError, match="wrong server key for this database: the key file"):
        build_services(
            attrs.evolve(config, key_file=str(other)), clock, rng, served=installed(), storage=storage()
        )


def test_a_database_from_before_the_check_takes_its_key_unless_the_key_file_is_new(tmp_path: Path) -> None:
    """A database written before the check value existed has none: the key it is opened with becomes its
    key, except a key file created just now when the database already holds API keys."""
    db = tmp_path / "old.db"
    apply_manifest(tmp_path, str(db))
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM server_meta")
    key_file = tmp_path / "old.db.key"
    kept = key_file.read_bytes()
    key_file.unlink()
    refused_in_one_line(run("webhooks", "endpoints", "--db", str(db)), "no server key for this database")
    assert not key_file.exists()
    key_file.write_bytes(kept)
    assert run("webhooks", "endpoints", "--db", str(db)).exit_code == 0
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM server_meta").fetchone()[0] == 1
