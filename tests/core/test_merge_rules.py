"""Merge and erasure rules without a server: the pure rules of ``livecore.merge`` / ``livecore.erasure``
and the commands on the in-memory store, including the property that a merge preserves the total of
every resource across the two players."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.commands.economy import change
from livecore.commands.erasure import erase
from livecore.commands.merge import merge
from livecore.commands.moderation import ban_player
from livecore.commands.players import first_contact, load_game, register
from livecore.economy import Holding, Reason, resource
from livecore.erasure import ErasureReason, ErasureStatus
from livecore.errors import ErrorCode, LivecoreError
from livecore.friends import Block
from livecore.games import Economy, Game, GameSettings, Resource, ResourceType, Studio
from livecore.hashing import KeyedHasher
from livecore.memory import MemoryStore
from livecore.merge import (
    GraphFacts,
    MergeRecord,
    MergeStatus,
    fold_holdings,
    friends_to_move,
    replay_of,
    tie_moves,
)
from livecore.players import Lifecycle
from livecore.rand import SeededRandomSource
from livecore.scope import Actor, Environment, Scope
from tests.budget import examples

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
SCOPE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST, actor=Actor("api_key", "lc_test_x"))
RESOURCES = {
    "coins": Resource("coins", ResourceType.CURRENCY),
    "gems": Resource("gems", ResourceType.CURRENCY),
    "sword": Resource("sword", ResourceType.ITEM, parameters={"level": 1}),
}


def world() -> tuple[MemoryStore, Runtime]:
    store = MemoryStore()
    settings_ = GameSettings(economy=Economy.PLATFORM, resources=RESOURCES)
    store.add_game(
        Studio(id="std_1", key="s"),
        Game(id="gam_1", studio_id="std_1", key="g", name="G", settings=settings_),
    )
    rt = Runtime(clock=ManualClock(T0), rng=SeededRandomSource(3), hasher=KeyedHasher(b"m" * 32))
    return store, rt


def code(fn: Any) -> ErrorCode | None:
    try:
        fn()
    except LivecoreError as exc:
        return exc.code
    return None


# --- pure rules -------------------------------------------------------------------------------------


def test_fold_holdings_sums_balances_and_the_target_parameters_win() -> None:
    source = {"coins": Holding("coins", 5), "sword": Holding("sword", 1, {"level": 3, "color": "red"})}
    target = {"coins": Holding("coins", 7), "sword": Holding("sword", 2, {"level": 9})}
    folded = fold_holdings(source, {**target, "gems": Holding("gems", 1)})
    assert folded["coins"].amount == 12 and folded["gems"].amount == 1
    assert folded["sword"] == Holding("sword", 3, {"level": 9, "color": "red"})


def test_friends_move_except_self_target_duplicates_and_blocked() -> None:
    facts = GraphFacts(
        source_friends={"to": T0, "shared": T0, "blocked": T0, "fresh": T0},
        target_friends={"shared"},
        target_ties={"shared", "blocked", "pending"},
        blocked_either_way_by_target={"blocked"},
    )
    assert set(friends_to_move("from", "to", facts)) == {"fresh"}
    assert not tie_moves("to", "from", "to", facts)
    assert not tie_moves("pending", "from", "to", facts)
    assert tie_moves("stranger", "from", "to", facts)


def test_a_replay_is_a_missing_source_remembered_as_merged_into_this_target() -> None:
    record = MergeRecord("gam_1", Environment.TEST, "old", "plr_old", "plr_to", "__merged_x__", T0)
    target = first_contact_player("plr_to")
    assert replay_of(record, target)
    assert not replay_of(record, first_contact_player("plr_other"))
    assert not replay_of(None, target)


def first_contact_player(pid: str) -> Any:
    store, rt = world()
    with store.transaction() as tx:
        return attrs.evolve(first_contact(tx, rt, SCOPE, pid), id=pid)


# --- the command on the memory store ---------------------------------------------------------------


def setup_pair(store: MemoryStore, rt: Runtime) -> None:
    with store.transaction() as tx:
        for name in ("a", "b", "c", "d"):
            first_contact(tx, rt, SCOPE, name)


def pid(store: MemoryStore, name: str) -> str:
    return store.players[("gam_1", name)].id


def test_merge_refusals_in_order() -> None:
    store, rt = world()
    setup_pair(store, rt)
    with store.transaction() as tx:
        assert code(lambda: merge(tx, rt, SCOPE, "a", "a")) is ErrorCode.INVALID_MERGE
        assert code(lambda: merge(tx, rt, SCOPE, "ghost", "a")) is ErrorCode.PLAYER_NOT_FOUND
        assert code(lambda: merge(tx, rt, SCOPE, "a", "ghost")) is ErrorCode.PLAYER_NOT_FOUND
        ban_player(tx, rt, SCOPE, tx.players.get("gam_1", "d"), "x")
        assert code(lambda: merge(tx, rt, SCOPE, "a", "d")) is ErrorCode.INVALID_MERGE
    with store.transaction() as tx:
        assert merge(tx, rt, SCOPE, "a", "b").status is MergeStatus.MERGED
        assert merge(tx, rt, SCOPE, "a", "b").status is MergeStatus.NO_OP_ALREADY_MERGED
        assert code(lambda: merge(tx, rt, SCOPE, "a", "c")) is ErrorCode.INVALID_MERGE


def test_merge_never_makes_a_self_friendship_and_keeps_one_friendship_per_pair() -> None:
    store, rt = world()
    setup_pair(store, rt)
    a, b, c = pid(store, "a"), pid(store, "b"), pid(store, "c")
    with store.transaction() as tx:
        tx.friends.insert_friendship(a, b, T0)
        tx.friends.insert_friendship(a, c, T0)
        tx.friends.insert_friendship(b, c, T0)
        tx.friends.insert_block(Block(a, pid(store, "d"), T0))
        merge(tx, rt, SCOPE, "a", "b")
        assert tx.friends.friend_ids(b) == {c}
        assert tx.friends.friend_ids(c) == {b}
        assert tx.friends.friend_ids(a) == set()
        assert tx.friends.get_block(b, pid(store, "d")) is not None
    source = next(p for p in store.players.values() if p.id == a)
    assert source.lifecycle is Lifecycle.MERGED and source.external_id.startswith("__merged_")
    assert source.merged_into == b


amounts = st.dictionaries(st.sampled_from(sorted(RESOURCES)), st.integers(1, 1_000), max_size=3)


@settings(max_examples=examples(60), deadline=None)
@given(source=st.lists(amounts, max_size=4), target=st.lists(amounts, max_size=4), spend=st.integers(0, 3))
def test_a_merge_preserves_the_total_of_every_resource_across_the_two_players(
    source: list[dict[str, int]], target: list[dict[str, int]], spend: int
) -> None:
    store, rt = world()
    setup_pair(store, rt)
    with store.transaction() as tx:
        game = load_game(tx, SCOPE)
        for name, credits in (("a", source), ("b", target)):
            player = tx.players.get("gam_1", name)
            for batch in credits:
                for key, n in batch.items():
                    change(tx, rt, SCOPE, game, player, resource(game, key), n, Reason.SERVER_CREDIT)
            held = tx.ledger.holding(player.id, "coins").amount
            if held:  # some spend too, so ledgers carry debits
                change(
                    tx,
                    rt,
                    SCOPE,
                    game,
                    player,
                    resource(game, "coins"),
                    -min(spend, held),
                    Reason.SERVER_DEBIT,
                )
        a, b = pid(store, "a"), pid(store, "b")
        before = {k: tx.ledger.holding(a, k).amount + tx.ledger.holding(b, k).amount for k in RESOURCES}
        merge(tx, rt, SCOPE, "a", "b")
        for key in RESOURCES:
            assert tx.ledger.holding(b, key).amount == before[key]
            assert tx.ledger.holding(a, key).amount == 0
            assert sum(e.delta for e in tx.ledger.entries(b, key)) == before[key]
            assert tx.ledger.entries(a, key) == []


# --- erasure -----------------------------------------------------------------------------------------


def test_erasure_fires_deleted_first_then_anonymizes_and_is_idempotent() -> None:
    store, rt = world()
    with store.transaction() as tx:
        secret = register(tx, rt, SCOPE, "eve").secret
        other = first_contact(tx, rt, SCOPE, "bob")
        eve = tx.players.get("gam_1", "eve")
        tx.friends.insert_friendship(eve.id, other.id, T0)
        change(tx, rt, SCOPE, load_game(tx, SCOPE), eve, RESOURCES["coins"], 5, Reason.SERVER_CREDIT)
    assert secret
    events_before = len(store.outbox)
    with store.transaction() as tx:
        done = erase(tx, rt, SCOPE, "eve", ErasureReason.GDPR_ERASURE)
    assert done.status is ErasureStatus.DELETED and done.placeholder
    deleted = store.outbox[events_before]
    assert deleted.kind == "player.deleted" and deleted.data["externalPlayerId"] == "eve"
    kept = store.players[("gam_1", done.placeholder)]
    assert ("gam_1", "eve") not in store.players
    assert kept.lifecycle is Lifecycle.DELETED and kept.secret_hash is None and kept.display is None
    assert kept.country is None and kept.context == {}
    with store.transaction() as tx:
        assert tx.friends.friend_ids(other.id) == set()
        assert tx.ledger.holding(kept.id, "coins").amount == 5  # financial ledgers are retained
        assert erase(tx, rt, SCOPE, "eve", ErasureReason.TEST).status is ErasureStatus.NO_OP_ALREADY_DELETED
        assert erase(tx, rt, SCOPE, "never", ErasureReason.TEST).status is ErasureStatus.NO_OP_NOT_FOUND
    assert all("eve" not in r.external_id_hash for r in store.erasures.values())


@pytest.mark.parametrize("reason", list(ErasureReason))
def test_every_erasure_reason_is_carried_by_the_webhook(reason: ErasureReason) -> None:
    store, rt = world()
    with store.transaction() as tx:
        first_contact(tx, rt, SCOPE, "x")
        erase(tx, rt, SCOPE, "x", reason)
    assert store.outbox[-1].data["reason"] == reason.value
