"""Fitting a population: what :func:`livecore.simulation.fitting.fit_population` costs the engine.

    python -m benchmarks.fitting                      # 100,000 players, 28 days, 3 segments
    python -m benchmarks.fitting --players 10000 --segments 4

The target: 100,000 players of 28 days in well under a minute. The store's reads are left out (they are
the store's: one aggregate read per area, timed with the server's command): the players' tallies are
planted, three kinds of player (0.3, 1.2 and 3 sessions a day, each player within 30% of its kind's), and
served as the ports would serve them; the engine then makes the features, finds the segments and fits
them. It prints the seconds of each step and checks the planted kinds were found (each segment's share
within 0.02 of a third).
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from livecore import registry
from livecore.economy.rules import DebitTally
from livecore.friends.rules import FirstFriend
from livecore.gifts.rules import SentGifts
from livecore.grants.rules import GrantWaits
from livecore.guilds.rules import HelpTallies, StintTallies
from livecore.live_events.attempts import AttemptTally
from livecore.manifest import parse_manifest
from livecore.players.rules import PeriodActivity
from livecore.purchases.rules import RevenueSummary
from livecore.scope import Environment
from livecore.simulation.fitting import fit_population
from livecore.simulation.part import FitPeriod

DEMO = Path(__file__).resolve().parent.parent / "livecore_server" / "demo.toml"
START = datetime(2026, 3, 2, tzinfo=UTC)
KINDS = (0.3, 1.2, 3.0)


class _Reads:
    """The ports' answers, planted."""

    def __init__(self, **answers: Any) -> None:
        for name, answer in answers.items():
            setattr(self, name, answer)


def planted(players: int, days: int, seed: int = 1) -> Any:
    rng = random.Random(seed)
    active, attempts, gifts, debits, rewards, crates, requests = {}, {}, {}, {}, {}, {}, {}
    stints: dict[str, StintTallies] = {}
    help_: dict[str, HelpTallies] = {}
    befriended = {}
    for i in range(players):
        player = f"plr_{i:07d}"
        sessions = max(1, int(rng.choice(KINDS) * days * rng.uniform(0.7, 1.3)))
        active[player] = PeriodActivity(START, sessions)
        plays = int(sessions * 0.8)
        attempts[player, "time-trial"] = AttemptTally(
            sessions, plays, sessions, 500.0 * sessions, 250_100.0 * sessions, 600.0 * plays
        )
        gifts[player] = {"coins": SentGifts(int(sessions * 0.3), 5 * int(sessions * 0.3))}
        debits[player] = DebitTally(int(sessions * 0.2), int(sessions * 0.4), sessions * 0.1)
        rewards[player] = GrantWaits(sessions, sessions, 0, sessions * 0.5)
        crates[player] = GrantWaits(3, 3, 0, 2.0)
        requests[player] = rng.randrange(10)
        stints[player] = StintTallies(joined=1, guild_days=days * 0.8)
        help_[player] = HelpTallies(
            asked=int(sessions * 0.1), donations=int(sessions * 0.2), blocked_days=1.0
        )
        befriended[player] = FirstFriend(START, START, answered=False, friends=1 + rng.randrange(10))
    return _Reads(
        players=_Reads(active_in=lambda *_: active),
        attempts=_Reads(tallies=lambda *_: attempts),
        gifts=_Reads(sent=lambda *_: gifts),
        ledger=_Reads(
            debits=lambda *_, **__: debits,
            moved=lambda *_, **__: {
                ("server_credit", "coins"): 20 * players,
                ("client_debit", "coins"): -players,
            },
            noted=lambda *_: {},  # the planted history sold no offer
        ),
        grants=_Reads(
            waits=lambda _game, kind, *_: rewards if kind == "reward" else crates,
            made=lambda *_, **__: {"bronze-chest": players},
            latest=lambda *_: {},
        ),
        friends=_Reads(first_day_requests=lambda *_: requests, first_friends=lambda *_: befriended),
        # the planted history sold nothing for real money
        purchases=_Reads(revenue=lambda *_: RevenueSummary(0, 0, 0, (), ())),
        guilds=_Reads(tallies=lambda *_: stints),
        guild_help=_Reads(tallies=lambda *_: help_),
    )


def run(players: int = 100_000, days: int = 28, segments: int = 3) -> dict[str, Any]:
    settings = next(iter(parse_manifest(DEMO.read_text()).games.values())).settings()
    parts = [area.season for area in registry.installed() if area.season is not None]
    period = FitPeriod("gam_1", Environment.LIVE, START, START + timedelta(days=days), settings, parts)
    tx = planted(players, days)
    steps: dict[str, float] = {}
    last = time.perf_counter()
    began = last

    def progress(step: str, done: int, total: int) -> None:
        nonlocal last
        now = time.perf_counter()
        steps[step] = round(now - last, 2)
        last = now

    fitted = fit_population(tx, period, game="demo", segments=segments, progress=progress)
    shares = [s.share for s in fitted.population.segments]
    return {
        "players": players,
        "seconds": round(time.perf_counter() - began, 2),
        "steps": steps,
        "shares": shares,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fitting", description=__doc__)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=28)
    parser.add_argument("--segments", type=int, default=3)
    args = parser.parse_args(argv)
    result = run(args.players, args.days, args.segments)
    print(f"{result['players']} players, {args.days} days: {result['seconds']} s {result['steps']}")
    found = args.segments != len(KINDS) or all(abs(s - 1 / 3) <= 0.02 for s in result["shares"])
    print("shares", result["shares"], "(the planted kinds)" if found else "(NOT the planted kinds)")
    return 0 if found else 1


if __name__ == "__main__":
    raise SystemExit(main())
