"""A guild's first day, embedded, with no server: ada founds a request-only guild (paying its cost), bo asks
to join and is accepted, cy joins too and is promoted, bo asks the guild for energy and cy donates (the
grants the donation creates are printed), ada hands the leadership to cy, and the studio's backend looks
at the guild's detail.

    python examples/guild_story.py

A :class:`livecore.Simulation` plays the manifest below with the commands the server runs, on a manual
clock and seeded randomness, so every run prints the same story. docs/guilds.md describes every rule this
exercises; docs/simulation.md the simulation.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

from livecore import Simulation
from livecore.exceptions import LivecoreAPIError
from livecore.guilds.api import GuildJoinPending, GuildResponse

MORNING = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

MANIFEST = """
studio = "heist"

[games.heist]
name = "Heist"
economy = "platform"          # the service keeps the balances: founding a guild debits its cost

[games.heist.resources.coins]
type = "currency"

[games.heist.resources.energy]
type = "currency"

# Guilds of up to 30; founding one costs 100 coins; a name holding "rogue" is refused. A member may ask
# the guild for up to 5 energy, and each donation earns its donor 2 coins.
[games.heist.guilds]
enabled = true
max_members = 30
create_cost = [{ type = "currency", key = "coins", amount = 100 }]
name_filter = ["rogue"]

[games.heist.guilds.help]
resources = ["energy"]
max_amount = 5
donor_reward = [{ type = "currency", key = "coins", amount = 2 }]
"""


def roster(answer: GuildResponse) -> str:
    return ", ".join(f"{m.external_player_id} ({m.role.value})" for m in answer.guild.members)


def main() -> None:
    sim = Simulation.from_manifest(MANIFEST, seed=26, start=MORNING)
    ada, bo, cy = sim.player("ada"), sim.player("bo"), sim.player("cy")
    # The studio's backend fills the starting wallets.
    sim.server.wallet.credit(ada, "coins", 150, reason="starting wallet")
    sim.server.wallet.credit(cy, "energy", 8, reason="starting wallet")

    sim.advance(minutes=5)
    try:
        ada.guilds.create("Rogue Pilots", "request")
    except LivecoreAPIError as refused:
        print(f"'Rogue Pilots' refused: {refused.code}")
    guild = ada.guilds.create("  Star Pilots ", "request", country="fr").guild
    print(
        f"ada founded {guild.name!r} ({guild.join_type.value}, {guild.country}): paid 100 coins, "
        f"{sim.balance(ada, 'coins')} left"
    )

    # A request-only guild: bo asks, and its leader answers.
    sim.advance(minutes=2)
    asked = bo.guilds.join(guild.guild_id, message="I fly fast")
    assert isinstance(asked, GuildJoinPending)
    print(f"bo asked to join: {asked.request.message!r}")
    pending = ada.guilds.join_requests().requests
    print(f"ada sees {len(pending)} pending request(s) and accepts bo's")
    ada.guilds.accept_join_request(pending[0].request_id)
    sim.advance(minutes=2)
    asked = cy.guilds.join(guild.guild_id)
    assert isinstance(asked, GuildJoinPending)
    ada.guilds.accept_join_request(asked.request.request_id)
    print(f"members: {roster(ada.guilds.promote(cy))}")

    # bo asks for energy; cy offers more than the request lacks, then exactly what it lacks.
    sim.advance(minutes=2)
    request = bo.guilds.ask_help(type="currency", resource_key="energy", amount=5).help_request
    print(f"bo asked for {request.amount} energy (open until {request.expires_at:%a %H:%M})")
    try:
        cy.guilds.donate_help(request.request_id, 6)
    except LivecoreAPIError as refused:
        print(f"cy offering 6: {refused.code} (the request lacks only 5)")
    donated = cy.guilds.donate_help(request.request_id, 5)
    # The donation made two pending grants: the energy for bo, the donor's reward for cy.
    made = {donated.donation.grant_id, donated.donation.reward_grant_id}
    for player in (bo, cy):
        for grant in player.grants.pending().grants:
            if grant.grant_id in made:
                entries = ", ".join(f"{e.amount} {e.key}" for e in grant.entries)
                print(
                    f"  grant to {grant.external_player_id}: {entries}"
                    f" ({grant.source_kind}, {grant.status.value})"
                )
    filled = donated.help_request
    print(
        f"request {filled.status.value}: {filled.donated}/{filled.amount}; "
        f"cy has {sim.balance(cy, 'energy')} energy left"
    )

    sim.advance(minutes=2)
    print(f"ada handed over: {roster(ada.guilds.transfer_leadership(cy))}")

    detail = sim.server.guilds.get(guild.guild_id).guild
    roles = {m.external_player_id: m.role.value for m in detail.members}
    print("the studio's detail:")
    for stint in detail.history:
        who = stint.external_player_id
        print(f"  {who}: joined at {stint.joined_at:%H:%M}, now {roles[who]}")
    kinds = Counter(e.kind for e in sim.webhooks if e.kind.startswith("guild."))
    print("webhooks: " + ", ".join(f"{kind} x{n}" for kind, n in kinds.items()))


if __name__ == "__main__":
    main()
