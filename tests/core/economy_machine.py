"""A hypothesis state machine over the economy commands, run against any store (memory, SQLite).

The model is a dict of balances. After every step: each holding equals the model, is never negative,
equals the sum of its ledger entries, and equals the last entry's ``balance_after``. Crate grants of the
game's ``box`` (:data:`BOX_TOML`) are sent, claimed (always refused) and opened: an open deposits what it
drew once, and opening again is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.crates.commands import open_crate
from livecore.crates.errors import CRATE_MUST_BE_OPENED
from livecore.crates.rules import CrateEntry
from livecore.crates.settings import CrateRow, CrateSettings
from livecore.economy.commands import client_spend, server_adjust
from livecore.economy.errors import INSUFFICIENT_BALANCE, INSUFFICIENT_QUANTITY
from livecore.errors import LivecoreError
from livecore.games import Entry, ResourceType
from livecore.grants.commands import create_grant, settle
from livecore.grants.errors import GRANT_ALREADY_CLAIMED
from livecore.grants.rules import GrantEntry, GrantKind, GrantTrigger
from livecore.hashing import KeyedHasher
from livecore.players.commands import first_contact, load_game
from livecore.rand import SeededRandomSource
from livecore.scope import Scope

PLAYERS = ("p0", "p1", "p2")
RESOURCES = {"coins": ResourceType.CURRENCY, "sword": ResourceType.ITEM}
REFUSALS = {
    INSUFFICIENT_BALANCE,
    INSUFFICIENT_QUANTITY,
    GRANT_ALREADY_CLAIMED,
    CRATE_MUST_BE_OPENED,
}
# The machine's crate, in code and in a manifest: two draws of 10 coins, a sword, or nothing.
BOX = CrateSettings(
    table=(
        CrateRow(1, (Entry(ResourceType.CURRENCY, "coins", 10),)),
        CrateRow(1, (Entry(ResourceType.ITEM, "sword", 1),)),
        CrateRow(1, ()),
    ),
    rolls=2,
)
BOX_TOML = """
[games.g.crates.box]
rolls = 2
table = [
  { weight = 1, rewards = [{ type = "currency", key = "coins", amount = 10 }] },
  { weight = 1, rewards = [{ type = "item", key = "sword", amount = 1 }] },
  { weight = 1, rewards = [] },
]
"""

StoreFactory = Callable[[], tuple[Any, Scope]]  # a store with a platform-managed game, and its scope


def make_machine(factory: StoreFactory) -> type[RuleBasedStateMachine]:
    class EconomyMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.store, self.scope = factory()
            self.rt = Runtime(
                clock=ManualClock(datetime(2026, 3, 2, tzinfo=UTC)),
                rng=SeededRandomSource(3),
                hasher=KeyedHasher(b"m" * 32),
            )
            self.model: dict[tuple[str, str], int] = {}
            self.player_ids: dict[str, str] = {}
            self.grants: list[tuple[str, str, dict[str, int]]] = []  # (player, grant id, credits)
            self.crates: list[tuple[str, str]] = []  # (player, crate grant id)
            self.opened: set[str] = set()
            with self.store.transaction() as tx:
                for p in PLAYERS:
                    self.player_ids[p] = first_contact(tx, self.rt, self.scope, p).id

        def _run(self, fn: Callable[[Any], Any]) -> bool:
            try:
                with self.store.transaction() as tx:
                    fn(tx)
            except LivecoreError as exc:
                if exc.code not in REFUSALS:
                    raise
                return False
            return True

        def _adjust(self, player: str, key: str, amount: int, credit: bool, client: bool) -> None:
            def op(tx: Any) -> None:
                game = load_game(tx, self.scope)
                p = tx.players.get(self.scope.game_id, player)
                if client:
                    client_spend(
                        tx,
                        self.rt,
                        self.scope,
                        game,
                        p,
                        RESOURCES[key],
                        key,
                        amount,
                        note=None,
                        source_ref_id=None,
                    )
                else:
                    server_adjust(
                        tx,
                        self.rt,
                        self.scope,
                        game,
                        p,
                        RESOURCES[key],
                        key,
                        amount,
                        credit=credit,
                        note=None,
                        source_ref_id=None,
                    )

            current = self.model.get((player, key), 0)
            applied = self._run(op)
            delta = amount if credit else -amount
            # A change applies exactly when it keeps the balance at or above zero.
            assert applied == (current + delta >= 0)
            if applied:
                self.model[(player, key)] = current + delta

        @rule(
            player=st.sampled_from(PLAYERS), key=st.sampled_from(list(RESOURCES)), amount=st.integers(1, 50)
        )
        def credit(self, player: str, key: str, amount: int) -> None:
            self._adjust(player, key, amount, credit=True, client=False)

        @rule(
            player=st.sampled_from(PLAYERS),
            key=st.sampled_from(list(RESOURCES)),
            amount=st.integers(1, 50),
            client=st.booleans(),
        )
        def debit(self, player: str, key: str, amount: int, client: bool) -> None:
            self._adjust(player, key, amount, credit=False, client=client)

        def _create(self, player: str, kind: GrantKind, entries: list[GrantEntry]) -> str:
            """A grant made by the server route's command; returns its id."""
            holder: list[str] = []

            def op(tx: Any) -> None:
                g = create_grant(
                    tx,
                    self.rt,
                    self.scope,
                    player,
                    kind=kind,
                    entries=entries,
                    expires_at=None,
                    source_kind="api",
                    source_ref_id=None,
                    metadata=None,
                )
                holder.append(g.id)

            assert self._run(op)
            return holder[0]

        @rule(player=st.sampled_from(PLAYERS), coins=st.integers(1, 30), swords=st.integers(0, 3))
        def grant(self, player: str, coins: int, swords: int) -> None:
            entries: list[GrantEntry] = [Entry(ResourceType.CURRENCY, "coins", coins)]
            if swords:
                entries.append(Entry(ResourceType.ITEM, "sword", swords))
            grant_id = self._create(player, GrantKind.REWARD, entries)
            self.grants.append((player, grant_id, {"coins": coins, "sword": swords}))

        @precondition(lambda self: bool(self.grants))
        @rule(data=st.data())
        def claim(self, data: st.DataObject) -> None:
            player, grant_id, credits = data.draw(st.sampled_from(self.grants))
            first = grant_id not in getattr(self, "claimed", set())

            def op(tx: Any) -> None:
                settle(
                    tx,
                    self.rt,
                    self.scope,
                    tx.players.get(self.scope.game_id, player),
                    grant_id,
                    GrantTrigger.CLAIM,
                )

            applied = self._run(op)
            assert applied == first
            if applied:
                self.claimed = {*getattr(self, "claimed", set()), grant_id}
                for key, amount in credits.items():
                    if amount:
                        self.model[(player, key)] = self.model.get((player, key), 0) + amount

        @rule(player=st.sampled_from(PLAYERS), amount=st.integers(1, 3))
        def send_crate(self, player: str, amount: int) -> None:
            self.crates.append(
                (player, self._create(player, GrantKind("crate"), [CrateEntry("box", amount)]))
            )

        @precondition(lambda self: bool(self.crates))
        @rule(data=st.data())
        def claim_crate(self, data: st.DataObject) -> None:
            player, grant_id = data.draw(st.sampled_from(self.crates))

            def op(tx: Any) -> None:
                p = tx.players.get(self.scope.game_id, player)
                settle(tx, self.rt, self.scope, p, grant_id, GrantTrigger.CLAIM)

            assert not self._run(op)  # a crate grant is opened, never claimed

        @precondition(lambda self: bool(self.crates))
        @rule(data=st.data())
        def open(self, data: st.DataObject) -> None:
            player, grant_id = data.draw(st.sampled_from(self.crates))
            drawn: list[Any] = []

            def op(tx: Any) -> None:
                p = tx.players.get(self.scope.game_id, player)
                drawn.append(open_crate(tx, self.rt, self.scope, p, grant_id))

            applied = self._run(op)
            assert applied == (grant_id not in self.opened)  # once, then grant_already_claimed
            if applied:
                self.opened.add(grant_id)
                contents = drawn[0].contents
                assert contents.source_ref_id == grant_id
                for entry in contents.entries:
                    self.model[(player, entry.key)] = self.model.get((player, entry.key), 0) + entry.amount

        @invariant()
        def balances_match_the_ledger(self) -> None:
            with self.store.transaction() as tx:
                for p in PLAYERS:
                    pid = self.player_ids[p]
                    for key in RESOURCES:
                        holding = tx.ledger.holding(pid, key)
                        entries = tx.ledger.entries(pid, key)
                        assert holding.amount == self.model.get((p, key), 0) >= 0
                        assert holding.amount == sum(e.delta for e in entries)
                        if entries:
                            assert entries[-1].balance_after == holding.amount
                        assert all(e.balance_after >= 0 for e in entries)

    return EconomyMachine
