"""Run a whole live-event window embedded, with no server: players pay to enter, play, cross milestones,
one cheats, the window closes, and the final board is printed with the rank rewards it paid.

    python examples/live_event.py

The same command functions the server runs (``livecore.live_events.commands.live_events`` and ``.boards``)
run here
on the in-memory store, with a manual clock and seeded randomness, so every run prints the same board.
docs/events.md describes every rule this exercises.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import attrs

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.economy.commands import server_adjust
from livecore.errors import LivecoreError
from livecore.games import (
    AntiCheat,
    CheckKind,
    Economy,
    Entry,
    EventSettings,
    Game,
    GameSettings,
    Milestone,
    RankBand,
    Resource,
    ResourceType,
    Studio,
    Verdict,
)
from livecore.grants.memory import GrantTables
from livecore.hashing import KeyedHasher
from livecore.live_events.attempts import Attempt
from livecore.live_events.commands import boards as board_commands
from livecore.live_events.commands import live_events as event_commands
from livecore.live_events.memory import LiveEventTables
from livecore.memory import MemoryStore, MemoryTransaction
from livecore.players.commands import authenticate, register, set_identity
from livecore.players.rules import Player
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope

STARTS = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)


def coins(amount: int) -> tuple[Entry, ...]:
    return (Entry(ResourceType.CURRENCY, "coins", amount),)


# What a manifest's [games.arena.events.sprint] declares (docs/events.md#the-manifest).
SPRINT = EventSettings(
    key="sprint",
    name="Evening Sprint",
    starts_at=STARTS,
    window_seconds=3600,
    repeat_every_seconds=86_400,  # every evening at 18:00
    attempt_seconds=600,
    max_attempts=2,
    score_metric="score",
    target=1000,
    entry_cost=(Entry(ResourceType.CURRENCY, "gems", 5),),
    completion_rewards=coins(20),
    milestones=(Milestone("bronze", 300, coins(10)), Milestone("silver", 600, coins(25))),
    rank_rewards=(RankBand(1, 1, coins(500)), RankBand(2, 3, coins(200))),
    anti_cheat=(
        AntiCheat("score-cap", CheckKind.MAX_VALUE, "score", 1200, Verdict.REJECT),
        AntiCheat("score-rate", CheckKind.MAX_RATE, "score", 5, Verdict.FLAG),
    ),
)

PLAYERS = ("ada", "bo", "cy", "dee", "eli", "fox")


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

    def start(self, name: str) -> None:
        with self.player(name, "start") as (tx, player):
            self.attempts[name] = event_commands.start(tx, self.rt, self.scope, player, "sprint", None)

    def progress(self, name: str, score: float, *, complete: bool = False) -> None:
        """Report the attempt's score so far (a total, not a delta)."""
        with self.player(name, "progress") as (tx, player):
            attempt, milestones = event_commands.record_progress(
                tx, self.rt, self.scope, player, "sprint", self.attempts[name].id, {"score": score}, complete
            )
            self.attempts[name] = attempt
            for grant in milestones:
                print(f"  {name:4} {score:5.0f}: milestone {grant.metadata['milestoneKey']}")
            if attempt.flagged or attempt.status.value != "in_progress":
                print(f"  {name:4} {score:5.0f}: {attempt.status.value}, flagged={attempt.flagged}")


def main() -> None:
    store = MemoryStore()
    game = Game(
        id="gam_arena",
        studio_id="std_demo",
        key="arena",
        name="Arena",
        settings=GameSettings(
            economy=Economy.PLATFORM,
            resources={
                "coins": Resource("coins", ResourceType.CURRENCY),
                "gems": Resource("gems", ResourceType.CURRENCY),
            },
            events={"sprint": SPRINT},
        ),
    )
    store.add_game(Studio(id="std_demo", key="demo"), game)
    clock = ManualClock(STARTS - timedelta(minutes=5))
    rt = Runtime(clock=clock, rng=SeededRandomSource(22), hasher=KeyedHasher(b"live-event-example" * 2))
    scope = Scope(studio_id=game.studio_id, game_id=game.id, env=Environment.TEST)
    arena = Arena(store, rt, scope)
    luck = random.Random(22)

    # Everyone registers and gets 8 gems from the studio backend: enough for one paid entry, not two.
    with store.transaction() as tx:
        for name in PLAYERS:
            registered = register(tx, rt, scope, name)
            arena.secrets[name] = registered.secret
            player = set_identity(tx, rt, registered.player, name=name.title(), avatar=None, by_player=False)
            gems = (ResourceType.CURRENCY, "gems", 8)
            server_adjust(tx, rt, scope, game, player, *gems, credit=True, note="welcome", source_ref_id=None)
        [sprint] = event_commands.list_events(tx, rt, scope, None)
    print(f"{sprint.event.name}: {sprint.state.value}, next window at {sprint.next_window_starts_at:%H:%M}")

    clock.set(STARTS)
    with store.transaction() as tx:
        event_commands.open_due_windows(tx, rt)  # the scheduler's step at 18:00
    for name in PLAYERS:
        arena.start(name)
    board_id = arena.attempts["ada"].board_id
    print(f"{len(arena.attempts)} attempts on {board_id}")

    # fox cheats 30 s in: a score over the cap is refused whole; one too fast for the attempt's time is
    # applied and flagged for the studio to review (it reaches the target, so the attempt completes).
    clock.advance(30)
    arena.progress("fox", 5000)
    arena.progress("fox", 1100)

    # Five minutes of honest play, reported every minute.
    scores = dict.fromkeys(PLAYERS, 0)
    for _ in range(5):
        clock.advance(60)
        for name in PLAYERS[:-1]:
            scores[name] += luck.randint(40, 190)
            arena.progress(name, scores[name])

    # ada stops and completes her attempt; a second one needs 5 more gems than she has.
    arena.progress("ada", scores["ada"], complete=True)
    arena.start("ada")

    with store.transaction() as tx:
        around = board_commands.read_board(tx, rt, scope, board_id, limit=3, around="cy")
    print("around cy: " + ", ".join(f"{s.rank}. {s.player.external_id}" for s in around.standings))

    # 19:00, the window's end: the scheduler closes it in one step (expire, finalize, pay the rank bands).
    clock.set(STARTS + timedelta(seconds=SPRINT.window_seconds))
    with store.transaction() as tx:
        for window in event_commands.due_windows(tx, rt, 10):
            event_commands.close_window(tx, rt, window.id, window.game_id)
        final = board_commands.read_board(tx, rt, scope, board_id)

    rank_rewards = {
        g.player_id: g for g in store.tables_of(GrantTables).grants.values() if g.source_kind == "event_rank"
    }
    print(f"final board ({final.board.status.value}):")
    for standing in final.standings:
        grant = rank_rewards.get(standing.player.id)
        reward = f"  +{grant.entries[0].amount} coins" if grant else ""
        status = store.tables_of(LiveEventTables).attempts[(game.id, standing.entry.attempt_id)].status.value
        name, score = standing.player.external_id, standing.entry.score
        print(f"  {standing.rank}. {name:4} {score:5.0f}  {status}{reward}")
    kinds: dict[str, int] = {}
    for event in store.outbox:
        kinds[event.kind] = kinds.get(event.kind, 0) + 1
    print("webhooks: " + ", ".join(f"{kind} x{n}" for kind, n in sorted(kinds.items())))


if __name__ == "__main__":
    main()
