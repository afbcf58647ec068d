"""The guild commands on the in-memory store (livecore/guilds/commands.py, docs/guilds.md): every command
and its refusals in order, the webhook events each fires (kinds, order, ``by``, key fields), the economy
of founding and donating, join requests, succession by every way a leader goes, disbanding, help requests
on the manual clock, the inactive-leader sweep, merge and erasure, the banned actor, and the other
environment's view."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import pytest

from livecore.clock import ManualClock, format_ts
from livecore.commands import Runtime
from livecore.economy import commands as economy_cmd
from livecore.economy.errors import INSUFFICIENT_BALANCE
from livecore.economy.memory import EconomyTables
from livecore.economy.rules import Reason
from livecore.errors import LivecoreError
from livecore.games import Economy, Entry, Game, GameSettings, Resource, ResourceType, Studio
from livecore.grants.memory import GrantTables
from livecore.grants.rules import GrantStatus
from livecore.guilds import commands as gc
from livecore.guilds.errors import (
    ALREADY_IN_GUILD,
    GUILD_FULL,
    GUILD_MEMBER_NOT_FOUND,
    HELP_COOLDOWN,
    HELP_REQUEST_CLOSED,
    HELP_REQUEST_NOT_FOUND,
    HELP_REQUEST_OPEN,
    JOIN_REQUEST_NOT_FOUND,
    JOIN_REQUEST_PENDING,
)
from livecore.guilds.memory import GuildTables
from livecore.guilds.rules import (
    SYSTEM_BY,
    HelpStatus,
    JoinRequest,
    JoinType,
    JoinVia,
    LeftReason,
    Profile,
    RequestStatus,
    Role,
    Stint,
    new_stint,
)
from livecore.guilds.settings import GUILD_SETTINGS, GuildSettings, HelpSettings
from livecore.hashing import KeyedHasher
from livecore.memory import MemoryStore
from livecore.player_tools.commands.erasure import erase
from livecore.player_tools.commands.merge import merge
from livecore.player_tools.erasure import ErasureReason
from livecore.players.commands import get_player, heartbeat, register
from livecore.players.rules import Player
from livecore.rand import SeededRandomSource
from livecore.scope import Actor, Environment, Scope
from livecore.transaction import Transaction

T0 = datetime(2026, 12, 1, tzinfo=UTC)
DAY = timedelta(days=1)
CURRENCY, ITEM = ResourceType.CURRENCY, ResourceType.ITEM
RESOURCES = {
    "coins": Resource("coins", CURRENCY),
    "energy": Resource("energy", CURRENCY),
    "potion": Resource("potion", ITEM),
}
HELP = HelpSettings(
    resources=("energy", "potion"),
    max_amount=5,
    expiry_seconds=3600,
    cooldown_seconds=7200,
    donor_reward=(Entry(CURRENCY, "coins", 2),),
)
COST = (Entry(CURRENCY, "coins", 100), Entry(ITEM, "potion", 1))
GUILDS = GuildSettings(
    enabled=True,
    max_members=4,
    create_cost=COST,
    name_filter=("badword",),
    leader_inactive_days=14,
    help=HELP,
)
CLIENT = Scope("std_1", "gam_1", Environment.TEST, Actor("api_key", "lc_test_client"))
SERVER = Scope("std_1", "gam_1", Environment.TEST, Actor("api_key", "lc_test_srv"))
LIVE = Scope("std_1", "gam_1", Environment.LIVE, Actor("api_key", "lc_live_srv"))
KEY_BY = {"kind": "api_key", "apiKeyPrefix": "lc_test_srv"}
SYSTEM_WIRE = {"kind": "system"}


def wolves(join_type: JoinType = JoinType.OPEN, name: str = "Wolves", **kw: Any) -> Profile:
    return Profile(name=name, join_type=join_type, **kw)


class World:
    """One game (platform-managed unless told) with guilds as :data:`GUILDS` (changed by ``guilds``)."""

    def __init__(self, economy: Economy = Economy.PLATFORM, **guilds: Any) -> None:
        self.store = MemoryStore()
        settings = attrs.evolve(GUILDS, **guilds)
        game_settings = GameSettings(
            economy=economy, resources=RESOURCES, sections={GUILD_SETTINGS: settings}
        )
        self.game = Game("gam_1", "std_1", "g", "G", settings=game_settings)
        self.store.add_game(Studio("std_1", "s"), self.game)
        self.clock = ManualClock(T0)
        self.rt = Runtime(self.clock, SeededRandomSource(7), KeyedHasher(b"k" * 32))

    # --- running commands ---------------------------------------------------------------------------
    def tx(self, fn: Callable[[Transaction], Any]) -> Any:
        with self.store.transaction() as tx:
            return fn(tx)

    def act(self, fn: Callable[..., Any], who: str, *args: Any, scope: Scope = CLIENT, **kw: Any) -> Any:
        """A player command (``fn(tx, rt, scope, player, ...)``) by ``who``, read fresh."""
        return self.tx(lambda tx: fn(tx, self.rt, scope, get_player(tx, scope, who), *args, **kw))

    def admin(self, fn: Callable[..., Any], *args: Any, scope: Scope = SERVER) -> Any:
        """A server command (``fn(tx, rt, scope, ...)``)."""
        return self.tx(lambda tx: fn(tx, self.rt, scope, *args))

    def read(self, fn: Callable[..., Any], *args: Any, scope: Scope = CLIENT, **kw: Any) -> Any:
        """A read (``fn(tx, scope, ...)``)."""
        return self.tx(lambda tx: fn(tx, scope, *args, **kw))

    def players(self, *names: str, scope: Scope = CLIENT) -> list[Player]:
        return [self.tx(lambda tx, n=n: register(tx, self.rt, scope, n).player) for n in names]

    def player(self, name: str) -> Player:
        return self.tx(lambda tx: get_player(tx, CLIENT, name, retired=True))

    def fund(
        self, name: str, coins: int = 0, potion: int = 0, energy: int = 0, scope: Scope = CLIENT
    ) -> None:
        def give(tx: Transaction) -> None:
            for key, amount in (("coins", coins), ("potion", potion), ("energy", energy)):
                if amount:
                    economy_cmd.server_adjust(
                        tx,
                        self.rt,
                        SERVER if scope is CLIENT else scope,
                        self.game,
                        get_player(tx, scope, name),
                        RESOURCES[key].type,
                        key,
                        amount,
                        credit=True,
                        note=None,
                        source_ref_id=None,
                    )

        self.tx(give)

    def balance(self, name: str, key: str) -> int:
        player = self.player(name)
        return self.tx(lambda tx: tx.ledger.holding(player.id, key).amount)

    def seen(self, *names: str) -> None:
        for name in names:
            self.act(lambda tx, rt, scope, p: heartbeat(tx, rt, p, None), name)

    # --- guilds -------------------------------------------------------------------------------------
    def found(self, leader: str, profile: Profile | None = None) -> str:
        """``leader`` founds a guild (funded for its cost first); its id."""
        self.fund(leader, coins=100, potion=1)
        own = self.act(gc.create, leader, profile or wolves())
        return own.read.guild.id

    def guild_of(self, *members: str, join_type: JoinType = JoinType.OPEN, name: str = "Wolves") -> str:
        """The first of ``members`` founds an open guild, the others join it in order (a second apart)."""
        guild_id = self.found(members[0], wolves(JoinType.OPEN, name))
        for member in members[1:]:
            self.clock.advance(1)
            self.act(gc.join, member, guild_id)
        if join_type is not JoinType.OPEN:
            self.act(gc.edit, members[0], Profile(join_type=join_type))
        return guild_id

    def roles(self, guild_id: str) -> dict[str, Role]:
        return {s.external_player_id: s.role for s in self.tx(lambda tx: tx.guilds.members(guild_id))}

    def guild(self, guild_id: str) -> Any:
        return self.tx(lambda tx: tx.guilds.get("gam_1", guild_id))

    def stints(self, guild_id: str) -> list[Stint]:
        return self.tx(lambda tx: tx.guilds.history(guild_id))

    def requests(self) -> dict[str, JoinRequest]:
        return dict(self.store.tables_of(GuildTables).join_requests)

    # --- what happened ------------------------------------------------------------------------------
    def mark(self) -> int:
        return len(self.store.outbox)

    def events(self, since: int = 0, prefix: str = "guild.") -> list[tuple[str, dict[str, Any]]]:
        return [(e.kind, e.data) for e in self.store.outbox[since:] if e.kind.startswith(prefix)]

    def kinds(self, since: int = 0, prefix: str = "guild.") -> list[str]:
        return [kind for kind, _ in self.events(since, prefix)]

    def snapshot(self) -> Any:
        s = self.store
        guilds, economy = s.tables_of(GuildTables), s.tables_of(EconomyTables)
        return (
            len(s.outbox),
            dict(guilds.guilds),
            dict(guilds.guild_names),
            dict(guilds.stints),
            dict(guilds.current_stints),
            dict(guilds.join_requests),
            dict(guilds.help_requests),
            dict(guilds.donations),
            dict(economy.holdings),
            len(economy.entries),
            dict(s.tables_of(GrantTables).grants),
        )


@pytest.fixture
def world() -> World:
    w = World()
    w.players("ada", "bo", "cy", "dee", "eli", "fay")
    return w


def refused(world: World, call: Callable[[], object]) -> LivecoreError:
    """The refusal ``call`` raises, having changed nothing."""
    before = world.snapshot()
    with pytest.raises(LivecoreError) as exc:
        call()
    assert world.snapshot() == before
    return exc.value


def code(world: World, call: Callable[[], object]) -> str:
    return refused(world, call).code.value


def listing(
    world: World, text: str | None, player: str | None, include_disbanded: bool, limit: int, offset: int
) -> gc.GuildPage:
    """The studio's list of guilds."""
    return world.read(
        gc.admin_search,
        scope=SERVER,
        text=text,
        player_external_id=player,
        include_disbanded=include_disbanded,
        limit=limit,
        offset=offset,
    )


def by(name: str, world: World) -> dict[str, Any]:
    player = world.player(name)
    return {"kind": "player", "playerId": player.id, "externalPlayerId": name}


# --- guilds off ----------------------------------------------------------------------------------------


def test_every_guild_command_of_a_game_with_guilds_off_is_403_guilds_disabled() -> None:
    w = World(enabled=False)
    w.players("ada")
    calls: list[Callable[[], object]] = [
        lambda: w.act(gc.create, "ada", wolves()),
        lambda: w.act(gc.join, "ada", "gld_x"),
        lambda: w.act(gc.leave, "ada"),
        lambda: w.read(gc.search, "wol"),
        lambda: w.read(gc.read_guild, "gld_x"),
        lambda: w.read(gc.my_guild, w.player("ada")),
        lambda: w.admin(gc.disband, "gld_x"),
        lambda: w.read(gc.guild_detail, "gld_x", scope=SERVER),
    ]
    for call in calls:
        assert code(w, call) == "guilds_disabled"
    assert w.tx(lambda tx: gc.hand_on_inactive(tx, w.rt, "gam_1")) is None


# --- founding ------------------------------------------------------------------------------------------


def test_founding_debits_the_cost_and_fires_created_then_member_joined(world: World) -> None:
    world.fund("ada", coins=150, potion=2)
    mark = world.mark()
    own = world.act(gc.create, "ada", wolves(country="fr", description="Howl"))
    guild = own.read.guild
    assert (own.role, guild.name, guild.country, guild.member_count) == (Role.LEADER, "Wolves", "FR", 1)
    assert [m.external_player_id for m in own.read.members] == ["ada"]
    assert (world.balance("ada", "coins"), world.balance("ada", "potion")) == (50, 1)
    debits = [
        e for e in world.store.tables_of(EconomyTables).entries if e.reason is Reason("guild_create_cost")
    ]
    assert [(e.resource_key, e.delta, e.source_ref_id) for e in debits] == [
        ("coins", -100, guild.id),
        ("potion", -1, guild.id),
    ]
    assert world.kinds(mark) == ["guild.created", "guild.member_joined"]
    (_, created), (_, joined) = world.events(mark)
    assert created["by"] == by("ada", world) and created["costsChargedBy"] == "platform"
    assert created["cost"] == [
        {"type": "currency", "key": "coins", "amount": 100},
        {"type": "item", "key": "potion", "amount": 1},
    ]
    assert (created["leaderExternalPlayerId"], created["joinType"], created["country"]) == (
        "ada",
        "open",
        "FR",
    )
    assert (joined["via"], joined["role"], joined["memberCount"], joined["externalPlayerId"]) == (
        "created",
        "leader",
        1,
        "ada",
    )
    assert joined["by"] == by("ada", world)


def test_founding_in_a_studio_managed_game_debits_nothing_and_says_the_studio_charges() -> None:
    w = World(economy=Economy.STUDIO)
    w.players("ada")
    own = w.act(gc.create, "ada", wolves())  # holds nothing at all
    assert own.role is Role.LEADER
    assert w.store.tables_of(EconomyTables).entries == []
    ((_, created),) = w.events(prefix="guild.created")
    assert created["costsChargedBy"] == "studio" and len(created["cost"]) == 2


def test_founding_refusals_come_in_order(world: World) -> None:
    world.guild_of("ada", "bo")
    world.fund("cy", coins=99, potion=1)
    world.fund("dee", coins=100)
    create = gc.create
    # A bad field before the filter; the filter before the founder's guild; that before the name; the
    # name before the cost.
    assert code(world, lambda: world.act(create, "bo", wolves(name="badword", country="France"))) == (
        "invalid_request"
    )
    assert code(world, lambda: world.act(create, "bo", wolves(name="Badwords"))) == "guild_name_rejected"
    assert code(world, lambda: world.act(create, "bo", wolves(name="WOLVES"))) == "already_in_guild"
    assert code(world, lambda: world.act(create, "cy", wolves(name="wOlVeS"))) == "guild_name_taken"
    # Short of coins, or of the item: one code for both.
    short = refused(world, lambda: world.act(create, "cy", wolves(name="Bears")))
    assert (short.code, short.status) == (INSUFFICIENT_BALANCE, 409)
    assert code(world, lambda: world.act(create, "dee", wolves(name="Bears"))) == "insufficient_balance"
    assert code(world, lambda: world.act(create, "eli", wolves(name="  "))) == "invalid_request"


def test_a_disbanded_guilds_name_is_free_again(world: World) -> None:
    guild_id = world.guild_of("ada")
    world.admin(gc.disband, guild_id)
    again = world.found("bo", wolves(name="WOLVES"))
    assert again != guild_id and world.guild(again).name == "WOLVES"


# --- search and reads ------------------------------------------------------------------------------


def test_search_matches_a_substring_ignoring_case_newest_first_without_disbanded_guilds(world: World) -> None:
    first = world.guild_of("ada", name="Night Wolfhounds")
    world.clock.advance(1)
    second = world.guild_of("bo", name="WOLF pack")
    world.clock.advance(1)
    third = world.guild_of("cy", name="Bears")
    world.clock.advance(1)
    gone = world.guild_of("dee", name="Lone Wolf")
    world.admin(gc.disband, gone)

    def ids(text: str | None, **kw: Any) -> list[str]:
        return [g.id for g in world.read(gc.search, text, **kw)]

    assert ids("wOlF") == [second, first]
    assert ids(None) == ids("") == [third, second, first]
    assert ids(None, limit=1, offset=1) == [second]
    assert code(world, lambda: world.read(gc.search, None, limit=0)) == "invalid_request"
    assert code(world, lambda: world.read(gc.search, None, limit=101)) == "invalid_request"
    assert code(world, lambda: world.read(gc.search, None, offset=-1)) == "invalid_request"
    # The studio's list shows the disbanded one only when asked, and pages with nextOffset.
    page = listing(world, "wolf", None, True, 2, 0)
    assert ([g.id for g in page.guilds], page.next_offset) == ([gone, second], 2)
    page = listing(world, "wolf", None, True, 2, 2)
    assert ([g.id for g in page.guilds], page.next_offset) == ([first], None)


def test_reads_of_a_guild_and_of_ones_own(world: World) -> None:
    guild_id = world.guild_of("ada", "bo")
    read = world.read(gc.read_guild, guild_id)
    assert [(m.external_player_id, m.role) for m in read.members] == [
        ("ada", Role.LEADER),
        ("bo", Role.MEMBER),
    ]
    assert set(read.players) == {m.player_id for m in read.members}
    own = world.read(gc.my_guild, world.player("bo"))
    assert (own.read.guild.id, own.role) == (guild_id, Role.MEMBER)
    assert world.read(gc.my_guild, world.player("cy")) is None
    assert code(world, lambda: world.read(gc.read_guild, "gld_missing")) == "guild_not_found"
    assert code(world, lambda: world.act(gc.leave, "cy")) == "not_in_guild"


# --- joining -------------------------------------------------------------------------------------------


def test_joining_an_open_guild_seats_the_player_at_once(world: World) -> None:
    guild_id = world.guild_of("ada")
    mark = world.mark()
    joined = world.act(gc.join, "bo", guild_id)
    assert joined.request is None and joined.own.role is Role.MEMBER
    assert joined.own.read.guild.member_count == 2
    ((kind, data),) = world.events(mark)
    assert kind == "guild.member_joined"
    assert (data["via"], data["role"], data["memberCount"], data["by"]) == (
        "open",
        "member",
        2,
        by("bo", world),
    )


def test_join_refusals_come_in_order(world: World) -> None:
    full = world.found("ada", wolves(JoinType.REQUEST))
    world.players("gus", "hal")
    world.act(gc.join, "gus", full)
    for name in ("bo", "cy", "dee"):
        asked = world.act(gc.join, name, full).request
        world.act(gc.answer_join_request, "ada", asked.id, accept=True)
    assert world.guild(full).member_count == 4  # of 4, gus's request still pending
    gone = world.guild_of("eli", name="Bears")
    world.admin(gc.disband, gone)
    owls = world.found("fay", wolves(JoinType.REQUEST, "Owls"))
    world.act(gc.join, "hal", owls)
    assert code(world, lambda: world.act(gc.join, "gus", "gld_missing")) == "guild_not_found"
    assert code(world, lambda: world.act(gc.join, "ada", gone)) == "guild_disbanded"  # before her guild
    assert code(world, lambda: world.act(gc.join, "bo", full)) == "already_in_guild"  # before full
    assert code(world, lambda: world.act(gc.join, "gus", full)) == "guild_full"  # before pending
    error = refused(world, lambda: world.act(gc.join, "hal", owls))
    assert (error.code, error.details) == (JOIN_REQUEST_PENDING, {"guildId": owls})


def test_a_join_request_then_accepted_seats_the_requester_and_cancels_its_other_requests(
    world: World,
) -> None:
    owls = world.guild_of("ada", "bo", join_type=JoinType.REQUEST, name="Owls")
    bears = world.found("cy", wolves(JoinType.REQUEST, "Bears"))
    world.act(gc.promote, "ada", "bo")
    mark = world.mark()
    asked = world.act(gc.join, "dee", owls, "let me in").request
    other = world.act(gc.join, "dee", bears).request
    assert (asked.status, asked.message, asked.guild_id) == (RequestStatus.PENDING, "let me in", owls)
    assert world.kinds(mark) == ["guild.join_requested"] * 2
    _, data = world.events(mark)[0]
    assert (data["requestId"], data["externalPlayerId"], data["message"], data["by"]) == (
        asked.id,
        "dee",
        "let me in",
        by("dee", world),
    )
    # The leader and co-leaders list the guild's pending requests; a member may not.
    assert [r.id for r in world.act(lambda tx, rt, s, p: gc.join_requests(tx, s, p), "bo")] == [asked.id]
    world.clock.advance(5)
    mark = world.mark()
    answered = world.act(gc.answer_join_request, "bo", asked.id, accept=True)
    assert answered.status is RequestStatus.ACCEPTED and answered.resolved_at == world.clock.now()
    assert world.roles(owls)["dee"] is Role.MEMBER
    assert world.requests()[other.id].status is RequestStatus.CANCELLED
    ((kind, data),) = world.events(mark)
    assert (kind, data["via"], data["externalPlayerId"], data["by"]) == (
        "guild.member_joined",
        "request",
        "dee",
        by("bo", world),
    )
    assert code(world, lambda: world.act(lambda tx, rt, s, p: gc.join_requests(tx, s, p), "dee")) == (
        "guild_permission_denied"
    )


def test_declining_cancelling_and_answering_refusals(world: World) -> None:
    owls = world.guild_of("ada", "bo", join_type=JoinType.REQUEST, name="Owls")
    bears = world.found("cy", wolves(JoinType.REQUEST, "Bears"))
    to_owls = world.act(gc.join, "dee", owls).request
    to_bears = world.act(gc.join, "eli", bears).request
    mark = world.mark()
    declined = world.act(gc.answer_join_request, "ada", to_owls.id, accept=False)
    assert declined.status is RequestStatus.DECLINED and world.kinds(mark) == []  # no webhook
    # Not pending any more, another guild's, unknown: 404; a member may not answer.
    for request_id in (to_owls.id, to_bears.id, "gjr_missing"):
        assert code(world, lambda r=request_id: world.act(gc.answer_join_request, "ada", r, accept=True)) == (
            "join_request_not_found"
        )
    assert code(world, lambda: world.act(gc.answer_join_request, "bo", to_bears.id, accept=False)) == (
        "guild_permission_denied"
    )
    assert code(world, lambda: world.act(gc.answer_join_request, "fay", to_bears.id, accept=False)) == (
        "not_in_guild"
    )
    # Cancelling: the player's own pending request to that guild, else 404.
    world.act(gc.cancel_join_request, "eli", bears)
    assert world.requests()[to_bears.id].status is RequestStatus.CANCELLED and world.kinds(mark) == []
    error = refused(world, lambda: world.act(gc.cancel_join_request, "eli", bears))
    assert (error.code, error.details) == (JOIN_REQUEST_NOT_FOUND, {"guildId": bears})
    assert code(world, lambda: world.act(gc.cancel_join_request, "eli", "gld_missing")) == "guild_not_found"


def test_accepting_checks_the_seat_and_the_requesters_guild_again(world: World) -> None:
    owls = world.guild_of("ada", "bo", "cy", join_type=JoinType.REQUEST, name="Owls")  # 3 of 4
    first = world.act(gc.join, "dee", owls).request
    second = world.act(gc.join, "eli", owls).request
    world.act(gc.answer_join_request, "ada", first.id, accept=True)  # 4 of 4
    error = refused(world, lambda: world.act(gc.answer_join_request, "ada", second.id, accept=True))
    assert (error.code, error.details) == (GUILD_FULL, {"guildId": owls, "maxMembers": 4})
    # A requester seated elsewhere while its request stayed pending (as a concurrent join would leave it).
    world.act(gc.leave, "cy")
    bears = world.guild_of("fay", name="Bears")

    def seat_elsewhere(tx: Transaction) -> None:
        guild = tx.guilds.get("gam_1", bears)
        eli = get_player(tx, CLIENT, "eli")
        tx.guilds.put_stint(new_stint(guild, eli, Role.MEMBER, JoinVia.ADMIN, SYSTEM_BY, T0, world.rt.rng))

    world.tx(seat_elsewhere)
    error = refused(world, lambda: world.act(gc.answer_join_request, "ada", second.id, accept=True))
    assert (error.code, error.details) == (ALREADY_IN_GUILD, {"requestId": second.id})


def test_joining_by_any_means_cancels_the_players_pending_requests(world: World) -> None:
    owls = world.found("ada", wolves(JoinType.REQUEST, "Owls"))
    bears = world.guild_of("bo", name="Bears")
    asked = world.act(gc.join, "cy", owls).request
    world.act(gc.join, "cy", bears)
    assert world.requests()[asked.id].status is RequestStatus.CANCELLED
    asked = world.act(gc.join, "dee", owls).request
    world.found("dee", wolves(name="Cats"))  # founding seats too
    assert world.requests()[asked.id].status is RequestStatus.CANCELLED


# --- leaving, succession and disbanding -----------------------------------------------------------------


def test_a_leaving_leader_hands_on_to_the_first_co_leader_else_the_first_member(world: World) -> None:
    guild_id = world.guild_of("ada", "bo", "cy", "dee")
    world.act(gc.promote, "ada", "dee")
    world.act(gc.promote, "ada", "cy")
    mark = world.mark()
    world.act(gc.leave, "ada")
    assert world.kinds(mark) == ["guild.member_left", "guild.role_changed"]
    (_, left), (_, changed) = world.events(mark)
    assert (left["externalPlayerId"], left["reason"], left["role"], left["memberCount"], left["by"]) == (
        "ada",
        "left",
        "leader",
        3,
        by("ada", world),
    )
    # cy joined before dee: the co-leader who joined first, whoever was promoted first.
    assert (changed["externalPlayerId"], changed["from"], changed["to"], changed["reason"]) == (
        "cy",
        "co_leader",
        "leader",
        "succession_leader_left",
    )
    assert changed["by"] == by("ada", world)
    world.act(gc.demote, "cy", "dee")
    world.act(gc.leave, "cy")  # no co-leader left: the member who joined first
    assert world.roles(guild_id) == {"bo": Role.LEADER, "dee": Role.MEMBER}


def test_the_last_member_leaving_disbands_the_guild_and_cancels_its_requests(world: World) -> None:
    guild_id = world.guild_of("ada", join_type=JoinType.REQUEST)
    asked = world.act(gc.join, "bo", guild_id).request
    mark = world.mark()
    world.act(gc.leave, "ada")
    assert world.kinds(mark) == ["guild.member_left", "guild.disbanded"]
    (_, left), (_, disbanded) = world.events(mark)
    assert (left["memberCount"], disbanded["reason"], disbanded["by"]) == (
        0,
        "last_member_left",
        by("ada", world),
    )
    assert disbanded["disbandedAt"] == format_ts(world.clock.now())
    assert world.requests()[asked.id].status is RequestStatus.CANCELLED
    read = world.read(gc.read_guild, guild_id)  # still readable, with nobody
    assert read.members == [] and read.guild.disbanded_at == world.clock.now()
    assert code(world, lambda: world.act(gc.join, "bo", guild_id)) == "guild_disbanded"


def test_leaving_closes_the_members_open_help_request(world: World) -> None:
    world.guild_of("ada", "bo")
    asked = world.act(gc.ask_help, "bo", CURRENCY, "energy", 3)
    world.act(gc.leave, "bo")
    stored = world.store.tables_of(GuildTables).help_requests[asked.id]
    assert (stored.status, stored.closed_at) == (HelpStatus.CLOSED, world.clock.now())


# --- kick, promote, demote, transfer, edit ---------------------------------------------------------------


def test_member_action_refusals_come_in_order(world: World) -> None:
    world.guild_of("ada", "bo", "cy", "dee")
    world.players("gus")
    world.guild_of("eli", "fay", name="Bears")
    world.act(gc.promote, "ada", "bo")
    world.act(gc.promote, "ada", "cy")
    cases = [
        # 1. the caller's role may not act (even naming itself)
        ("dee", gc.kick, "dee", "guild_permission_denied"),
        ("bo", gc.promote, "dee", "guild_permission_denied"),
        ("bo", gc.demote, "cy", "guild_permission_denied"),
        ("bo", gc.transfer, "dee", "guild_permission_denied"),
        # 2. the caller names itself: the leader can't kick, demote or hand the lead to itself
        ("ada", gc.kick, "ada", "invalid_request"),
        ("ada", gc.demote, "ada", "invalid_request"),
        ("ada", gc.transfer, "ada", "invalid_request"),
        ("bo", gc.kick, "bo", "invalid_request"),
        # 3. not a member of the caller's guild
        ("ada", gc.kick, "fay", "guild_member_not_found"),
        ("ada", gc.promote, "gus", "guild_member_not_found"),
        ("ada", gc.transfer, "nobody", "guild_member_not_found"),
        # 4. a co-leader kicking a co-leader or the leader: the leader can't be kicked
        ("bo", gc.kick, "cy", "guild_permission_denied"),
        ("bo", gc.kick, "ada", "guild_permission_denied"),
        # 5. the role cannot move that way
        ("ada", gc.promote, "bo", "invalid_request"),
        ("ada", gc.demote, "dee", "invalid_request"),
        # no guild at all
        ("gus", gc.kick, "ada", "not_in_guild"),
    ]
    for caller, command, target, expected in cases:
        got = code(world, lambda c=caller, f=command, t=target: world.act(f, c, t))
        assert got == expected, (caller, command.__name__, target)


def test_kick_promote_demote_and_transfer_change_roles_with_their_webhooks(world: World) -> None:
    guild_id = world.guild_of("ada", "bo", "cy", "dee")
    mark = world.mark()
    world.act(gc.promote, "ada", "bo")
    world.act(gc.kick, "bo", "dee")  # a co-leader kicks a member
    world.act(gc.demote, "ada", "bo")
    world.act(gc.kick, "ada", "bo")
    assert world.roles(guild_id) == {"ada": Role.LEADER, "cy": Role.MEMBER}
    events = world.events(mark)
    assert [(k, d["externalPlayerId"], d.get("reason"), d.get("to")) for k, d in events] == [
        ("guild.role_changed", "bo", "promoted", "co_leader"),
        ("guild.member_left", "dee", "kicked", None),
        ("guild.role_changed", "bo", "demoted", "member"),
        ("guild.member_left", "bo", "kicked", None),
    ]
    assert [d["by"]["externalPlayerId"] for _, d in events] == ["ada", "bo", "ada", "ada"]
    mark = world.mark()
    own = world.act(gc.transfer, "ada", "cy")
    assert own.role is Role.CO_LEADER  # the old leader stays, as co-leader
    assert world.roles(guild_id) == {"ada": Role.CO_LEADER, "cy": Role.LEADER}
    changes = [(d["externalPlayerId"], d["from"], d["to"], d["reason"]) for _, d in world.events(mark)]
    assert changes == [
        ("cy", "member", "leader", "leadership_transferred"),
        ("ada", "leader", "co_leader", "leadership_transferred"),
    ]
    # A kicked member may come back: kicks block nothing.
    world.act(gc.join, "bo", guild_id)


def test_editing_the_profile_reports_only_what_changed(world: World) -> None:
    guild_id = world.guild_of("ada", "bo", "cy")
    world.guild_of("dee", name="Bears")
    world.act(gc.promote, "ada", "bo")
    mark = world.mark()
    own = world.act(gc.edit, "bo", Profile(name="WOLVES", description="Howl", join_type=JoinType.OPEN))
    assert own.read.guild.name == "WOLVES"  # its own name in another case
    ((kind, data),) = world.events(mark)
    assert kind == "guild.updated" and data["guildName"] == "WOLVES" and data["by"] == by("bo", world)
    assert data["changes"] == {
        "name": {"before": "Wolves", "after": "WOLVES"},
        "description": {"before": None, "after": "Howl"},
    }
    mark = world.mark()
    world.act(gc.edit, "ada", Profile(description="Howl"))
    assert world.kinds(mark) == []  # nothing changed, nothing fired
    assert (
        code(world, lambda: world.act(gc.edit, "cy", Profile(description="x"))) == "guild_permission_denied"
    )
    assert code(world, lambda: world.act(gc.edit, "ada", Profile(name="bears"))) == "guild_name_taken"
    assert code(world, lambda: world.act(gc.edit, "ada", Profile(name="xBADWORDx"))) == "guild_name_rejected"
    assert world.guild(guild_id).description == "Howl"


# --- the studio's moderation ----------------------------------------------------------------------------


def test_the_studio_removes_a_leader_and_it_hands_on_with_the_keys_by(world: World) -> None:
    guild_id = world.guild_of("ada", "bo", "cy")
    mark = world.mark()
    detail = world.admin(gc.remove_member, guild_id, "ada")
    assert [m.external_player_id for m in detail.read.members] == ["bo", "cy"]
    assert [(s.external_player_id, s.left_reason) for s in detail.history] == [
        ("ada", LeftReason.REMOVED),
        ("bo", None),
        ("cy", None),
    ]
    assert [(k, d["externalPlayerId"], d["reason"], d["by"]) for k, d in world.events(mark)] == [
        ("guild.member_left", "ada", "removed", KEY_BY),
        ("guild.role_changed", "bo", "succession_leader_left", KEY_BY),
    ]
    world.act(gc.join, "ada", guild_id)  # removal blocks no rejoin
    error = refused(world, lambda: world.admin(gc.remove_member, guild_id, "dee"))
    assert (error.code, error.details) == (GUILD_MEMBER_NOT_FOUND, {"externalPlayerId": "dee"})


def test_the_studio_hands_the_leadership_over(world: World) -> None:
    guild_id = world.guild_of("ada", "bo")
    mark = world.mark()
    world.admin(gc.hand_over, guild_id, "bo")
    assert world.roles(guild_id) == {"ada": Role.CO_LEADER, "bo": Role.LEADER}
    assert [(d["externalPlayerId"], d["to"], d["reason"], d["by"]) for _, d in world.events(mark)] == [
        ("bo", "leader", "operator", KEY_BY),
        ("ada", "co_leader", "operator", KEY_BY),
    ]
    mark = world.mark()
    world.admin(gc.hand_over, guild_id, "bo")  # naming the leader changes nothing
    assert world.kinds(mark) == []
    assert code(world, lambda: world.admin(gc.hand_over, guild_id, "cy")) == "guild_member_not_found"


def test_the_studio_disbands_each_member_leaving_then_the_guild(world: World) -> None:
    guild_id = world.guild_of("ada", "bo", "cy", join_type=JoinType.REQUEST)
    asked = world.act(gc.join, "dee", guild_id).request
    world.act(gc.ask_help, "bo", ITEM, "potion", 2)
    mark = world.mark()
    detail = world.admin(gc.disband, guild_id)
    assert detail.read.members == [] and detail.pending_requests == []
    assert detail.read.guild.disbanded_at == world.clock.now()
    events = world.events(mark)
    assert [(k, d.get("externalPlayerId"), d["reason"], d["by"]) for k, d in events] == [
        ("guild.member_left", "ada", "disbanded", KEY_BY),
        ("guild.member_left", "bo", "disbanded", KEY_BY),
        ("guild.member_left", "cy", "disbanded", KEY_BY),
        ("guild.disbanded", None, "admin", KEY_BY),
    ]
    assert [d["memberCount"] for _, d in events[:3]] == [2, 1, 0]
    assert world.requests()[asked.id].status is RequestStatus.CANCELLED
    assert all(
        r.status is HelpStatus.CLOSED for r in world.store.tables_of(GuildTables).help_requests.values()
    )
    # Irreversible, and answered as it is; the studio may change nothing more.
    mark = world.mark()
    assert world.admin(gc.disband, guild_id).read.guild == detail.read.guild and world.kinds(mark) == []
    assert code(world, lambda: world.admin(gc.remove_member, guild_id, "ada")) == "guild_disbanded"
    assert code(world, lambda: world.admin(gc.hand_over, guild_id, "ada")) == "guild_disbanded"
    assert code(world, lambda: world.admin(gc.admin_edit, guild_id, Profile(description="x"))) == (
        "guild_disbanded"
    )


def test_the_studios_edit_skips_the_filter_but_keeps_names_unique(world: World) -> None:
    guild_id = world.guild_of("ada")
    world.guild_of("bo", name="Bears")
    mark = world.mark()
    detail = world.admin(gc.admin_edit, guild_id, Profile(name="Badword Wolves"))
    assert detail.read.guild.name == "Badword Wolves"
    ((_, data),) = world.events(mark)
    assert data["by"] == KEY_BY and data["changes"] == {
        "name": {"before": "Wolves", "after": "Badword Wolves"}
    }
    assert (
        code(world, lambda: world.admin(gc.admin_edit, guild_id, Profile(name="BEARS"))) == "guild_name_taken"
    )


def test_a_players_guild_lists_every_stint_newest_first(world: World) -> None:
    first = world.guild_of("ada", "bo")
    world.clock.advance(10)
    world.act(gc.leave, "bo")
    second = world.guild_of("cy", "bo", name="Bears")
    found = world.read(gc.player_guild, "bo", scope=SERVER)
    assert found.guild.id == second
    assert [(s.stint.guild_id, s.guild_name, s.stint.left_reason) for s in found.stints] == [
        (second, "Bears", None),
        (first, "Wolves", LeftReason.LEFT),
    ]
    page = listing(world, None, "bo", False, 10, 0)
    assert [g.id for g in page.guilds] == [second, first]
    page = listing(world, None, "nobody", True, 10, 0)
    assert page.guilds == [] and page.next_offset is None
    assert world.read(gc.player_guild, "dee", scope=SERVER).guild is None


# --- help requests and donations --------------------------------------------------------------------------


def test_asking_for_help_fires_help_requested(world: World) -> None:
    guild_id = world.guild_of("ada", "bo")
    mark = world.mark()
    asked = world.act(gc.ask_help, "bo", CURRENCY, "energy", 5)
    assert (asked.amount, asked.donated, asked.status) == (5, 0, HelpStatus.OPEN)
    assert asked.expires_at == T0 + timedelta(seconds=1 + 3600)
    ((kind, data),) = world.events(mark)
    assert kind == "guild.help_requested"
    assert (data["guildId"], data["requestId"], data["resourceKey"], data["amount"], data["by"]) == (
        guild_id,
        asked.id,
        "energy",
        5,
        by("bo", world),
    )
    assert [r.id for r in world.act(gc.help_requests, "ada")] == [asked.id]


def test_help_request_refusals_come_in_order(world: World) -> None:
    world.guild_of("ada", "bo")
    ask = gc.ask_help
    assert code(world, lambda: world.act(ask, "cy", CURRENCY, "energy", 1)) == "not_in_guild"
    assert code(world, lambda: world.act(ask, "bo", CURRENCY, "coins", 1)) == "invalid_request"  # not offered
    assert code(world, lambda: world.act(ask, "bo", ITEM, "energy", 1)) == "invalid_request"  # not its type
    assert code(world, lambda: world.act(ask, "bo", CURRENCY, "energy", 0)) == "invalid_request"
    assert code(world, lambda: world.act(ask, "bo", CURRENCY, "energy", 6)) == "invalid_request"
    first = world.act(ask, "bo", CURRENCY, "energy", 2)
    error = refused(world, lambda: world.act(ask, "bo", ITEM, "potion", 1))
    assert (error.code, error.details) == (HELP_REQUEST_OPEN, {"requestId": first.id})
    off = World(help=None)
    off.players("ada")
    off.guild_of("ada")
    assert code(off, lambda: off.act(ask, "ada", CURRENCY, "energy", 1)) == "invalid_request"


def test_a_help_request_expires_when_read_and_the_cooldown_runs_from_its_creation(world: World) -> None:
    world.guild_of("ada", "bo")
    world.fund("ada", energy=5)
    asked = world.act(gc.ask_help, "bo", CURRENCY, "energy", 3)
    world.clock.set(asked.expires_at)
    # Expired as read: no longer listed, refused to donors, and nothing written.
    before = world.snapshot()
    assert world.act(gc.help_requests, "ada") == []
    assert world.tx(lambda tx: tx.guild_help.help("gam_1", asked.id)).status is HelpStatus.OPEN
    assert world.snapshot() == before
    error = refused(world, lambda: world.act(gc.donate, "ada", asked.id, 1))
    assert (error.code, error.details) == (
        HELP_REQUEST_CLOSED,
        {"requestId": asked.id, "status": "expired"},
    )
    # No longer open, but the cooldown (two hours from its creation) still runs.
    retry_at = asked.created_at + timedelta(seconds=7200)
    error = refused(world, lambda: world.act(gc.ask_help, "bo", CURRENCY, "energy", 1))
    assert (error.code, error.details) == (HELP_COOLDOWN, {"retryAt": format_ts(retry_at)})
    world.clock.set(retry_at - timedelta(milliseconds=1))
    assert code(world, lambda: world.act(gc.ask_help, "bo", CURRENCY, "energy", 1)) == "help_cooldown"
    world.clock.set(retry_at)
    again = world.act(gc.ask_help, "bo", CURRENCY, "energy", 1)
    assert again.id != asked.id and [r.id for r in world.act(gc.help_requests, "ada")] == [again.id]


def test_the_cooldown_counts_per_guild(world: World) -> None:
    wolves_id = world.guild_of("ada", "bo")
    bears = world.guild_of("cy", name="Bears")
    world.act(gc.ask_help, "bo", CURRENCY, "energy", 1)
    world.act(gc.leave, "bo")  # closes the request
    world.act(gc.join, "bo", bears)
    world.act(gc.ask_help, "bo", CURRENCY, "energy", 1)  # another guild: no cooldown
    world.act(gc.leave, "bo")
    world.act(gc.join, "bo", wolves_id)
    assert code(world, lambda: world.act(gc.ask_help, "bo", CURRENCY, "energy", 1)) == "help_cooldown"


def test_a_donation_debits_the_donor_and_grants_the_requester_and_the_donor_pending(world: World) -> None:
    guild_id = world.guild_of("ada", "bo", "cy")
    world.fund("ada", potion=4)
    world.fund("cy", potion=1)
    asked = world.act(gc.ask_help, "bo", ITEM, "potion", 5)
    mark = world.mark()
    done = world.act(gc.donate, "ada", asked.id, 4)
    assert (done.request.donated, done.request.status, done.donation.amount) == (4, HelpStatus.OPEN, 4)
    assert world.balance("ada", "potion") == 0
    debit = world.store.tables_of(EconomyTables).entries[-1]
    assert (debit.reason, debit.delta, debit.source_ref_id) == (Reason("guild_help_donation"), -4, asked.id)
    grant = world.store.tables_of(GrantTables).grants["gam_1", done.donation.grant_id]
    reward = world.store.tables_of(GrantTables).grants["gam_1", done.donation.reward_grant_id]
    assert (grant.external_player_id, grant.source_kind, grant.status, grant.entries) == (
        "bo",
        "guild_help",
        GrantStatus.PENDING,
        (Entry(ITEM, "potion", 4),),
    )
    assert (reward.external_player_id, reward.source_kind, reward.status, reward.entries) == (
        "ada",
        "guild_help_reward",
        GrantStatus.PENDING,
        HELP.donor_reward,
    )
    assert grant.metadata == reward.metadata == {"guildId": guild_id, "requestId": asked.id}
    # One transaction: the debit, the two grants, then the donation.
    assert world.kinds(mark, prefix="") == [
        "inventory.changed",
        "grant.created",
        "grant.created",
        "guild.help_donated",
    ]
    ((_, data),) = world.events(mark)
    assert (data["amount"], data["amountReceived"], data["amountRequested"], data["filled"]) == (
        4,
        4,
        5,
        False,
    )
    assert (data["costsDonor"], data["costsChargedBy"], data["by"]) == (True, "platform", by("ada", world))
    assert (data["donorExternalPlayerId"], data["recipientExternalPlayerId"]) == ("ada", "bo")
    assert (data["grantId"], data["rewardGrantId"]) == (grant.id, reward.id)
    # What it still lacks, exactly, fills it.
    assert code(world, lambda: world.act(gc.donate, "cy", asked.id, 2)) == "invalid_request"
    filled = world.act(gc.donate, "cy", asked.id, 1).request
    assert (filled.donated, filled.status, filled.closed_at) == (5, HelpStatus.FILLED, world.clock.now())
    (_, data) = world.events(mark)[-1]
    assert (data["amountReceived"], data["filled"]) == (5, True)
    assert world.act(gc.help_requests, "ada") == []
    assert world.tx(lambda tx: [d.amount for d in tx.guild_help.donations(asked.id)]) == [4, 1]


def test_donation_refusals_come_in_order(world: World) -> None:
    world.guild_of("ada", "bo", "cy")
    world.guild_of("dee", "eli", name="Bears")
    world.fund("ada", energy=1)
    asked = world.act(gc.ask_help, "bo", CURRENCY, "energy", 3)
    elsewhere = world.act(gc.ask_help, "eli", CURRENCY, "energy", 3)
    donate = gc.donate
    error = refused(world, lambda: world.act(donate, "ada", elsewhere.id, 1))  # 1. not in her guild
    assert (error.code, error.details) == (HELP_REQUEST_NOT_FOUND, {"requestId": elsewhere.id})
    assert code(world, lambda: world.act(donate, "ada", "ghr_missing", 1)) == "help_request_not_found"
    assert code(world, lambda: world.act(donate, "bo", asked.id, 99)) == "invalid_request"  # 2. her own
    assert code(world, lambda: world.act(donate, "ada", asked.id, 0)) == "invalid_request"  # 4. amount
    assert code(world, lambda: world.act(donate, "ada", asked.id, 4)) == "invalid_request"
    short = refused(world, lambda: world.act(donate, "ada", asked.id, 2))  # 5. short of it
    assert (short.code, short.status) == (INSUFFICIENT_BALANCE, 409)
    world.act(gc.leave, "bo")
    error = refused(world, lambda: world.act(donate, "ada", asked.id, 99))  # 3. not open, whatever the amount
    assert (error.code, error.details) == (
        HELP_REQUEST_CLOSED,
        {"requestId": asked.id, "status": "closed"},
    )
    assert code(world, lambda: world.act(donate, "fay", asked.id, 1)) == "not_in_guild"


def test_a_donor_short_of_an_item_is_409_insufficient_balance(world: World) -> None:
    world.guild_of("ada", "bo")
    asked = world.act(gc.ask_help, "bo", ITEM, "potion", 2)
    assert code(world, lambda: world.act(gc.donate, "ada", asked.id, 1)) == "insufficient_balance"


def test_a_donation_in_a_studio_managed_game_debits_nothing_and_says_the_studio_charges() -> None:
    w = World(economy=Economy.STUDIO)
    w.players("ada", "bo")
    w.guild_of("ada", "bo")
    asked = w.act(gc.ask_help, "bo", CURRENCY, "energy", 2)
    entries = len(w.store.tables_of(EconomyTables).entries)
    done = w.act(gc.donate, "ada", asked.id, 2)  # she holds no energy
    assert (
        len(w.store.tables_of(EconomyTables).entries) == entries and done.request.status is HelpStatus.FILLED
    )
    grants = sorted(
        (g.external_player_id, g.source_kind) for g in w.store.tables_of(GrantTables).grants.values()
    )
    assert grants == [("ada", "guild_help_reward"), ("bo", "guild_help")]
    ((_, data),) = w.events(prefix="guild.help_donated")
    assert (data["costsDonor"], data["costsChargedBy"]) == (True, "studio")


def test_a_game_rewarding_no_donor_issues_one_grant() -> None:
    w = World(help=attrs.evolve(HELP, donor_reward=()))
    w.players("ada", "bo")
    w.guild_of("ada", "bo")
    w.fund("ada", energy=2)
    asked = w.act(gc.ask_help, "bo", CURRENCY, "energy", 2)
    done = w.act(gc.donate, "ada", asked.id, 2)
    assert done.donation.reward_grant_id is None
    assert [g.source_kind for g in w.store.tables_of(GrantTables).grants.values()] == ["guild_help"]


# --- the inactive-leader sweep ---------------------------------------------------------------------------


def sweep(world: World) -> int:
    """The hourly sweep to its end, as the server runs it; how many transactions it took."""
    after, steps = None, 0
    while steps < 20:
        after = world.tx(lambda tx, a=after: gc.hand_on_inactive(tx, world.rt, "gam_1", a))
        steps += 1
        if after is None:
            return steps
    raise AssertionError("the sweep does not end")


def test_the_sweep_hands_an_inactive_leader_on_to_the_first_successor_seen(world: World) -> None:
    guild_id = world.guild_of("ada", "bo", "cy", "dee")
    world.act(gc.promote, "ada", "bo")  # the first successor in order, but never seen again
    world.clock.advance(10 * 86400)
    world.seen("dee", "cy")  # both seen within the period: cy joined first
    world.clock.advance(4 * 86400)  # ada unseen for 14 days (and a little more)
    mark = world.mark()
    sweep(world)
    assert world.roles(guild_id) == {
        "ada": Role.MEMBER,
        "bo": Role.CO_LEADER,
        "cy": Role.LEADER,
        "dee": Role.MEMBER,
    }
    changes = [
        (d["externalPlayerId"], d["from"], d["to"], d["reason"], d["by"]) for _, d in world.events(mark)
    ]
    assert changes == [
        ("cy", "member", "leader", "succession_leader_inactive", SYSTEM_WIRE),
        ("ada", "leader", "member", "succession_leader_inactive", SYSTEM_WIRE),
    ]
    mark = world.mark()
    sweep(world)  # cy was seen: nothing more
    assert world.kinds(mark) == []


def test_the_sweep_waits_the_whole_period_and_needs_a_successor_seen_within_it(world: World) -> None:
    # Everyone was last seen at T0, registering; bo is seen again as he joins.
    guild_id = world.guild_of("ada", "bo")
    world.seen("bo")
    unseen = world.guild_of("cy", "dee", name="Bears")
    lone = world.guild_of("eli", name="Cats")
    world.clock.set(T0 + 14 * DAY - timedelta(milliseconds=1))
    before = world.snapshot()
    sweep(world)  # nobody unseen for 14 days yet
    assert world.snapshot() == before
    world.clock.set(T0 + 14 * DAY)
    mark = world.mark()
    sweep(world)
    assert world.roles(guild_id) == {"ada": Role.MEMBER, "bo": Role.LEADER}
    # cy and eli are inactive too, but dee was not seen within the period, and eli has nobody.
    assert world.roles(unseen) == {"cy": Role.LEADER, "dee": Role.MEMBER}
    assert world.roles(lone) == {"eli": Role.LEADER}
    assert [d["externalPlayerId"] for _, d in world.events(mark)] == ["bo", "ada"]


def test_the_sweep_walks_the_leaders_by_keyset_in_batches(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gc, "SWEEP_BATCH", 2)
    world.players(*[f"l{i}" for i in range(6)], *[f"m{i}" for i in range(6)])
    guilds = [world.guild_of(f"l{i}", f"m{i}", name=f"Guild {i}") for i in range(6)]
    world.clock.advance(15 * 86400)
    world.seen("m3", "m4", "m5")  # the first three leaders keep the lead: the walk must go past them
    assert sweep(world) == 4  # 2 + 2 + 2, then a step that finds none
    assert [world.roles(g)[f"l{i}"] for i, g in enumerate(guilds)] == [Role.LEADER] * 3 + [Role.MEMBER] * 3
    assert [world.roles(g)[f"m{i}"] for i, g in enumerate(guilds)] == [Role.MEMBER] * 3 + [Role.LEADER] * 3


def test_the_sweep_takes_each_guilds_environment() -> None:
    w = World(economy=Economy.STUDIO)  # nothing to pay: the live players hold nothing
    w.players("lee", "max", scope=LIVE)
    live = w.tx(lambda tx: gc.create(tx, w.rt, LIVE, get_player(tx, LIVE, "lee"), wolves())).read.guild.id
    w.tx(lambda tx: gc.join(tx, w.rt, LIVE, get_player(tx, LIVE, "max"), live))
    w.clock.advance(15 * 86400)
    w.tx(lambda tx: heartbeat(tx, w.rt, get_player(tx, LIVE, "max"), None))
    mark = w.mark()
    sweep(w)
    assert [e.env for e in w.store.outbox[mark:]] == [Environment.LIVE] * 2


# --- merge and erasure ------------------------------------------------------------------------------------


def test_a_merged_leader_gives_its_seat_and_role_to_a_target_in_no_guild(world: World) -> None:
    guild_id = world.guild_of("ada", "bo")
    owls = world.found("cy", wolves(JoinType.REQUEST, "Owls"))
    asked = world.act(gc.join, "dee", owls).request
    mark = world.mark()
    world.admin(merge, "ada", "dee")
    assert world.roles(guild_id) == {"bo": Role.MEMBER, "dee": Role.LEADER}
    assert world.guild(guild_id).member_count == 2
    assert world.requests()[asked.id].status is RequestStatus.CANCELLED  # the target's, as it joined
    events = world.events(mark)
    assert [(k, d["externalPlayerId"], d.get("reason"), d.get("via"), d["role"]) for k, d in events] == [
        ("guild.member_left", "ada", "merged", None, "leader"),
        ("guild.member_joined", "dee", None, "merge", "leader"),
    ]
    assert all(d["by"] == KEY_BY for _, d in events)
    # Ada's stint now names dee: the guild's history is dee's.
    assert [(s.external_player_id, s.left_reason) for s in world.stints(guild_id)] == [
        ("dee", LeftReason.MERGED),
        ("bo", None),
        ("dee", None),
    ]


def test_a_merged_source_whose_target_is_in_a_guild_leaves_as_a_leaver_does(world: World) -> None:
    guild_id = world.guild_of("ada", "bo", "cy")
    bears = world.guild_of("dee", name="Bears")
    lone = world.guild_of("eli", name="Cats")
    mark = world.mark()
    world.admin(merge, "ada", "dee")  # a leader: bo takes the lead
    assert world.roles(guild_id) == {"bo": Role.LEADER, "cy": Role.MEMBER}
    assert world.roles(bears) == {"dee": Role.LEADER}
    assert [(k, d["externalPlayerId"], d["reason"]) for k, d in world.events(mark)] == [
        ("guild.member_left", "ada", "merged"),
        ("guild.role_changed", "bo", "succession_leader_left"),
    ]
    mark = world.mark()
    world.admin(merge, "eli", "cy")  # the last member: the guild disbands
    assert world.kinds(mark) == ["guild.member_left", "guild.disbanded"]
    assert world.guild(lone).disband_reason.value == "last_member_left"
    assert world.read(gc.player_guild, "cy", scope=SERVER).guild.id == guild_id


def test_merging_two_members_of_one_guild_keeps_the_target_seated(world: World) -> None:
    guild_id = world.guild_of("ada", "bo", "cy")
    world.admin(merge, "ada", "cy")
    assert world.roles(guild_id) == {"bo": Role.LEADER, "cy": Role.MEMBER}
    assert world.guild(guild_id).member_count == 2


def test_an_erased_member_leaves_under_its_original_id_and_its_stints_then_name_the_placeholder(
    world: World,
) -> None:
    guild_id = world.guild_of("ada", "bo")
    lone = world.guild_of("cy", name="Bears")
    mark = world.mark()
    placeholder = world.admin(erase, "ada", ErasureReason.GDPR_ERASURE).placeholder
    assert [(k, d["externalPlayerId"], d["reason"], d["by"]) for k, d in world.events(mark)] == [
        ("guild.member_left", "ada", "erased", KEY_BY),
        ("guild.role_changed", "bo", "succession_leader_left", KEY_BY),
    ]
    assert [s.external_player_id for s in world.stints(guild_id)] == [placeholder, "bo"]
    assert [s.stint.guild_id for s in world.read(gc.player_guild, placeholder, scope=SERVER).stints] == [
        guild_id
    ]
    mark = world.mark()
    world.admin(erase, "cy", ErasureReason.TEST)
    assert world.kinds(mark) == ["guild.member_left", "guild.disbanded"]
    assert world.guild(lone).disbanded


# --- another environment ------------------------------------------------------------------------------


def test_another_environments_scope_sees_no_guild_of_this_one(world: World) -> None:
    guild_id = world.guild_of("ada", "bo")
    world.players("lee", scope=LIVE)
    assert code(world, lambda: world.read(gc.read_guild, guild_id, scope=LIVE)) == "guild_not_found"
    assert code(world, lambda: world.read(gc.guild_detail, guild_id, scope=LIVE)) == "guild_not_found"
    assert code(world, lambda: world.act(gc.join, "lee", guild_id, scope=LIVE)) == "guild_not_found"
    assert code(world, lambda: world.admin(gc.remove_member, guild_id, "bo", scope=LIVE)) == "guild_not_found"
    assert code(world, lambda: world.admin(gc.disband, guild_id, scope=LIVE)) == "guild_not_found"
    assert world.read(gc.search, "wolves", scope=LIVE) == []
    # Names are unique per environment: the live one may take the same.
    world.fund("lee", coins=100, potion=1, scope=LIVE)
    live = world.act(gc.create, "lee", wolves(), scope=LIVE).read.guild
    assert live.env is Environment.LIVE and live.name == "Wolves"
    assert [g.id for g in world.read(gc.search, "wolves", scope=LIVE)] == [live.id]
    assert [g.id for g in world.read(gc.search, "wolves")] == [guild_id]
