"""``python -m benchmarks.alternate``: two versions of the server measured alternately in one run.

Each side is a git ref, exported (``git archive``) into a temporary directory, or ``worktree``, this
checkout as it is. Every round runs the harness once per side, before then after, each a whole
``python -m benchmarks --rounds 1`` of its own (a fresh database, its setup, the baseline and the twins),
so a slow spell of the shared machine hits both sides alike. The harness, scenarios and twins are this
checkout's for both sides, so both are measured the same way; the server (``livecore`` and
``livecore_server``) is each side's own: the side's directory comes first on ``PYTHONPATH``, and the
``livecore-server`` this interpreter's environment installed imports from it.

The report: per scenario and side, the medians over the rounds of req/s, the ratio to bare, the ratio to
the twin, statements, round trips (PostgreSQL) and server CPU a request, and the worst p99; plus the
JSON of every round.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.report import write_json

BENCHMARKS = Path(__file__).parent
REPO = BENCHMARKS.resolve().parent
WORKTREE = "worktree"

Log = Callable[[str], None]


class AlternateError(RuntimeError):
    """A side could not be prepared."""


@dataclass(frozen=True)
class Side:
    label: str  # "before" or "after"
    ref: str  # a git ref, or WORKTREE
    code: Path  # the directory holding its livecore and livecore_server
    commit: str | None


def resolve(ref: str) -> str | None:
    if ref == WORKTREE:
        return None
    done = subprocess.run(
        ["git", "rev-parse", "--verify", f"{ref}^{{commit}}"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise AlternateError(f"unknown git ref {ref!r}: {done.stderr.strip()}")
    return done.stdout.strip()


def export(commit: str, into: Path) -> None:
    """The commit's files under ``into`` (``git archive``: no worktree registered, nothing to clean but
    the directory)."""
    done = subprocess.run(
        ["git", "archive", "--format=tar", commit], cwd=REPO, capture_output=True, check=False
    )
    if done.returncode != 0:
        raise AlternateError(f"git archive {commit} failed: {done.stderr.decode(errors='replace')}")
    into.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as tar:
        tar.extractall(into, filter="data")


@contextmanager
def sides(before: str, after: str, log: Log) -> Iterator[tuple[Path, list[Side]]]:
    """Both sides ready, and a directory holding only this checkout's ``benchmarks`` package (a link), to
    put first on ``PYTHONPATH``; everything removed at the end."""
    tmp = Path(tempfile.mkdtemp(prefix="livecore-alternate-"))
    try:
        harness = tmp / "harness"
        harness.mkdir()
        (harness / "benchmarks").symlink_to(BENCHMARKS.resolve(), target_is_directory=True)
        out = []
        for label, ref in (("before", before), ("after", after)):
            commit = resolve(ref)
            if commit is None:
                code = REPO
            else:
                code = tmp / label
                export(commit, code)
            log(f"alternate: {label} = {ref} ({commit or 'this checkout'}) in {code}")
            out.append(Side(label, ref, code, commit))
        yield harness, out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def bench_command(options: argparse.Namespace, json_path: Path) -> list[str]:
    command = [sys.executable, "-m", "benchmarks", "--rounds", "1", "--json", str(json_path)]
    command += ["--slice", str(options.slice), "--warmup", str(options.warmup)]
    command += ["--connections", str(options.connections)]
    command += ["--db", options.db, "--processes", str(options.processes)]
    command += ["--games", str(options.games), "--db-latency-ms", str(options.db_latency_ms)]
    if options.db_pool is not None:
        command += ["--db-pool", str(options.db_pool)]
    for name in options.scenario:
        command += ["--scenario", name]
    return command


def side_env(side: Side, harness: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(harness), str(side.code)])}
    env.pop("PYTHONHOME", None)
    return env


def served_from(side: Side, harness: Path) -> str:
    """Where the side's ``livecore_server`` is imported from, as its harness run will import it."""
    with tempfile.TemporaryDirectory(prefix="livecore-alternate-cwd-") as cwd:
        done = subprocess.run(
            [sys.executable, "-c", "import livecore_server; print(livecore_server.__file__)"],
            cwd=cwd,
            env=side_env(side, harness),
            capture_output=True,
            text=True,
            check=False,
        )
    if done.returncode != 0:
        raise AlternateError(f"{side.label}: cannot import livecore_server: {done.stderr[-2000:]}")
    return str(Path(done.stdout.strip()).parent.parent)


def run_side(
    side: Side, harness: Path, options: argparse.Namespace, json_path: Path, log: Log
) -> dict[str, Any]:
    env = side_env(side, harness)
    with tempfile.TemporaryDirectory(prefix="livecore-alternate-cwd-") as cwd:
        # Run from an empty directory: the working directory comes first on sys.path.
        done = subprocess.run(
            bench_command(options, json_path), cwd=cwd, env=env, capture_output=True, text=True
        )
    if not json_path.exists():
        raise AlternateError(
            f"{side.label}: the harness wrote no JSON (exit {done.returncode}):\n{done.stderr[-3000:]}"
        )
    doc: dict[str, Any] = json.loads(json_path.read_text())
    doc["exit_code"] = done.returncode
    if done.returncode != 0:
        log(f"alternate: {side.label} exited {done.returncode}: {done.stderr.strip().splitlines()[-1:]}")
    return doc


FIGURES = (
    ("rps_median", "req/s", ".0f"),
    ("ratio", "vs bare", ".3f"),
    ("ratio_to_twin", "vs twin", ".2f"),
    ("statements_per_request_median", "statements/req", ".1f"),
    ("round_trips_per_request_median", "round trips/req", ".2f"),
    ("cpu_us_per_request_median", "CPU µs/req", ".0f"),
    ("p99_ms_worst", "p99 ms", ".1f"),
)


def _median(values: Sequence[Any]) -> float | None:
    known = [v for v in values if isinstance(v, int | float)]
    return statistics.median(known) if known else None


def summarize(rounds: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, dict[str, dict[str, Any]]]:
    """Per scenario, per side: each figure's median over the rounds (the worst for p99)."""
    names: list[str] = []
    for docs in rounds.values():
        for doc in docs:
            names += [n for n in doc["scenarios"] if n not in names]
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for name in names:
        out[name] = {}
        for label, docs in rounds.items():
            found = [doc["scenarios"][name] for doc in docs if name in doc["scenarios"]]
            figures: dict[str, Any] = {}
            for key, _, _ in FIGURES:
                values = [f.get(key) for f in found]
                known = [v for v in values if isinstance(v, int | float)]
                figures[key] = (max(known) if known else None) if key == "p99_ms_worst" else _median(values)
            figures["errored"] = any(f.get("errored") for f in found)
            out[name][label] = figures
    return out


def _fmt(value: Any, spec: str) -> str:
    return "—" if value is None else format(value, spec)


def markdown(summary: Mapping[str, Mapping[str, Mapping[str, Any]]], labels: Sequence[str]) -> str:
    """One row per scenario and side; a scenario's rows follow each other."""
    head = "| scenario | side | " + " | ".join(title for _, title, _ in FIGURES) + " |"
    rule = "|---|---|" + "--:|" * len(FIGURES)
    body = []
    for name, by_side in summary.items():
        for label in labels:
            f = by_side.get(label)
            if f is None:
                continue
            cells = " | ".join(_fmt(f[key], spec) for key, _, spec in FIGURES)
            body.append(f"| {name} | {label}{' (ERROR)' if f['errored'] else ''} | {cells} |")
    return "\n".join([head, rule, *body])


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.alternate",
        description="Measure two versions of the server alternately in one run (benchmarks/README.md).",
    )
    p.add_argument("--before", required=True, metavar="REF", help="git ref of the version before")
    p.add_argument(
        "--after",
        default=WORKTREE,
        metavar="REF",
        help=f"git ref of the version after, or {WORKTREE} (default)",
    )
    p.add_argument("--rounds", type=int, default=3, help="rounds, each one harness run per side (default 3)")
    p.add_argument("--slice", type=int, default=5, help="seconds per scenario per run (default 5)")
    p.add_argument(
        "--warmup", type=int, default=1, help="seconds of warm-up per scenario per run (default 1)"
    )
    p.add_argument("--connections", type=int, default=8, help="wrk connections (default 8)")
    p.add_argument("--scenario", action="append", default=[], metavar="NAME", help="repeatable; default all")
    p.add_argument(
        "--db", choices=("sqlite", "postgres"), default="sqlite", help="the store (default sqlite)"
    )
    p.add_argument(
        "--processes", type=int, default=1, help="server processes (default 1; more need postgres)"
    )
    p.add_argument("--db-pool", type=int, metavar="N", help="PostgreSQL connections per server process")
    p.add_argument("--games", type=int, default=1, help="copies of the bench game the load spreads over")
    p.add_argument(
        "--db-latency-ms", type=float, default=0, help="delay of each PostgreSQL round trip (default 0)"
    )
    p.add_argument("--json", type=Path, metavar="PATH", help="write the summary and every round's JSON here")
    return p


def run(options: argparse.Namespace, log: Log) -> dict[str, Any]:
    with sides(options.before, options.after, log) as (harness, both), tempfile.TemporaryDirectory() as out:
        rounds: dict[str, list[dict[str, Any]]] = {s.label: [] for s in both}
        code = {s.label: served_from(s, harness) for s in both}
        for s in both:
            if Path(code[s.label]).resolve() != s.code.resolve():
                raise AlternateError(f"{s.label} would serve the code in {code[s.label]}, not {s.code}")
        for round_no in range(1, options.rounds + 1):
            for side in both:
                log(f"alternate: round {round_no}/{options.rounds}, {side.label}")
                path = Path(out) / f"{side.label}-{round_no}.json"
                rounds[side.label].append(run_side(side, harness, options, path, log))
        return {
            "sides": {s.label: {"ref": s.ref, "commit": s.commit, "code": code[s.label]} for s in both},
            "rounds": options.rounds,
            "summary": summarize(rounds),
            "runs": rounds,
        }


def main(argv: Sequence[str] | None = None) -> int:
    options = parser().parse_args(argv)

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    try:
        doc = run(options, log)
    except AlternateError as exc:
        print(f"alternate: FAILED: {exc}", file=sys.stderr)
        return 1
    named = ", ".join(f"{k} = {v['ref']} ({v['commit'] or 'this checkout'})" for k, v in doc["sides"].items())
    print(
        f"\n{named}; {options.rounds} alternating round(s) of {options.slice} s slices; medians over the"
        " rounds (p99: the worst)\n"
    )
    print(markdown(doc["summary"], ("before", "after")))
    if options.json is not None:
        write_json(options.json, doc)
        print(f"\nJSON: {options.json}")
    failed = [
        f"{label} round {i + 1}"
        for label, docs in doc["runs"].items()
        for i, d in enumerate(docs)
        if d["exit_code"]
    ]
    if failed:
        print(f"\nalternate: runs with errors: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
