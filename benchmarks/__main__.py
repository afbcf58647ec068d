"""``python -m benchmarks``: run the scenarios against a fresh server and print the Markdown table."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

import psycopg

from benchmarks import postgres, report, twins, wrk
from benchmarks.harness import STORES, BenchError, Options, run
from benchmarks.latency_proxy import ProxyError
from benchmarks.scenarios import SCENARIOS
from benchmarks.server import ServerError

RESULTS = Path(__file__).parent / "results"


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive integer")
    return value


def not_negative(text: str) -> float:
    value = float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text} is not a number of milliseconds >= 0")
    return value


def key_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    return key, value


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Load a fresh livecore server with wrk; report each scenario against the baseline.",
    )
    p.add_argument("--rounds", type=positive, default=3, help="rounds of interleaved slices (default 3)")
    p.add_argument("--slice", type=positive, default=5, help="seconds per scenario per round (default 5)")
    p.add_argument(
        "--warmup", type=int, default=1, help="seconds of unmeasured load per scenario first (0: none)"
    )
    p.add_argument("--connections", type=positive, default=8, help="wrk connections (default 8)")
    p.add_argument("--threads", type=positive, default=wrk.DEFAULT_THREADS, help="wrk threads (default 1)")
    p.add_argument(
        "--scenario",
        action="append",
        default=[],
        metavar="NAME",
        help="run only this scenario (repeatable; the baseline always runs)",
    )
    p.add_argument("--json", type=Path, metavar="PATH", help="also write the figures as JSON here")
    p.add_argument(
        "--db-dir",
        type=Path,
        metavar="DIR",
        help="keep the DB, server log and wrk scripts in DIR/run-<time>-*/ (default: temp dir, removed)",
    )
    p.add_argument(
        "--server-env",
        action="append",
        type=key_value,
        default=[],
        metavar="KEY=VALUE",
        help="environment variable for the server process (repeatable), e.g. LIVECORE_EVENT_LOOP=asyncio",
    )
    p.add_argument(
        "--db",
        choices=STORES,
        default="sqlite",
        help="the store: a SQLite file (default), or a fresh PostgreSQL database on --pg-server, dropped "
        "at the end",
    )
    p.add_argument(
        "--pg-server",
        metavar="URL",
        help=f"PostgreSQL server to create the run's database on (default: ${postgres.SERVER_ENV}, else "
        f"{postgres.DEFAULT_SERVER})",
    )
    p.add_argument(
        "--processes",
        type=positive,
        default=1,
        help="server processes sharing one port (--reuse-port; more than 1 needs --db postgres)",
    )
    p.add_argument(
        "--db-pool", type=positive, metavar="N", help="PostgreSQL connections per server process (serve's)"
    )
    p.add_argument(
        "--games",
        type=positive,
        default=1,
        metavar="N",
        help="spread each scenario's players and requests over N copies of the bench game (default 1)",
    )
    p.add_argument(
        "--db-latency-ms",
        type=not_negative,
        default=0,
        metavar="X",
        help="PostgreSQL behind a proxy that delays each round trip by X ms, as a database on another host"
        " (default 0: direct)",
    )
    p.add_argument(
        "--setup-concurrency",
        type=positive,
        metavar="N",
        help="setup requests in flight (default 8)",
    )
    p.add_argument(
        "--profile",
        metavar="NAME",
        help="run scenario NAME (and the baseline), then one more slice of it with py-spy sampling the"
        " server: a flame graph in benchmarks/results/profile-NAME.svg",
    )
    p.add_argument("--list", action="store_true", help="list the scenarios and exit")
    return p


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = parser()
    args = p.parse_args(argv)
    if args.processes > 1 and args.db != "postgres":
        p.error("--processes above 1 runs several servers on one database: add --db postgres")
    if (args.pg_server is not None or args.db_pool is not None) and args.db != "postgres":
        p.error("--pg-server and --db-pool are for --db postgres")
    if args.db_latency_ms and args.db != "postgres":
        p.error("--db-latency-ms delays PostgreSQL's round trips: add --db postgres")
    if args.profile is not None:
        if args.scenario and args.scenario != [args.profile]:
            p.error("--profile NAME runs scenario NAME only: leave --scenario out")
        if args.processes != 1:
            p.error("--profile records one server process")
        args.scenario = [args.profile]
    return args


def _targets(ratio: float | None, p99: float | None) -> str:
    parts = ([] if ratio is None else [f">= {ratio:.2f}"]) + ([] if p99 is None else [f"p99 <= {p99:g} ms"])
    return ", ".join(parts) or "-"


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    # Ctrl-C, and a SIGTERM from nox or CI, unwind normally, so the server is stopped and the temp dir
    # removed (SIGINT may arrive ignored when started in the background: restore the default).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _stop)
    if args.list:
        for s in SCENARIOS.values():
            print(f"{s.name:24} {s.method:6} {s.path}  {s.description}")
            sqlite = _targets(s.target_ratio, s.max_p99_ms)
            pg = _targets(s.postgres_target_ratio, s.postgres_max_p99_ms)
            if s.name in twins.TWINNED:  # on both stores
                twin = f">= {twins.TARGET:.2f} of its twin"
                sqlite, pg = (twin if t == "-" else f"{t}, {twin}" for t in (sqlite, pg))
            single = "" if s.many_games else "; one game only (no --games)"
            print(f"{'':24} targets: SQLite {sqlite}; PostgreSQL {pg}{single}")
        return 0
    options = Options(
        rounds=args.rounds,
        slice_s=args.slice,
        warmup_s=max(args.warmup, 0),
        connections=args.connections,
        threads=args.threads,
        scenarios=args.scenario,
        db_dir=args.db_dir,
        server_env=dict(args.server_env),
        store=args.db,
        pg_server=args.pg_server,
        processes=args.processes,
        db_pool=args.db_pool,
        setup_concurrency=args.setup_concurrency,
        profile=None if args.profile is None else RESULTS / f"profile-{args.profile}.svg",
        games=args.games,
        db_latency_ms=args.db_latency_ms,
    )
    try:
        outcome = run(options)
    except (BenchError, ServerError, ProxyError, wrk.WrkError, postgres.PostgresError, psycopg.Error) as exc:
        print(f"bench: FAILED: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("bench: interrupted; server stopped", file=sys.stderr)
        return 130

    env = " ".join(f"{k}={v}" for k, v in outcome.meta["server_env"].items()) or "default"
    store = "SQLite" if options.store == "sqlite" else "PostgreSQL"
    pool = "" if options.db_pool is None else f", --db-pool {options.db_pool}"
    games = f", {options.games} game(s)"
    latency = f", DB latency +{options.db_latency_ms:g} ms a round trip" if options.db_latency_ms else ""
    print(
        f"\n{store}, {options.processes} server process(es){pool}{games}{latency}; {options.rounds} rounds x "
        f"{options.slice_s} s slices, {options.connections} connections, wrk threads {options.threads}, "
        f"server env: {env}\n"
    )
    print(report.markdown(outcome.rows))
    for note in report.notes(outcome.rows):
        print(f"\n{note}")
    if args.json is not None:
        report.write_json(args.json, report.document(outcome.meta, outcome.rows, outcome.errors))
        print(f"\nJSON: {args.json}")
    if outcome.errors:
        print(
            f"\nbench: {len(outcome.errors)} slice(s) had errors; the ERROR rows are worthless.",
            file=sys.stderr,
        )
        for message in outcome.errors:
            print(message, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
