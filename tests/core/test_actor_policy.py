"""The actor policy (livecore.players.actor) as the runtime applies it to every player route, the
heartbeat command and the friends query views, on the in-memory store: what an embedded simulation runs."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import pytest

from livecore import registry
from livecore.api.route import Auth, Route
from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.crates import commands as crates_cmd
from livecore.crates.rules import CrateEntry
from livecore.crates.settings import CRATE_SETTINGS, CrateRow, CrateSettings
from livecore.economy import commands as economy_cmd
from livecore.errors import INVALID_REQUEST, LivecoreError
from livecore.friends import commands as friends_cmd
from livecore.friends.rules import Relation
from livecore.friends.settings import FRIENDS_SETTINGS, FriendsSettings
from livecore.games import Entry, Resource, ResourceType, Studio
from livecore.gifts import commands as gifts_cmd
from livecore.gifts.rules import SendRequest
from livecore.gifts.settings import GIFT_RESOURCE, GIFTING_SETTINGS, GiftingSettings, GiftResource
from livecore.grants import commands as grants_cmd
from livecore.grants.rules import GrantKind
from livecore.hashing import KeyedHasher
from livecore.live_events.commands import live_events as live_events_cmd
from livecore.live_events.settings import EVENT_SETTINGS, EventSettings
from livecore.memory import MemoryStore
from livecore.player_tools.commands.moderation import ban_player
from livecore.players import commands as players_cmd
from livecore.players.actor import acting, admit
from livecore.players.errors import PLAYER_BANNED
from livecore.players.memory import PlayerTables
from livecore.players.rules import Player
from livecore.purchases import commands as purchases_cmd
from livecore.purchases.rules import PurchaseRequest
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore.teams import commands as teams_cmd
from livecore.transaction import Transaction
from tests.core.test_gifts_rules import PLATFORM
from tests.installed import ALL

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
SCOPE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
COINS = Resource(
    "coins", ResourceType.CURRENCY, parts={GIFT_RESOURCE: GiftResource(giftable=True, max_per_gift=10)}
)
POTION = Resource("potion", ResourceType.ITEM)
# Two events with a window open at T0: ann plays ``trial`` in the world below, and may start ``sprint``.
EVENTS = {
    key: EventSettings(key, key.title(), T0, window_seconds=3600, attempt_seconds=600, score_metric="score")
    for key in ("trial", "sprint")
}
# The gift rules' platform-managed game, with a plain coin anyone may gift and a potion to consume.
GAME = attrs.evolve(
    PLATFORM,
    settings=attrs.evolve(
        PLATFORM.settings.with_sections(
            {
                GIFTING_SETTINGS: GiftingSettings(enabled=True),
                FRIENDS_SETTINGS: FriendsSettings(max_friends=10),
                EVENT_SETTINGS: EVENTS,
                CRATE_SETTINGS: {
                    "chest": CrateSettings(table=(CrateRow(1, (Entry(ResourceType.CURRENCY, "coins", 1),)),))
                },
            }
        ),
        resources={r.key: r for r in (COINS, POTION)},
    ),
)


@attrs.define
class Sim:
    store: MemoryStore
    rt: Runtime
    clock: ManualClock

    def run(self, op: Callable[[Transaction], Any]) -> Any:
        with self.store.transaction() as tx:
            return op(tx)

    def player(self, external_id: str) -> Player:
        found = self.run(lambda tx: players_cmd.find_player(tx, SCOPE, external_id))
        assert found is not None
        return found


@pytest.fixture
def sim() -> Sim:
    store = MemoryStore()
    store.add_game(Studio(id="std_1", key="acme"), GAME)
    clock = ManualClock(T0)
    s = Sim(store, Runtime(clock=clock, rng=SeededRandomSource(3), hasher=KeyedHasher(b"k" * 32)), clock)
    _names(s, "ann", "bob", "cat", "dan", "eli")
    return s


def _names(s: Sim, *names: str) -> None:
    """Register players whose display name is their external id."""
    for name in names:
        s.run(lambda tx, name=name: players_cmd.register(tx, s.rt, SCOPE, name))
        s.run(
            lambda tx, name=name: players_cmd.set_own_identity(
                tx, s.rt, other(tx, name), name=name, avatar=None
            )
        )


# --- The world each player write is tried in -----------------------------------------------------
#
# ann is the actor. bob is her friend and sent her a gift; cat asked her to be friends; she asked dan;
# she blocked eli. She holds coins and potions, has a pending grant and an attempt at ``trial``.


@attrs.frozen
class World:
    request_from_cat: str
    request_to_dan: str
    gift_id: str
    grant_id: str
    attempt_id: str
    crate_id: str


def build_world(s: Sim) -> World:
    def build(tx: Transaction) -> World:
        ann, bob, cat, dan = (players_cmd.get_player(tx, SCOPE, n) for n in ("ann", "bob", "cat", "dan"))
        friends_cmd.add(tx, s.rt, SCOPE, GAME, bob, ann)
        friends_cmd.add(tx, s.rt, SCOPE, GAME, ann, bob)
        from_cat = friends_cmd.add(tx, s.rt, SCOPE, GAME, cat, ann).request
        to_dan = friends_cmd.add(tx, s.rt, SCOPE, GAME, ann, dan).request
        assert from_cat is not None and to_dan is not None
        friends_cmd.block(tx, s.rt, SCOPE, ann, other(tx, "eli"))
        bob = players_cmd.get_player(tx, SCOPE, "bob")
        gift = gifts_cmd.send(
            tx, s.rt, SCOPE, GAME, bob, ann, SendRequest(ResourceType.CURRENCY, "coins", 3)
        ).gift
        for kind, key in ((ResourceType.CURRENCY, "coins"), (ResourceType.ITEM, "potion")):
            economy_cmd.server_adjust(
                tx, s.rt, SCOPE, GAME, ann, kind, key, 5, credit=True, note=None, source_ref_id=None
            )
        grant = grants_cmd.create_grant(
            tx,
            s.rt,
            SCOPE,
            "ann",
            kind=GrantKind.REWARD,
            entries=[Entry(type=ResourceType.CURRENCY, key="coins", amount=2)],
            expires_at=None,
            source_kind="api",
            source_ref_id=None,
            metadata=None,
        )
        attempt = live_events_cmd.start(tx, s.rt, SCOPE, other(tx, "ann"), "trial", None)
        crate = grants_cmd.create_grant(
            tx,
            s.rt,
            SCOPE,
            "ann",
            kind=GrantKind("crate"),
            entries=[CrateEntry("chest", 1)],
            expires_at=None,
            source_kind="api",
            source_ref_id=None,
            metadata=None,
        )
        return World(from_cat.id, to_dan.id, gift.id, grant.id, attempt.id, crate.id)

    return s.run(build)


def other(tx: Transaction, name: str) -> Player:
    return players_cmd.get_player(tx, SCOPE, name)


Write = Callable[[Transaction, Runtime, Player, World], object]

# The command of every player-scoped client write route, by route name, tried by ``ann``.
WRITES: dict[str, tuple[Callable[..., Any], Write]] = {
    "friends.requests.send": (
        friends_cmd.add,
        lambda tx, rt, me, w: friends_cmd.add(tx, rt, SCOPE, GAME, me, other(tx, "dan")),
    ),
    "friends.requests.accept": (
        friends_cmd.accept,
        lambda tx, rt, me, w: friends_cmd.accept(tx, rt, SCOPE, GAME, me, w.request_from_cat),
    ),
    "friends.requests.decline": (
        friends_cmd.decline,
        lambda tx, rt, me, w: friends_cmd.decline(tx, SCOPE, me, w.request_from_cat),
    ),
    "friends.requests.cancel": (
        friends_cmd.cancel,
        lambda tx, rt, me, w: friends_cmd.cancel(tx, SCOPE, me, w.request_to_dan),
    ),
    "friends.remove": (
        friends_cmd.remove,
        lambda tx, rt, me, w: friends_cmd.remove(tx, rt, SCOPE, me, other(tx, "bob")),
    ),
    "friends.blocks.add": (
        friends_cmd.block,
        lambda tx, rt, me, w: friends_cmd.block(tx, rt, SCOPE, me, other(tx, "cat")),
    ),
    "friends.blocks.remove": (
        friends_cmd.unblock,
        lambda tx, rt, me, w: friends_cmd.unblock(tx, me, other(tx, "eli")),
    ),
    "gifts.send": (
        gifts_cmd.send,
        lambda tx, rt, me, w: gifts_cmd.send(
            tx, rt, SCOPE, GAME, me, other(tx, "bob"), SendRequest(ResourceType.CURRENCY, "coins", 1)
        ),
    ),
    "gifts.claim": (
        gifts_cmd.claim,
        lambda tx, rt, me, w: gifts_cmd.claim(tx, rt, SCOPE, me, w.gift_id),
    ),
    "grants.claim": (
        grants_cmd.claim,
        lambda tx, rt, me, w: grants_cmd.claim(tx, rt, SCOPE, me, w.grant_id),
    ),
    "crates.open": (
        crates_cmd.open_crate,
        lambda tx, rt, me, w: crates_cmd.open_crate(tx, rt, SCOPE, me, w.crate_id),
    ),
    "wallet.debit": (
        economy_cmd.client_spend,
        lambda tx, rt, me, w: economy_cmd.client_spend(
            tx, rt, SCOPE, GAME, me, ResourceType.CURRENCY, "coins", 1, note=None, source_ref_id=None
        ),
    ),
    "inventory.consume": (
        economy_cmd.client_spend,
        lambda tx, rt, me, w: economy_cmd.client_spend(
            tx, rt, SCOPE, GAME, me, ResourceType.ITEM, "potion", 1, note=None, source_ref_id=None
        ),
    ),
    "players.set_identity": (
        players_cmd.set_own_identity,
        lambda tx, rt, me, w: players_cmd.set_own_identity(tx, rt, me, name="Ann", avatar=None),
    ),
    "purchases.track": (
        purchases_cmd.report,
        lambda tx, rt, me, w: purchases_cmd.report(
            tx, rt, SCOPE, me, PurchaseRequest("t-1", "app_store", "gems_100", "consumable", 199, "USD")
        ),
    ),
    "events.start": (
        live_events_cmd.start,
        lambda tx, rt, me, w: live_events_cmd.start(tx, rt, SCOPE, me, "sprint", {"level": 3}),
    ),
    "events.progress": (
        live_events_cmd.record_progress,
        lambda tx, rt, me, w: live_events_cmd.record_progress(
            tx, rt, SCOPE, me, "trial", w.attempt_id, {"score": 10}
        ),
    ),
    "presence.heartbeat": (
        players_cmd.heartbeat,
        lambda tx, rt, me, w: players_cmd.heartbeat(tx, rt, me, "in menu"),
    ),
}


# The partner and guild routes: their worlds need a partner event, friends and guilds, which the table
# above's world has not (tests/server/test_guilds_api.py and the embedded equivalence play them).
PARTNER_WRITES = {"partners.invite", "partners.accept"}
GUILD_WRITES = {
    "guilds.create",
    "guilds.join",
    "guilds.cancel_join_request",
    "guilds.leave",
    "guilds.edit",
    "guilds.requests.accept",
    "guilds.requests.decline",
    "guilds.members.kick",
    "guilds.members.promote",
    "guilds.members.demote",
    "guilds.transfer",
    "guilds.help.ask",
    "guilds.help.donate",
}
ROUTES = {r.name: r for r in ALL}


def as_ann(tx: Transaction, route: str) -> Player:
    """ann, as the runtime lets her act on ``route``."""
    return acting(tx, SCOPE, ROUTES[route], "ann")


def test_the_tables_name_every_player_scoped_client_write_route() -> None:
    player_writes = {r.name for r in ALL if r.auth is Auth.PLAYER and r.is_write}
    assert set(WRITES) | PARTNER_WRITES | GUILD_WRITES == player_writes


def _studio_routes() -> tuple[Route, ...]:
    from studio_daily import AREA as DAILY
    from studio_quests.area import AREA as QUESTS

    return registry.routes(registry.areas([QUESTS, DAILY]))


@pytest.mark.parametrize("route", [*ALL, *_studio_routes()], ids=lambda r: r.name)
def test_the_runtime_refuses_a_banned_player_every_write_route_of_every_area_and_lets_it_read(
    sim: Sim, route: Route
) -> None:
    """No area declares the rule: a route of a player that writes refuses a banned player, whichever
    area (built-in or a studio's) declares it; reads, and every route that acts for no player, go on."""
    sim.run(lambda tx: ban_player(tx, sim.rt, SCOPE, other(tx, "ann"), "cheating"))
    banned = sim.player("ann")
    if route.auth in (Auth.PLAYER, Auth.KEY_OR_PLAYER) and route.is_write:
        with pytest.raises(LivecoreError) as refused:
            admit(route, banned)
        assert refused.value.code is PLAYER_BANNED
    else:
        assert admit(route, banned) is banned


@pytest.mark.parametrize("route", sorted(WRITES))
def test_a_banned_actor_is_refused_by_every_player_write(sim: Sim, route: str) -> None:
    """Each write succeeds for the player, and is refused with 403 player_banned, changing nothing,
    once the player is banned: the command itself holds no ban check, the runtime refuses."""
    world = build_world(sim)
    _, write = WRITES[route]
    before = (dict(sim.store.tables_of(PlayerTables).players), list(sim.store.outbox))
    with pytest.raises(_Rollback), sim.store.transaction() as tx:
        write(tx, sim.rt, as_ann(tx, route), world)  # allowed while not banned
        raise _Rollback
    sim.run(lambda tx: ban_player(tx, sim.rt, SCOPE, other(tx, "ann"), "cheating"))
    banned = (dict(sim.store.tables_of(PlayerTables).players), list(sim.store.outbox))
    with pytest.raises(LivecoreError) as refused, sim.store.transaction() as tx:
        write(tx, sim.rt, as_ann(tx, route), world)
    assert refused.value.code is PLAYER_BANNED
    assert (dict(sim.store.tables_of(PlayerTables).players), list(sim.store.outbox)) == banned != before


class _Rollback(Exception):
    pass


def test_the_ban_is_refused_before_what_the_command_looks_up(sim: Sim) -> None:
    """A banned player is told it is banned, not that the request, gift, grant, event or attempt it names
    is unknown (the server's order)."""
    sim.run(lambda tx: ban_player(tx, sim.rt, SCOPE, other(tx, "ann"), "cheating"))
    for route, attempt in (
        (
            "friends.requests.accept",
            lambda tx, me: friends_cmd.accept(tx, sim.rt, SCOPE, GAME, me, "frq_unknown"),
        ),
        ("gifts.claim", lambda tx, me: gifts_cmd.claim(tx, sim.rt, SCOPE, me, "unknown")),
        ("grants.claim", lambda tx, me: grants_cmd.claim(tx, sim.rt, SCOPE, me, "unknown")),
        ("crates.open", lambda tx, me: crates_cmd.open_crate(tx, sim.rt, SCOPE, me, "unknown")),
        ("events.start", lambda tx, me: live_events_cmd.start(tx, sim.rt, SCOPE, me, "unknown", None)),
        (
            "events.progress",
            lambda tx, me: live_events_cmd.record_progress(
                tx, sim.rt, SCOPE, me, "trial", "unknown", {"score": 1}
            ),
        ),
        ("partners.invite", lambda tx, me: teams_cmd.invite(tx, sim.rt, SCOPE, me, "unknown", "bob")),
        ("partners.accept", lambda tx, me: teams_cmd.accept(tx, sim.rt, SCOPE, me, "unknown", "inv_unknown")),
    ):
        with pytest.raises(LivecoreError) as refused:
            sim.run(lambda tx, route=route, attempt=attempt: attempt(tx, as_ann(tx, route)))
        assert refused.value.code is PLAYER_BANNED


def test_a_banned_player_still_reads(sim: Sim) -> None:
    sim.run(lambda tx: ban_player(tx, sim.rt, SCOPE, other(tx, "ann"), "cheating"))
    ann = sim.player("ann")
    found = sim.run(lambda tx: friends_cmd.search(tx, SCOPE, ann, "bob", 5))
    assert [h.player.external_id for h in found] == ["bob"]
    assert sim.run(lambda tx: friends_cmd.suggestions(tx, sim.rt, SCOPE, ann, 5))


# --- Heartbeat ----------------------------------------------------------------------------------


def test_heartbeat_opens_a_session_after_30_minutes_of_silence_and_counts_the_streak(sim: Sim) -> None:
    def beat(status: str | None) -> players_cmd.Heartbeat:
        return sim.run(lambda tx: players_cmd.heartbeat(tx, sim.rt, other(tx, "ann"), status))[1]

    registered = sim.player("ann").activity  # register is the first session
    assert (registered.sessions, registered.streak) == (1, 1)
    sim.clock.advance(29 * 60)
    inside = beat("menu")
    assert not inside.durable and inside.activity.sessions == 1
    assert sim.player("ann").presence.status == "menu"  # written all the same: no board here
    sim.clock.advance(30 * 60)
    opened = beat(None)
    assert opened.durable and opened.activity.sessions == 2
    assert opened.presence.status is None and opened.presence.last_active_at == sim.clock.now()
    sim.clock.advance(24 * 3600)
    next_day = beat("lobby")
    assert next_day.durable and (next_day.activity.streak, next_day.activity.best_streak) == (2, 2)
    stored = sim.player("ann")
    assert stored.activity == next_day.activity and stored.last_seen_at == sim.clock.now()


def test_heartbeat_for_a_caller_keeping_presence_writes_only_durable_beats(sim: Sim) -> None:
    sim.clock.advance(60)
    before = sim.player("ann")
    player, done = sim.run(
        lambda tx: players_cmd.heartbeat(tx, sim.rt, other(tx, "ann"), "x", keeps_presence=True)
    )
    assert not done.durable and player == before == sim.player("ann")
    # The caller's own later last-active time (its presence board) is what the session is measured from.
    sim.clock.advance(40 * 60)
    kept = attrs.evolve(before.activity, last_active_at=sim.clock.now() - timedelta(minutes=10))
    assert not players_cmd.beat(before, None, sim.clock.now(), activity=kept).durable
    assert players_cmd.beat(before, None, sim.clock.now()).durable


def test_heartbeat_refuses_a_status_label_over_64_characters(sim: Sim) -> None:
    with pytest.raises(LivecoreError) as refused:
        sim.run(lambda tx: players_cmd.heartbeat(tx, sim.rt, other(tx, "ann"), "x" * 65))
    assert refused.value.code is INVALID_REQUEST


def test_heartbeat_of_a_banned_player_is_refused_before_its_status_is_checked(sim: Sim) -> None:
    sim.run(lambda tx: ban_player(tx, sim.rt, SCOPE, other(tx, "ann"), "cheating"))
    with pytest.raises(LivecoreError) as refused:
        players_cmd.beat(admit(ROUTES["presence.heartbeat"], sim.player("ann")), "x" * 65, sim.clock.now())
    assert refused.value.code is PLAYER_BANNED


# --- Search and suggestions ---------------------------------------------------------------------


def test_search_hides_the_caller_and_blocks_either_way_and_still_fills_the_page(sim: Sim) -> None:
    _names(sim, "zed1", "zed2", "zed3", "zed4", "zed5")

    def names(limit: int) -> list[str]:
        me = sim.player("zed1")
        return [
            h.player.external_id for h in sim.run(lambda tx: friends_cmd.search(tx, SCOPE, me, "zed", limit))
        ]

    assert names(2) == ["zed2", "zed3"]
    sim.run(lambda tx: friends_cmd.block(tx, sim.rt, SCOPE, other(tx, "zed1"), other(tx, "zed2")))
    sim.run(lambda tx: friends_cmd.block(tx, sim.rt, SCOPE, other(tx, "zed3"), other(tx, "zed1")))
    assert names(2) == ["zed4", "zed5"]  # three hidden, the page still full
    assert names(0) == ["zed4"]  # clamped to at least one


def test_search_text_under_3_characters_matches_the_start_of_names_only(sim: Sim) -> None:
    _names(sim, "Zed", "Ozzie")

    def names(text: str) -> list[str]:
        me = sim.player("ann")
        return [h.player.external_id for h in sim.run(lambda tx: friends_cmd.search(tx, SCOPE, me, text, 9))]

    assert names("ZE") == ["Zed"]
    assert names("zz") == []
    assert names("zzi") == ["Ozzie"]


def test_search_tells_the_relationship_of_each_hit(sim: Sim) -> None:
    build_world(sim)
    ann = sim.player("ann")
    relations = {}
    for name in ("bob", "cat", "dan"):
        found = sim.run(lambda tx, name=name: friends_cmd.search(tx, SCOPE, ann, name, 5))
        relations[name] = [h.relation for h in found]
    assert relations == {
        "bob": [Relation.FRIENDS],
        "cat": [Relation.INCOMING],
        "dan": [Relation.OUTGOING],
    }


def test_search_text_must_be_1_to_32_characters(sim: Sim) -> None:
    for text in ("  ", "x" * 33):
        with pytest.raises(LivecoreError) as refused:
            sim.run(lambda tx, text=text: friends_cmd.search(tx, SCOPE, sim.player("ann"), text, 5))
        assert refused.value.code is INVALID_REQUEST


def test_suggestions_leave_out_the_caller_friends_pending_requests_and_blocks_either_way(sim: Sim) -> None:
    build_world(sim)  # ann: friend bob, request from cat, request to dan
    _names(sim, "eve", "fay", "gus", "hal")
    sim.run(lambda tx: friends_cmd.block(tx, sim.rt, SCOPE, other(tx, "ann"), other(tx, "fay")))
    sim.run(lambda tx: friends_cmd.block(tx, sim.rt, SCOPE, other(tx, "gus"), other(tx, "ann")))
    ann = sim.player("ann")
    for _ in range(5):
        drawn = sim.run(lambda tx: friends_cmd.suggestions(tx, sim.rt, SCOPE, ann, 25))
        assert sorted(p.external_id for p in drawn) == ["eve", "hal"]


def test_suggestions_draw_at_most_the_clamped_limit_from_the_remaining_pool(sim: Sim) -> None:
    _names(sim, *(f"p{i:02}" for i in range(30)))
    ann = sim.player("ann")
    assert len(sim.run(lambda tx: friends_cmd.suggestions(tx, sim.rt, SCOPE, ann, 0))) == 1
    many = sim.run(lambda tx: friends_cmd.suggestions(tx, sim.rt, SCOPE, ann, 99))
    assert len(many) == 25 and len({p.id for p in many}) == 25 and ann.id not in {p.id for p in many}
