"""A guild's first day, embedded, with no server: ada founds a request-only guild (paying its cost), bo asks
to join and is accepted, cy joins too and is promoted, bo asks the guild for energy and cy donates (the
grants the donation creates are printed), ada hands the leadership to cy, and a studio operator looks at
the guild's detail.

    python examples/guild_story.py

The same command functions the server runs (``livecore.guilds.commands``) run here on the in-memory
store, with a manual clock and seeded randomness, so every run prints the same story. docs/guilds.md
describes every rule this exercises.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.economy.commands import server_adjust
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
from livecore.guilds import commands as guild_commands
from livecore.guilds.rules import JoinType, Profile
from livecore.hashing import KeyedHasher
from livecore.memory import MemoryStore
from livecore.players.commands import register
from livecore.players.rules import Player
from livecore.rand import SeededRandomSource
from livecore.scope import Actor, Environment, Scope

T = TypeVar("T")
MORNING = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
COINS = Entry(ResourceType.CURRENCY, "coins", 100)

# What a manifest's [games.heist.guilds] declares (docs/guilds.md#the-manifest).
GUILDS = GuildSettings(
    enabled=True,
    max_members=30,
    create_cost=(COINS,),
    name_filter=("rogue",),
    help=HelpSettings(
        resources=("energy",),
        max_amount=5,
        donor_reward=(Entry(ResourceType.CURRENCY, "coins", 2),),
    ),
)
SETTINGS = GameSettings(
    economy=Economy.PLATFORM,
    resources={
        "coins": Resource("coins", ResourceType.CURRENCY),
        "energy": Resource("energy", ResourceType.CURRENCY),
    },
    guilds=GUILDS,
)
PLAYERS = Scope(studio_id="std_1", game_id="gam_1", env=Environment.LIVE)
STUDIO = Scope(studio_id="std_1", game_id="gam_1", env=Environment.LIVE, actor=Actor("api_key", "sk_live_ab"))


class Story:
    def __init__(self) -> None:
        self.store = MemoryStore()
        self.store.add_game(
            Studio("std_1", "heist"), Game("gam_1", "std_1", "heist", "Heist", settings=SETTINGS)
        )
        self.clock = ManualClock(MORNING)
        self.rt = Runtime(self.clock, SeededRandomSource(26), KeyedHasher(b"k" * 32))

    def run(self, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        """One command in one transaction, a minute after the last one."""
        self.clock.set(self.clock.now() + timedelta(minutes=1))
        with self.store.transaction() as tx:
            return fn(tx, self.rt, *args, **kw)

    def read(self, fn: Callable[..., T], *args: Any) -> T:
        with self.store.transaction() as tx:
            return fn(tx, *args)

    def player(self, name: str, coins: int, energy: int) -> Player:
        player = self.run(register, PLAYERS, name).player
        for key, amount in (("coins", coins), ("energy", energy)):
            if not amount:
                continue
            self.run(
                lambda tx, rt, k=key, n=amount: server_adjust(
                    tx,
                    rt,
                    STUDIO,
                    tx.games.get("gam_1"),
                    player,
                    ResourceType.CURRENCY,
                    k,
                    n,
                    credit=True,
                    note="starting wallet",
                    source_ref_id=None,
                )
            )
        return player

    def balance(self, player: Player, key: str) -> int:
        with self.store.transaction() as tx:
            return tx.ledger.holding(player.id, key).amount

    def roster(self, own: guild_commands.OwnGuild | guild_commands.GuildRead) -> str:
        read = own.read if isinstance(own, guild_commands.OwnGuild) else own
        return ", ".join(f"{m.external_player_id} ({m.role.value})" for m in read.members)


def main() -> None:
    story = Story()
    ada, bo, cy = (
        story.player(name, coins, energy)
        for name, coins, energy in (("ada", 150, 0), ("bo", 0, 0), ("cy", 0, 8))
    )

    try:
        story.run(
            guild_commands.create, PLAYERS, ada, Profile(name="Rogue Pilots", join_type=JoinType.REQUEST)
        )
    except LivecoreError as refused:
        print(f"'Rogue Pilots' refused: {refused.code.value}")
    own = story.run(
        guild_commands.create,
        PLAYERS,
        ada,
        Profile(name="  Star Pilots ", join_type=JoinType.REQUEST, country="fr"),
    )
    guild = own.read.guild
    print(
        f"ada founded {guild.name!r} ({guild.join_type.value}, {guild.country}): paid 100 coins, "
        f"{story.balance(ada, 'coins')} left"
    )

    asked = story.run(guild_commands.join, PLAYERS, bo, guild.id, "I fly fast")
    assert asked.request is not None
    print(f"bo asked to join: {asked.request.message!r}")
    pending = story.read(guild_commands.join_requests, PLAYERS, ada)
    print(f"ada sees {len(pending)} pending request(s) and accepts bo's")
    story.run(guild_commands.answer_join_request, PLAYERS, ada, asked.request.id, accept=True)
    asked = story.run(guild_commands.join, PLAYERS, cy, guild.id, None)
    assert asked.request is not None
    story.run(guild_commands.answer_join_request, PLAYERS, ada, asked.request.id, accept=True)
    own = story.run(guild_commands.promote, PLAYERS, ada, "cy")
    print(f"members: {story.roster(own)}")

    help_request = story.run(guild_commands.ask_help, PLAYERS, bo, ResourceType.CURRENCY, "energy", 5)
    print(f"bo asked for {help_request.amount} energy (open until {help_request.expires_at:%a %H:%M})")
    try:
        story.run(guild_commands.donate, PLAYERS, cy, help_request.id, 6)
    except LivecoreError as refused:
        print(f"cy offering 6: {refused.code.value} (the request lacks only 5)")
    donated = story.run(guild_commands.donate, PLAYERS, cy, help_request.id, 5)
    with story.store.transaction() as tx:
        grants = [
            tx.grants.get("gam_1", gid)
            for gid in (donated.donation.grant_id, donated.donation.reward_grant_id)
        ]
    for grant in grants:
        assert grant is not None
        entries = ", ".join(f"{e.amount} {e.key}" for e in grant.entries)
        print(f"  grant to {grant.external_player_id}: {entries} ({grant.source_kind}, {grant.status.value})")
    print(
        f"request {donated.request.status.value}: {donated.request.donated}/{donated.request.amount}; "
        f"cy has {story.balance(cy, 'energy')} energy left"
    )

    own = story.run(guild_commands.transfer, PLAYERS, ada, "cy")
    print(f"ada handed over: {story.roster(own)}")

    detail = story.read(guild_commands.guild_detail, STUDIO, guild.id)
    print("the studio's detail:")
    for stint in detail.history:
        print(
            f"  {stint.external_player_id}: joined via {stint.via.value} at {stint.joined_at:%H:%M}, "
            f"now {stint.role.value}"
        )
    told: dict[str, int] = {}
    for event in story.store.outbox:
        if event.kind.startswith("guild."):
            told[event.kind] = told.get(event.kind, 0) + 1
    print("webhooks: " + ", ".join(f"{kind} x{n}" for kind, n in told.items()))


if __name__ == "__main__":
    main()
