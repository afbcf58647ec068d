"""The server under test: ``livecore-server apply`` once, then ``serve`` in its own process."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Self

import httpx

HEALTH_PATH = "/admin/v1/health"
BASELINE_ENV = "LIVECORE_BENCH_BASELINE"
HOST = "127.0.0.1"


class ServerError(RuntimeError):
    """The server could not be prepared, started or reached."""


def server_command() -> list[str]:
    """``livecore-server`` from PATH, else beside this interpreter (a venv run without activation)."""
    found = shutil.which("livecore-server") or shutil.which(
        "livecore-server", path=str(Path(sys.executable).parent)
    )
    if found is None:
        raise ServerError("livecore-server not found: install the project (pip install -e .)")
    return [found]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def apply_manifest(manifest: Path, db: Path, env: Mapping[str, str]) -> dict[str, Any]:
    command = [*server_command(), "apply", str(manifest), "--db", str(db), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, env=dict(env), timeout=120, check=False)
    if done.returncode != 0:
        raise ServerError(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr}{done.stdout}")
    try:
        result: dict[str, Any] = json.loads(done.stdout)
    except json.JSONDecodeError as exc:
        raise ServerError(f"apply printed no JSON:\n{done.stdout}\n{done.stderr}") from exc
    return result


def manifest_vars(applied: Mapping[str, Any], game: str = "bench") -> dict[str, str]:
    """Context variables from ``apply --json``: ``studio_id``, ``game_id``, ``<key name>_key`` for
    ``game`` and ``<game>_<key name>_key`` / ``<game>_game_id`` for every game."""
    out = {"studio_id": applied["studio"]["id"]}
    for name, data in applied["games"].items():
        out[f"{name}_game_id"] = data["id"]
        for key_name, key in data.get("apiKeys", {}).items():
            if key.get("secret") is None:
                raise ServerError(f"apply printed no secret for {name}/{key_name}: was the database fresh?")
            out[f"{name}_{key_name}_key"] = key["secret"]
            if name == game:
                out[f"{key_name}_key"] = key["secret"]
        if name == game:
            out["game_id"] = data["id"]
    return out


class ServerProcess:
    """``livecore-server serve`` on a free loopback port; always stopped on exit (SIGTERM, then kill)."""

    def __init__(self, db: Path, log_path: Path, env: Mapping[str, str]) -> None:
        self.db = db
        self.log_path = log_path
        self.env = dict(env)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def __enter__(self) -> Self:
        command = [*server_command(), "serve", "--db", str(self.db), "--host", HOST, "--port", str(self.port)]
        self._log = self.log_path.open("wb")
        self.process = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT, env=self.env)
        try:
            self.wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def wait_ready(self, timeout_s: float = 60.0) -> None:
        assert self.process is not None
        deadline = time.monotonic() + timeout_s
        last = "no answer"
        with httpx.Client(base_url=self.base_url, timeout=2.0) as client:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise ServerError(f"server exited {self.process.returncode} at start:\n{self.log_tail()}")
                try:
                    response = client.get(HEALTH_PATH)
                    if response.status_code == 200:
                        return
                    last = f"{response.status_code} {response.text[:200]}"
                except httpx.TransportError as exc:
                    last = repr(exc)
                time.sleep(0.1)
        raise ServerError(f"server not ready after {timeout_s:.0f} s ({last}):\n{self.log_tail()}")

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._log is not None:
            self._log.close()
            self._log = None

    def cpu_seconds(self) -> float | None:
        """User + system CPU the server process has used so far (Linux ``/proc``; else None)."""
        if self.process is None:
            return None
        try:
            stat = Path(f"/proc/{self.process.pid}/stat").read_text()
        except OSError:
            return None
        fields = stat.rsplit(")", 1)[1].split()  # after the command name; fields[0] is field 3 (state)
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])


def server_env(overrides: Mapping[str, str]) -> dict[str, str]:
    """This process's environment, the baseline route switched on, then the ``--server-env`` pairs."""
    return {**os.environ, BASELINE_ENV: "1", **overrides}
