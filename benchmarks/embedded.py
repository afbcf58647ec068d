"""Embedded throughput: the server's send-gift command on the in-memory store, in one process.

    python -m benchmarks.embedded                 # 1,000 players x 50 friends, 3 simulated days
    python -m benchmarks.embedded --json out.json

The target is at least 50,000 sends per second. The run is a game simulation as a studio would write
one: a ring of players, each befriending its 25 neighbours on either side; every simulated day (the
manual clock moves 24 h) each player gifts each of its 50 friends once. Every send is its own
transaction and runs every rule the server runs: friendship, allowlist, amount, the 24 h cooldown per
friend, the daily limit (100) per UTC day, then the gift, its pending grant and the two webhook events.

The same days are then played again through :class:`livecore.Simulation`, as a studio's script calls it
(``ada.gifts.send(...)``): the player authenticated, the body read as the server reads it and the answer
built as the client receives it, on top of the same command. Both figures are reported: the command's is
the core's own speed, the simulation's what a script gets.

Figures are sends per second of process CPU time (this machine is shared, so wall time is noisier; both
are printed), per simulated day and for the best day.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.report import write_json
from livecore import Simulation as LivecoreSimulation
from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.games import Game, GameSettings, Resource, ResourceType, Studio
from livecore.gifts.commands import send
from livecore.gifts.memory import GiftTables
from livecore.gifts.rules import SendRequest
from livecore.gifts.settings import GIFT_RESOURCE, GIFTING_SETTINGS, GiftingSettings, GiftResource
from livecore.hashing import KeyedHasher
from livecore.memory import MemoryStore
from livecore.players.commands import first_contact
from livecore.players.rules import Player
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope

TARGET_PER_SECOND = 50_000
START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
SCOPE = Scope(studio_id="std_sim", game_id="gam_sim", env=Environment.TEST)
SETTINGS = GameSettings(
    sections={
        GIFTING_SETTINGS: GiftingSettings(enabled=True, daily_send_limit=100, claim_expiry_seconds=7 * 86_400)
    },
    resources={
        "coins": Resource(
            "coins",
            ResourceType.CURRENCY,
            parts={GIFT_RESOURCE: GiftResource(giftable=True, max_per_gift=100)},
        )
    },
)
REQUEST = SendRequest(type=ResourceType.CURRENCY, resource_key="coins", amount=1)


class Simulation:
    def __init__(self, players: int, friends: int, seed: int = 6) -> None:
        self.store = MemoryStore()
        self.game = Game(
            id=SCOPE.game_id, studio_id=SCOPE.studio_id, key="sim", name="Sim", settings=SETTINGS
        )
        self.store.add_game(Studio(id=SCOPE.studio_id, key="sim"), self.game)
        self.clock = ManualClock(START)
        self.rt = Runtime(clock=self.clock, rng=SeededRandomSource(seed), hasher=KeyedHasher(b"sim" * 11))
        half = friends // 2
        with self.store.transaction() as tx:
            ring: list[Player] = [first_contact(tx, self.rt, SCOPE, f"p{i}") for i in range(players)]
            for i, player in enumerate(ring):
                for offset in range(1, half + 1):
                    tx.friends.insert_friendship(player.id, ring[(i + offset) % players].id, self.clock.now())
        offsets = [*range(1, half + 1), *range(-half, 0)]
        self.pairs = [(ring[i], ring[(i + o) % players]) for o in offsets for i in range(players)]

    def day(self) -> tuple[float, float]:
        """One simulated day of sends; returns (CPU seconds, wall seconds)."""
        self.clock.advance(86_400)
        store, rt, game = self.store, self.rt, self.game
        cpu, wall = time.process_time(), time.perf_counter()
        for sender, recipient in self.pairs:
            with store.transaction() as tx:
                send(tx, rt, SCOPE, game, sender, recipient, REQUEST)
        return time.process_time() - cpu, time.perf_counter() - wall


MANIFEST = """
studio = "sim"

[games.sim]
name = "Sim"

[games.sim.gifting]
enabled = true
daily_send_limit = 100
claim_expiry_seconds = 604800

[games.sim.resources.coins]
type = "currency"
giftable = true
max_per_gift = 100
"""


class Scripted:
    """The same ring and days, played through :class:`livecore.Simulation`'s player handles."""

    def __init__(self, players: int, friends: int, seed: int = 6) -> None:
        self.sim = LivecoreSimulation.from_manifest(MANIFEST, seed=seed, start=START)
        self.sim.schedule.only(())  # no sweep falls due between sends: only the sends are timed
        ring = [self.sim.player(f"p{i}") for i in range(players)]
        half = friends // 2
        now = self.sim.clock.now()
        with self.sim.store.transaction() as tx:
            for i, player in enumerate(ring):
                for offset in range(1, half + 1):
                    tx.friends.insert_friendship(player.id, ring[(i + offset) % players].id, now)
        offsets = [*range(1, half + 1), *range(-half, 0)]
        self.pairs = [(ring[i], ring[(i + o) % players].external_id) for o in offsets for i in range(players)]

    def day(self) -> tuple[float, float]:
        self.sim.advance(timedelta(days=1))
        cpu, wall = time.process_time(), time.perf_counter()
        for sender, recipient in self.pairs:
            sender.gifts.send(type="currency", resource_key="coins", amount=1, external_player_id=recipient)
        return time.process_time() - cpu, time.perf_counter() - wall


def _days(play: Simulation | Scripted, sends: int, days: int) -> list[dict[str, float]]:
    per_day = []
    for _ in range(days):
        cpu, wall = play.day()
        per_day.append({"sends": sends, "cpuPerSecond": sends / cpu, "wallPerSecond": sends / wall})
    return per_day


def run(players: int = 1_000, friends: int = 50, days: int = 3) -> dict[str, Any]:
    sim = Simulation(players, friends)
    events_before = len(sim.store.outbox)
    per_day = []
    for _ in range(days):
        cpu, wall = sim.day()
        per_day.append(
            {
                "sends": len(sim.pairs),
                "cpuPerSecond": len(sim.pairs) / cpu,
                "wallPerSecond": len(sim.pairs) / wall,
            }
        )
    sends = len(sim.pairs) * days
    # Every send must have succeeded: two events (gift.sent, grant.created) each.
    assert (
        len(sim.store.tables_of(GiftTables).gifts) == sends
        and len(sim.store.outbox) - events_before == 2 * sends
    )
    best = max(d["cpuPerSecond"] for d in per_day)
    scripted = Scripted(players, friends)
    scripted_days = _days(scripted, len(scripted.pairs), days)
    assert len(scripted.sim.webhooks_of("gift.sent")) == len(scripted.pairs) * days
    return {
        "scenario": "embedded_send_gift",
        "players": players,
        "friendsEach": friends,
        "days": per_day,
        "bestCpuPerSecond": best,
        "simulationDays": scripted_days,
        "simulationBestCpuPerSecond": max(d["cpuPerSecond"] for d in scripted_days),
        "target": TARGET_PER_SECOND,
        "met": best >= TARGET_PER_SECOND,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.embedded", description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--friends", type=int, default=50)
    parser.add_argument("--days", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    result = run(args.players, args.friends, args.days)
    for i, d in enumerate(result["days"], 1):
        print(
            f"day {i}: {d['sends']} sends, {d['cpuPerSecond']:,.0f}/s CPU, {d['wallPerSecond']:,.0f}/s wall"
        )
    verdict = "met" if result["met"] else "MISSED"
    best = result["bestCpuPerSecond"]
    print(f"embedded send_gift: best {best:,.0f}/s (target {TARGET_PER_SECOND:,}/s: {verdict})")
    for i, d in enumerate(result["simulationDays"], 1):
        print(
            f"through Simulation, day {i}: {d['sends']} sends, {d['cpuPerSecond']:,.0f}/s CPU,"
            f" {d['wallPerSecond']:,.0f}/s wall"
        )
    print(f"through Simulation: best {result['simulationBestCpuPerSecond']:,.0f}/s")
    if args.json is not None:
        write_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
