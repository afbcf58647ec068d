"""The CLI as a newcomer meets it: it answers at once (nothing of the server is imported until a command
needs it), its help shows each command's description whole, a mistyped or malformed --db is refused in one
line without leaving a database or a key file behind, apply says where the server key is, and the demo
keeps its keys across restarts and logs each request (docs/server.md, "The CLI")."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import httpx
import pytest
from click.testing import CliRunner

from livecore.clock import to_millis
from livecore_server.cli import main
from livecore_server.cli_options import summary as _summary
from livecore_server.crypto import ENV_VAR
from livecore_server.demo import apply_demo
from tests.conftest import TEST_MANIFEST, make_services
from tests.security.cli_support import refused_in_one_line, run
from tests.waiting import until_sync

ROOT = Path(__file__).resolve().parents[2]
# What a command that only reads, or --help, must not load: the web server, the portal's templates,
# OpenID Connect, /mcp and the database drivers.
HEAVY = ("aiohttp", "jinja2", "authlib", "mcp", "psycopg", "sqlite_utils")
COMMANDS = [
    ["--help"],
    ["serve", "--help"],
    ["apply", "--help"],
    ["demo", "--help"],
    ["members", "--help"],
    ["members", "list", "--help"],
    ["members", "personal-key", "--help"],
    ["lockouts", "--help"],
    ["lockouts", "list", "--help"],
    ["webhooks", "--help"],
    ["webhooks", "deliveries", "--help"],
    ["init", "--help"],
    ["population", "--help"],
]


def _loaded_after(args: list[str]) -> list[str]:
    code = (
        "import sys\n"
        "from livecore_server.cli import main\n"
        f"try:\n    main({args!r})\nexcept SystemExit:\n    pass\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    loaded: list[str] = json.loads(done.stdout.strip().splitlines()[-1].replace("'", '"'))
    return loaded


def test_importing_the_cli_imports_none_of_the_server() -> None:
    code = (
        "import sys, livecore_server.cli\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a) for a in COMMANDS])
def test_help_imports_none_of_the_server(args: list[str]) -> None:
    assert _loaded_after(args) == []


def test_the_top_level_help_shows_each_command_description_whole() -> None:
    result = CliRunner().invoke(main, ["--help"], terminal_width=80)
    assert result.exit_code == 0
    shown = " ".join(result.stdout.split())
    ctx = click.Context(main)
    names = main.list_commands(ctx)  # the CLI's own commands and each area's (livecore_server/cli.py)
    assert {"serve", "apply", "members", "webhooks", "simulate"} <= set(names)
    for name in names:
        command = main.get_command(ctx, name)
        assert command is not None, name
        summary = _summary(command)
        assert summary and not summary.endswith("..."), name
        assert f"{name} {summary}" in shown, name


# --- the database path --------------------------------------------------------------------------------


def _left_behind(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


@pytest.mark.parametrize(
    "args",
    [
        ["members", "list"],
        ["members", "login-link", "owner"],
        ["members", "personal-key", "owner"],
        ["webhooks", "endpoints"],
        ["webhooks", "unpause", "whe_x"],
        ["serve", "--port", "0"],
    ],
    ids=lambda a: " ".join(a),
)
def test_a_mistyped_db_is_refused_by_commands_that_do_not_create_one(tmp_path: Path, args: list[str]) -> None:
    mistyped = tmp_path / "livecroe.db"
    result = run(*args, "--db", str(mistyped))
    refused_in_one_line(result, f"no database at '{mistyped}': check --db")
    assert _left_behind(tmp_path) == []  # no database, no key file


@pytest.mark.parametrize(
    ("db", "says"),
    [
        ("postgresql:/x", "is not a database livecore runs on"),
        ("mysql://user@host/db", "is not a database livecore runs on"),
        ("postgresql://127.0.0.1", "names no database"),
        ("{tmp}/no/such/dir/x.db", "does not exist"),
        ("{tmp}", "is a directory, not a database file"),
    ],
    ids=["postgresql-one-slash", "mysql", "postgresql-no-dbname", "missing-directory", "a-directory"],
)
@pytest.mark.parametrize("command", ["apply", "members"])
def test_a_malformed_db_gets_a_clear_error(tmp_path: Path, db: str, says: str, command: str) -> None:
    manifest = tmp_path / "m.toml"
    manifest.write_text(TEST_MANIFEST)
    before = _left_behind(tmp_path)
    target = db.format(tmp=tmp_path)
    args = ["apply", str(manifest)] if command == "apply" else ["members", "list"]
    result = run(*args, "--db", target)
    refused_in_one_line(result, says)
    assert "Traceback" not in result.output
    assert _left_behind(tmp_path) == before


def test_apply_and_demo_say_when_they_create_a_new_database(tmp_path: Path) -> None:
    manifest = tmp_path / "m.toml"
    manifest.write_text(TEST_MANIFEST)
    db = tmp_path / "new.db"
    first = run("apply", str(manifest), "--db", str(db))
    assert first.exit_code == 0, first.output
    assert first.stderr.splitlines()[0] == f"creating a new database at {db}"
    again = run("apply", str(manifest), "--db", str(db))
    assert again.exit_code == 0 and "creating" not in again.stderr


def test_apply_says_where_the_server_key_is(tmp_path: Path) -> None:
    manifest = tmp_path / "m.toml"
    manifest.write_text(TEST_MANIFEST)
    db = tmp_path / "keyed.db"
    result = run("apply", str(manifest), "--db", str(db))
    assert result.exit_code == 0, result.output
    assert f"server key: {db}.key (back it up with the database" in result.stdout
    from_env = run("apply", str(manifest), "--db", str(tmp_path / "env.db"), env={ENV_VAR: "A" * 43 + "="})
    assert from_env.exit_code == 0, from_env.output
    assert f"server key: from ${ENV_VAR}" in from_env.stdout


def test_apply_on_postgresql_says_the_key_file_is_in_the_working_directory(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manifest = tmp_path / "m.toml"
    manifest.write_text(TEST_MANIFEST)
    monkeypatch.chdir(tmp_path)
    result = run("apply", str(manifest), "--db", pg_url)
    assert result.exit_code == 0, result.output
    assert f"server key: {tmp_path / 'livecore.key'} (back it up" in result.stdout
    assert (tmp_path / "livecore.key").exists()


# --- the demo -----------------------------------------------------------------------------------------


def _demo_keys(db: Path, *, new_keys: bool = False) -> tuple[dict[str, str], str | None]:
    services = make_services(db, manual=False)
    try:
        applied, secret = apply_demo(services, new_keys=new_keys)
    finally:
        services.close()
    keys = applied["games"]["space-race"]["apiKeys"]
    return {name: key["secret"] for name, key in keys.items()}, secret


def _works(db: Path, secret: str) -> bool:
    services = make_services(db, manual=False)
    try:
        now_ms = to_millis(services.clock.now())
        return asyncio.run(services.key_cache.lookup(secret, now_ms)) is not None
    finally:
        services.close()


def test_the_demo_keeps_its_keys_and_player_secret_across_restarts(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    first, player = _demo_keys(db)
    second, again = _demo_keys(db)
    assert set(first) == {"demo-client", "demo-server"}
    assert first == second and player == again and player is not None
    assert all(_works(db, secret) for secret in first.values())
    services = make_services(db, manual=False)
    try:
        active = services.store.run(
            lambda tx: tx.execute("SELECT COUNT(*) FROM api_keys WHERE revoked_at IS NULL", ()).fetchone(),
            write=False,
        )
        assert active[0] == 2  # nothing piles up
    finally:
        services.close()


def test_new_keys_replace_the_demos_keys_and_the_old_ones_stop_at_once(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    first, player = _demo_keys(db)
    replaced, new_player = _demo_keys(db, new_keys=True)
    assert set(replaced) == set(first)
    for name in first:
        assert replaced[name] != first[name]
        assert _works(db, replaced[name]) and not _works(db, first[name])
    assert new_player != player
    # The next plain start shows the new ones again.
    assert _demo_keys(db) == (replaced, new_player)


def test_the_demo_kept_secrets_are_sealed_not_in_clear(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    keys, player = _demo_keys(db)
    raw = db.read_bytes() + (Path(f"{db}-wal").read_bytes() if Path(f"{db}-wal").exists() else b"")
    assert player is not None
    for secret in (*keys.values(), player):
        assert secret.encode() not in raw


@pytest.fixture
def demo_process(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(ENV_VAR, None)
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "livecore_server.cli",
                "demo",
                "--db",
                str(tmp_path / "d.db"),
                "--port",
                "0",
            ],
            env=env,
            stdout=stdout,
            stderr=stderr,
        )
        try:
            line = until_sync(
                lambda: next((x for x in out.read_text().splitlines() if "LIVECORE_URL=" in x), None),
                lambda: f"the demo's exports; stderr: {err.read_text()[-2000:]}",
            )
            yield line.split("=", 1)[1].strip(), err
        finally:
            process.terminate()
            process.wait(timeout=30)


def test_the_demo_logs_one_access_line_per_request(demo_process: tuple[str, Path]) -> None:
    base, err = demo_process
    until_sync(lambda: httpx.get(f"{base}/admin/v1/health").status_code == 200, "the demo to answer")
    # Under load an answer can take longer than httpx's default 5 s: that is not what is tested here.
    assert httpx.get(f"{base}/no/such/route?x=1", timeout=30).status_code == 404
    lines = until_sync(
        lambda: [x for x in err.read_text().splitlines() if '"GET /no/such/route?x=1 HTTP/1.1" 404' in x],
        "the request's access-log line",
    )
    assert len(lines) == 1
