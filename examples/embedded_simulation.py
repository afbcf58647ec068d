"""A seeded week of play, embedded, with no server: three players register from their own devices, come
back on the days they play, and their sessions and login streaks are read back as the game and the studio
see them.

    python examples/embedded_simulation.py

A :class:`livecore.Simulation` plays the manifest below with the commands the server runs, on a manual
clock and seeded randomness, so every run is the same week. The hourly streak sweep runs as the clock
moves, as the server's scheduler runs it. docs/reference/players-and-identity.md describes sessions,
login streaks and platforms; docs/simulation.md the simulation.
"""

from __future__ import annotations

from datetime import UTC, datetime

from livecore import Simulation

MANIFEST = """
studio = "sim"

[games.g]
name = "Sim"
# The game's own platform, beside the built-in ones (ios, android, ...).
platforms = ["switch"]
"""

# Each player's device, as the SDK reports it (X-Svc-Platform, X-Svc-App-Version): cy's is one the game
# does not register, which is recorded all the same.
DEVICES = {"ada": "ios", "bo": "switch", "cy": "smart-fridge"}


def main() -> None:
    sim = Simulation.from_manifest(MANIFEST, seed=2026, start=datetime(2026, 1, 5, 9, 0, tzinfo=UTC))
    # Registering opens each player's first session and first streak day.
    players = {
        name: sim.player(name, platform=platform, app_version="1.0.0") for name, platform in DEVICES.items()
    }

    # ada plays every day; bo every other day; cy only on day one. Playing: the game's heartbeat.
    for day in range(1, 7):
        sim.advance(days=1)  # the hourly sweep ends the streak of whoever missed yesterday
        for name, plays in (("ada", True), ("bo", day % 2 == 0), ("cy", False)):
            if plays:
                players[name].presence.heartbeat(status="playing")

    for name, player in players.items():
        # What the game shows the player: its system items, read-only, kept by the service.
        system = {item.key: item.quantity for item in player.inventory.get().items if item.system}
        # What the studio's backend sees of its device: the profile.
        seen = sim.server.players.profile(player).player
        known = "" if seen.platform_registered else " (unregistered)"
        print(
            f"{name:4} sessions={system['sessions']} streak={system['login_streak']}"
            f" platform={seen.platform}{known} app={seen.app_version}"
        )
    print(f"{len(sim.webhooks)} webhook events: " + ", ".join(sorted({e.kind for e in sim.webhooks})))


if __name__ == "__main__":
    main()
