"""``python -m benchmarks``: run the scenarios against a fresh server and print the Markdown table."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from benchmarks import report, wrk
from benchmarks.harness import BenchError, Options, run
from benchmarks.scenarios import SCENARIOS
from benchmarks.server import ServerError


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive integer")
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
    p.add_argument("--list", action="store_true", help="list the scenarios and exit")
    return p


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    # Ctrl-C, and a SIGTERM from nox or CI, unwind normally, so the server is stopped and the temp dir
    # removed (SIGINT may arrive ignored when started in the background: restore the default).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _stop)
    if args.list:
        for s in SCENARIOS.values():
            print(f"{s.name:24} {s.method:6} {s.path}  {s.description}")
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
    )
    try:
        outcome = run(options)
    except (BenchError, ServerError, wrk.WrkError) as exc:
        print(f"bench: FAILED: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("bench: interrupted; server stopped", file=sys.stderr)
        return 130

    env = " ".join(f"{k}={v}" for k, v in options.server_env.items()) or "default"
    print(
        f"\n{options.rounds} rounds x {options.slice_s} s slices, {options.connections} connections, "
        f"wrk threads {options.threads}, server env: {env}\n"
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
