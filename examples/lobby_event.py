"""Play one lobby of a live event embedded, with no server: ten players enter a lobby of twelve seats,
it is still forming at its fill_by, so bots take the two empty seats and it starts; everyone plays, and
at the window's close the lobby's own board is printed, bots marked.

    python examples/lobby_event.py

The same command functions the server runs (``livecore.live_events.commands.live_events``, ``.lobbies`` and
``.boards``) run here on the in-memory store, with a manual clock and seeded randomness, so every run
prints the same board. docs/lobbies.md describes every rule this exercises.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import attrs

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.errors import LivecoreError
from livecore.games import BotScore, EventSettings, Game, GameSettings, LobbySettings, Studio
from livecore.hashing import KeyedHasher
from livecore.live_events.attempts import Attempt
from livecore.live_events.commands import boards as board_commands
from livecore.live_events.commands import live_events as event_commands
from livecore.lobbies import commands as lobby_commands
from livecore.lobbies.rules import Lobby
from livecore.memory import MemoryStore, MemoryTransaction
from livecore.players.commands import authenticate, register, set_identity
from livecore.players.rules import Player
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope

STARTS = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)

# What a manifest's [games.arena.events.duel] and its [...duel.lobby] declare (docs/lobbies.md#the-manifest).
DUEL = EventSettings(
    key="duel",
    name="Evening Duel",
    starts_at=STARTS,
    window_seconds=1800,
    attempt_seconds=1800,
    score_metric="points",
    lobby=LobbySettings(capacity=12, fill_seconds=60, fill_bots=True, bot_score=BotScore(200, 900)),
)

PLAYERS = ("ada", "bo", "cy", "dee", "eli", "fox", "gus", "hal", "ivy", "jo")


@attrs.define
class Arena:
    """The game's players as clients: each call is one transaction that authenticates the player, as a
    request to the server would be; a refusal is printed and changes nothing."""

    store: MemoryStore
    rt: Runtime
    scope: Scope
    secrets: dict[str, str] = attrs.Factory(dict)
    attempts: dict[str, Attempt] = attrs.Factory(dict)

    @contextmanager
    def player(self, name: str, action: str) -> Iterator[tuple[MemoryTransaction, Player]]:
        try:
            with self.store.transaction() as tx:
                yield tx, authenticate(tx, self.rt, self.scope, name, self.secrets[name])
        except LivecoreError as refused:
            print(f"  {name:4} {action}: refused, {refused.code.value}")

    def start(self, name: str) -> Lobby | Attempt | None:
        """A start: the lobby while it forms (the server's 202 ``lobby_forming``), else an attempt."""
        with self.player(name, "start") as (tx, player):
            started = event_commands.start(tx, self.rt, self.scope, player, "duel", None)
            if isinstance(started, Attempt):
                self.attempts[name] = started
            return started
        return None

    def progress(self, name: str, points: float) -> None:
        """Report the attempt's score so far (a total, not a delta)."""
        with self.player(name, "progress") as (tx, player):
            attempt, _ = event_commands.record_progress(
                tx, self.rt, self.scope, player, "duel", self.attempts[name].id, {"points": points}, False
            )
            self.attempts[name] = attempt


def main() -> None:
    store = MemoryStore()
    game = Game(
        id="gam_arena",
        studio_id="std_demo",
        key="arena",
        name="Arena",
        settings=GameSettings(events={"duel": DUEL}),
    )
    store.add_game(Studio(id="std_demo", key="demo"), game)
    clock = ManualClock(STARTS)
    rt = Runtime(clock=clock, rng=SeededRandomSource(24), hasher=KeyedHasher(b"lobby-event-example" * 2))
    scope = Scope(studio_id=game.studio_id, game_id=game.id, env=Environment.TEST)
    arena = Arena(store, rt, scope)
    luck = random.Random(24)

    with store.transaction() as tx:
        for name in PLAYERS:
            registered = register(tx, rt, scope, name)
            arena.secrets[name] = registered.secret
            set_identity(tx, rt, registered.player, name=name.title(), avatar=None, by_player=False)
        event_commands.open_due_windows(tx, rt)  # the scheduler's step at 18:00

    # One player enters every three seconds: each takes a seat in the one forming lobby and waits.
    for name in PLAYERS:
        clock.advance(3)
        started = arena.start(name)
        assert isinstance(started, Lobby)
        lobby = started
    assert lobby.fill_by is not None
    print(f"{lobby.id}: {lobby.status.value}, {lobby.participant_count}/{lobby.capacity} seats")
    print(f"  a start now waits (lobby_forming); at {lobby.fill_by:%H:%M:%S} the lobby starts anyway")

    # fill_by: the scheduler's step fills the empty seats with bots and starts the lobby (timeout).
    clock.set(lobby.fill_by)
    with store.transaction() as tx:
        for due in lobby_commands.lobbies_to_fill(tx, rt):
            lobby_commands.fill_lobby(tx, rt, due.game_id, due.id)
        read = lobby_commands.read_lobby(tx, scope, lobby.id)
    lobby = read.lobby
    bots = [s.identity.name for s in read.seats if s.is_bot and s.identity is not None]
    assert lobby.promotion_reason is not None
    print(f"{lobby.id}: {lobby.status.value} ({lobby.promotion_reason.value}), bots: {', '.join(bots)}")

    # Everyone starts again: now an attempt on the lobby's own board. Then ten minutes of play.
    for name in PLAYERS:
        arena.start(name)
    arena.start("ada")  # one attempt in progress at a time: refused
    scores = dict.fromkeys(PLAYERS, 0)
    for _ in range(10):
        clock.advance(60)
        for name in PLAYERS:
            scores[name] += luck.randint(5, 65)
            arena.progress(name, scores[name])

    # 18:30, the window's end: the scheduler closes it, and its lobby with it.
    clock.set(STARTS + timedelta(seconds=DUEL.window_seconds))
    with store.transaction() as tx:
        for window in event_commands.due_windows(tx, rt, 10):
            event_commands.close_window(tx, rt, window.id, window.game_id)
        final = board_commands.read_board(tx, rt, scope, lobby.board_id)
        closed = tx.lobbies.get(game.id, lobby.id)
    assert closed is not None
    print(f"{closed.id} {closed.status.value}; its board ({final.board.status.value}):")
    for standing in final.standings:
        who = standing.player
        identity = who.display or who.anonymized
        marker = "  (bot)" if who.is_bot else ""
        print(f"  {standing.rank:2}. {identity.name:16} {standing.entry.score:5.0f}{marker}")
    kinds: dict[str, int] = {}
    for event in store.outbox:
        if event.kind.startswith("lobby."):
            kinds[event.kind] = kinds.get(event.kind, 0) + 1
    print("lobby webhooks: " + ", ".join(f"{kind} x{n}" for kind, n in sorted(kinds.items())))


if __name__ == "__main__":
    main()
