"""Probe: the key file on disk. A key file other users may read is used with one warning naming the file
and ``chmod 600``, as ssh warns; a key file that is a dangling link, a directory, a FIFO, a link to
``/dev/zero`` or larger than any ring stops every command with one line instead of a traceback (or a
hang); ``rotate-server-key`` on a linked key file writes the new ring through the link into its target,
and keeps the link, and never writes it into a staging file it did not make."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from aiohttp import web

from livecore_server import crypto
from livecore_server.crypto import ENV_VAR, RING_HEADER, load_server_key
from tests.security.cli_support import apply_manifest, no_serving, refused_in_one_line, run

pytestmark = pytest.mark.usefixtures("no_serving")
__all__ = ["no_serving"]  # a fixture, used by name


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A SQLite database with the test manifest applied, its key file ``<db>.key`` beside it."""
    path = tmp_path / "live.db"
    apply_manifest(tmp_path, str(path))
    return path


@pytest.fixture(autouse=True)
def warn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test sees the warning its own key file earns (a process warns once a file)."""
    monkeypatch.setattr(crypto, "_warned", set())


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604], ids=oct)
def test_a_key_file_others_may_read_is_used_with_one_warning(
    db: Path, mode: int, caplog: pytest.LogCaptureFixture
) -> None:
    key_file = Path(f"{db}.key")
    key_file.chmod(mode)
    caplog.set_level(logging.WARNING)
    # The rotation reads the key file twice: still one warning.
    for args in (("webhooks", "endpoints"), ("rotate-server-key",)):
        caplog.clear()
        result = run(*args, "--db", str(db))
        assert result.exit_code == 0, result.output
        warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert warned == [
            f"key file {key_file} is open to other users (mode {mode:04o}), who may read the server key:"
            f" run chmod 600 {key_file}"
        ]
        crypto._warned.clear()


def test_a_key_file_with_mode_600_is_used_without_a_warning(
    db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    assert Path(f"{db}.key").stat().st_mode & 0o777 == 0o600
    caplog.set_level(logging.WARNING)
    assert run("webhooks", "endpoints", "--db", str(db)).exit_code == 0
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_the_warning_is_one_line_on_stderr(db: Path) -> None:
    Path(f"{db}.key").chmod(0o644)
    env = {k: v for k, v in os.environ.items() if k != ENV_VAR}
    done = subprocess.run(
        [sys.executable, "-m", "livecore_server.cli", "webhooks", "endpoints", "--db", str(db)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    (line,) = done.stderr.splitlines()
    assert "WARNING" in line and line.endswith(
        f"key file {db}.key is open to other users (mode 0644), who may read the server key: run chmod 600"
        f" {db}.key"
    )


COMMANDS = (("webhooks", "endpoints"), ("rotate-server-key",), ("serve", "--port", "0"))


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_key_file_that_is_a_dangling_link_stops_the_command_with_one_line(
    db: Path, command: tuple[str, ...], no_serving: list[web.Application]
) -> None:
    key_file = Path(f"{db}.key")
    key_file.unlink()
    key_file.symlink_to(db.parent / "gone.key")
    refused_in_one_line(
        run(*command, "--db", str(db)),
        f"key file {key_file} is a link to {db.parent / 'gone.key'}, which does not",
    )
    assert key_file.is_symlink() and not (db.parent / "gone.key").exists()  # no key made in its place
    assert no_serving == []


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_key_file_that_is_a_directory_stops_the_command_with_one_line(
    db: Path, command: tuple[str, ...], no_serving: list[web.Application]
) -> None:
    key_file = Path(f"{db}.key")
    key_file.unlink()
    key_file.mkdir()
    refused_in_one_line(run(*command, "--db", str(db)), f"key file {key_file} is a directory, not a key file")
    assert no_serving == []


def test_rotating_a_linked_key_file_writes_through_the_link_into_its_target(db: Path) -> None:
    key_file = Path(f"{db}.key")
    vault = db.parent / "vault"
    vault.mkdir()
    target = vault / "live.key"
    key_file.rename(target)
    key_file.symlink_to(Path("vault") / "live.key")  # relative, as a link is often made
    old = load_server_key(str(db)).master

    result = run("rotate-server-key", "--db", str(db))
    assert result.exit_code == 0, result.output
    assert key_file.is_symlink() and key_file.resolve() == target  # the link is kept
    assert target.read_bytes().startswith(RING_HEADER)
    ring = load_server_key(None, str(target))
    assert ring.master != old and ring.previous == (old,)
    assert target.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in vault.iterdir()) == ["live.key"]  # no staging file left
    assert run("webhooks", "endpoints", "--db", str(db)).exit_code == 0  # the database takes the new key


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_key_file_that_is_a_link_to_dev_zero_stops_the_command_with_one_line(
    db: Path, command: tuple[str, ...], no_serving: list[web.Application]
) -> None:
    """It was read to the end, which /dev/zero has not: a MemoryError and its traceback."""
    key_file = Path(f"{db}.key")
    key_file.unlink()
    key_file.symlink_to("/dev/zero")
    refused_in_one_line(
        run(*command, "--db", str(db)),
        f"key file {key_file} is a link to /dev/zero, a character device, not a key file (a regular file)",
    )
    assert no_serving == []


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_key_file_that_is_a_fifo_stops_the_command_with_one_line(
    db: Path, command: tuple[str, ...], no_serving: list[web.Application]
) -> None:
    """Opening it waited for a writer, for ever."""
    key_file = Path(f"{db}.key")
    key_file.unlink()
    os.mkfifo(key_file, 0o600)
    refused_in_one_line(
        run(*command, "--db", str(db)), f"key file {key_file} is a FIFO, not a key file (a regular file)"
    )
    assert no_serving == []


def test_a_key_file_larger_than_any_ring_is_not_read(db: Path) -> None:
    key_file = Path(f"{db}.key")
    key_file.write_bytes(RING_HEADER + b"# padding\n" * (crypto.KEY_FILE_MOST // 10))
    refused_in_one_line(
        run("webhooks", "endpoints", "--db", str(db)),
        f"key file {key_file} is larger than {crypto.KEY_FILE_MOST} bytes: not a key file",
    )


def test_a_staging_file_in_the_way_stops_the_rotation_before_anything_changes(db: Path) -> None:
    """The new ring was written into a staging file already there, which kept its mode 0644 through the
    rename: the new key file was readable by every user, without a warning."""
    key_file = Path(f"{db}.key")
    before = key_file.read_bytes()
    staging = db.parent / f".{key_file.name}.{os.getpid()}.new"
    staging.write_bytes(b"")
    staging.chmod(0o644)

    refused_in_one_line(run("rotate-server-key", "--db", str(db)), f"{staging} is in the way of the new key")
    assert key_file.read_bytes() == before and key_file.stat().st_mode & 0o777 == 0o600
    assert staging.read_bytes() == b""  # not ours: left for the operator to look at
    assert run("webhooks", "endpoints", "--db", str(db)).exit_code == 0  # the database kept its key

    staging.unlink()
    result = run("rotate-server-key", "--db", str(db))
    assert result.exit_code == 0, result.output
    assert key_file.read_bytes() != before and key_file.stat().st_mode & 0o777 == 0o600
    assert not staging.exists()
