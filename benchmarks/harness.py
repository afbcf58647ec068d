"""One benchmark run: a fresh database (SQLite file, or a PostgreSQL database made for the run), one
server process (or several on one port, on PostgreSQL), the scenarios interleaved over the rounds; each
scenario in one game, or spread over several (``--games``); on PostgreSQL, optionally behind a proxy that
delays each round trip (``--db-latency-ms``).

Round 1 runs every scenario for one slice (baseline first), then round 2 does the same, and so on,
so a slow spell of this shared machine hits every scenario alike instead of one scenario's rounds.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import platform
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from copy import deepcopy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from benchmarks import postgres, report, twins, wrk
from benchmarks.context import BenchContext
from benchmarks.latency_proxy import HOST as PROXY_HOST
from benchmarks.latency_proxy import LatencyProxy
from benchmarks.scenarios import BASELINE, SCENARIOS, UNIQUE, Scenario
from benchmarks.server import (
    SECRET_KEY_ENV,
    ServerProcess,
    apply_manifest,
    fresh_secret_key,
    manifest_vars,
    server_env,
)

MANIFEST = Path(__file__).parent / "manifest.toml"
REPO = Path(__file__).resolve().parent.parent
# The manifest's game, which --games copies: bench, bench-2, bench-3, ...
GAME = "bench"

Log = Callable[[str], None]
STORES = ("sqlite", "postgres")


class BenchError(RuntimeError):
    """The run cannot give meaningful figures."""


@dataclass(frozen=True)
class Options:
    rounds: int = 3
    slice_s: int = 5
    warmup_s: int = 1
    connections: int = 8
    threads: int = wrk.DEFAULT_THREADS
    scenarios: Sequence[str] = ()  # empty: all registered
    db_dir: Path | None = None
    server_env: Mapping[str, str] = field(default_factory=dict)
    manifest: Path = MANIFEST
    store: str = "sqlite"  # or "postgres": a fresh database on pg_server, dropped at the end
    pg_server: str | None = None  # None: $LIVECORE_BENCH_POSTGRES, else postgres.DEFAULT_SERVER
    processes: int = 1  # server processes on one port (--reuse-port); more than 1 needs PostgreSQL
    db_pool: int | None = None  # serve --db-pool (PostgreSQL connections per process); None: its default
    setup_concurrency: int | None = None  # setup requests in flight; None: the store's (see concurrency)
    profile: Path | None = None  # record the server under py-spy during one more slice, as a flame graph
    games: int = 1  # each scenario spread over this many copies of the manifest's game
    db_latency_ms: float = 0  # PostgreSQL behind a proxy delaying each round trip this much (0: direct)

    def check(self) -> None:
        if self.store not in STORES:
            raise BenchError(f"unknown store {self.store!r}: {' or '.join(STORES)}")
        if self.processes < 1:
            raise BenchError("processes must be at least 1")
        if self.processes > 1 and self.store != "postgres":
            raise BenchError("several server processes share one database: use PostgreSQL (--db postgres)")
        if self.db_pool is not None and self.store != "postgres":
            raise BenchError("--db-pool sizes the PostgreSQL connection pool: use --db postgres")
        if self.setup_concurrency is not None and self.setup_concurrency < 1:
            raise BenchError("setup concurrency must be at least 1")
        if self.profile is not None and (self.processes != 1 or len(self.scenarios) != 1):
            raise BenchError("--profile records one scenario on one server process")
        if self.games < 1:
            raise BenchError("games must be at least 1")
        if self.db_latency_ms < 0:
            raise BenchError("--db-latency-ms cannot be negative")
        if self.db_latency_ms and self.store != "postgres":
            raise BenchError("--db-latency-ms delays PostgreSQL's round trips: use --db postgres")

    @property
    def concurrency(self) -> int:
        """Setup requests in flight (``BenchContext.call_many``), 8 unless told, on either store: a game's
        writes wait for each other only where they share a row (benchmarks/README.md, "On PostgreSQL")."""
        return 8 if self.setup_concurrency is None else self.setup_concurrency


@dataclass
class Outcome:
    meta: dict[str, Any]
    rows: list[report.ScenarioFigures]
    errors: list[str]  # one line per slice with errors


@dataclass(frozen=True)
class Prepared:
    """A scenario ready to load: its request and variables in the run's first game, and in each of its
    other games (``--games``), which wrk's requests take in turn."""

    scenario: Scenario
    request: wrk.Request
    variables: Mapping[str, str]
    others: tuple[tuple[wrk.Request, Mapping[str, str]], ...] = ()

    @property
    def games(self) -> list[tuple[wrk.Request, Mapping[str, str]]]:
        return [(self.request, self.variables), *self.others]


def select(names: Sequence[str], store: str = "sqlite", games: int = 1) -> list[Scenario]:
    """The scenarios to run, in registry order, the baseline always included and first, each with the
    targets of ``store`` (:meth:`Scenario.for_store`). Over several ``games``, only scenarios that can be
    spread (``Scenario.many_games``): asking for others is an error."""
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        raise BenchError(f"unknown scenario(s) {', '.join(unknown)}; known: {', '.join(SCENARIOS)}")
    wanted = set(names) | {BASELINE} if names else set(SCENARIOS)
    chosen = [s.for_store(store) for s in SCENARIOS.values() if s.name in wanted]
    if games > 1:
        single = [s.name for s in chosen if not s.many_games]
        if single:
            spread = [s.name for s in SCENARIOS.values() if s.many_games and s.name != BASELINE]
            raise BenchError(
                f"--games {games}: {', '.join(single)} read(s) one board of a set size and run(s) in one game"
                f" only; choose among {', '.join(spread)} with --scenario"
            )
    return sorted(chosen, key=lambda s: s.name != BASELINE)


def game_names(games: int) -> list[str]:
    """The run's games: the manifest's, then its copies (``--games``)."""
    return [GAME] + [f"{GAME}-{i}" for i in range(2, games + 1)]


def many_games_manifest(source: Path, games: int) -> str:
    """``source`` with its one game (``[games.bench]`` and every table under it, to the end of the file)
    copied ``games`` times, as ``bench``, ``bench-2``, ...: each copy mints its own API keys, and gifting's
    cooldown is 0 s in all. A game of 80 / games gifters has too few pairs to keep one out of the 1 s
    cooldown at the rates measured; a send still runs the same read of the cooldown window and the day's
    count, it just cannot be refused. Each copy is checked to parse to the game as changed here."""
    text = source.read_text()
    original = tomllib.loads(text)
    if list(original.get("games", {})) != [GAME]:
        raise BenchError(f"{source}: --games copies a manifest of one game, {GAME!r}")
    start = text.find(f"\n[games.{GAME}]\n")
    if start < 0:
        raise BenchError(f"{source}: no [games.{GAME}] table for --games to copy")
    head, block = text[: start + 1], text[start + 1 :]
    copies = []
    for i, name in enumerate(game_names(games), 1):
        copy = re.sub(rf"^(\[\[?)games\.{GAME}([.\]])", rf"\g<1>games.{name}\g<2>", block, flags=re.M)
        copy = re.sub(r"^cooldown_seconds = \d+$", "cooldown_seconds = 0", copy, count=1, flags=re.M)
        if i > 1:
            copy = copy.replace('\nname = "Bench"\n', f'\nname = "Bench {i}"\n', 1)
        copies.append(copy)
    out = head + "\n".join(copies)
    parsed = tomllib.loads(out)["games"]
    for i, name in enumerate(game_names(games), 1):
        expected = deepcopy(original["games"][GAME])
        expected["gifting"]["cooldown_seconds"] = 0
        if i > 1:
            expected["name"] = f"Bench {i}"
        if parsed.get(name) != expected:
            raise BenchError(
                f"{source}: its game did not copy as {name} (--games): a table outside the game?"
            )
    return out


def proxied(url: str, port: int) -> str:
    """``url`` (``postgresql://...``) through the latency proxy on this host's ``port``."""
    parts = urlsplit(url)
    credentials, at, _ = parts.netloc.rpartition("@")
    return urlunsplit(parts._replace(netloc=f"{credentials}{at}{PROXY_HOST}:{port}"))


def prepare(
    scenario: Scenario,
    base_url: str,
    client: httpx.Client,
    variables: Mapping[str, str],
    concurrency: int = 8,
    games: int = 1,
) -> Prepared:
    """Run ``scenario``'s setup in the game of ``variables`` (its share of ``games``) and fill in its
    request."""
    ctx = BenchContext(
        base_url=base_url, client=client, vars=dict(variables), concurrency=concurrency, games=games
    )
    if scenario.setup is not None:
        try:
            scenario.setup(ctx)
        except Exception as exc:
            raise BenchError(f"setup of {scenario.name} failed: {exc}") from exc
    request = wrk.Request(
        method=scenario.method,
        path=ctx.render(scenario.path),
        headers={k: ctx.render(v) for k, v in scenario.headers.items()},
        body=None if scenario.body is None else ctx.render(scenario.body),
    )
    return Prepared(scenario, request, dict(ctx.vars))


def prepare_games(
    scenario: Scenario,
    base_url: str,
    client: httpx.Client,
    games: Sequence[Mapping[str, str]],
    concurrency: int = 8,
) -> Prepared:
    """:func:`prepare` in each game (the variables of each), one :class:`Prepared` over all of them. A
    request the same in every game without Lua (the baseline's) stays one: wrk sends it as it is."""
    each = [prepare(scenario, base_url, client, v, concurrency, len(games)) for v in games]
    first, rest = each[0], each[1:]
    if scenario.lua is None and all(p.request == first.request for p in rest):
        return first
    return dataclasses.replace(first, others=tuple((p.request, p.variables) for p in rest))


def probe(prepared: Prepared, client: httpx.Client) -> str:
    """Send the scenario's request once (``{{unique}}`` filled) and describe the answer."""
    unique = f"probe-{secrets.token_hex(4)}"
    req = prepared.request
    try:
        response = client.request(
            req.method,
            req.path.replace(UNIQUE, unique),
            headers={k: v.replace(UNIQUE, unique) for k, v in req.headers.items()},
            content=None if req.body is None else req.body.replace(UNIQUE, unique).encode(),
        )
    except httpx.HTTPError as exc:
        return f"probe {req.method} {req.path}: {exc!r}"
    note = " (custom Lua: the probe sends the static request only)" if prepared.scenario.lua else ""
    return f"probe {req.method} {req.path} -> {response.status_code}{note}: {response.text[:500]}"


def error_summary(result: wrk.WrkResult) -> str:
    errors = ", ".join(f"{k}={v}" for k, v in result.errors.items() if v) or "no request completed"
    return f"{errors} out of {result.requests} requests"


def loud(where: str, result: wrk.WrkResult, probed: str, consequence: str) -> str:
    bar = "!" * 78
    return (
        f"\n{bar}\n!!! ERROR in {where}: {error_summary(result)}.\n"
        f"!!! Figures of error responses are worthless; {consequence}.\n!!! {probed}\n{bar}"
    )


def describe(result: wrk.WrkResult) -> str:
    lat = result.latency_us
    share = result.server_cpu_share
    cpu = "" if share is None else f", server CPU {share:.0%}"
    return f"{result.rps:.0f} req/s, p50 {lat['p50'] / 1000:.2f} ms, p99 {lat['p99'] / 1000:.2f} ms{cpu}"


def git_commit() -> str | None:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, timeout=10, check=False
        )
    except OSError:
        return None
    return done.stdout.strip() or None


def meta(options: Options, scenarios: Sequence[Scenario]) -> dict[str, Any]:
    return {
        "started_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "git_commit": git_commit(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "loadavg_start": list(os.getloadavg()),
        "rounds": options.rounds,
        "slice_s": options.slice_s,
        "warmup_s": options.warmup_s,
        "connections": options.connections,
        "wrk_threads": options.threads,
        "server_env": {k: "***" if k == SECRET_KEY_ENV else v for k, v in options.server_env.items()},
        "store": options.store,
        "processes": options.processes,
        "db_pool": options.db_pool,
        "setup_concurrency": options.concurrency,
        "games": options.games,
        "db_latency_ms": options.db_latency_ms,
        "pg_server": postgres.redact(pg_server(options)) if options.store == "postgres" else None,
        "scenarios": [s.name for s in scenarios],
    }


def pg_server(options: Options) -> str:
    return options.pg_server or postgres.default_server()


def workdir(db_dir: Path | None) -> Path:
    if db_dir is None:
        return Path(tempfile.mkdtemp(prefix="livecore-bench-"))
    db_dir.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=dt.datetime.now().strftime("run-%Y%m%d-%H%M%S-"), dir=db_dir))


def run(options: Options, log: Log = lambda line: print(line, file=sys.stderr, flush=True)) -> Outcome:
    options.check()
    wrk.wrk_binary()  # before minutes of setup: a missing wrk fails the run at once
    scenarios = select(options.scenarios, options.store, options.games)
    info = meta(options, scenarios)
    work = workdir(options.db_dir)
    try:
        log(f"bench: work dir {work}")
        with database(work, options, log) as db:
            info["database"] = postgres.redact(db) if options.store == "postgres" else "sqlite"
            results, errors = _run_in(work, db, options, scenarios, log)
    finally:
        if options.db_dir is None:
            shutil.rmtree(work, ignore_errors=True)
    info["loadavg_end"] = list(os.getloadavg())
    return Outcome(meta=info, rows=report.figures(scenarios, results), errors=errors)


@contextmanager
def database(work: Path, options: Options, log: Log) -> Iterator[str]:
    """The run's database as ``serve --db`` takes it: a SQLite file in the work dir (removed with it), or
    a fresh PostgreSQL database, dropped when the run ends however it ends (after the servers stop)."""
    if options.store == "sqlite":
        yield str(work / "bench.db")
        return
    with postgres.BenchDatabase(pg_server(options)) as db:
        log(f"bench: PostgreSQL database {db.name} on {postgres.redact(db.server)}")
        try:
            yield db.url
        finally:
            log(f"bench: dropping database {db.name}")


def _run_in(
    work: Path, db: str, options: Options, scenarios: Sequence[Scenario], log: Log
) -> tuple[dict[str, list[wrk.WrkResult]], list[str]]:
    overrides = dict(options.server_env)
    if options.store == "postgres":
        # Every process of one deployment shares the server key; without it each would make its own.
        overrides.setdefault(SECRET_KEY_ENV, fresh_secret_key())
    env = server_env(overrides)
    manifest = options.manifest
    if options.games > 1:
        manifest = work / "manifest.toml"
        manifest.write_text(many_games_manifest(options.manifest, options.games))
    with latency_proxy(work, db, options, log) as proxy:
        # The server processes, apply and the twins reach PostgreSQL through the proxy; the harness's own
        # connections (seeding, backend CPU) go direct.
        served_db = db if proxy is None else proxied(db, proxy.port)
        applied = apply_manifest(manifest, served_db, env)
        games = [manifest_vars(applied, name) for name in game_names(options.games)]
        # How long each scenario runs (warm-up + rounds), for setups that size a pool the run consumes.
        run_seconds = options.warmup_s + options.rounds * options.slice_s
        # Over several games the twins are left out (benchmarks/README.md, "One game or many").
        twinned = options.games == 1 and any(s.name in twins.TWINNED for s in scenarios)
        if twinned:
            # A twin takes from its scenario's pool too, and faster than livecore.
            run_seconds *= twins.POOL_FACTOR
        for variables in games:
            variables["run_seconds"] = str(run_seconds)
            # The run's database, for setups that seed more than requests could (benchmarks/seed.py).
            variables["db"] = str(db)
        extra = [] if options.db_pool is None else ["--db-pool", str(options.db_pool)]
        # Each server process counts its statements (and PostgreSQL's round trips and retried writes),
        # for the per-request figures (benchmarks/README.md); the harness sums them over the processes.
        served = ServerProcess(
            served_db,
            work / "server.log",
            env,
            processes=options.processes,
            extra_args=extra,
            statement_file=work / "statements.json",
        )
        with (
            served as server,
            httpx.Client(base_url=server.base_url, timeout=30.0) as client,
            backend_cpu(db, options) as db_cpu,
            # The PostgreSQL twin counts nothing (benchmarks/README.md, "Twins"): its DB CPU is its figure.
            twin_server(work, served_db, env, twinned, options.store == "sqlite") as twin,
        ):
            pids = ", ".join(str(pid) for pid in server.pids)
            log(f"bench: server on {server.base_url}, {len(server.pids)} process(es), pid {pids}")
            if options.games > 1 and any(s.name in twins.TWINNED for s in scenarios):
                log(f"bench: --games {options.games}: the twins are left out")
            prepared = []
            for s in scenarios:
                started = time.monotonic()
                prepared.append(prepare_games(s, server.base_url, client, games, options.concurrency))
                if s.setup is not None:
                    spread = "" if options.games == 1 else f" ({options.games} games)"
                    log(f"setup {s.name}: {time.monotonic() - started:.1f} s{spread}")
            if twin is not None:
                log(f"bench: twins on {twin.base_url}, pid {twin.pids[0]}")
            if proxy is not None:
                # Setup ran at full speed; the warm-up and the rounds pay the delay.
                proxy.arm()
                log(f"bench: latency proxy armed: {options.db_latency_ms:g} ms a round trip")
            return Slicer(work, options, server, client, log, db_cpu, twin, proxy).run(prepared)


@contextmanager
def latency_proxy(work: Path, db: str, options: Options, log: Log) -> Iterator[LatencyProxy | None]:
    """The proxy delaying PostgreSQL's round trips (``--db-latency-ms``), unarmed, or None."""
    if not options.db_latency_ms:
        yield None
        return
    target = urlsplit(db)
    host, port = target.hostname or "127.0.0.1", target.port or 5432
    with LatencyProxy(host, port, options.db_latency_ms, work / "latency-proxy.log") as proxy:
        log(f"bench: latency proxy on port {proxy.port} to {host}:{port}, pid {proxy.pid}")
        yield proxy


@contextmanager
def twin_server(
    work: Path, db: str, env: Mapping[str, str], wanted: bool, counted: bool = True
) -> Iterator[ServerProcess | None]:
    """The twins' server (benchmarks/twins/) on the run's database, after livecore's made it; counting its
    statements as livecore's when ``counted`` (SQLite)."""
    if not wanted:
        yield None
        return
    tally = work / "twin-statements.json" if counted else None
    with twins.TwinProcess(db, work / "twins.log", env, tally) as served:
        yield served


@contextmanager
def backend_cpu(db: str, options: Options) -> Iterator[postgres.BackendCpu | None]:
    if options.store != "postgres":
        yield None
        return
    with postgres.BackendCpu(db) as monitor:
        yield monitor


@dataclass
class Slicer:
    """Runs the warm-up and the interleaved rounds against a ready server."""

    work: Path
    options: Options
    server: ServerProcess
    client: httpx.Client
    log: Log
    db_cpu: postgres.BackendCpu | None = None
    # The twins' server: each twinned scenario's slice is followed by its twin's.
    twin: ServerProcess | None = None
    # The proxy delaying PostgreSQL's round trips (--db-latency-ms): its CPU is read per slice.
    proxy: LatencyProxy | None = None

    def run(self, prepared: Sequence[Prepared]) -> tuple[dict[str, list[wrk.WrkResult]], list[str]]:
        results: dict[str, list[wrk.WrkResult]] = {p.scenario.name: [] for p in prepared}
        errors: list[str] = []
        if self.options.warmup_s > 0:
            for p in prepared:
                for name, server in self.targets(p):
                    result = self.slice(p, self.options.warmup_s, server)
                    self.log(f"warm-up {name}: {describe(result)}")
                    if result.failed:
                        where = f"warm-up of {name}"
                        raise BenchError(loud(where, result, self.probe(p, server), "the run stops here"))
        rounds = self.options.rounds
        for round_no in range(1, rounds + 1):
            for p in prepared:
                for name, server in self.targets(p):
                    result = self.slice(p, self.options.slice_s, server)
                    results.setdefault(name, []).append(result)
                    self.log(f"round {round_no}/{rounds} {name}: {describe(result)}")
                    if result.failed:
                        where = f"round {round_no} of {name}"
                        probed = self.probe(p, server)
                        errors.append(f"{where}: {error_summary(result)}; {probed}")
                        self.log(loud(where, result, probed, "this scenario is marked ERROR"))
        if self.options.profile is not None:
            self.profile(prepared[-1], self.options.profile)
        return results, errors

    def profile(self, p: Prepared, out: Path) -> None:
        """One more slice of ``p`` with py-spy sampling the server process: an SVG flame graph at ``out``
        (benchmarks/README.md, "Profiling"). Sampling slows the server: this slice's figures are not
        reported."""
        spy = shutil.which("py-spy") or shutil.which("py-spy", path=str(Path(sys.executable).parent))
        if spy is None:
            raise BenchError("py-spy not found: pip install py-spy (the dev extra has it)")
        out.parent.mkdir(parents=True, exist_ok=True)
        seconds = self.options.slice_s
        recorder = subprocess.Popen(
            [
                spy,
                "record",
                "--pid",
                str(self.server.pids[0]),
                "--duration",
                str(seconds),
                "--rate",
                "250",
                "--nonblocking",  # never pauses the server to read its stacks
                "--format",
                "flamegraph",
                "--output",
                str(out),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        result = self.slice(p, seconds)
        try:
            _, err = recorder.communicate(timeout=seconds + 60)
        except subprocess.TimeoutExpired:
            recorder.kill()
            raise BenchError("py-spy did not finish") from None
        if recorder.returncode != 0 or not out.exists():
            raise BenchError(f"py-spy failed ({recorder.returncode}): {err.decode(errors='replace')[-500:]}")
        self.log(f"profile {p.scenario.name}: {describe(result)} under py-spy; flame graph {out}")

    def probe(self, p: Prepared, server: ServerProcess) -> str:
        """livecore's answer to the scenario's request, or the end of the twins' log for a twin."""
        if server is self.server:
            return probe(p, self.client)
        return f"the twins' log ends:\n{server.log_tail(10)}"

    def targets(self, p: Prepared) -> list[tuple[str, ServerProcess]]:
        """Where ``p``'s slices go, under the names its results take: livecore's server, then the
        scenario's twin (``<name>@twin``, report.TWIN_SUFFIX) when it has one."""
        out = [(p.scenario.name, self.server)]
        if self.twin is not None and p.scenario.name in twins.TWINNED:
            out.append((p.scenario.name + report.TWIN_SUFFIX, self.twin))
        return out

    def slice(self, p: Prepared, seconds: int, server: ServerProcess | None = None) -> wrk.WrkResult:
        """One wrk run of one scenario (against ``server``, livecore's by default), with a fresh nonce for
        its unique ids."""
        server = server or self.server
        script = self.work / f"{p.scenario.name}.lua"
        lua = wrk.build_games_script(p.games, nonce=secrets.token_hex(4), extra_lua=p.scenario.lua)
        script.write_text(lua)
        counts_before = server.counts()
        db_before = None if self.db_cpu is None else self.db_cpu.snapshot()
        proxy_before = None if self.proxy is None else self.proxy.cpu_seconds()
        cpu_before = server.cpu_seconds()
        connections = p.scenario.connections or self.options.connections
        result = wrk.run(
            server.base_url,
            script,
            seconds=seconds,
            connections=connections,
            threads=min(self.options.threads, connections),
        )
        cpu_after = server.cpu_seconds()
        proxy_after = None if self.proxy is None else self.proxy.cpu_seconds()
        db_after = None if self.db_cpu is None else self.db_cpu.snapshot()
        if not server.alive():
            raise BenchError(f"a server process died during {p.scenario.name}:\n{server.log_tail()}")
        if self.proxy is not None and not self.proxy.alive():
            raise BenchError(f"the latency proxy died during {p.scenario.name}")
        counts_after = server.counts()
        if cpu_before is not None and cpu_after is not None:
            result = dataclasses.replace(result, server_cpu_s=round(cpu_after - cpu_before, 3))
        if proxy_before is not None and proxy_after is not None:
            result = dataclasses.replace(result, proxy_cpu_s=round(proxy_after - proxy_before, 3))
        if counts_before is not None and counts_after is not None:
            counted = counts_after - counts_before
            result = dataclasses.replace(
                result,
                statements=counted.statements,
                round_trips=counted.round_trips,
                writes=counted.writes,
                retries=counted.retries,
                retried=counted.retried,
            )
        db_spent = postgres.BackendCpu.spent(db_before, db_after)
        if db_spent is not None:
            result = dataclasses.replace(result, db_cpu_s=round(db_spent, 3))
        return result
