"""Import cost: what ``import livecore`` and ``import livecore_client`` cost a studio's process, as ratios
to ``import httpx`` measured in the same run.

    python -m benchmarks.imports                  # 15 rounds
    python -m benchmarks.imports --rounds 5 --json out.json

Each import runs in a fresh interpreter, its own process, timed around the statement alone (the
interpreter's start is not counted); a round runs every statement once, in turn, so that the machine's
load falls on all of them alike, and each figure is the median of the rounds. The figures are process CPU
time (this machine is shared, so wall time is noisier; both are reported). The modules are read from
their bytecode caches, as from an installed package: one unmeasured round writes them first, and the
interpreters run without ``PYTHONDONTWRITEBYTECODE``.

The targets: ``import livecore_client`` at most 3 times ``import httpx``, ``import livecore`` under
0.1 s. Each client, the models and the webhooks load when first named (livecore_client/__init__.py): the
run reports what naming them costs too, against no target.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from benchmarks.report import write_json

BASELINE = "import httpx"
#: What is measured, by name: the baseline first.
STATEMENTS = {
    "httpx": BASELINE,
    "livecore": "import livecore",
    "livecore_client": "import livecore_client",
    "server_client": "from livecore_client import ServerClient",
    "everything": "from livecore_client import SdkClient, ServerClient, AdminClient, construct_event, models",
}
CLIENT_TARGET_RATIO = 3.0
CORE_TARGET_SECONDS = 0.1

_TIMED = """\
import time
cpu, wall = time.process_time(), time.perf_counter()
{statement}
print(time.process_time() - cpu, time.perf_counter() - wall)
"""


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def measure(statement: str) -> tuple[float, float]:
    """Seconds of process CPU and of wall time ``statement`` takes in a fresh interpreter."""
    code = _TIMED.format(statement=statement)
    done = subprocess.run(
        [sys.executable, "-c", code], env=_env(), capture_output=True, text=True, check=True, timeout=120
    )
    cpu, wall = done.stdout.split()
    return float(cpu), float(wall)


def run(rounds: int = 15) -> dict[str, Any]:
    for statement in STATEMENTS.values():  # writes the bytecode caches; not measured
        measure(statement)
    cpu: dict[str, list[float]] = {name: [] for name in STATEMENTS}
    wall: dict[str, list[float]] = {name: [] for name in STATEMENTS}
    for _ in range(rounds):
        for name, statement in STATEMENTS.items():
            c, w = measure(statement)
            cpu[name].append(c)
            wall[name].append(w)
    median = {name: statistics.median(values) for name, values in cpu.items()}
    imports = {
        name: {
            "statement": STATEMENTS[name],
            "cpuSeconds": median[name],
            "wallSeconds": statistics.median(wall[name]),
            "ratioToHttpx": median[name] / median["httpx"],
        }
        for name in STATEMENTS
    }
    return {
        "scenario": "import_cost",
        "rounds": rounds,
        "imports": imports,
        "targets": {
            "livecoreClientRatio": CLIENT_TARGET_RATIO,
            "livecoreSeconds": CORE_TARGET_SECONDS,
        },
        "met": imports["livecore_client"]["ratioToHttpx"] <= CLIENT_TARGET_RATIO
        and imports["livecore"]["cpuSeconds"] < CORE_TARGET_SECONDS,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.imports", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    result = run(args.rounds)
    width = max(len(figures["statement"]) for figures in result["imports"].values())
    for figures in result["imports"].values():
        print(
            f"{figures['statement'].ljust(width)}  {figures['cpuSeconds'] * 1000:7.1f} ms CPU"
            f"  {figures['wallSeconds'] * 1000:7.1f} ms wall  {figures['ratioToHttpx']:5.2f} x httpx"
        )
    verdict = "met" if result["met"] else "MISSED"
    print(
        f"targets: import livecore_client <= {CLIENT_TARGET_RATIO:g} x import httpx, import livecore"
        f" < {CORE_TARGET_SECONDS:g} s: {verdict}"
    )
    if args.json is not None:
        write_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
