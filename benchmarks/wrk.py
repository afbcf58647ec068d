"""Driving wrk: the Lua script for one scenario, one run, and its machine-readable result.

The script is ``lua/unique.lua`` + the scenario's request + the scenario's own Lua + ``lua/done.lua``;
``done()`` prints one ``@@BENCH_RESULT {json}`` line, so nothing is scraped from wrk's text report.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.scenarios import UNIQUE

LUA_DIR = Path(__file__).parent / "lua"
RESULT_MARKER = "@@BENCH_RESULT "

# One wrk thread. The server is one Python process: it can use one of the 2 cores, and what loads it
# best is whatever keeps that core busy while taking the least from it. One wrk thread (C; static
# requests, or a tiny request() in LuaJIT) drives 8 connections with ~15% of the other core, far from
# being the bottleneck. Measured on this 2-core machine (12 interleaved 3 s pairs, real server):
# baseline 15.7k vs 15.1k req/s and server_ping 7.4k vs 7.6k req/s for 1 vs 2 threads, the server at
# 0.9-0.96 of a core either way: equal within noise. A second thread buys no load, only more context
# switches and CPU competing with the server on a shared machine, so one it is (--threads overrides).
DEFAULT_THREADS = 1


class WrkError(RuntimeError):
    """wrk failed to run or printed no result."""


@dataclass(frozen=True)
class Request:
    """A scenario's request with the ``${name}`` variables filled in (``{{unique}}`` may remain)."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: str | None


@dataclass(frozen=True)
class WrkResult:
    requests: int
    duration_us: int
    bytes: int
    errors: Mapping[str, int]
    latency_us: Mapping[str, float]
    # CPU time the server used during the run, all its processes together (set by the harness; None
    # where unknown).
    server_cpu_s: float | None = None
    # CPU time PostgreSQL's backends for the run's database used (PostgreSQL on this machine; else None).
    db_cpu_s: float | None = None
    # Statements the server ran during the run (livecore_server/statement_tally.py; None where not
    # counted).
    statements: int | None = None
    # Round trips the server waited for during the run (PostgreSQL: livecore_server/storage/postgres_tally.py;
    # else None).
    round_trips: int | None = None
    # Write transactions the server committed and retried (by cause) during the run (PostgreSQL's store,
    # livecore_server/statement_tally.py; else None).
    writes: int | None = None
    retries: int | None = None
    retried: Mapping[str, int] = field(default_factory=dict)
    # CPU time the latency proxy used during the run (--db-latency-ms; else None).
    proxy_cpu_s: float | None = None

    @property
    def rps(self) -> float:
        return self.requests / (self.duration_us / 1e6) if self.duration_us else 0.0

    @property
    def server_cpu_share(self) -> float | None:
        """Cores the server used (all its processes): well below 1 means one process was not the
        bottleneck."""
        if self.server_cpu_s is None or not self.duration_us:
            return None
        return self.server_cpu_s / (self.duration_us / 1e6)

    @property
    def cpu_us_per_request(self) -> float | None:
        """Server CPU per request: steadier than req/s when other work shares the machine."""
        if self.server_cpu_s is None or not self.requests:
            return None
        return self.server_cpu_s * 1e6 / self.requests

    @property
    def db_cpu_us_per_request(self) -> float | None:
        """PostgreSQL backend CPU per request: the database's share of the cost."""
        if self.db_cpu_s is None or not self.requests:
            return None
        return self.db_cpu_s * 1e6 / self.requests

    @property
    def statements_per_request(self) -> float | None:
        """Everything the server ran over the run, per request (commits and the webhook dispatcher
        included)."""
        if self.statements is None or not self.requests:
            return None
        return self.statements / self.requests

    @property
    def round_trips_per_request(self) -> float | None:
        """The times the server waited for PostgreSQL's answer over the run, per request."""
        if self.round_trips is None or not self.requests:
            return None
        return self.round_trips / self.requests

    @property
    def retries_per_write(self) -> float | None:
        """Write transactions run again per write committed (None where not counted or none written)."""
        if self.retries is None or not self.writes:
            return None
        return self.retries / self.writes

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    @property
    def failed(self) -> bool:
        """Error responses, socket errors, timeouts, or no request at all: the figures are worthless."""
        return self.error_count > 0 or self.requests == 0

    def to_json(self) -> dict[str, object]:
        return {
            "requests": self.requests,
            "duration_us": self.duration_us,
            "bytes": self.bytes,
            "rps": round(self.rps, 1),
            "errors": dict(self.errors),
            "latency_us": dict(self.latency_us),
            "server_cpu_s": self.server_cpu_s,
            "server_cpu_share": _round(self.server_cpu_share, 3),
            "cpu_us_per_request": _round(self.cpu_us_per_request, 1),
            "db_cpu_s": self.db_cpu_s,
            "db_cpu_us_per_request": _round(self.db_cpu_us_per_request, 1),
            "statements": self.statements,
            "statements_per_request": _round(self.statements_per_request, 3),
            "round_trips": self.round_trips,
            "round_trips_per_request": _round(self.round_trips_per_request, 3),
            "writes": self.writes,
            "retries": self.retries,
            "retried": dict(self.retried),
            "retries_percent": _round(
                None if self.retries_per_write is None else 100 * self.retries_per_write, 3
            ),
            "proxy_cpu_s": self.proxy_cpu_s,
        }


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def lua_string(text: str) -> str:
    """A Lua string literal of ``text`` (bytes outside printable ASCII as decimal escapes)."""
    out = []
    for byte in text.encode():
        char = chr(byte)
        if char in '"\\' or not 32 <= byte < 127:
            out.append(f"\\{byte:03d}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def lua_expr(text: str) -> str:
    """A Lua expression for ``text`` where each ``{{unique}}`` becomes the per-request id ``u``."""
    parts = text.split(UNIQUE)
    pieces: list[str] = []
    for i, part in enumerate(parts):
        if i:
            pieces.append("u")
        if part:
            pieces.append(lua_string(part))
    return " .. ".join(pieces) or '""'


def request_lua(request: Request) -> str:
    """Lua setting wrk's request; a ``request()`` function only when some field holds ``{{unique}}``."""
    lines = [f"wrk.method = {lua_string(request.method)}", f"wrk.path = {lua_string(request.path)}"]
    lines += [f"wrk.headers[{lua_string(k)}] = {lua_string(v)}" for k, v in request.headers.items()]
    if request.body is not None:
        lines.append(f"wrk.body = {lua_string(request.body)}")
    fields = [request.path, *request.headers.values(), request.body or ""]
    if any(UNIQUE in f for f in fields):
        headers = ", ".join(f"[{lua_string(k)}] = {lua_expr(v)}" for k, v in request.headers.items())
        body = "nil" if request.body is None else lua_expr(request.body)
        lines += [
            "request = function()",
            "   local u = unique_id()",
            f"   return wrk.format(nil, {lua_expr(request.path)}, {{{headers}}}, {body})",
            "end",
        ]
    return "\n".join(lines)


def lua_table(variables: Mapping[str, str]) -> str:
    """A Lua table constructor of ``variables``, in name order."""
    return "{" + ", ".join(f"[{lua_string(k)}] = {lua_string(v)}" for k, v in sorted(variables.items())) + "}"


def build_script(request: Request, *, nonce: str, variables: Mapping[str, str], extra_lua: str | None) -> str:
    parts = [
        f"BENCH_NONCE = {lua_string(nonce)}",
        f"vars = {lua_table(variables)}",
        (LUA_DIR / "unique.lua").read_text(),
        "-- request",
        request_lua(request),
    ]
    if extra_lua:
        parts += ["-- scenario lua", extra_lua]
    parts.append((LUA_DIR / "done.lua").read_text())
    return "\n".join(parts) + "\n"


def build_games_script(
    games: Sequence[tuple[Request, Mapping[str, str]]], *, nonce: str, extra_lua: str | None
) -> str:
    """The script of a scenario over several games (``--games``): each game's request (with its
    variables) and ``extra_lua`` run in a function of their own, and ``request()`` takes the games in turn
    (``lua/games.lua``). One game: :func:`build_script`'s script, unchanged."""
    if len(games) == 1:
        ((request, variables),) = games
        return build_script(request, nonce=nonce, variables=variables, extra_lua=extra_lua)
    parts = [
        f"BENCH_NONCE = {lua_string(nonce)}",
        (LUA_DIR / "unique.lua").read_text(),
        (LUA_DIR / "games.lua").read_text(),
    ]
    for request, variables in games:
        body = [
            f"local vars = {lua_table(variables)}",
            "local wrk = game_wrk()",
            "local request",
            "-- request",
            request_lua(request),
        ]
        if extra_lua:
            body += ["-- scenario lua", extra_lua]
        body.append("return request or static_request(wrk)")
        parts += ["add_game(function()", *body, "end)"]
    parts.append((LUA_DIR / "done.lua").read_text())
    return "\n".join(parts) + "\n"


def wrk_binary() -> str:
    found = shutil.which("wrk")
    if found is None:
        raise WrkError("wrk not found on PATH (Debian/Ubuntu: apt-get install wrk)")
    return found


def parse_result(stdout: str) -> WrkResult:
    for line in stdout.splitlines():
        if line.startswith(RESULT_MARKER):
            data = json.loads(line[len(RESULT_MARKER) :])
            return WrkResult(
                requests=data["requests"],
                duration_us=data["duration_us"],
                bytes=data["bytes"],
                errors=data["errors"],
                latency_us=data["latency_us"],
            )
    raise WrkError(f"wrk printed no {RESULT_MARKER.strip()} line:\n{stdout[-2000:]}")


def run(
    url: str, script: Path, *, seconds: int, connections: int, threads: int = DEFAULT_THREADS
) -> WrkResult:
    """One wrk run of ``seconds`` against ``url`` (scheme, host and port; the path is in the script)."""
    command = [
        wrk_binary(),
        f"--threads={threads}",
        f"--connections={connections}",
        f"--duration={seconds}s",
        "--timeout=10s",
        f"--script={script}",
        url,
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60, check=False)
    except subprocess.TimeoutExpired as exc:
        raise WrkError(f"wrk did not finish: {' '.join(command)}") from exc
    if done.returncode != 0:
        raise WrkError(f"wrk exited {done.returncode}: {' '.join(command)}\n{done.stderr}{done.stdout}")
    return parse_result(done.stdout)
