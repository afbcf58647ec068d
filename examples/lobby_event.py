"""Play one lobby of a live event embedded, with no server: ten players enter a lobby of twelve seats,
it is still forming at its fill_by, so bots take the two empty seats and it starts; everyone plays, and
at the window's close the lobby's own board is printed, bots marked.

    python examples/lobby_event.py

A :class:`livecore.Simulation` plays the manifest below with the commands the server runs, on a manual
clock and seeded randomness, so every run prints the same board. docs/lobbies.md describes every rule
this exercises; docs/simulation.md the simulation.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

from livecore import Simulation
from livecore.exceptions import LivecoreAPIError
from livecore.lobbies.api import LobbyForming

STARTS = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)

MANIFEST = """
studio = "demo"

[games.arena]
name = "Arena"

# One evening window of half an hour; an attempt may last all of it.
[games.arena.events.duel]
name = "Evening Duel"
starts_at = "2026-03-02T18:00:00Z"
window_seconds = 1800
attempt_seconds = 1800
score_metric = "points"

# A start seats the player in a lobby of twelve, which forms for a minute after its first seat; then
# bots take the seats nobody took, each with a final score from 200 to 900, and the lobby starts.
[games.arena.events.duel.lobby]
capacity = 12
fill_seconds = 60
fill_bots = true
bot_score = { min = 200, max = 900 }
"""

PLAYERS = ("ada", "bo", "cy", "dee", "eli", "fox", "gus", "hal", "ivy", "jo")


def main() -> None:
    # The simulation's seed draws the ids and the bots (their names and scores); the players' own play
    # has dice of its own.
    sim = Simulation.from_manifest(MANIFEST, seed=35, start=STARTS - timedelta(minutes=5))
    luck = random.Random(24)

    # Everyone registers; the studio's backend gives each the name shown on boards.
    players = {name: sim.player(name) for name in PLAYERS}
    for name in PLAYERS:
        sim.server.players.set_identity(name, name=name.title())

    # 18:00, the window opens. One player enters every three seconds: each takes a seat in the one
    # forming lobby and waits (the server's 202 lobby_forming); nothing is charged yet.
    sim.advance_to(STARTS)
    for player in players.values():
        sim.advance(seconds=3)
        started = player.live_events.start_attempt("duel")
        assert isinstance(started, LobbyForming)
        forming = started
    assert forming.fill_by is not None
    print(f"{forming.lobby_id}: forming, {forming.participant_count}/{forming.capacity} seats")
    print(f"  a start now waits (lobby_forming); at {forming.fill_by:%H:%M:%S} the lobby starts anyway")

    # fill_by: the scheduler fills the empty seats with bots and starts the lobby (timeout).
    sim.advance_to(forming.fill_by)
    lobby = sim.lobby(forming.lobby_id).lobby
    bots = [p.display_identity.name for p in lobby.participants if p.is_bot]
    assert lobby.promotion_reason is not None
    print(f"{lobby.lobby_id}: {lobby.status.value} ({lobby.promotion_reason.value}), bots: {', '.join(bots)}")

    # Everyone starts again: now an attempt on the lobby's own board. One attempt at a time, though.
    attempts = {}
    for name, player in players.items():
        started = player.live_events.start_attempt("duel")
        assert not isinstance(started, LobbyForming)
        attempts[name] = started.attempt.attempt_id
    try:
        players["ada"].live_events.start_attempt("duel")
    except LivecoreAPIError as refused:
        print(f"  ada  start: refused, {refused.code}")

    # Ten minutes of play, each player's score (a total, not a delta) reported every minute.
    scores = dict.fromkeys(PLAYERS, 0)
    for _ in range(10):
        sim.advance(minutes=1)
        for name, player in players.items():
            scores[name] += luck.randint(5, 65)
            player.live_events.report_progress("duel", attempts[name], {"points": scores[name]})

    # 18:30, the window's end: the scheduler closes it, and its lobby with it.
    sim.advance_to(STARTS + timedelta(minutes=30))
    closed = sim.lobby(lobby.lobby_id).lobby
    final = sim.board(closed.leaderboard_id)
    print(f"{closed.lobby_id} {closed.status.value}; its board ({final.leaderboard.status.value}):")
    for entry in final.entries:
        marker = "  (bot)" if entry.is_bot else ""
        print(f"  {entry.rank:2}. {entry.name:16} {entry.score:5.0f}{marker}")
    kinds = Counter(e.kind for e in sim.webhooks if e.kind.startswith("lobby."))
    print("lobby webhooks: " + ", ".join(f"{kind} x{n}" for kind, n in sorted(kinds.items())))


if __name__ == "__main__":
    main()
