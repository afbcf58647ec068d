"""Race two teams to a goal, embedded, with no server: the studio puts two rosters of three on an event's
window, everyone plays, each team's score (its members' best scores summed) crosses milestones that pay
every member, the first team to the goal stops there, and at the window's close the team board is
printed with its rank rewards.

    python examples/team_race.py

A :class:`livecore.Simulation` plays the manifest below with the commands the server runs, on a manual
clock and seeded randomness, so every run prints the same race. docs/teams.md describes every rule this
exercises; docs/simulation.md the simulation.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from livecore import Simulation
from livecore.events import DomainEvent
from livecore.lobbies.api import LobbyForming
from livecore.simulation import SimPlayer

STARTS = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)

MANIFEST = """
studio = "demo"

[games.heist]
name = "Heist"

[games.heist.resources.coins]
type = "currency"

# One evening window of half an hour; each player's best loot counts towards its team.
[games.heist.events.raid]
name = "Evening Raid"
starts_at = "2026-03-02T18:00:00Z"
window_seconds = 1800
attempt_seconds = 1800
score_metric = "loot"

# Teams of three the studio's backend makes (its rosters), racing to 1,200: a team's score stops at the
# goal, so the first teams there lead its board.
[games.heist.events.raid.teams]
formation = "external"
size = 3
goal = 1200
on_complete = "stop_contributions"
board = true
milestones = [  # paid to every member
  { key = "quarter", threshold = 300, rewards = [{ type = "currency", key = "coins", amount = 10 }] },
  { key = "half", threshold = 600, rewards = [{ type = "currency", key = "coins", amount = 25 }] },
  { key = "almost", threshold = 900, rewards = [{ type = "currency", key = "coins", amount = 40 }] },
]
rank_rewards = [  # to each member, at the close
  { from = 1, to = 1, rewards = [{ type = "currency", key = "coins", amount = 300 }] },
  { from = 2, to = 2, rewards = [{ type = "currency", key = "coins", amount = 100 }] },
]
"""

ROSTERS = {"red": ["ada", "bo", "cy"], "blue": ["dee", "eli", "fox"]}


def told(event: DomainEvent, players: dict[str, SimPlayer]) -> str | None:
    """What a team webhook tells of the race, or None for the others."""
    data = event.data
    if event.kind == "event_team.milestone_unlocked":
        # Who was paid: each member's pending grants for this team's milestone.
        team_id, milestone = data["eventTeamId"], data["milestoneKey"]
        paid = [
            name
            for name in ROSTERS[data["teamKey"]]
            for g in players[name].grants.pending().grants
            if g.source_ref_id == team_id and g.metadata.get("milestoneKey") == milestone
        ]
        return (
            f"{data['teamKey']} unlocked {data['milestoneKey']} at {data['teamScore']:.0f}:"
            f" {data['paidSeatCount']}/{data['seatCount']} paid ({', '.join(sorted(paid))})"
        )
    if event.kind == "event_team.goal_completed":
        done = datetime.fromisoformat(data["completedAt"])
        return f"{data['teamKey']} reached the goal at {done:%H:%M:%S}: score frozen at {data['score']:.0f}"
    return None


def main() -> None:
    sim = Simulation.from_manifest(MANIFEST, seed=25, start=STARTS - timedelta(minutes=5))
    luck = random.Random(25)
    players = {name: sim.player(name) for names in ROSTERS.values() for name in names}

    # 18:00, the window opens; the studio's backend puts each team's roster on it.
    sim.advance_to(STARTS)
    for key, names in ROSTERS.items():
        team = sim.server.teams.put_roster("raid", key, names, name=key.title()).team
        seated = sorted(m.external_player_id for m in team.members)
        print(f"team {key}: {', '.join(seated)} (goal {team.goal:.0f})")
    window_id = team.window_id

    # Everyone starts an attempt, then reports its loot (a total) every minute, each in its own request,
    # ten seconds apart, red and blue in turn.
    attempts = {}
    for name, player in players.items():
        started = player.live_events.start_attempt("raid")
        assert not isinstance(started, LobbyForming)
        attempts[name] = started.attempt.attempt_id
    loot = dict.fromkeys(players, 0)
    seen = len(sim.webhooks)
    for minute in range(1, 16):
        for name in (name for pair in zip(*ROSTERS.values(), strict=True) for name in pair):
            sim.advance(seconds=10)
            loot[name] += luck.randint(10, 45)
            players[name].live_events.report_progress("raid", attempts[name], {"loot": loot[name]})
        scores = {key: sim.server.teams.get("raid", key).team.score for key in ROSTERS}
        print(f"18:{minute:02d}  " + "  ".join(f"{key} {score:5.0f}" for key, score in scores.items()))
        for event in sim.webhooks[seen:]:
            line = told(event, players)
            if line is not None:
                print(f"       {line}")
        seen = len(sim.webhooks)

    [first, *_] = sim.webhooks_of("event_team.goal_completed")
    print(f"first to the goal: {first.data['teamKey']}")

    # 18:30, the window's end: the scheduler closes it; the team board is ranked and paid.
    sim.advance_to(STARTS + timedelta(minutes=30))
    teams = sorted(
        (sim.server.teams.get("raid", key, window_id=window_id).team for key in ROSTERS),
        key=lambda t: t.final_rank or 0,
    )
    print("final team board:")
    for team in teams:
        paid = [
            g
            for name in ROSTERS[team.key]
            for g in players[name].grants.pending().grants
            if g.source_kind == "event_team_rank" and g.source_ref_id == team.team_id
        ]
        reward = f"  +{paid[0].entries[0].amount} coins each to {len(paid)}" if paid else ""
        done = "goal" if team.completed else "short"
        print(f"  {team.final_rank}. {team.key:5} {team.score:5.0f}  {done}{reward}")


if __name__ == "__main__":
    main()
