"""The livecore-server command (docs/reference/manifest-and-cli.md): apply, its --json output, refusals, serve
and SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner, Result

from livecore.clock import to_millis
from livecore_server import cli_serve
from livecore_server.cli import main
from livecore_server.config import Config
from tests.conftest import TEST_MANIFEST
from tests.waiting import until_sync

WEBHOOK = """
[games.space-race.webhooks.backend]
env = "test"
url = "http://127.0.0.1:9000/hooks"
events = ["*"]
"""


def _apply(tmp_path: Path, text: str, *extra: str) -> tuple[int, str, str]:
    manifest = tmp_path / "m.toml"
    manifest.write_text(text)
    result = CliRunner().invoke(main, ["apply", str(manifest), "--db", str(tmp_path / "c.db"), *extra])
    return result.exit_code, result.stdout, result.stderr


def test_apply_json_prints_the_pinned_shape_and_secrets_once(tmp_path: Path) -> None:
    code, out, _ = _apply(tmp_path, TEST_MANIFEST + WEBHOOK, "--json")
    assert code == 0
    first = json.loads(out)
    assert first["studio"]["key"] == "acme"
    assert first["studio"]["id"].startswith("std_")
    game = first["games"]["space-race"]
    assert game["id"].startswith("gam_")
    key = game["apiKeys"]["test-client"]
    assert key["id"].startswith("key_")
    assert (key["env"], key["permission"]) == ("test", "client_sdk")
    assert key["secret"].startswith("lc_test_")
    hook = game["webhooks"]["backend"]
    assert hook["id"].startswith("whe_") and hook["env"] == "test" and hook["secret"].startswith("whsec_")

    code, out, _ = _apply(tmp_path, TEST_MANIFEST + WEBHOOK, "--json")
    again = json.loads(out)
    assert code == 0
    # Idempotent: same ids, no secret printed twice.
    assert again["games"]["space-race"]["id"] == game["id"]
    assert again["games"]["space-race"]["apiKeys"]["test-client"] == {**key, "secret": None}
    assert again["games"]["space-race"]["webhooks"]["backend"]["secret"] is None


def test_webhook_secret_is_stored_encrypted(tmp_path: Path) -> None:
    _, out, _ = _apply(tmp_path, TEST_MANIFEST + WEBHOOK, "--json")
    secret = json.loads(out)["games"]["space-race"]["webhooks"]["backend"]["secret"]
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("c.db*"))
    assert secret.encode() not in raw
    key_file = tmp_path / "c.db.key"
    assert key_file.exists()
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"


def test_changing_a_keys_environment_mints_a_successor(tmp_path: Path) -> None:
    _, out, _ = _apply(tmp_path, TEST_MANIFEST, "--json")
    before = json.loads(out)["games"]["space-race"]["apiKeys"]["test-client"]
    changed = TEST_MANIFEST.replace(
        '[games.space-race.api_keys.test-client]\nenv = "test"',
        '[games.space-race.api_keys.test-client]\nenv = "live"',
    )
    _, out, _ = _apply(tmp_path, changed, "--json")
    after = json.loads(out)["games"]["space-race"]["apiKeys"]["test-client"]
    assert after["id"] != before["id"]
    assert after["env"] == "live" and after["secret"].startswith("lc_live_")


def test_a_key_rotated_by_apply_keeps_its_old_environment_during_its_grace(tmp_path: Path) -> None:
    from livecore.operators.keys import ROTATION_GRACE
    from tests.conftest import make_services

    _, out, _ = _apply(tmp_path, TEST_MANIFEST, "--json")
    old = json.loads(out)["games"]["space-race"]["apiKeys"]["test-client"]["secret"]
    _apply(
        tmp_path,
        TEST_MANIFEST.replace(
            '[games.space-race.api_keys.test-client]\nenv = "test"',
            '[games.space-race.api_keys.test-client]\nenv = "live"',
        ),
    )
    services = make_services(tmp_path / "c.db", manual=False)
    try:
        key = asyncio.run(services.key_cache.lookup(old, to_millis(services.clock.now())))
        assert key is not None and key.env.value == "test"  # never the successor's environment
        assert key.retires_at_ms is not None
        retires = datetime.fromtimestamp(key.retires_at_ms / 1000, UTC)
        assert abs(retires - (datetime.now(UTC) + ROTATION_GRACE)) < timedelta(minutes=5)
    finally:
        services.close()


def test_invalid_manifest_exits_2_names_the_field_and_applies_nothing(tmp_path: Path) -> None:
    bad = TEST_MANIFEST.replace('permission = "client_sdk"', 'permission = "root"', 1)
    code, out, err = _apply(tmp_path, bad + "\n[games.space-race.presence]\nttl = 5\n")
    assert code == 2
    assert "games.space-race.api_keys.test-client.permission" in err
    assert "games.space-race.presence.ttl" in err
    assert out == ""
    assert not (tmp_path / "c.db").exists() or _count_studios(tmp_path / "c.db") == 0


def _count_studios(db: Path) -> int:
    import sqlite3

    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM studios").fetchone()[0])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def _serving(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``livecore-server serve`` in a process of its own on a SQLite file with the test manifest applied,
    once it answers its health check: the process and its address."""
    port = _free_port()
    env = {**os.environ, "LIVECORE_DB": str(tmp_path / "s.db")}
    manifest = tmp_path / "m.toml"
    manifest.write_text(TEST_MANIFEST)
    assert CliRunner().invoke(main, ["apply", str(manifest)], env=env).exit_code == 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "livecore_server.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:

        def health() -> httpx.Response | None:
            try:
                return httpx.get(f"{base}/admin/v1/health", timeout=5)
            except httpx.TransportError:
                return None

        r = until_sync(health, "the server to start")
        assert r.status_code == 200
        yield proc, base
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_serve_answers_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    with _serving(tmp_path) as (proc, _):
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0


def test_serve_freezes_what_it_made_to_start_out_of_the_collectors_reach(tmp_path: Path) -> None:
    """docs/deployment.md#garbage-collection: a full collection no longer walks the objects the process
    made to start; /metrics says how many."""
    with _serving(tmp_path) as (_, base):
        metrics = httpx.get(f"{base}/metrics", timeout=5).text
    frozen = next(line for line in metrics.splitlines() if line.startswith("python_gc_frozen_objects "))
    assert int(frozen.split()[1]) > 10_000, frozen
    assert 'python_gc_collections_total{generation="2"} ' in metrics


def _serve_config(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *args: str, env: dict[str, str] | None = None
) -> tuple[Result, Config | None]:
    """Run ``serve`` up to the point where it would start serving; the Config it built, if any."""
    built: list[Config] = []

    def capture(config: Config, *_: object, **__: object) -> None:
        built.append(config)

    monkeypatch.setattr(cli_serve, "_serve", capture)
    monkeypatch.delenv("LIVECORE_WEBHOOK_TIMEOUT", raising=False)
    (tmp_path / "t.db").touch()  # serve runs only on a database that exists
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "t.db"), *args], env=env)
    return result, built[0] if built else None


def test_serve_webhook_timeout_flag_and_variable_reach_the_config(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    result, config = _serve_config(monkeypatch, tmp_path)
    assert result.exit_code == 0, result.output
    assert config is not None and config.webhook_timeout == 10.0  # docs/reference/webhooks.md
    result, config = _serve_config(monkeypatch, tmp_path, "--webhook-timeout", "2.5")
    assert result.exit_code == 0, result.output
    assert config is not None and config.webhook_timeout == 2.5
    result, config = _serve_config(monkeypatch, tmp_path, env={"LIVECORE_WEBHOOK_TIMEOUT": "60"})
    assert result.exit_code == 0, result.output
    assert config is not None and config.webhook_timeout == 60.0
    # The flag wins over the variable.
    result, config = _serve_config(
        monkeypatch, tmp_path, "--webhook-timeout", "0.5", env={"LIVECORE_WEBHOOK_TIMEOUT": "30"}
    )
    assert result.exit_code == 0, result.output
    assert config is not None and config.webhook_timeout == 0.5


@pytest.mark.parametrize("value", ["0", "-1", "60.5", "inf", "nan", "ten"])
def test_serve_refuses_a_bad_webhook_timeout(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str
) -> None:
    for args, env in [(("--webhook-timeout", value), None), ((), {"LIVECORE_WEBHOOK_TIMEOUT": value})]:
        result, config = _serve_config(monkeypatch, tmp_path, *args, env=env)
        assert result.exit_code == 2, result.output
        assert config is None
        assert "Invalid value for '--webhook-timeout'" in result.stderr
