"""A studio's own area, embedded: the daily check-in quest of ``examples/studio_quests`` on the
in-memory store, with its scheduled sweep on a manual clock (docs/extending.md).

    python examples/daily_quests.py

Ada checks in on days 1 to 3, misses day 4 (the hourly sweep ends her streak), and checks in again on
day 5; every third day of a streak pays a bonus. Bea tries to gift before she ever checked in: the
area's check refuses the built-in gift send, which applies nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from studio_quests import commands
from studio_quests.area import AREA
from studio_quests.rules import problems

from livecore import areas
from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.errors import LivecoreError
from livecore.friends.commands import add
from livecore.games import Game, GameSettings, GiftingSettings, Resource, ResourceType, Studio
from livecore.gifts.commands import send
from livecore.gifts.rules import SendRequest
from livecore.hashing import KeyedHasher
from livecore.memory import MemoryStore
from livecore.players.commands import get_player, register
from livecore.rand import SeededRandomSource
from livecore.schedule import Schedule
from livecore.scope import Environment, Scope

# The game's [games.<key>.areas.quests] section, as the manifest would give it.
QUESTS = {"reward_resource": "gold", "reward_amount": 50, "streak_bonus_every": 3, "streak_bonus_amount": 100}


def main() -> None:
    assert problems(QUESTS) == {}
    settings = GameSettings(
        gifting=GiftingSettings(enabled=True),
        resources={"gold": Resource("gold", ResourceType.CURRENCY, giftable=True, max_per_gift=100)},
        areas={"quests": QUESTS},
    )
    # The area's port and its check come with it: the store and the runtime are given the area.
    store = MemoryStore([AREA])
    store.add_game(
        Studio(id="std_q", key="q"), Game(id="gam_q", studio_id="std_q", key="g", name="Q", settings=settings)
    )
    clock = ManualClock(datetime(2026, 1, 5, 9, 0, tzinfo=UTC))
    rt = Runtime(
        clock=clock,
        rng=SeededRandomSource(7),
        hasher=KeyedHasher(b"quests-example-key" * 2),
        checks=areas.checks([AREA]),
    )
    scope = Scope(studio_id="std_q", game_id="gam_q", env=Environment.TEST)
    schedule = Schedule(store, rt, areas.jobs([AREA]))

    with store.transaction() as tx:
        for name in ("ada", "bea"):
            register(tx, rt, scope, name)
        ada, bea = get_player(tx, scope, "ada"), get_player(tx, scope, "bea")
        game = store.games["gam_q"]
        add(tx, rt, scope, game, ada, bea)
        add(tx, rt, scope, game, bea, ada)

    for day in range(1, 6):
        if day != 4:
            with store.transaction() as tx:
                done = commands.check_in(tx, rt, scope, get_player(tx, scope, "ada"))
            [entry] = done.grant.entries
            granted = f"{entry.amount} {entry.key}"
            print(f"day {day}: ada checks in, streak {done.state.streak}, granted {granted} (pending)")
        if day == 1:
            try:
                with store.transaction() as tx:
                    commands.check_in(tx, rt, scope, get_player(tx, scope, "ada"))
            except LivecoreError as exc:
                print(f"day {day}: ada checks in again: refused, {exc.code}")
        schedule.advance(timedelta(days=1))
        with store.transaction() as tx:
            state = commands.own_quest(tx, get_player(tx, scope, "ada"))
        assert state is not None
        print(f"  after the night's sweeps: streak {state.streak}, best {state.best_streak}")

    outbox = len(store.outbox)
    request = SendRequest(type=ResourceType.CURRENCY, resource_key="gold", amount=10)
    try:
        with store.transaction() as tx:
            send(tx, rt, scope, game, get_player(tx, scope, "bea"), get_player(tx, scope, "ada"), request)
    except LivecoreError as exc:
        added = len(store.outbox) - outbox
        print(f"bea gifts ada before her first check-in: refused, {exc.code}; events added: {added}")
    with store.transaction() as tx:
        commands.check_in(tx, rt, scope, get_player(tx, scope, "bea"))
        sent = send(tx, rt, scope, game, get_player(tx, scope, "bea"), get_player(tx, scope, "ada"), request)
    print(f"bea checks in, then gifts ada: {sent.gift.status.value}")
    kinds = sorted({e.kind for e in store.outbox})
    print(
        "webhooks:",
        ", ".join(f"{k} x{sum(e.kind == k for e in store.outbox)}" for k in kinds if k.startswith("quest.")),
    )


if __name__ == "__main__":
    main()
