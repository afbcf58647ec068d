"""A hypothesis state machine over guild membership and roles, for any store.

Rules: players found guilds (names that differ in case only collide), join open guilds or ask to join
request-only ones, answer and cancel requests, leave, kick, promote, demote and hand the lead on; the
studio removes members, hands the leadership over and disbands guilds; players are merged and erased; the
clock moves, players are seen (heartbeats), and the hourly sweep hands inactive leaders on. Each rule's
outcome is checked against what the store held before it (the refusal it must give, or what it must do).

Invariants, read from the store through its ports after every step: every guild not disbanded has exactly
one leader and a disbanded one no member; ``member_count`` is the number of current stints and never above
``max_members``; no player holds two current stints, and a player's current stint is its guild's; a
player in a guild has no pending join request, and a disbanded guild none; names are unique, ignoring
case, among the guilds not disbanded.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.errors import LivecoreError
from livecore.games import Economy, GameSettings
from livecore.guilds import commands as gc
from livecore.guilds.rules import Guild, JoinType, Profile, Role, Stint, name_key
from livecore.guilds.settings import GUILD_SETTINGS, GuildSettings
from livecore.hashing import KeyedHasher
from livecore.player_tools.commands.erasure import erase
from livecore.player_tools.commands.merge import merge
from livecore.player_tools.erasure import ErasureReason
from livecore.players.commands import first_contact, get_player, heartbeat
from livecore.rand import SeededRandomSource
from livecore.scope import Actor, Scope

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
PLAYERS = ("a", "b", "c", "d", "e", "f", "g")
NAMES = ("Wolves", "WOLVES", "wolves", "Bears", "bEARS", "Owls")
MAX_MEMBERS = 3
SETTINGS = GameSettings(
    economy=Economy.STUDIO,  # founding costs nothing to debit
    sections={GUILD_SETTINGS: GuildSettings(enabled=True, max_members=MAX_MEMBERS, leader_inactive_days=1)},
)
HOUR = 3600

StoreFactory = Callable[[], tuple[Any, Scope]]  # a store with a game configured as SETTINGS (TEST scope)

_ACTIONS = {"kick": gc.kick, "promote": gc.promote, "demote": gc.demote, "transfer": gc.transfer}
# What may refuse an action on a member, whatever the roles (the rules' tests pin which one when).
_ACTION_CODES = {"not_in_guild", "guild_permission_denied", "invalid_request", "guild_member_not_found"}


def make_machine(factory: StoreFactory) -> type[RuleBasedStateMachine]:
    class GuildsMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.store, scope = factory()
            self.client = Scope(scope.studio_id, scope.game_id, scope.env, Actor("api_key", "lc_test_c"))
            self.server = Scope(scope.studio_id, scope.game_id, scope.env, Actor("api_key", "lc_test_s"))
            self.game_id = scope.game_id
            self.clock = ManualClock(T0)
            self.rt = Runtime(clock=self.clock, rng=SeededRandomSource(26), hasher=KeyedHasher(b"g" * 32))
            self.ids: dict[str, str] = {}  # every player row's id, retired ones too
            with self.store.transaction() as tx:
                for p in PLAYERS:
                    self.ids[p] = first_contact(tx, self.rt, self.client, p).id
            self.retired: set[str] = set()  # merged or erased
            self.guilds: list[str] = []  # every guild founded, in order
            self.requests: list[str] = []  # every join request made

        # --- helpers ---------------------------------------------------------------------------
        def run(self, fn: Callable[[Any], Any]) -> tuple[Any, str | None]:
            try:
                with self.store.transaction() as tx:
                    return fn(tx), None
            except LivecoreError as exc:
                return None, exc.code.value

        def act(self, p: str, command: Callable[..., Any], *args: Any, **kw: Any) -> tuple[Any, str | None]:
            """``p``'s command, on the client's scope."""
            return self.run(
                lambda tx: command(tx, self.rt, self.client, get_player(tx, self.client, p), *args, **kw)
            )

        def guild(self, tx: Any, index: int) -> Guild:
            """A guild, those not disbanded more likely."""
            live = [g for g in self.guilds if not tx.guilds.get(self.game_id, g).disbanded]
            found = tx.guilds.get(self.game_id, self.pick(index, live, self.guilds))
            assert found is not None
            return found

        def stint(self, tx: Any, p: str) -> Stint | None:
            stint: Stint | None = tx.guilds.current_stint(self.ids[p])
            return stint

        def before(self, fn: Callable[[Any], Any]) -> Any:
            with self.store.transaction() as tx:
                return fn(tx)

        def active(self, *players: str) -> bool:
            return not self.retired.intersection(players)

        def pick(self, i: int, likely: list[str], pool: tuple[str, ...] | list[str] = PLAYERS) -> str:
            """The ``i``-th of ``likely`` (three times as likely) and ``pool``: a rule picks the players
            and guilds that make it do something more often than those it refuses."""
            candidates = [*likely, *likely, *likely, *pool]
            return candidates[i % len(candidates)]

        def in_guild(self, guild_id: str | None = None, roles: tuple[Role, ...] = tuple(Role)) -> list[str]:
            """The active players seated (in ``guild_id``, with one of ``roles``)."""
            with self.store.transaction() as tx:
                return [
                    p
                    for p in PLAYERS
                    if self.active(p)
                    and (s := self.stint(tx, p)) is not None
                    and guild_id in (None, s.guild_id)
                    and s.role in roles
                ]

        def live(self) -> list[str]:
            with self.store.transaction() as tx:
                return [g for g in self.guilds if not tx.guilds.get(self.game_id, g).disbanded]

        # --- the player's surface ----------------------------------------------------------------
        @initialize(joiners=st.integers(0, MAX_MEMBERS - 1), asking=st.integers(0, 2))
        def two_guilds(self, joiners: int, asking: int) -> None:
            """An open guild of a with ``joiners`` more, and a request-only one of b with ``asking``
            requests: something to act on from the first step."""
            self.create("a", "Wolves", JoinType.OPEN)
            self.create("b", "Bears", JoinType.REQUEST)
            for p in PLAYERS[2 : 2 + joiners]:
                self.join_as(p, 0, None)
            for p in PLAYERS[2 + joiners : 2 + joiners + asking]:
                self.join_as(p, 1, "hi")

        @precondition(lambda self: len(self.live()) < 2)  # few guilds, that fill up
        @rule(p=st.sampled_from(PLAYERS), name=st.sampled_from(NAMES), join_type=st.sampled_from(JoinType))
        def create(self, p: str, name: str, join_type: JoinType) -> None:
            if not self.active(p):
                return
            in_guild, taken = self.before(
                lambda tx: (
                    self.stint(tx, p) is not None,
                    tx.guilds.by_name(self.game_id, self.client.env, name_key(name)) is not None,
                )
            )
            own, code = self.act(p, gc.create, Profile(name=name, join_type=join_type))
            expected = "already_in_guild" if in_guild else "guild_name_taken" if taken else None
            assert code == expected, (code, expected)
            if own is not None:
                assert own.role is Role.LEADER and own.read.guild.member_count == 1
                self.guilds.append(own.read.guild.id)

        @precondition(lambda self: bool(self.guilds))
        @rule(i=st.integers(0, 100), g=st.integers(0, 100), message=st.sampled_from((None, "hi")))
        def join(self, i: int, g: int, message: str | None) -> None:
            p = self.pick(i, [p for p in PLAYERS if p not in self.in_guild()])
            self.join_as(p, g, message)

        def join_as(self, p: str, g: int, message: str | None) -> None:
            if not self.active(p):
                return

            def look(tx: Any) -> tuple[Guild, str | None]:
                guild = self.guild(tx, g)
                pending = any(r.guild_id == guild.id for r in tx.guilds.pending_of(self.ids[p]))
                if guild.disbanded:
                    return guild, "guild_disbanded"
                if self.stint(tx, p) is not None:
                    return guild, "already_in_guild"
                if guild.member_count >= MAX_MEMBERS:
                    return guild, "guild_full"
                if guild.join_type is JoinType.REQUEST and pending:
                    return guild, "join_request_pending"
                return guild, None

            guild, expected = self.before(look)
            joined, code = self.act(p, gc.join, guild.id, message)
            assert code == expected, (code, expected)
            if joined is None:
                return
            if guild.join_type is JoinType.OPEN:
                assert joined.own is not None and joined.own.read.guild.id == guild.id
                assert self.before(lambda tx: self.stint(tx, p)).guild_id == guild.id
            else:
                assert joined.request is not None and joined.request.pending
                self.requests.append(joined.request.id)

        @precondition(lambda self: bool(self.requests))
        @rule(i=st.integers(0, 100), r=st.integers(0, 100), accept=st.booleans())
        def answer(self, i: int, r: int, accept: bool) -> None:
            pending = self.before(
                lambda tx: [q for q in self.requests if tx.guilds.request(self.game_id, q).pending]
            )
            request_id = self.pick(r, pending, self.requests)
            guild_id = self.before(lambda tx: tx.guilds.request(self.game_id, request_id).guild_id)
            p = self.pick(i, self.in_guild(guild_id, (Role.LEADER, Role.CO_LEADER)))
            if not self.active(p):
                return
            answered, code = self.act(p, gc.answer_join_request, request_id, accept=accept)
            if code is not None:
                allowed = {"not_in_guild", "guild_permission_denied", "join_request_not_found", "guild_full"}
                assert code in allowed, code
                return
            if accept:
                stint = self.before(lambda tx: tx.guilds.current_stint(answered.player_id))
                assert stint is not None and stint.guild_id == answered.guild_id
                assert self.before(lambda tx: tx.guilds.pending_of(answered.player_id)) == []

        @precondition(lambda self: bool(self.guilds))
        @rule(p=st.sampled_from(PLAYERS), g=st.integers(0, 100))
        def cancel(self, p: str, g: int) -> None:
            if not self.active(p):
                return
            guild = self.before(lambda tx: self.guild(tx, g))
            pending = self.before(
                lambda tx: [r for r in tx.guilds.pending_of(self.ids[p]) if r.guild_id == guild.id]
            )
            _, code = self.act(p, gc.cancel_join_request, guild.id)
            assert code == (None if pending else "join_request_not_found"), code

        @rule(p=st.sampled_from(PLAYERS))
        def leave(self, p: str) -> None:
            if not self.active(p):
                return
            in_guild = self.before(lambda tx: self.stint(tx, p) is not None)
            _, code = self.act(p, gc.leave)
            assert code == (None if in_guild else "not_in_guild"), code
            assert self.before(lambda tx: self.stint(tx, p)) is None

        @rule(action=st.sampled_from(tuple(_ACTIONS)), i=st.integers(0, 100), j=st.integers(0, 100))
        def member_action(self, action: str, i: int, j: int) -> None:
            p = self.pick(i, self.in_guild(roles=(Role.LEADER, Role.CO_LEADER)))
            if not self.active(p):
                return
            own = self.before(lambda tx: self.stint(tx, p))
            mates = [] if own is None else [m for m in self.in_guild(own.guild_id) if m != p]
            q = self.pick(j, mates)
            _, code = self.act(p, _ACTIONS[action], q)
            assert code is None or code in _ACTION_CODES, code
            if code is None and action == "transfer":
                assert self.before(lambda tx: self.stint(tx, q)).role is Role.LEADER
                assert self.before(lambda tx: self.stint(tx, p)).role is Role.CO_LEADER

        @rule(p=st.sampled_from(PLAYERS))
        def seen(self, p: str) -> None:
            if self.active(p):
                assert self.act(p, lambda tx, rt, scope, player: heartbeat(tx, rt, player, None))[1] is None

        # --- the studio --------------------------------------------------------------------------
        @precondition(lambda self: bool(self.guilds))
        @rule(g=st.integers(0, 100), q=st.sampled_from(PLAYERS))
        def remove(self, g: int, q: str) -> None:
            guild = self.before(lambda tx: self.guild(tx, g))
            detail, code = self.run(lambda tx: gc.remove_member(tx, self.rt, self.server, guild.id, q))
            assert code is None or code in ("guild_disbanded", "guild_member_not_found"), code
            if detail is not None:
                assert q not in {m.external_player_id for m in detail.read.members}

        @precondition(lambda self: bool(self.guilds))
        @rule(g=st.integers(0, 100), j=st.integers(0, 100))
        def hand_over(self, g: int, j: int) -> None:
            guild = self.before(lambda tx: self.guild(tx, g))
            q = self.pick(j, self.in_guild(guild.id))
            detail, code = self.run(lambda tx: gc.hand_over(tx, self.rt, self.server, guild.id, q))
            assert code is None or code in ("guild_disbanded", "guild_member_not_found"), code
            if detail is not None:
                roles = {m.external_player_id: m.role for m in detail.read.members}
                assert roles[q] is Role.LEADER

        @precondition(lambda self: len(self.guilds) >= 4)  # not so often that no guild lives long
        @rule(g=st.integers(0, 100))
        def disband(self, g: int) -> None:
            guild = self.before(lambda tx: self.guild(tx, g))
            detail, code = self.run(lambda tx: gc.disband(tx, self.rt, self.server, guild.id))
            assert code is None and detail.read.guild.disbanded and detail.read.members == []

        @precondition(lambda self: not self.retired)  # once: each retires a player
        @rule(p=st.sampled_from(PLAYERS), q=st.sampled_from(PLAYERS))
        def merge(self, p: str, q: str) -> None:
            if p == q or not self.active(p, q):
                return
            target_guild = self.before(lambda tx: self.stint(tx, q))
            source_guild = self.before(lambda tx: self.stint(tx, p))
            _, code = self.run(lambda tx: merge(tx, self.rt, self.server, p, q))
            assert code is None, code
            self.retired.add(p)
            after = self.before(lambda tx: self.stint(tx, q))
            if target_guild is not None:
                assert after is not None and after.guild_id == target_guild.guild_id
            elif source_guild is not None:  # the target takes the source's seat and role
                assert after is not None and (after.guild_id, after.role) == (
                    source_guild.guild_id,
                    source_guild.role,
                )

        @precondition(lambda self: not self.retired)
        @rule(p=st.sampled_from(PLAYERS))
        def erase(self, p: str) -> None:
            if not self.active(p):
                return
            _, code = self.run(lambda tx: erase(tx, self.rt, self.server, p, ErasureReason.TEST))
            assert code is None, code
            self.retired.add(p)
            assert self.before(lambda tx: self.stint(tx, p)) is None

        # --- time --------------------------------------------------------------------------------
        @rule(hours=st.sampled_from((1, 6, 23, 25, 49)))
        def advance(self, hours: int) -> None:
            self.clock.advance(hours * HOUR)

        @rule()
        def sweep(self) -> None:
            after: str | None = None
            for _ in range(len(PLAYERS) + 2):
                after, code = self.run(lambda tx, a=after: gc.hand_on_inactive(tx, self.rt, self.game_id, a))
                assert code is None
                if after is None:
                    return
            raise AssertionError("the sweep does not end")

        # --- invariants --------------------------------------------------------------------------
        @invariant()
        def guilds_are_consistent(self) -> None:
            with self.store.transaction() as tx:
                found = tx.guilds.search(
                    self.game_id,
                    self.client.env,
                    text=None,
                    player_id=None,
                    include_disbanded=True,
                    limit=100,
                    offset=0,
                )
                assert sorted(g.id for g in found) == sorted(self.guilds)
                seated: dict[str, str] = {}
                live_names: set[str] = set()
                for guild in found:
                    members = tx.guilds.members(guild.id)
                    assert guild.member_count == len(members) <= MAX_MEMBERS, (guild, members)
                    assert all(m.current and m.guild_id == guild.id for m in members)
                    leaders = [m for m in members if m.role is Role.LEADER]
                    if guild.disbanded:
                        assert members == [] and tx.guilds.pending_requests(guild.id) == []
                    else:
                        assert len(leaders) == 1, members
                        assert guild.name_key not in live_names, guild.name
                        live_names.add(guild.name_key)
                    assert [s for s in tx.guilds.history(guild.id) if s.current] == members
                    for member in members:
                        assert member.player_id not in seated, member
                        seated[member.player_id] = guild.id
                for player_id in self.ids.values():
                    current = [s for s in tx.guilds.stints_of(player_id) if s.current]
                    assert len(current) <= 1, current
                    stint = tx.guilds.current_stint(player_id)
                    assert (None if stint is None else stint.guild_id) == seated.get(player_id)
                    assert current == ([] if stint is None else [stint])
                    if stint is not None:
                        assert tx.guilds.pending_of(player_id) == []

    return GuildsMachine
