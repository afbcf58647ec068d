"""Run livecore's rules embedded, with no server: a seeded, replayable simulation of a week of play.

    python examples/embedded_simulation.py

The same command functions the server runs are called here on the in-memory store, with a manual clock
and a seeded random source, so the run is exact and repeatable.
"""

from __future__ import annotations

from datetime import UTC, datetime

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.games import Game, GameSettings, Studio
from livecore.hashing import KeyedHasher
from livecore.memory import MemoryStore
from livecore.players.commands import authenticate, register, set_identity, sweep_streaks
from livecore.players.memory import PlayerTables
from livecore.players.platforms import ClientBuild, platform_registered
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope


def main() -> None:
    store = MemoryStore()
    # The game declares a platform of its own beside the built-in ones (the manifest's ``platforms``).
    settings = GameSettings(platforms=("switch",))
    store.add_game(
        Studio(id="std_sim", key="sim"),
        Game(id="gam_sim", studio_id="std_sim", key="g", name="Sim", settings=settings),
    )
    clock = ManualClock(datetime(2026, 1, 5, 9, 0, tzinfo=UTC))
    rt = Runtime(clock=clock, rng=SeededRandomSource(2026), hasher=KeyedHasher(b"simulation-key-" * 3))
    scope = Scope(studio_id="std_sim", game_id="gam_sim", env=Environment.TEST)

    secrets = {}
    with store.transaction() as tx:
        # Each registers from its own build, as the SDK's X-Svc-Platform and X-Svc-App-Version report it.
        for name, platform in (("ada", "ios"), ("bo", "switch"), ("cy", "smart-fridge")):
            build = ClientBuild(platform=platform, app_version="1.0.0")
            secrets[name] = register(tx, rt, scope, name, build=build).secret

    # Ada plays every day; Bo every other day; Cy only on day one.
    for day in range(1, 7):
        clock.advance(24 * 3600)
        with store.transaction() as tx:
            sweep_streaks(tx, rt)
            for name, plays in (("ada", True), ("bo", day % 2 == 0), ("cy", False)):
                if plays:
                    player = authenticate(tx, rt, scope, name, secrets[name])
                    set_identity(tx, rt, player, name=name.title(), avatar=None, by_player=True)

    for (_, external_id), player in sorted(store.tables_of(PlayerTables).players.items()):
        a, b = player.activity, player.build
        known = "" if platform_registered(b.platform, settings) else " (unregistered)"
        print(
            f"{external_id:4} sessions={a.sessions} streak={a.streak} best={a.best_streak}"
            f" platform={b.platform}{known} app={b.app_version}"
        )
    print(f"{len(store.outbox)} webhook events in the outbox")


if __name__ == "__main__":
    main()
