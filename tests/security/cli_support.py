"""Driving ``livecore-server`` in-process for the security probes: the command, its one-line refusals, a
stand-in for serving, and a database's API keys."""

from __future__ import annotations

import base64
import sqlite3
from pathlib import Path

import pytest
from aiohttp import web
from click.testing import CliRunner, Result

from livecore_server.cli import main
from livecore_server.crypto import ENV_VAR
from tests.conftest import TEST_MANIFEST, World, _pg_key_file


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    """The CLI, with the server key of ``env``, or else the key file of the database."""
    return CliRunner().invoke(main, list(args), env={ENV_VAR: None, **(env or {})})


def world_env(world: World) -> dict[str, str]:
    """What ``run`` needs to open the world's database: the server key of a PostgreSQL one."""
    if not world.on_postgres:
        return {}
    return {ENV_VAR: base64.urlsafe_b64encode(Path(_pg_key_file()).read_bytes()).decode()}


def apply_manifest(directory: Path, db: str, env: dict[str, str] | None = None) -> Path:
    """``apply`` the test manifest (written to ``directory/m.toml``, returned) to ``db``."""
    manifest = directory / "m.toml"
    manifest.write_text(TEST_MANIFEST)
    result = run("apply", str(manifest), "--db", db, env=env)
    assert result.exit_code == 0, result.output
    return manifest


def refused_in_one_line(result: Result, fragment: str) -> None:
    """Exit status 1, nothing on stdout, and one line on stderr, no traceback."""
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert fragment in lines[0], lines[0]


def key_rows(db: Path) -> list[tuple[str, object]]:
    """A SQLite database's API keys: id and revocation time."""
    with sqlite3.connect(db) as conn:
        return [(str(r[0]), r[1]) for r in conn.execute("SELECT id, revoked_at FROM api_keys ORDER BY id")]


@pytest.fixture
def no_serving(monkeypatch: pytest.MonkeyPatch) -> list[web.Application]:
    """``serve`` and ``demo`` return where they would start serving, with the app they would serve (a
    command that should have refused then fails its test instead of serving for ever)."""
    served: list[web.Application] = []
    monkeypatch.setattr(web, "run_app", lambda app, **_: served.append(app))
    return served
