"""Run a weekly league embedded, with no server, across three simulated weeks: eight players post their
match scores, each Monday at 00:00 UTC the week is rolled over (rank rewards per division, promotion and
relegation), and each week's divisions are printed with who moved.

    python examples/weekly_league.py

A :class:`livecore.Simulation` plays the manifest below with the commands the server runs, on a manual
clock and seeded randomness, so every run prints the same league. docs/leaderboards.md describes every
rule this exercises; docs/simulation.md the simulation.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

from livecore import Simulation
from livecore.leaderboards.api import LeaderboardResponse
from livecore.leaderboards.commands import RANK_SOURCE_KIND
from livecore.leaderboards.webhooks import PeriodFinalized
from livecore.players.commands import get_player

MONDAY = datetime(2026, 3, 2, tzinfo=UTC)
WEEKS = 3
TIERS = ("bronze", "silver", "gold")

MANIFEST = """
studio = "demo"

[games.arena]
name = "Arena"

[games.arena.resources.coins]
type = "currency"

# A weekly league: a player's best match of the week counts; divisions of four, everyone starting in
# bronze; each week the best of a division goes up a tier and the worst down; each division pays its
# top two.
[games.arena.leaderboards.league]
name = "Weekly League"
period = "weekly"
aggregation = "best"
divisions = { size = 4, tiers = ["bronze", "silver", "gold"], promote = 1, relegate = 1 }
rank_rewards = [
  { from = 1, to = 1, rewards = [{ type = "currency", key = "coins", amount = 100 }] },
  { from = 2, to = 2, rewards = [{ type = "currency", key = "coins", amount = 50 }] },
]
"""

# Each player's skill: the middle of their match scores.
SKILL = {"ada": 900, "bo": 620, "cy": 750, "dee": 500, "eli": 820, "fox": 560, "gus": 680, "hal": 450}


def tier_of(sim: Simulation, name: str) -> str:
    """The tier the player plays next. No route answers it (a player sees its tier in its division once it
    scores in the week), so this is the store's own read, in a transaction of its own."""
    tier = sim.run(
        lambda tx: tx.leaderboards.tier(sim.game.id, sim.env, "league", get_player(tx, sim.scope, name).id)
    )
    return TIERS[tier or 0]


def main() -> None:
    sim = Simulation.from_manifest(MANIFEST, seed=23, start=MONDAY + timedelta(hours=9))
    luck = random.Random(23)
    players = {name: sim.player(name) for name in SKILL}  # the game's players; its backend posts their scores

    for week in range(1, WEEKS + 1):
        start = MONDAY + timedelta(weeks=week - 1)
        # Three matches each during the week, in a shuffled order: the first score of the week places a
        # player in the first division of their tier with room, so divisions fill as players show up.
        came: list[str] = []
        for day in (0, 2, 4):
            sim.advance_to(start + timedelta(days=day, hours=18))
            order = list(SKILL)
            luck.shuffle(order)
            came += [name for name in order if name not in came]
            for name in order:
                sim.advance(minutes=1)
                score = max(0, round(luck.gauss(SKILL[name], 150)))
                sim.server.leaderboards.submit_score("league", name, score)  # the studio's backend

        # Monday 00:00: the scheduler rolls the week over (rank rewards, promotion, relegation).
        sim.advance_to(start + timedelta(weeks=1))
        finished = sim.webhooks_of("leaderboard.period_finalized")[-1].payload
        assert isinstance(finished, PeriodFinalized)
        after = {name: tier_of(sim, name) for name in SKILL}

        # The week's divisions, each read around one of its players: the highest tier first, and in a
        # tier in the order they opened (their players' first showing up).
        divisions: dict[str, tuple[str, LeaderboardResponse]] = {}
        before: dict[str, str] = {}  # the tier each played this week
        for name in came:
            page = sim.leaderboard("league", period=finished.period_id, around=name)
            division = page.leaderboard.division
            assert division is not None
            divisions.setdefault(division.id, (division.tier, page))
            before[name] = division.tier
        paid = {
            name: grant.entries[0].amount
            for name, player in players.items()
            for grant in player.grants.pending().grants
            if grant.source_kind == RANK_SOURCE_KIND and grant.source_ref_id == finished.period_id
        }
        assert finished.period_starts_at is not None and finished.period_ends_at is not None
        print(
            f"Week {week}: {finished.period_starts_at:%Y-%m-%d} to {finished.period_ends_at:%Y-%m-%d}"
            f" ({finished.period_id})"
        )
        numbers: Counter[str] = Counter()
        for tier, page in sorted(divisions.values(), key=lambda d: -TIERS.index(d[0])):
            numbers[tier] += 1
            print(f"  {tier} {numbers[tier]}:")
            for entry in page.entries:
                name = entry.external_player_id or ""
                reward = f"  +{paid[name]} coins" if name in paid else ""
                move = f"  -> {after[name]}" if after[name] != before[name] else ""
                print(f"    {entry.rank}. {name:4} {entry.score:5.0f}{reward}{move}")
        up = [n for n in SKILL if TIERS.index(after[n]) > TIERS.index(before[n])]
        down = [n for n in SKILL if TIERS.index(after[n]) < TIERS.index(before[n])]
        print(f"  promoted: {', '.join(up) or 'nobody'}; relegated: {', '.join(down) or 'nobody'}")

    print(f"webhooks: leaderboard.period_finalized x{len(sim.webhooks_of('leaderboard.period_finalized'))}")
    print("tiers now: " + ", ".join(f"{name} {tier_of(sim, name)}" for name in SKILL))


if __name__ == "__main__":
    main()
