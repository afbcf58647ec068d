"""Race two teams to a goal, embedded, with no server: the studio puts two rosters of three on an event's
window, everyone plays, each team's score (its members' best scores summed) crosses milestones that pay
every member, the first team to the goal stops there, and at the window's close the team board is
printed with its rank rewards.

    python examples/team_race.py

The same command functions the server runs (``livecore.live_events.commands.live_events`` and ``.teams``) run
here
on the in-memory store, with a manual clock and seeded randomness, so every run prints the same race.
docs/teams.md describes every rule this exercises.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.games import (
    Entry,
    EventSettings,
    Formation,
    Game,
    GameSettings,
    Milestone,
    OnComplete,
    RankBand,
    Resource,
    ResourceType,
    Studio,
    TeamSettings,
)
from livecore.grants.memory import GrantTables
from livecore.hashing import KeyedHasher
from livecore.live_events.attempts import Attempt
from livecore.live_events.commands import live_events as event_commands
from livecore.memory import MemoryStore
from livecore.players.commands import register
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore.teams import commands as team_commands

STARTS = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)


def coins(amount: int) -> tuple[Entry, ...]:
    return (Entry(ResourceType.CURRENCY, "coins", amount),)


# What a manifest's [games.heist.events.raid] and its [...raid.teams] declare (docs/teams.md#the-manifest).
RAID = EventSettings(
    key="raid",
    name="Evening Raid",
    starts_at=STARTS,
    window_seconds=1800,
    attempt_seconds=1800,
    score_metric="loot",
    teams=TeamSettings(
        Formation.EXTERNAL,
        size=3,
        goal=1200,
        on_complete=OnComplete.STOP_CONTRIBUTIONS,
        board=True,
        milestones=(
            Milestone("quarter", 300, coins(10)),
            Milestone("half", 600, coins(25)),
            Milestone("almost", 900, coins(40)),
        ),
        rank_rewards=(RankBand(1, 1, coins(300)), RankBand(2, 2, coins(100))),
    ),
)

ROSTERS = {"red": ["ada", "bo", "cy"], "blue": ["dee", "eli", "fox"]}


def main() -> None:
    store = MemoryStore()
    game = Game(
        id="gam_heist",
        studio_id="std_demo",
        key="heist",
        name="Heist",
        settings=GameSettings(
            resources={"coins": Resource("coins", ResourceType.CURRENCY)}, events={"raid": RAID}
        ),
    )
    store.add_game(Studio(id="std_demo", key="demo"), game)
    clock = ManualClock(STARTS)
    rt = Runtime(clock=clock, rng=SeededRandomSource(25), hasher=KeyedHasher(b"team-race-example" * 2))
    scope = Scope(studio_id=game.studio_id, game_id=game.id, env=Environment.TEST)
    luck = random.Random(25)

    # The studio's server registers the players and PUTs each team's roster for the window open now.
    with store.transaction() as tx:
        players = {name: register(tx, rt, scope, name).player for names in ROSTERS.values() for name in names}
        event_commands.open_due_windows(tx, rt)  # the scheduler's step at 18:00
        for key, names in ROSTERS.items():
            read = team_commands.put_roster(tx, rt, scope, "raid", key, names, name=key.title())
            seated = sorted(m.external_player_id for m in read.seated)
            print(f"team {key}: {', '.join(seated)} (goal {read.team.goal:.0f})")

    # Everyone starts an attempt, then reports its score (a total) every minute.
    attempts: dict[str, Attempt] = {}
    with store.transaction() as tx:
        for name, player in players.items():
            started = event_commands.start(tx, rt, scope, player, "raid", None)
            assert isinstance(started, Attempt)
            attempts[name] = started
    loot = dict.fromkeys(players, 0)
    seen = 0
    for minute in range(1, 16):
        # Each player reports in its own request, ten seconds apart, red and blue in turn.
        for name in (name for pair in zip(*ROSTERS.values(), strict=True) for name in pair):
            clock.advance(10)
            loot[name] += luck.randint(10, 45)
            with store.transaction() as tx:
                attempts[name], _ = event_commands.record_progress(
                    tx, rt, scope, players[name], "raid", attempts[name].id, {"loot": loot[name]}, False
                )
        with store.transaction() as tx:
            scores = {key: team_commands.read_team(tx, rt, scope, "raid", key).team.score for key in ROSTERS}
        print(f"18:{minute:02d}  " + "  ".join(f"{key} {score:5.0f}" for key, score in scores.items()))
        for event in store.outbox[seen:]:
            data = event.data
            if event.kind == "event_team.milestone_unlocked":
                paid = [
                    g.external_player_id
                    for g in store.tables_of(GrantTables).grants.values()
                    if g.source_ref_id == data["eventTeamId"]
                    and g.metadata["milestoneKey"] == data["milestoneKey"]
                ]
                print(
                    f"       {data['teamKey']} unlocked {data['milestoneKey']} at {data['teamScore']:.0f}:"
                    f" {data['paidSeatCount']}/{data['seatCount']} paid ({', '.join(sorted(paid))})"
                )
            elif event.kind == "event_team.goal_completed":
                done = datetime.fromisoformat(data["completedAt"])
                print(
                    f"       {data['teamKey']} reached the goal at {done:%H:%M:%S}:"
                    f" score frozen at {data['score']:.0f}"
                )
        seen = len(store.outbox)

    first = next(e.data["teamKey"] for e in store.outbox if e.kind == "event_team.goal_completed")
    print(f"first to the goal: {first}")

    # 18:30, the window's end: the scheduler closes it; the team board is ranked and paid.
    clock.set(STARTS + timedelta(seconds=RAID.window_seconds))
    with store.transaction() as tx:
        for window in event_commands.due_windows(tx, rt, 10):
            event_commands.close_window(tx, rt, window.id, window.game_id)
        teams = sorted(tx.teams.of_window(attempts["ada"].window_id), key=lambda t: t.final_rank or 0)
    print("final team board:")
    for team in teams:
        paid = [
            g
            for g in store.tables_of(GrantTables).grants.values()
            if g.source_kind == "event_team_rank" and g.source_ref_id == team.id
        ]
        reward = f"  +{paid[0].entries[0].amount} coins each to {len(paid)}" if paid else ""
        done = "goal" if team.completed else "short"
        print(f"  {team.final_rank}. {team.key:5} {team.score:5.0f}  {done}{reward}")


if __name__ == "__main__":
    main()
