"""One benchmark run: a fresh database (SQLite file, or a PostgreSQL database made for the run), one
server process (or several on one port, on PostgreSQL), the scenarios interleaved over the rounds.

Round 1 runs every scenario for one slice (baseline first), then round 2 does the same, and so on,
so a slow spell of this shared machine hits every scenario alike instead of one scenario's rounds.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import platform
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from benchmarks import postgres, report, twins, wrk
from benchmarks.context import BenchContext
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

    @property
    def concurrency(self) -> int:
        """Setup requests in flight (``BenchContext.call_many``): 8 on SQLite; 1 on PostgreSQL, where
        concurrent setup writes on the fresh (tiny) tables lose serialization races beyond the server's
        retries and answer 500 (measured: ~1 in 10 at 8 in flight, none at 1). Setup is not measured; the
        rounds still run with every wrk connection at once, so such 500s there mark the scenario ERROR."""
        if self.setup_concurrency is not None:
            return self.setup_concurrency
        return 1 if self.store == "postgres" else 8


@dataclass
class Outcome:
    meta: dict[str, Any]
    rows: list[report.ScenarioFigures]
    errors: list[str]  # one line per slice with errors


@dataclass(frozen=True)
class Prepared:
    scenario: Scenario
    request: wrk.Request
    variables: Mapping[str, str]


def select(names: Sequence[str], store: str = "sqlite") -> list[Scenario]:
    """The scenarios to run, in registry order, the baseline always included and first, each with the
    targets of ``store`` (:meth:`Scenario.for_store`)."""
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        raise BenchError(f"unknown scenario(s) {', '.join(unknown)}; known: {', '.join(SCENARIOS)}")
    wanted = set(names) | {BASELINE} if names else set(SCENARIOS)
    chosen = [s.for_store(store) for s in SCENARIOS.values() if s.name in wanted]
    return sorted(chosen, key=lambda s: s.name != BASELINE)


def prepare(
    scenario: Scenario,
    base_url: str,
    client: httpx.Client,
    variables: Mapping[str, str],
    concurrency: int = 8,
) -> Prepared:
    ctx = BenchContext(base_url=base_url, client=client, vars=dict(variables), concurrency=concurrency)
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
    scenarios = select(options.scenarios, options.store)
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
    variables = manifest_vars(apply_manifest(options.manifest, db, env))
    # How long each scenario runs (warm-up + rounds), for setups that size a pool the run consumes.
    variables["run_seconds"] = str(options.warmup_s + options.rounds * options.slice_s)
    twinned = any(s.name in twins.TWINNED for s in scenarios)
    if twinned:
        # A twin takes from its scenario's pool too, and faster than livecore.
        variables["run_seconds"] = str(int(variables["run_seconds"]) * twins.POOL_FACTOR)
    # The run's database, for setups that seed more than requests could (benchmarks/seed.py).
    variables["db"] = str(db)
    extra = [] if options.db_pool is None else ["--db-pool", str(options.db_pool)]
    # One server process counts its statements (and PostgreSQL's round trips), for statements and round
    # trips per request (benchmarks/README.md).
    statement_file = work / "statements.json" if options.processes == 1 else None
    served = ServerProcess(
        db,
        work / "server.log",
        env,
        processes=options.processes,
        extra_args=extra,
        statement_file=statement_file,
    )
    with (
        served as server,
        httpx.Client(base_url=server.base_url, timeout=30.0) as client,
        backend_cpu(db, options) as db_cpu,
        # The PostgreSQL twin counts nothing (benchmarks/README.md, "Twins"): its DB CPU is its figure.
        twin_server(work, db, env, twinned, options.store == "sqlite") as twin,
    ):
        pids = ", ".join(str(pid) for pid in server.pids)
        log(f"bench: server on {server.base_url}, {len(server.pids)} process(es), pid {pids}")
        prepared = []
        for s in scenarios:
            started = time.monotonic()
            prepared.append(prepare(s, server.base_url, client, variables, options.concurrency))
            if s.setup is not None:
                log(f"setup {s.name}: {time.monotonic() - started:.1f} s")
        if twin is not None:
            log(f"bench: twins on {twin.base_url}, pid {twin.pids[0]}")
        return Slicer(work, options, server, client, log, db_cpu, twin).run(prepared)


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
        lua = wrk.build_script(
            p.request, nonce=secrets.token_hex(4), variables=p.variables, extra_lua=p.scenario.lua
        )
        script.write_text(lua)
        counts_before = server.counts()
        db_before = None if self.db_cpu is None else self.db_cpu.snapshot()
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
        db_after = None if self.db_cpu is None else self.db_cpu.snapshot()
        if not server.alive():
            raise BenchError(f"a server process died during {p.scenario.name}:\n{server.log_tail()}")
        counts_after = server.counts()
        if cpu_before is not None and cpu_after is not None:
            result = dataclasses.replace(result, server_cpu_s=round(cpu_after - cpu_before, 3))
        if counts_before is not None and counts_after is not None:
            (statements_before, trips_before), (statements_after, trips_after) = counts_before, counts_after
            trips = None if trips_before is None or trips_after is None else trips_after - trips_before
            result = dataclasses.replace(
                result, statements=statements_after - statements_before, round_trips=trips
            )
        db_spent = postgres.BackendCpu.spent(db_before, db_after)
        if db_spent is not None:
            result = dataclasses.replace(result, db_cpu_s=round(db_spent, 3))
        return result
