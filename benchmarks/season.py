"""A season of the demo manifest, simulated: what ``livecore-server simulate`` costs.

    python -m benchmarks.season                      # 10,000 players, 28 days, seed 7
    python -m benchmarks.season --players 1000 --days 7 --json out.json

The target: 10,000 players over 28 days in at most 60 seconds on the project's 2-core machine. The run is
the tool's own: the demo manifest (``livecore_server/demo.toml``) and the default population played by
:class:`livecore.simulation.season.Season`, the report folding each day as it ends, then gathered. It
reports the seconds of each part (process CPU and wall), the CPU per player and simulated day, what was
played, and the process's peak resident memory (run it as its own process: the peak is the process's).

Three more figures: what a move of the clock costs the scheduler's look at what falls due (the demo with a
few players and nothing else to do, a day of 10-second ticks: a season moves to every tick that has an
action); what checking the season's own calls costs (``Season(check=True)``, ``simulate --check``: the
same season played both ways, CPU, as a ratio); and a designer's A/B, the command run as ``simulate demo
--compare <the demo with the time trial's completion reward doubled> --seeds 5`` (1,000 players x 28 days
by default, wall time, target 60 s; its seeds are played side by side, a process per core).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.report import write_json
from livecore.simulation import Simulation
from livecore.simulation.population import parse_population
from livecore.simulation.season import Season
from livecore_server.simulate.gather import fold, gather, gathering

TARGET_SECONDS = 60
DEMO = Path(__file__).resolve().parent.parent / "livecore_server" / "demo.toml"
START = datetime(2026, 1, 5, tzinfo=UTC)


def _timed(fn: Any) -> tuple[Any, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    result = fn()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def run(players: int = 10_000, days: int = 28, seed: int = 7) -> dict[str, Any]:
    sim = Simulation.from_manifest(DEMO, seed=seed, start=START)
    season = Season(sim, parse_population(""), players=players, days=days, seed=seed, forget_webhooks=True)
    # As the command plays it: the report folds each day's end (the play's time includes it).
    at = gathering(sim, season)
    _, play_cpu, play_wall = _timed(lambda: season.play(on_day=lambda day: fold(at)))
    report, gather_cpu, gather_wall = _timed(lambda: gather(sim, season, run={"seed": seed}, at=at))
    cpu, wall = play_cpu + gather_cpu, play_wall + gather_wall
    return {
        "scenario": "season_demo",
        "players": players,
        "days": days,
        "seed": seed,
        "playCpuSeconds": play_cpu,
        "playWallSeconds": play_wall,
        "reportCpuSeconds": gather_cpu,
        "reportWallSeconds": gather_wall,
        "cpuSeconds": cpu,
        "wallSeconds": wall,
        "cpuMicrosPerPlayerDay": cpu / (players * days) * 1e6,
        "refusals": sum(season.refusals.values()),
        "windows": sum(len(event["windows"]) for event in report["events"].values()),
        "giftsSent": report["gifts"]["sent"],
        # ru_maxrss is in kilobytes on Linux.
        "peakResidentMB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "target": TARGET_SECONDS,
        "met": wall <= TARGET_SECONDS,
    }


def tick_micros(ticks: int = 8_640) -> float:
    """CPU microseconds per 10-second move of the demo's clock with nothing due but the schedule's look."""
    sim = Simulation.from_manifest(DEMO, seed=3, start=START)
    for index in range(50):
        sim.player(f"p{index}")
    cpu = time.process_time()
    for _ in range(ticks):
        sim.advance(timedelta(seconds=10))
    return (time.process_time() - cpu) / ticks * 1e6


def check_ratio(players: int = 300, days: int = 3) -> dict[str, Any]:
    """The same season played with its own calls checked and not, alternately, twice each (the least CPU
    of each side's plays: the first play of the process also pays for what is made once)."""
    cpu = {False: float("inf"), True: float("inf")}
    for check in (False, True, False, True):
        sim = Simulation.from_manifest(DEMO, seed=7, start=START)
        season = Season(
            sim, parse_population(""), players=players, days=days, seed=7, forget_webhooks=True, check=check
        )
        _, took, _ = _timed(season.play)
        cpu[check] = min(cpu[check], took)
    return {
        "players": players,
        "days": days,
        "cpuSeconds": cpu[False],
        "checkedCpuSeconds": cpu[True],
        "ratio": cpu[True] / cpu[False],
    }


#: The A/B's change: the time trial's completion reward doubled.
COMPLETION = 'completion_rewards = [{ type = "currency", key = "coins", amount = 10 }]'


def compare_wall(players: int = 1_000, days: int = 28, seeds: int = 5) -> dict[str, Any]:
    """``simulate demo --compare <changed copy> --seeds N`` as the command runs it, wall time."""
    text = DEMO.read_text()
    assert COMPLETION in text
    with tempfile.TemporaryDirectory() as out:
        changed = Path(out) / "richer.toml"
        changed.write_text(text.replace(COMPLETION, COMPLETION.replace("amount = 10", "amount = 20")))
        command = [sys.executable, "-m", "livecore_server.cli", "simulate", os.fspath(DEMO)]
        command += ["--compare", os.fspath(changed), "--players", str(players), "--days", str(days)]
        command += ["--seeds", str(seeds), "--out", os.path.join(out, "report")]
        wall = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        wall = time.perf_counter() - wall
    return {
        "players": players,
        "days": days,
        "seeds": seeds,
        "wallSeconds": wall,
        "target": TARGET_SECONDS,
        "met": wall <= TARGET_SECONDS,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.season", description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--days", type=int, default=28)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--compare-players", type=int, default=1_000)
    parser.add_argument("--compare-days", type=int, default=28)
    parser.add_argument("--compare-seeds", type=int, default=5)
    args = parser.parse_args(argv)
    result = run(args.players, args.days, args.seed)
    result["tickMicros"] = tick_micros()
    result["check"] = check_ratio(min(args.players, 300), min(args.days, 3))
    result["compare"] = compare_wall(args.compare_players, args.compare_days, args.compare_seeds)
    verdict = "met" if result["met"] else "MISSED"
    print(
        f"season of the demo, {args.players:,} players x {args.days} days:"
        f" played in {result['playWallSeconds']:,.1f} s ({result['playCpuSeconds']:,.1f} s CPU),"
        f" report gathered in {result['reportWallSeconds']:,.1f} s;"
        f" {result['cpuMicrosPerPlayerDay']:,.0f} µs of CPU a player and day;"
        f" peak {result['peakResidentMB']:,.0f} MB resident"
    )
    print(f"season: {result['wallSeconds']:,.1f} s (target {TARGET_SECONDS} s: {verdict})")
    print(f"a move of the clock: {result['tickMicros']:,.1f} µs of CPU for the scheduler's look")
    check = result["check"]
    print(
        f"the season's own calls checked ({check['players']:,} players x {check['days']} days):"
        f" {check['checkedCpuSeconds']:,.1f} s of CPU against {check['cpuSeconds']:,.1f} s,"
        f" x{check['ratio']:.2f}"
    )
    compare = result["compare"]
    print(
        f"--compare --seeds {compare['seeds']} ({compare['players']:,} players x {compare['days']} days):"
        f" {compare['wallSeconds']:,.1f} s (target {TARGET_SECONDS} s:"
        f" {'met' if compare['met'] else 'MISSED'})"
    )
    if args.json is not None:
        write_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
