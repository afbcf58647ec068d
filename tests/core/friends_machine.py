"""A hypothesis state machine over the friend commands against a simple model, for any store.

Invariants: friendship is symmetric; nobody is their own friend; at most one pending request
per unordered pair; a blocked pair has no friendship and no request; nobody exceeds ``max_friends``.
Each step's outcome (applied, or the refusal code) must also be the model's.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.errors import LivecoreError
from livecore.friends import commands as cmd
from livecore.hashing import KeyedHasher
from livecore.players.commands import first_contact, load_game
from livecore.rand import SeededRandomSource
from livecore.scope import Scope

PLAYERS = ("a", "b", "c", "d", "e")
MAX_FRIENDS = 2  # small, so the limit is reached often

StoreFactory = Callable[[], tuple[Any, Scope]]  # a store with a game whose max_friends is MAX_FRIENDS


def make_machine(factory: StoreFactory) -> type[RuleBasedStateMachine]:
    class FriendsMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.store, self.scope = factory()
            self.rt = Runtime(
                clock=ManualClock(datetime(2026, 3, 2, tzinfo=UTC)),
                rng=SeededRandomSource(5),
                hasher=KeyedHasher(b"f" * 32),
            )
            self.ids: dict[str, str] = {}
            with self.store.transaction() as tx:
                for p in PLAYERS:
                    self.ids[p] = first_contact(tx, self.rt, self.scope, p).id
            self.friends: set[frozenset[str]] = set()
            self.requests: dict[frozenset[str], tuple[str, str]] = {}  # pair -> (from, request id)
            self.blocks: set[tuple[str, str]] = set()

        # --- model helpers ---------------------------------------------------------------------
        def count(self, p: str) -> int:
            return sum(1 for pair in self.friends if p in pair)

        def blocked(self, x: str, y: str) -> bool:
            return (x, y) in self.blocks or (y, x) in self.blocks

        def run(self, fn: Callable[[Any], Any]) -> tuple[Any, str | None]:
            try:
                with self.store.transaction() as tx:
                    return fn(tx), None
            except LivecoreError as exc:
                return None, exc.code.value

        def player(self, tx: Any, p: str) -> Any:
            return tx.players.get(self.scope.game_id, p)

        # --- rules -----------------------------------------------------------------------------
        @rule(x=st.sampled_from(PLAYERS), y=st.sampled_from(PLAYERS))
        def add(self, x: str, y: str) -> None:
            pair = frozenset((x, y))
            if x == y:
                expected = "cannot_friend_self"
            elif self.blocked(x, y):
                expected = "player_blocked"
            elif pair in self.friends:
                expected = "already_friends"
            elif pair in self.requests and self.requests[pair][0] == x:
                expected = None  # asked already: the request stands
            elif self.count(x) >= MAX_FRIENDS or self.count(y) >= MAX_FRIENDS:
                expected = "friend_limit_reached"
            else:
                expected = None
            result, code = self.run(
                lambda tx: cmd.add(
                    tx, self.rt, self.scope, load_game(tx, self.scope), self.player(tx, x), self.player(tx, y)
                )
            )
            assert code == expected, (x, y, code, expected)
            if code is None:
                if result.accepted:
                    assert pair in self.requests and self.requests[pair][0] == y
                    del self.requests[pair]
                    self.friends.add(pair)
                else:
                    assert pair not in self.requests or self.requests[pair][1] == result.request.id
                    self.requests[pair] = (x, result.request.id)

        @rule(
            x=st.sampled_from(PLAYERS),
            y=st.sampled_from(PLAYERS),
            how=st.sampled_from(["accept", "decline", "cancel"]),
        )
        def answer(self, x: str, y: str, how: str) -> None:
            pair = frozenset((x, y))
            if pair not in self.requests:
                return
            sender, request_id = self.requests[pair]
            target = x if sender != x else y
            actor = x
            right_side = (actor == target) if how in ("accept", "decline") else (actor == sender)
            expected = None if right_side else "friend_request_not_found"
            if (
                how == "accept"
                and right_side
                and (self.count(x) >= MAX_FRIENDS or self.count(y) >= MAX_FRIENDS)
            ):
                expected = "friend_limit_reached"

            def op(tx: Any) -> Any:
                caller = self.player(tx, actor)
                if how == "accept":
                    return cmd.accept(tx, self.rt, self.scope, load_game(tx, self.scope), caller, request_id)
                return (cmd.decline if how == "decline" else cmd.cancel)(tx, self.scope, caller, request_id)

            _, code = self.run(op)
            assert code == expected, (how, actor, code, expected)
            if code is None:
                del self.requests[pair]
                if how == "accept":
                    self.friends.add(pair)

        @rule(x=st.sampled_from(PLAYERS), y=st.sampled_from(PLAYERS))
        def remove(self, x: str, y: str) -> None:
            pair = frozenset((x, y))
            expected = (
                "cannot_friend_self" if x == y else (None if pair in self.friends else "not_friends_yet")
            )
            _, code = self.run(
                lambda tx: cmd.remove(tx, self.rt, self.scope, self.player(tx, x), self.player(tx, y))
            )
            assert code == expected
            if code is None:
                self.friends.discard(pair)

        @rule(x=st.sampled_from(PLAYERS), y=st.sampled_from(PLAYERS))
        def block(self, x: str, y: str) -> None:
            _, code = self.run(
                lambda tx: cmd.block(tx, self.rt, self.scope, self.player(tx, x), self.player(tx, y))
            )
            assert code == ("cannot_friend_self" if x == y else None)
            if code is None:
                pair = frozenset((x, y))
                self.friends.discard(pair)
                self.requests.pop(pair, None)
                self.blocks.add((x, y))

        @rule(x=st.sampled_from(PLAYERS), y=st.sampled_from(PLAYERS))
        def unblock(self, x: str, y: str) -> None:
            expected = "cannot_friend_self" if x == y else (None if (x, y) in self.blocks else "not_blocked")
            _, code = self.run(lambda tx: cmd.unblock(tx, self.player(tx, x), self.player(tx, y)))
            assert code == expected
            if code is None:
                self.blocks.discard((x, y))

        # --- invariants ------------------------------------------------------------------------
        @invariant()
        def graph_matches_the_model(self) -> None:
            with self.store.transaction() as tx:
                for x in PLAYERS:
                    assert tx.friends.count_friends(self.ids[x]) == self.count(x) <= MAX_FRIENDS
                    assert tx.friends.get_friendship(self.ids[x], self.ids[x]) is None
                    for y in PLAYERS:
                        if x == y:
                            continue
                        fxy = tx.friends.get_friendship(self.ids[x], self.ids[y]) is not None
                        fyx = tx.friends.get_friendship(self.ids[y], self.ids[x]) is not None
                        assert fxy == fyx == (frozenset((x, y)) in self.friends)
                        request = tx.friends.request_between(self.ids[x], self.ids[y])
                        assert (request is not None) == (frozenset((x, y)) in self.requests)
                        assert (tx.friends.get_block(self.ids[x], self.ids[y]) is not None) == (
                            (x, y) in self.blocks
                        )
                        if self.blocked(x, y):
                            assert not fxy and request is None

    return FriendsMachine
