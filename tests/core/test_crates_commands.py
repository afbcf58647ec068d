"""Opening a crate grant (livecore/crates/commands.py) on the in-memory store: what an embedded simulation
runs. The open deposits what it drew once, fires its webhooks in order, and each refusal changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.crates import commands as crates_cmd
from livecore.crates.errors import CRATE_MUST_BE_OPENED, NOT_A_CRATE
from livecore.crates.rules import CrateEntry
from livecore.crates.settings import CRATE_SETTINGS, CrateRow, CrateSettings
from livecore.economy.errors import RESOURCE_NOT_FOUND
from livecore.economy.memory import EconomyTables
from livecore.errors import Code, LivecoreError
from livecore.games import Economy, Entry, Game, GameSettings, Resource, ResourceType, Studio
from livecore.grants import commands as grants_cmd
from livecore.grants.errors import GRANT_ALREADY_CLAIMED, GRANT_EXPIRED, GRANT_NOT_FOUND
from livecore.grants.memory import GrantTables
from livecore.grants.rules import AckedBy, Grant, GrantEntry, GrantKind, GrantStatus
from livecore.hashing import KeyedHasher
from livecore.memory import MemoryStore
from livecore.player_tools.commands.moderation import ban_player
from livecore.players import commands as players_cmd
from livecore.players.errors import PLAYER_BANNED
from livecore.players.rules import Player
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore.transaction import Transaction

T0 = datetime(2026, 5, 1, 12, tzinfo=UTC)
SCOPE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
COINS = Entry(ResourceType.CURRENCY, "coins", 50)
SWORD = Entry(ResourceType.ITEM, "sword", 1)
# Every draw of ``chest`` gives 50 coins and a sword: the contents are known whatever the seed.
CHEST = CrateSettings(table=(CrateRow(1, (COINS, SWORD)),), rolls=2)
LOOT = CrateSettings(table=(CrateRow(1, (COINS,)), CrateRow(1, (SWORD,)), CrateRow(1, ())), rolls=3)


def game(economy: Economy) -> Game:
    return Game(
        id="gam_1",
        studio_id="std_1",
        key="g",
        name="G",
        settings=GameSettings(
            economy=economy,
            resources={
                "coins": Resource("coins", ResourceType.CURRENCY),
                "sword": Resource("sword", ResourceType.ITEM),
            },
            sections={CRATE_SETTINGS: {"chest": CHEST, "loot": LOOT}},
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
        return self.run(lambda tx: players_cmd.get_player(tx, SCOPE, external_id))  # type: ignore[no-any-return]

    def grant(self, external_id: str, *entries: GrantEntry, **kw: Any) -> Grant:
        kind = GrantKind("crate") if isinstance(entries[0], CrateEntry) else GrantKind.REWARD
        return self.run(  # type: ignore[no-any-return]
            lambda tx: grants_cmd.create_grant(
                tx,
                self.rt,
                SCOPE,
                external_id,
                kind=kind,
                entries=list(entries),
                expires_at=kw.get("expires_at"),
                source_kind="api",
                source_ref_id=None,
                metadata=None,
            )
        )

    def open(self, external_id: str, grant_id: str) -> crates_cmd.Opened:
        return self.run(  # type: ignore[no-any-return]
            lambda tx: crates_cmd.open_crate(tx, self.rt, SCOPE, self.player(external_id), grant_id)
        )

    def holdings(self, external_id: str) -> dict[str, int]:
        player = self.player(external_id)
        return self.run(lambda tx: {k: h.amount for k, h in tx.ledger.holdings(player.id).items()})  # type: ignore[no-any-return]

    def snapshot(self) -> Any:
        """What an open may change: grants, balances, the ledger and the outbox."""
        s, economy = self.store, self.store.tables_of(EconomyTables)
        return (
            dict(s.tables_of(GrantTables).grants),
            dict(economy.holdings),
            len(economy.entries),
            len(s.outbox),
        )


def make_sim(economy: Economy = Economy.PLATFORM, seed: int = 7) -> Sim:
    store = MemoryStore()
    store.add_game(Studio(id="std_1", key="acme"), game(economy))
    clock = ManualClock(T0)
    sim = Sim(store, Runtime(clock=clock, rng=SeededRandomSource(seed), hasher=KeyedHasher(b"k" * 32)), clock)
    for name in ("ann", "bob"):
        sim.run(lambda tx, name=name: players_cmd.register(tx, sim.rt, SCOPE, name))
    return sim


@pytest.fixture
def sim() -> Sim:
    return make_sim()


def test_opening_a_crate_deposits_what_it_drew(sim: Sim) -> None:
    crate = sim.grant("ann", CrateEntry("chest", 2))
    opened = sim.open("ann", crate.id)
    # Two chests of two rolls each: four draws of 50 coins and a sword, merged.
    assert opened.contents.entries == (attrs.evolve(COINS, amount=200), attrs.evolve(SWORD, amount=4))
    assert sim.holdings("ann") == {"coins": 200, "sword": 4}


def test_the_crate_grant_is_claimed_by_the_client(sim: Sim) -> None:
    crate = sim.grant("ann", CrateEntry("chest", 1))
    opened = sim.open("ann", crate.id)
    assert opened.crate.status is GrantStatus.CLAIMED and opened.crate.acked_by is AckedBy.CLIENT
    assert opened.crate.claimed_at == T0
    assert sim.run(lambda tx: tx.grants.get("gam_1", crate.id)) == opened.crate


def test_the_contents_grant_is_a_claimed_reward_pointing_at_its_crate(sim: Sim) -> None:
    crate = sim.grant("ann", CrateEntry("chest", 1))
    box = sim.open("ann", crate.id).contents
    assert (box.kind, box.status, box.source_kind, box.source_ref_id, box.acked_by) == (
        GrantKind.REWARD,
        GrantStatus.CLAIMED,
        "crate",
        crate.id,
        AckedBy.CLIENT,
    )
    assert box.player_id == crate.player_id
    assert sim.run(lambda tx: tx.grants.get("gam_1", box.id)) == box


def test_an_open_fires_its_webhooks_in_order(sim: Sim) -> None:
    crate = sim.grant("ann", CrateEntry("chest", 1))
    before = len(sim.store.outbox)
    opened = sim.open("ann", crate.id)
    fired = sim.store.outbox[before:]
    assert [e.kind for e in fired] == [
        "grant.claimed",
        "grant.created",
        "wallet.changed",
        "inventory.changed",
        "grant.claimed",
        "crate.opened",
    ]
    assert fired[0].data["grantId"] == crate.id
    assert fired[1].data["grantId"] == fired[4].data["grantId"] == opened.contents.id
    assert fired[-1].data["contentsGrantId"] == opened.contents.id
    assert fired[-1].data["contents"] == [
        {"type": "currency", "key": "coins", "amount": 100},
        {"type": "item", "key": "sword", "amount": 2},
    ]


def test_a_studio_managed_game_records_the_contents_without_balance_webhooks() -> None:
    sim = make_sim(Economy.STUDIO)
    crate = sim.grant("ann", CrateEntry("chest", 1))
    before = len(sim.store.outbox)
    sim.open("ann", crate.id)
    assert [e.kind for e in sim.store.outbox[before:]] == [
        "grant.claimed",
        "grant.created",
        "grant.claimed",
        "crate.opened",
    ]
    assert sim.holdings("ann") == {"coins": 100, "sword": 2}  # the platform's record of what it granted


def test_the_same_seed_opens_the_same_contents() -> None:
    def opened(seed: int) -> tuple[Entry | CrateEntry, ...]:
        s = make_sim(seed=seed)
        return s.open("ann", s.grant("ann", CrateEntry("loot", 5)).id).contents.entries

    assert opened(11) == opened(11)


def test_a_crate_grant_cannot_be_claimed_like_a_reward(sim: Sim) -> None:
    crate = sim.grant("ann", CrateEntry("chest", 1))
    before = sim.snapshot()
    with pytest.raises(LivecoreError) as refused:
        sim.run(lambda tx: grants_cmd.claim(tx, sim.rt, SCOPE, sim.player("ann"), crate.id))
    assert refused.value.code is CRATE_MUST_BE_OPENED
    assert sim.snapshot() == before


def _refused(sim: Sim, external_id: str, grant_id: str) -> Code:
    before = sim.snapshot()
    with pytest.raises(LivecoreError) as refused:
        sim.open(external_id, grant_id)
    assert sim.snapshot() == before, "a refused open changed the store"
    return refused.value.code


def test_opening_an_unknown_grant_is_grant_not_found(sim: Sim) -> None:
    assert _refused(sim, "ann", "0193e0c0-0000-7000-8000-000000000000") is GRANT_NOT_FOUND


def test_opening_another_players_crate_is_grant_not_found(sim: Sim) -> None:
    crate = sim.grant("bob", CrateEntry("chest", 1))
    assert _refused(sim, "ann", crate.id) is GRANT_NOT_FOUND


def test_opening_a_reward_grant_is_not_a_crate(sim: Sim) -> None:
    reward = sim.grant("ann", COINS)
    assert _refused(sim, "ann", reward.id) is NOT_A_CRATE


def test_opening_a_crate_twice_is_grant_already_claimed(sim: Sim) -> None:
    crate = sim.grant("ann", CrateEntry("chest", 1))
    sim.open("ann", crate.id)
    assert _refused(sim, "ann", crate.id) is GRANT_ALREADY_CLAIMED
    assert sim.holdings("ann") == {"coins": 100, "sword": 2}


def test_opening_an_expired_crate_is_grant_expired(sim: Sim) -> None:
    crate = sim.grant("ann", CrateEntry("chest", 1), expires_at=T0 + timedelta(minutes=5))
    sim.clock.advance(300)
    assert _refused(sim, "ann", crate.id) is GRANT_EXPIRED


def test_opening_a_crate_removed_from_the_manifest_is_resource_not_found(sim: Sim) -> None:
    crate = sim.grant("ann", CrateEntry("loot", 1))
    g = sim.store.games["gam_1"]
    sim.store.games["gam_1"] = attrs.evolve(
        g,
        settings=attrs.evolve(
            g.settings.with_sections({CRATE_SETTINGS: {"chest": CHEST}}),
        ),
    )
    assert _refused(sim, "ann", crate.id) is RESOURCE_NOT_FOUND
    # Declared again, the pending crate opens.
    sim.store.games["gam_1"] = g
    assert sim.open("ann", crate.id).crate.status is GrantStatus.CLAIMED


def test_a_banned_player_cannot_open_a_crate(sim: Sim) -> None:
    crate = sim.grant("ann", CrateEntry("chest", 1))
    sim.run(lambda tx: ban_player(tx, sim.rt, SCOPE, sim.player("ann"), "cheating"))
    assert _refused(sim, "ann", crate.id) is PLAYER_BANNED
