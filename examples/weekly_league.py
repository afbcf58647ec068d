"""Run a weekly league embedded, with no server, across three simulated weeks: eight players post their
match scores, each Monday at 00:00 UTC the week is rolled over (rank rewards per division, promotion and
relegation), and each week's divisions are printed with who moved.

    python examples/weekly_league.py

The same command functions the server runs (``livecore.leaderboards.commands``) run here on the in-memory
store, with a manual clock and seeded randomness, so every run prints the same league.
docs/leaderboards.md describes every rule this exercises.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.games import (
    Aggregation,
    Divisions,
    Entry,
    Game,
    GameSettings,
    LeaderboardSettings,
    Period,
    RankBand,
    Resource,
    ResourceType,
    Studio,
)
from livecore.grants.memory import GrantTables
from livecore.hashing import KeyedHasher
from livecore.leaderboards import commands as lb
from livecore.memory import MemoryStore
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope

MONDAY = datetime(2026, 3, 2, tzinfo=UTC)
WEEKS = 3


def coins(amount: int) -> tuple[Entry, ...]:
    return (Entry(ResourceType.CURRENCY, "coins", amount),)


# What a manifest's [games.arena.leaderboards.league] declares (docs/leaderboards.md#the-manifest):
# divisions of four; each week the best of a division goes up a tier and the worst down.
LEAGUE = LeaderboardSettings(
    key="league",
    name="Weekly League",
    period=Period.WEEKLY,
    aggregation=Aggregation.BEST,  # a player's best match of the week counts
    divisions=Divisions(size=4, tiers=("bronze", "silver", "gold"), promote=1, relegate=1),
    rank_rewards=(RankBand(1, 1, coins(100)), RankBand(2, 2, coins(50))),
)

# Each player's skill: the middle of their match scores.
SKILL = {"ada": 900, "bo": 620, "cy": 750, "dee": 500, "eli": 820, "fox": 560, "gus": 680, "hal": 450}


def main() -> None:
    store = MemoryStore()
    game = Game(
        id="gam_arena",
        studio_id="std_demo",
        key="arena",
        name="Arena",
        settings=GameSettings(
            resources={"coins": Resource("coins", ResourceType.CURRENCY)}, leaderboards={"league": LEAGUE}
        ),
    )
    store.add_game(Studio(id="std_demo", key="demo"), game)
    clock = ManualClock(MONDAY + timedelta(hours=9))
    rt = Runtime(clock=clock, rng=SeededRandomSource(23), hasher=KeyedHasher(b"weekly-league-example" * 2))
    scope = Scope(studio_id=game.studio_id, game_id=game.id, env=Environment.TEST)
    luck = random.Random(23)
    tiers = LEAGUE.divisions.tiers if LEAGUE.divisions else ()
    ids: dict[str, str] = {}  # external id -> player id

    def tier_of(name: str) -> str:
        with store.transaction() as tx:
            tier = tx.leaderboards.tier(game.id, scope.env, LEAGUE.key, ids[name])
        return tiers[tier or 0]

    for week in range(1, WEEKS + 1):
        start = MONDAY + timedelta(weeks=week - 1)
        # Three matches each during the week, in a shuffled order: the first score of the week places a
        # player in the first division of their tier with room, so divisions fill as players show up.
        for day in (0, 2, 4):
            clock.set(start + timedelta(days=day, hours=18))
            players = list(SKILL)
            luck.shuffle(players)
            for name in players:
                clock.advance(60)
                score = max(0, round(luck.gauss(SKILL[name], 150)))
                with store.transaction() as tx:  # the studio backend's POST .../leaderboards/league/scores
                    _, _, player = lb.submit(tx, rt, scope, LEAGUE.key, name, score)
                ids[name] = player.id
        before = {name: tier_of(name) for name in SKILL}

        # Monday 00:00: the scheduler rolls the week over, a batch of divisions per step.
        clock.set(start + timedelta(weeks=1))
        with store.transaction() as tx:
            due = lb.periods_due(tx, rt, 10)
        for period in due:
            while True:
                with store.transaction() as tx:
                    if lb.rollover_step(tx, rt, period.game_id, period.id):
                        break
        [finished] = due
        after = {name: tier_of(name) for name in SKILL}

        paid = {
            g.player_id: g.entries[0].amount
            for g in store.tables_of(GrantTables).grants.values()
            if g.source_kind == lb.RANK_SOURCE_KIND and g.source_ref_id == finished.id
        }
        print(f"Week {week}: {finished.starts_at:%Y-%m-%d} to {finished.ends_at:%Y-%m-%d} ({finished.id})")
        with store.transaction() as tx:
            divisions = tx.leaderboards.divisions_from(finished.id, 0, 100)
            for division in sorted(divisions, key=lambda d: (-d.tier, d.number)):  # the highest tier first
                page = lb.read(tx, rt, scope, LEAGUE.key, period=finished.id, division=division.id)
                print(f"  {tiers[division.tier]} {division.number + 1}:")
                for s in page.standings:
                    name = s.player.external_id
                    reward = f"  +{paid[s.player.id]} coins" if s.player.id in paid else ""
                    move = f"  -> {after[name]}" if after[name] != before[name] else ""
                    print(f"    {s.rank}. {name:4} {s.entry.score:5.0f}{reward}{move}")
        up = [n for n in SKILL if tiers.index(after[n]) > tiers.index(before[n])]
        down = [n for n in SKILL if tiers.index(after[n]) < tiers.index(before[n])]
        print(f"  promoted: {', '.join(up) or 'nobody'}; relegated: {', '.join(down) or 'nobody'}")

    finals = [e for e in store.outbox if e.kind == "leaderboard.period_finalized"]
    print(f"webhooks: leaderboard.period_finalized x{len(finals)}")
    print("tiers now: " + ", ".join(f"{name} {tier_of(name)}" for name in SKILL))


if __name__ == "__main__":
    main()
