"""A studio's own area, embedded: the daily check-in quest of ``examples/studio_quests``, played by a
:class:`livecore.Simulation` with its scheduled sweep as the clock moves (docs/extending.md).

    python examples/daily_quests.py

Ada checks in on days 1 to 3, misses day 4 (the hourly sweep ends her streak), and checks in again on
day 5; every third day of a streak pays a bonus. Bea tries to gift before she ever checked in: the
area's check refuses the built-in gift send, which applies nothing.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

from studio_quests.area import AREA
from studio_quests.typed import Simulation

from livecore.exceptions import LivecoreAPIError

MONDAY = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

# The studio's manifest: the area's package named under [plugins], its section under the game.
MANIFEST = """
studio = "q"

[plugins]
areas = ["studio_quests"]

[games.g]
name = "Q"

[games.g.gifting]
enabled = true

[games.g.resources.gold]
type = "currency"
giftable = true
max_per_gift = 100

# A check-in pays 50 gold; every third day of a streak pays 100 more.
[games.g.areas.quests]
reward_resource = "gold"
reward_amount = 50
streak_bonus_every = 3
streak_bonus_amount = 100
"""


def main() -> None:
    # The area comes with its table, its sweep and its check on gift sends.
    sim = Simulation.from_manifest(MANIFEST, areas=[AREA], seed=7, start=MONDAY)
    ada, bea = sim.player("ada"), sim.player("bea")
    # The area's actions on each player's handle (its player_actions), typed by the generated
    # studio_quests.typed (python -m livecore.assembly --area studio_quests): sdk.quests in the client.
    quests = {"ada": ada.quests, "bea": bea.quests}
    asked = ada.friends.send_request(external_player_id=bea)
    assert asked.request is not None
    bea.friends.accept_request(asked.request.request_id)

    for day in range(1, 6):
        if day != 4:
            done = quests["ada"].check_in()
            [entry] = done.grant.entries
            granted = f"{entry.amount} {entry.key} ({done.grant.status.value})"
            print(f"day {day}: ada checks in, streak {done.quest.streak}, granted {granted}")
        if day == 1:
            try:
                quests["ada"].check_in()
            except LivecoreAPIError as refused:
                print(f"day {day}: ada checks in again: refused, {refused.code}")
        sim.advance(days=1)  # the area's sweep runs every hour
        quest = quests["ada"].get().quest
        print(f"  after the night's sweeps: streak {quest.streak}, best {quest.best_streak}")

    # Bea has never checked in: the area's check refuses her gift, and the refused send emits nothing.
    emitted = len(sim.webhooks)
    try:
        bea.gifts.send(type="currency", resource_key="gold", amount=10, external_player_id=ada)
    except LivecoreAPIError as refused:
        added = len(sim.webhooks) - emitted
        print(f"bea gifts ada before her first check-in: refused, {refused.code}; events added: {added}")
    quests["bea"].check_in()
    sent = bea.gifts.send(type="currency", resource_key="gold", amount=10, external_player_id=ada)
    print(f"bea checks in, then gifts ada: {sent.gift.status.value}")
    kinds = Counter(e.kind for e in sim.webhooks if e.kind.startswith("quest."))
    print("webhooks: " + ", ".join(f"{kind} x{n}" for kind, n in sorted(kinds.items())))


if __name__ == "__main__":
    main()
