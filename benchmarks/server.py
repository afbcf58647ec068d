"""The server under test: ``livecore-server apply`` once, then ``serve`` in its own process (or several
processes sharing one port, on PostgreSQL)."""

from __future__ import annotations

import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Self

import httpx

from livecore_server.statement_tally import ENV_VAR as STATEMENT_TALLY_ENV

HEALTH_PATH = "/admin/v1/health"
BASELINE_ENV = "LIVECORE_BENCH_BASELINE"
# The server key (livecore_server.crypto). Every process of one deployment must share it; on SQLite the
# server keeps it in a file beside the database, on PostgreSQL the harness sets a fresh one per run.
SECRET_KEY_ENV = "LIVECORE_SECRET_KEY"
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


def apply_manifest(manifest: Path, db: Path | str, env: Mapping[str, str]) -> dict[str, Any]:
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


@dataclass(frozen=True)
class Counts:
    """What the server processes counted so far (livecore_server/statement_tally.py), summed over them:
    statements; on PostgreSQL the round trips waited for and the write transactions committed
    (``writes``) and retried (``retries``, and ``retried`` by cause); None where not counted."""

    statements: int
    round_trips: int | None = None
    writes: int | None = None
    retries: int | None = None
    retried: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, found: Mapping[str, Any]) -> Counts:
        """The counts in one process's statement file (its JSON)."""

        def known(name: str) -> int | None:
            value = found.get(name)
            return None if value is None else int(value)

        retried = found.get("retried")
        causes = {str(k): int(v) for k, v in retried.items()} if isinstance(retried, dict) else {}
        return cls(int(found["statements"]), known("round_trips"), known("writes"), known("retries"), causes)

    def __add__(self, other: Counts) -> Counts:
        return self._combine(other, 1)

    def __sub__(self, other: Counts) -> Counts:
        return self._combine(other, -1)

    def _combine(self, other: Counts, sign: int) -> Counts:
        def both(a: int | None, b: int | None) -> int | None:
            return None if a is None or b is None else a + sign * b

        causes = {
            k: self.retried.get(k, 0) + sign * other.retried.get(k, 0)
            for k in {*self.retried, *other.retried}
        }
        return Counts(
            self.statements + sign * other.statements,
            both(self.round_trips, other.round_trips),
            both(self.writes, other.writes),
            both(self.retries, other.retries),
            {k: v for k, v in sorted(causes.items()) if v},
        )


class ServerProcess:
    """``livecore-server serve`` on a free loopback port: one process, or ``processes`` of them on the same
    port (``--reuse-port``, SO_REUSEPORT; PostgreSQL only), the kernel spreading the connections across
    them. Always stopped on exit (SIGTERM, then kill after 10 s).

    ``statement_file``: the server counts its statements (and on PostgreSQL its round trips and retried
    writes) and writes the count there when asked (:meth:`counts`; livecore_server/statement_tally.py);
    with several processes each has its own file (:attr:`statement_files`) and the counts are summed."""

    def __init__(
        self,
        db: Path | str,
        log_path: Path,
        env: Mapping[str, str],
        *,
        processes: int = 1,
        extra_args: Sequence[str] = (),
        statement_file: Path | None = None,
    ) -> None:
        if processes < 1:
            raise ValueError(f"processes must be at least 1, not {processes}")
        self.db = str(db)
        self.log_path = log_path
        self.env = dict(env)
        self.statement_file = statement_file
        self.count = processes
        self.extra_args = list(extra_args)
        self.port = free_port()
        self.processes: list[subprocess.Popen[bytes]] = []
        self._logs: list[IO[bytes]] = []

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.processes]

    @property
    def log_paths(self) -> list[Path]:
        """``server.log`` for one process; ``server-1.log``, ``server-2.log``, ... for several."""
        if self.count == 1:
            return [self.log_path]
        stem, suffix = self.log_path.stem, self.log_path.suffix
        return [self.log_path.with_name(f"{stem}-{i}{suffix}") for i in range(1, self.count + 1)]

    @property
    def statement_files(self) -> list[Path]:
        """Each process's statement count, named as its log: ``statements.json`` for one process,
        ``statements-1.json``, ``statements-2.json``, ... for several; none without ``statement_file``."""
        if self.statement_file is None:
            return []
        if self.count == 1:
            return [self.statement_file]
        stem, suffix = self.statement_file.stem, self.statement_file.suffix
        return [self.statement_file.with_name(f"{stem}-{i}{suffix}") for i in range(1, self.count + 1)]

    def process_env(self, i: int) -> dict[str, str]:
        """The environment of process ``i`` (from 0): its own statement file, if counted."""
        files = self.statement_files
        return self.env if not files else {**self.env, STATEMENT_TALLY_ENV: str(files[i])}

    def command(self) -> list[str]:
        command = [*server_command(), "serve", "--db", self.db, "--host", HOST, "--port", str(self.port)]
        command += self.extra_args
        if self.count > 1:
            command.append("--reuse-port")
        return command

    def __enter__(self) -> Self:
        command = self.command()
        try:
            for i, path in enumerate(self.log_paths):
                log = path.open("wb")
                self._logs.append(log)
                self.processes.append(
                    subprocess.Popen(
                        command,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        env=self.process_env(i),
                        preexec_fn=_ignore_sigusr1 if self.statement_files else None,
                    )
                )
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
        """Until ``GET /admin/v1/health`` answers 200 on the port and every process listens on it (with
        several processes, the health answer comes from whichever one the kernel picked)."""
        deadline = time.monotonic() + timeout_s
        last = "no answer"
        with httpx.Client(base_url=self.base_url, timeout=2.0) as client:
            while time.monotonic() < deadline:
                for p in self.processes:
                    if p.poll() is not None:
                        raise ServerError(
                            f"server pid {p.pid} exited {p.returncode} at start:\n{self.log_tail()}"
                        )
                try:
                    response = client.get(HEALTH_PATH)
                    if response.status_code == 200:
                        waiting = not_listening(self.pids, self.port)
                        if not waiting:
                            return
                        last = f"health 200, but pid(s) {waiting} not listening on port {self.port} yet"
                    else:
                        last = f"{response.status_code} {response.text[:200]}"
                except httpx.TransportError as exc:
                    last = repr(exc)
                time.sleep(0.1)
        raise ServerError(f"server not ready after {timeout_s:.0f} s ({last}):\n{self.log_tail()}")

    def stop(self) -> None:
        processes, self.processes = self.processes, []
        running = [p for p in processes if p.poll() is None]
        for p in running:
            p.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 10
        for p in running:
            try:
                p.wait(timeout=max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        logs, self._logs = self._logs, []
        for log in logs:
            log.close()

    def cpu_seconds(self) -> float | None:
        """User + system CPU all server processes have used so far (Linux ``/proc``; else None)."""
        if not self.processes:
            return None
        total = 0.0
        for pid in self.pids:
            cpu = process_cpu_seconds(pid)
            if cpu is None:
                return None
            total += cpu
        return total

    def statements(self, timeout_s: float = 30.0) -> int | None:
        """Statements the server has run so far (None without ``statement_file``)."""
        counted = self.counts(timeout_s)
        return None if counted is None else counted.statements

    def counts(self, timeout_s: float = 30.0) -> Counts | None:
        """What the server processes have counted so far, summed over them (:class:`Counts`), or None
        without ``statement_file``: asks each with SIGUSR1 and waits until its file holds a count written
        after the signal.

        A process starts with SIGUSR1 ignored until its count answers it: with several processes, ready
        means one of them answered health, and another may still be opening its services. So the signal
        goes again every half second until the count comes."""
        files = self.statement_files
        if not files or not self.processes:
            return None
        seqs = []
        for process, path in zip(self.processes, files, strict=True):
            before = read_statement_file(path)
            seqs.append(0 if before is None else before[1])
            process.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + timeout_s
        total: Counts | None = None
        for process, path, seq in zip(self.processes, files, seqs, strict=True):
            again = time.monotonic() + 0.5
            while True:
                found = read_statement_file(path)
                if found is not None and found[1] > seq:
                    total = found[0] if total is None else total + found[0]
                    break
                if process.poll() is not None:
                    raise ServerError(
                        f"server pid {process.pid} exited {process.returncode}:\n{self.log_tail()}"
                    )
                now = time.monotonic()
                if now > deadline:
                    raise ServerError(
                        f"the server wrote no statement count to {path} in {timeout_s} s (a livecore-server"
                        " without the statement count?)"
                    )
                if now > again:
                    process.send_signal(signal.SIGUSR1)
                    again = now + 0.5
                time.sleep(0.002)
        return total

    def alive(self) -> bool:
        """Every server process still runs."""
        return bool(self.processes) and all(p.poll() is None for p in self.processes)

    def log_tail(self, lines: int = 40) -> str:
        tails = []
        for path in self.log_paths:
            try:
                text = "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
            except OSError:
                text = "(no server log)"
            tails.append(text if self.count == 1 else f"--- {path.name}\n{text}")
        return "\n".join(tails)


def _ignore_sigusr1() -> None:
    """In a server process before it runs livecore-server: SIGUSR1 ignored (inherited through exec)
    until the statement count installs its handler, so an early one is not fatal (:meth:`counts`)."""
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)


def read_statement_file(path: Path) -> tuple[Counts, int] | None:
    """The counts in ``path`` (written whole, by rename) and their sequence number, or None."""
    try:
        found = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    return Counts.of(found), int(found["seq"])


def proc_stat(pid: int) -> tuple[str, list[str]] | None:
    """``pid``'s command name and the fields of ``/proc/<pid>/stat`` after it (``fields[0]`` is field 3,
    the state; utime and stime are ``fields[11:13]``, the reaped children's ``fields[13:15]``), or None."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    head, tail = stat.rsplit(")", 1)
    return head.partition("(")[2], tail.split()


def clock_ticks(fields: Sequence[str]) -> float:
    """Seconds of CPU in the sum of ``fields`` (clock ticks, as ``/proc`` counts them)."""
    return sum(int(f) for f in fields) / os.sysconf("SC_CLK_TCK")


def process_cpu_seconds(pid: int) -> float | None:
    """User + system CPU of ``pid`` so far, all its threads (Linux ``/proc``; else None)."""
    found = proc_stat(pid)
    return None if found is None else clock_ticks(found[1][11:13])


def _listening_inodes(port: int) -> set[int] | None:
    """Socket inodes listening on TCP ``port`` (``/proc/net/tcp*``), or None where unknown."""
    inodes: set[int] = set()
    known = False
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        known = True
        for line in lines:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                inodes.add(int(inode))
    return inodes if known else None


def socket_inodes(pid: int) -> set[int]:
    out: set[int] = set()
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return out
    for fd in fds:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            out.add(int(target[len("socket:[") : -1]))
    return out


def not_listening(pids: Sequence[int], port: int) -> list[int]:
    """Those of ``pids`` with no socket listening on ``port`` (none where ``/proc`` cannot tell)."""
    listening = _listening_inodes(port)
    if listening is None:
        return []
    return [pid for pid in pids if not socket_inodes(pid) & listening]


def server_env(overrides: Mapping[str, str]) -> dict[str, str]:
    """This process's environment, the baseline route switched on, then the ``--server-env`` pairs."""
    return {**os.environ, BASELINE_ENV: "1", **overrides}


def fresh_secret_key() -> str:
    """A new server key as ``LIVECORE_SECRET_KEY`` takes it: urlsafe base64 of 32 random bytes."""
    return base64.urlsafe_b64encode(os.urandom(32)).decode()
