"""A season of the demo manifest, simulated: what ``livecore-server simulate`` costs.

    python -m benchmarks.season                      # 10,000 players, 28 days, seed 7
    python -m benchmarks.season --players 1000 --days 7 --json out.json

The target: 10,000 players over 28 days in at most 60 seconds on the project's 2-core machine. The run is
the tool's own: the demo manifest (``livecore_server/demo.toml``) and the default population played by
:class:`livecore.simulation.season.Season`, the report folding each day as it ends, then gathered. It
reports the seconds of each part (process CPU and wall), the CPU per player and simulated day, what was
played, and the process's peak resident memory (run it as its own process: the peak is the process's).

Two more figures: what a move of the clock costs the scheduler's look at what falls due (the demo with a
few players and nothing else to do, a day of 10-second ticks: a season moves to every tick that has an
action), and what ``--seeds 2`` gains from the second core (the command run with one seed and with two,
in processes of their own, wall time: 2 means the two seeds took the time of one).
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


def seeds_speedup(players: int = 2_000, days: int = 3) -> dict[str, Any]:
    """``simulate --seeds 1`` and ``--seeds 2`` as the command runs them, wall time of each."""
    walls = {}
    with tempfile.TemporaryDirectory() as out:
        for seeds in (1, 2):
            command = [sys.executable, "-m", "livecore_server.cli", "simulate", os.fspath(DEMO)]
            command += ["--players", str(players), "--days", str(days), "--seeds", str(seeds)]
            wall = time.perf_counter()
            subprocess.run(
                [*command, "--out", os.path.join(out, str(seeds))], check=True, capture_output=True
            )
            walls[seeds] = time.perf_counter() - wall
    return {
        "players": players,
        "days": days,
        "oneSeedWallSeconds": walls[1],
        "twoSeedsWallSeconds": walls[2],
        "speedup": 2 * walls[1] / walls[2],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.season", description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--days", type=int, default=28)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    result = run(args.players, args.days, args.seed)
    result["tickMicros"] = tick_micros()
    result["seeds"] = seeds_speedup(min(args.players, 2_000), min(args.days, 3))
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
    seeds = result["seeds"]
    print(
        f"--seeds 2 ({seeds['players']:,} players x {seeds['days']} days):"
        f" {seeds['twoSeedsWallSeconds']:,.1f} s,"
        f" one seed {seeds['oneSeedWallSeconds']:,.1f} s: {seeds['speedup']:.2f} seeds in the time of one"
    )
    if args.json is not None:
        write_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
