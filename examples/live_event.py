"""Run a whole live-event window embedded, with no server: players pay to enter, play, cross milestones,
one cheats, the window closes, and the final board is printed with the rank rewards it paid.

    python examples/live_event.py

A :class:`livecore.Simulation` plays the manifest below with the commands the server runs, on a manual
clock and seeded randomness, so every run prints the same board. docs/events.md describes every rule
this exercises; docs/simulation.md the simulation.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

from livecore import Simulation
from livecore.exceptions import LivecoreAPIError
from livecore.lobbies.api import LobbyForming
from livecore.simulation import SimPlayer

STARTS = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)

MANIFEST = """
studio = "demo"

[games.arena]
name = "Arena"
economy = "platform"

[games.arena.resources.coins]
type = "currency"

[games.arena.resources.gems]
type = "currency"

# Every evening at 18:00 for an hour: two attempts of ten minutes, 5 gems to enter.
[games.arena.events.sprint]
name = "Evening Sprint"
starts_at = "2026-03-02T18:00:00Z"
window_seconds = 3600
repeat_every_seconds = 86400
attempt_seconds = 600
max_attempts = 2
score_metric = "score"
target = 1000
entry_cost = [{ type = "currency", key = "gems", amount = 5 }]
completion_rewards = [{ type = "currency", key = "coins", amount = 20 }]
milestones = [
  { key = "bronze", threshold = 300, rewards = [{ type = "currency", key = "coins", amount = 10 }] },
  { key = "silver", threshold = 600, rewards = [{ type = "currency", key = "coins", amount = 25 }] },
]
rank_rewards = [
  { from = 1, to = 1, rewards = [{ type = "currency", key = "coins", amount = 500 }] },
  { from = 2, to = 3, rewards = [{ type = "currency", key = "coins", amount = 200 }] },
]
anti_cheat = [
  # A score over 1,200 is refused whole; one faster than 5 points a second is applied and flagged.
  { key = "score-cap", kind = "max_value", metric = "score", limit = 1200, verdict = "reject" },
  { key = "score-rate", kind = "max_rate", metric = "score", limit = 5, verdict = "flag" },
]
"""

PLAYERS = ("ada", "bo", "cy", "dee", "eli", "fox")


def progress(player: SimPlayer, attempt_id: str, score: float, *, complete: bool = False) -> None:
    """Report the attempt's score so far (a total, not a delta); print what it reached or was refused."""
    try:
        done = player.live_events.report_progress("sprint", attempt_id, {"score": score}, complete=complete)
    except LivecoreAPIError as refused:
        print(f"  {player.external_id:4} progress: refused, {refused.code}")
        return
    for grant in done.milestones_granted:
        print(f"  {player.external_id:4} {score:5.0f}: milestone {grant.metadata['milestoneKey']}")
    attempt = done.attempt
    if attempt.flagged or attempt.status.value != "in_progress":
        print(f"  {player.external_id:4} {score:5.0f}: {attempt.status.value}, flagged={attempt.flagged}")


def main() -> None:
    sim = Simulation.from_manifest(MANIFEST, seed=22, start=STARTS - timedelta(minutes=5))
    luck = random.Random(22)

    # Everyone registers and gets 8 gems from the studio backend: enough for one paid entry, not two.
    players = {name: sim.player(name) for name in PLAYERS}
    for player in players.values():
        sim.server.wallet.credit(player, "gems", 8, reason="welcome")
    [sprint] = players["ada"].live_events.list().events
    assert sprint.next_window_starts_at is not None
    print(f"{sprint.name}: {sprint.state.value}, next window at {sprint.next_window_starts_at:%H:%M}")

    sim.advance_to(STARTS)  # the window opens
    attempts = {}
    for name, player in players.items():
        started = player.live_events.start_attempt("sprint")
        assert not isinstance(started, LobbyForming)  # a lobby event's start may answer that; this is none
        attempts[name] = started.attempt.attempt_id
        board_id = started.attempt.leaderboard_id
    print(f"{len(attempts)} attempts on {board_id}")

    # fox cheats 30 s in: a score over the cap is refused whole; one too fast for the attempt's time is
    # applied and flagged for the studio to review (it reaches the target, so the attempt completes).
    sim.advance(seconds=30)
    progress(players["fox"], attempts["fox"], 5000)
    progress(players["fox"], attempts["fox"], 1100)

    # Five minutes of honest play, reported every minute.
    scores = dict.fromkeys(PLAYERS, 0)
    for _ in range(5):
        sim.advance(minutes=1)
        for name in PLAYERS[:-1]:
            scores[name] += luck.randint(40, 190)
            progress(players[name], attempts[name], scores[name])

    # ada stops and completes her attempt; a second one needs 5 more gems than she has.
    progress(players["ada"], attempts["ada"], scores["ada"], complete=True)
    try:
        players["ada"].live_events.start_attempt("sprint")
    except LivecoreAPIError as refused:
        print(f"  ada  start: refused, {refused.code}")

    around = sim.board(board_id, limit=3, around="cy")
    print("around cy: " + ", ".join(f"{e.rank}. {e.external_player_id}" for e in around.entries))

    # 19:00, the window's end: the scheduler closes it (expire, finalize, pay the rank bands).
    sim.advance_to(STARTS + timedelta(hours=1))
    final = sim.board(board_id)
    # How each player's attempt ended, as the studio heard it.
    ended = {
        e.data["externalPlayerId"]: e.kind.removeprefix("event.")
        for e in sim.webhooks
        if e.kind in ("event.completed", "event.expired")
    }
    print(f"final board ({final.leaderboard.status.value}):")
    for entry in final.entries:
        who = entry.external_player_id
        assert who is not None  # only a lobby's board shows bots, which have none
        paid = [g for g in players[who].grants.pending().grants if g.source_kind == "event_rank"]
        reward = f"  +{paid[0].entries[0].amount} coins" if paid else ""
        print(f"  {entry.rank}. {who:4} {entry.score:5.0f}  {ended[who]}{reward}")
    kinds = Counter(event.kind for event in sim.webhooks)
    print("webhooks: " + ", ".join(f"{kind} x{n}" for kind, n in sorted(kinds.items())))


if __name__ == "__main__":
    main()
