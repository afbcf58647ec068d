"""A guild's first weeks, embedded, with no server: a player founds a guild, another asks to join and is
accepted, a member asks for help and two others donate (each donation a pending grant for the requester
and a reward grant for the donor), the leader hands the lead on, and when the new leader stops playing
the hourly sweep hands it on again.

    python examples/guild_story.py

The same command functions the server runs (``livecore.commands.guilds``, ``.grants`` and ``.economy``)
run here on the in-memory store, with a manual clock and seeded randomness, so every run tells the same
story. docs/guilds.md describes every rule this exercises.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.commands import economy as economy_commands
from livecore.commands import grants as grant_commands
from livecore.commands import guilds as guild_commands
from livecore.commands.players import get_player, heartbeat, register
from livecore.errors import LivecoreError
from livecore.games import (
    Economy,
    Entry,
    Game,
    GameSettings,
    GuildSettings,
    HelpSettings,
    Resource,
    ResourceType,
    Studio,
)
from livecore.guilds import JoinType, Profile
from livecore.hashing import KeyedHasher
from livecore.memory import MemoryStore, MemoryTransaction
from livecore.rand import SeededRandomSource
from livecore.scope import Actor, Environment, Scope

STARTS = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
COINS, ENERGY = ResourceType.CURRENCY, ResourceType.CURRENCY

# What a manifest's [games.skyforge.guilds] declares (docs/guilds.md#the-manifest).
GUILDS = GuildSettings(
    enabled=True,
    max_members=20,
    create_cost=(Entry(COINS, "coins", 100),),
    name_filter=("badword",),
    leader_inactive_days=14,
    help=HelpSettings(
        resources=("energy",),
        max_amount=5,
        expiry_seconds=86_400,
        cooldown_seconds=28_800,
        donor_reward=(Entry(COINS, "coins", 2),),
    ),
)


class Skyforge:
    """The game, and its players as clients: each call is one transaction, as a request to the server
    would be; a refusal is printed and changes nothing."""

    def __init__(self) -> None:
        self.store = MemoryStore()
        self.game = Game(
            id="gam_skyforge",
            studio_id="std_demo",
            key="skyforge",
            name="Skyforge",
            settings=GameSettings(
                economy=Economy.PLATFORM,
                resources={"coins": Resource("coins", COINS), "energy": Resource("energy", ENERGY)},
                guilds=GUILDS,
            ),
        )
        self.store.add_game(Studio(id="std_demo", key="demo"), self.game)
        self.clock = ManualClock(STARTS)
        self.rt = Runtime(self.clock, SeededRandomSource(26), KeyedHasher(b"guild-story-example" * 2))
        self.client = Scope(self.game.studio_id, self.game.id, Environment.TEST, Actor("api_key", "client"))
        self.server = Scope(self.game.studio_id, self.game.id, Environment.TEST, Actor("api_key", "server"))

    def tx(self, fn: Callable[[MemoryTransaction], Any]) -> Any:
        with self.store.transaction() as tx:
            return fn(tx)

    def as_player(self, who: str, command: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        """``who``'s client call of ``command`` (``command(tx, rt, scope, player, ...)``)."""
        try:
            return self.tx(
                lambda tx: command(tx, self.rt, self.client, get_player(tx, self.client, who), *args, **kw)
            )
        except LivecoreError as refused:
            print(f"  {who}: refused, {refused.code.value}: {refused.message}")
            return None

    def credit(self, who: str, key: str, amount: int) -> None:
        """The studio's server credits a player (POST /server/v1/players/{id}/wallet/{key}/credit)."""
        self.tx(
            lambda tx: economy_commands.server_adjust(
                tx,
                self.rt,
                self.server,
                self.game,
                get_player(tx, self.client, who),
                COINS,
                key,
                amount,
                credit=True,
                note=None,
                source_ref_id=None,
            )
        )

    def balance(self, who: str, key: str) -> int:
        return int(self.tx(lambda tx: tx.ledger.holding(get_player(tx, self.client, who).id, key).amount))

    def seen(self, who: str) -> None:
        """A heartbeat: any authenticated client request marks the player seen."""
        self.as_player(who, lambda tx, rt, scope, player: heartbeat(tx, rt, player, None))

    def roster(self, guild_id: str) -> str:
        read = self.tx(lambda tx: guild_commands.read_guild(tx, self.client, guild_id))
        return ", ".join(f"{m.external_player_id} ({m.role.value})" for m in read.members)


def main() -> None:
    sky = Skyforge()
    sky.tx(lambda tx: [register(tx, sky.rt, sky.client, who) for who in ("ada", "bo", "cy", "dee")])
    sky.credit("ada", "coins", 150)
    for who, amount in (("cy", 4), ("dee", 3)):
        sky.credit(who, "energy", amount)

    # Ada founds a guild only accepted players join; the founding cost is debited (a platform game).
    print("Day 1")
    sky.as_player("ada", guild_commands.create, Profile(name="badword brigade", join_type=JoinType.REQUEST))
    own = sky.as_player(
        "ada", guild_commands.create, Profile(name="Night Owls", join_type=JoinType.REQUEST, country="fr")
    )
    owls = own.read.guild.id
    print(
        f"  ada founded {own.read.guild.name} ({own.read.guild.join_type.value} to join):"
        f" 100 coins paid, {sky.balance('ada', 'coins')} left"
    )

    # Bo and cy ask to join; ada accepts both, then makes cy a co-leader.
    for who, message in (("bo", "I fly at night"), ("cy", None)):
        sky.clock.advance(600)
        request = sky.as_player(who, guild_commands.join, owls, message).request
        print(f"  {who} asked to join" + (f': "{request.message}"' if request.message else ""))
    pending = sky.as_player("ada", lambda tx, rt, scope, p: guild_commands.join_requests(tx, scope, p))
    for request in pending:
        sky.clock.advance(60)
        sky.as_player("ada", guild_commands.answer_join_request, request.id, accept=True)
        print(f"  ada accepted {request.external_player_id}")
    sky.as_player("ada", guild_commands.promote, "cy")
    sky.clock.advance(60)
    sky.as_player("dee", guild_commands.join, owls)  # request-only: dee asks too
    request = sky.as_player("cy", lambda tx, rt, scope, p: guild_commands.join_requests(tx, scope, p))[0]
    sky.as_player("cy", guild_commands.answer_join_request, request.id, accept=True)
    print(f"  cy (co-leader) accepted dee; the guild: {sky.roster(owls)}")

    # Bo asks for energy; cy and dee donate. Each donation debits its donor and leaves two pending grants.
    print("Day 2")
    sky.clock.advance(86_400)
    asked = sky.as_player("bo", guild_commands.ask_help, ENERGY, "energy", 5)
    print(f"  bo asked the guild for {asked.amount} energy")
    sky.as_player("bo", guild_commands.ask_help, ENERGY, "energy", 1)  # one open request at a time
    for who, amount in (("cy", 3), ("dee", 3), ("dee", 2)):
        sky.clock.advance(60)
        done = sky.as_player(who, guild_commands.donate, asked.id, amount)
        if done is None:
            continue
        request = done.request
        print(
            f"  {who} donated {amount}: {request.donated}/{request.amount} ({request.status.value}),"
            f" {who} has {sky.balance(who, 'energy')} energy left"
        )
    grants = sorted(
        (g for g in sky.store.grants.values() if g.source_ref_id == asked.id),
        key=lambda g: (g.source_kind, g.external_player_id, g.created_at),
    )
    for grant in grants:
        (entry,) = grant.entries
        print(
            f"  grant {grant.source_kind}: {entry.amount} {entry.key} for {grant.external_player_id}"
            f" ({grant.status.value})"
        )
    for grant in grants:
        sky.as_player(grant.external_player_id, grant_commands.claim, grant.id)
    print(
        f"  claimed: bo has {sky.balance('bo', 'energy')} energy; cy {sky.balance('cy', 'coins')} coins,"
        f" dee {sky.balance('dee', 'coins')} coins"
    )

    # Ada hands the lead to cy and stays as co-leader.
    print("Day 3")
    sky.clock.advance(86_400)
    sky.as_player("ada", guild_commands.transfer, "cy")
    print(f"  ada handed the lead to cy: {sky.roster(owls)}")

    # Cy stops playing; ada and bo keep coming back. Fourteen days on, the hourly sweep hands the lead to
    # the first successor seen in that time (co-leaders first): ada.
    for _ in range(15):
        sky.clock.advance(86_400)
        for who in ("ada", "bo"):
            sky.seen(who)
    sky.tx(lambda tx: guild_commands.hand_on_inactive(tx, sky.rt, sky.game.id))
    print(f"Day 18: cy unseen for 15 days, the sweep ran: {sky.roster(owls)}")

    kinds = Counter(e.kind for e in sky.store.outbox if e.kind.startswith("guild."))
    print("guild webhooks: " + ", ".join(f"{kind} x{n}" for kind, n in sorted(kinds.items())))


if __name__ == "__main__":
    main()
