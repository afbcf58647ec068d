"""Merge and erasure rules without a server: the pure rules of ``livecore.player_tools.merge`` /
``livecore.player_tools.erasure``
and the commands on the in-memory store, including the property that a merge preserves the total of
every resource across the two players."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.economy.commands import change
from livecore.economy.rules import Holding, Reason, fold_holdings, resource
from livecore.errors import Code, LivecoreError
from livecore.friends.merge import GraphFacts, friends_to_move, tie_moves
from livecore.friends.rules import Block
from livecore.games import Economy, Entry, Game, GameSettings, Order, RankBand, Resource, ResourceType, Studio
from livecore.hashing import KeyedHasher
from livecore.live_events.attempts import Attempt, AttemptStatus
from livecore.live_events.boards import Board, BoardEntry, BoardStatus, entry_fields, sort_key
from livecore.live_events.commands.boards import read_board
from livecore.live_events.commands.live_events import close_window, record_progress, start
from livecore.live_events.settings import EVENT_SETTINGS, EventSettings
from livecore.memory import MemoryStore
from livecore.player_tools.commands.erasure import erase
from livecore.player_tools.commands.merge import merge
from livecore.player_tools.commands.moderation import ban_player
from livecore.player_tools.erasure import ErasureReason, ErasureStatus
from livecore.player_tools.errors import INVALID_MERGE
from livecore.player_tools.memory import PlayerToolTables
from livecore.player_tools.merge import MergeRecord, MergeStatus, replay_of
from livecore.players.commands import first_contact, load_game, register
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.memory import PlayerTables
from livecore.players.rules import RETIRED_NAME, Lifecycle
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


def code(fn: Any) -> Code | None:
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
    return store.tables_of(PlayerTables).players[("gam_1", name)].id


def test_merge_refusals_in_order() -> None:
    store, rt = world()
    setup_pair(store, rt)
    with store.transaction() as tx:
        assert code(lambda: merge(tx, rt, SCOPE, "a", "a")) is INVALID_MERGE
        assert code(lambda: merge(tx, rt, SCOPE, "ghost", "a")) is PLAYER_NOT_FOUND
        assert code(lambda: merge(tx, rt, SCOPE, "a", "ghost")) is PLAYER_NOT_FOUND
        ban_player(tx, rt, SCOPE, tx.players.get("gam_1", "d"), "x")
        assert code(lambda: merge(tx, rt, SCOPE, "a", "d")) is INVALID_MERGE
    with store.transaction() as tx:
        assert merge(tx, rt, SCOPE, "a", "b").status is MergeStatus.MERGED
        assert merge(tx, rt, SCOPE, "a", "b").status is MergeStatus.NO_OP_ALREADY_MERGED
        assert code(lambda: merge(tx, rt, SCOPE, "a", "c")) is INVALID_MERGE


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
    source = next(p for p in store.tables_of(PlayerTables).players.values() if p.id == a)
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
    kept = store.tables_of(PlayerTables).players[("gam_1", done.placeholder)]
    assert ("gam_1", "eve") not in store.tables_of(PlayerTables).players
    assert kept.lifecycle is Lifecycle.DELETED and kept.secret_hash is None and kept.display is None
    assert kept.country is None and kept.context == {}
    with store.transaction() as tx:
        assert tx.friends.friend_ids(other.id) == set()
        assert tx.ledger.holding(kept.id, "coins").amount == 5  # financial ledgers are retained
        assert erase(tx, rt, SCOPE, "eve", ErasureReason.TEST).status is ErasureStatus.NO_OP_ALREADY_DELETED
        assert erase(tx, rt, SCOPE, "never", ErasureReason.TEST).status is ErasureStatus.NO_OP_NOT_FOUND
    assert all("eve" not in r.external_id_hash for r in store.tables_of(PlayerToolTables).erasures.values())


@pytest.mark.parametrize("reason", list(ErasureReason))
def test_every_erasure_reason_is_carried_by_the_webhook(reason: ErasureReason) -> None:
    store, rt = world()
    with store.transaction() as tx:
        first_contact(tx, rt, SCOPE, "x")
        erase(tx, rt, SCOPE, "x", reason)
    assert store.outbox[-1].data["reason"] == reason.value


# --- attempts and event boards -------------------------------------------------------------------------

SPRINT = EventSettings(
    key="sprint",
    name="Sprint",
    starts_at=T0 - timedelta(hours=1),
    window_seconds=86_400,
    attempt_seconds=600,
    score_metric="score",
    rank_rewards=(RankBand(1, 1, (Entry(ResourceType.CURRENCY, "coins", 5),)),),
)
LAP = attrs.evolve(SPRINT, key="lap", name="Lap", score_metric="lap_ms", order=Order.ASC)


def event_world() -> tuple[MemoryStore, Runtime, ManualClock]:
    store = MemoryStore()
    settings_ = GameSettings(
        economy=Economy.PLATFORM,
        resources=RESOURCES,
        sections={EVENT_SETTINGS: {"sprint": SPRINT, "lap": LAP}},
    )
    store.add_game(
        Studio(id="std_1", key="s"),
        Game(id="gam_1", studio_id="std_1", key="g", name="G", settings=settings_),
    )
    clock = ManualClock(T0)
    rt = Runtime(clock=clock, rng=SeededRandomSource(3), hasher=KeyedHasher(b"m" * 32))
    with store.transaction() as tx:
        for name in ("a", "b", "c"):
            first_contact(tx, rt, SCOPE, name)
    return store, rt, clock


def play(
    store: MemoryStore, rt: Runtime, name: str, event: EventSettings, score: float, *, complete: bool = True
) -> Attempt:
    """One attempt of ``name`` at the event's open window, reaching ``score``."""
    with store.transaction() as tx:
        player = tx.players.get("gam_1", name)
        assert player is not None
        attempt = start(tx, rt, SCOPE, player, event.key, None)
        done, _ = record_progress(
            tx, rt, SCOPE, player, event.key, attempt.id, {event.score_metric: score}, complete
        )
    return done


READ_RT = Runtime(clock=ManualClock(T0), rng=SeededRandomSource(3), hasher=KeyedHasher(b"m" * 32))


def standings(store: MemoryStore, board_id: str) -> list[tuple[str | None, float]]:
    with store.transaction() as tx:
        page = read_board(tx, READ_RT, SCOPE, board_id)
    return [(s.player.external_id, s.entry.score) for s in page.standings]


def test_a_merge_moves_every_attempt_to_the_target_with_its_external_id() -> None:
    store, rt, clock = event_world()
    first = play(store, rt, "a", SPRINT, 10)
    clock.advance(60)
    open_one = play(store, rt, "a", SPRINT, 20, complete=False)
    clock.advance(60)
    play(store, rt, "b", SPRINT, 5)
    a, b = pid(store, "a"), pid(store, "b")
    with store.transaction() as tx:
        merge(tx, rt, SCOPE, "a", "b")
        moved = tx.attempts.recent(b, 10)
        assert tx.attempts.recent(a, 10) == []
        assert {m.id for m in moved} >= {first.id, open_one.id} and len(moved) == 3
        assert {(m.player_id, m.external_player_id) for m in moved} == {(b, "b")}
        assert tx.attempts.get("gam_1", open_one.id) == attrs.evolve(
            open_one, player_id=b, external_player_id="b"
        )
        counts = tx.attempts.counts(b)
    assert (counts[AttemptStatus.COMPLETED], counts[AttemptStatus.IN_PROGRESS]) == (2, 1)


def test_a_merge_keeps_the_better_entry_of_the_two_on_each_board() -> None:
    store, rt, _ = event_world()
    better = play(store, rt, "a", SPRINT, 80)  # the source's entry is better here
    play(store, rt, "b", SPRINT, 50)
    play(store, rt, "c", SPRINT, 60)
    play(store, rt, "a", LAP, 31_000)  # and worse here (lower is better)
    kept = play(store, rt, "b", LAP, 29_500)
    a, b = pid(store, "a"), pid(store, "b")
    with store.transaction() as tx:
        merge(tx, rt, SCOPE, "a", "b")
        assert tx.boards.entries_of(a) == []
        sprint_entry = tx.boards.entry(better.board_id, b)
        lap_entry = tx.boards.entry(kept.board_id, b)
    assert sprint_entry is not None and lap_entry is not None
    assert (sprint_entry.score, sprint_entry.attempt_id, sprint_entry.reached_at) == (80, better.id, T0)
    assert (lap_entry.score, lap_entry.attempt_id) == (29_500, kept.id)
    assert standings(store, better.board_id) == [("b", 80), ("c", 60)]
    assert standings(store, kept.board_id) == [("b", 29_500)]


def test_a_merge_moves_an_entry_the_target_does_not_have() -> None:
    store, rt, _ = event_world()
    only = play(store, rt, "a", SPRINT, 7)
    with store.transaction() as tx:
        merge(tx, rt, SCOPE, "a", "b")
    assert standings(store, only.board_id) == [("b", 7)]


@pytest.mark.parametrize("source_first", [True, False])
def test_on_equal_scores_the_merge_keeps_the_entry_reached_first(source_first: bool) -> None:
    store, rt, clock = event_world()
    first, second = ("a", "b") if source_first else ("b", "a")
    earlier = play(store, rt, first, SPRINT, 40)
    clock.advance(30)
    play(store, rt, second, SPRINT, 40)
    with store.transaction() as tx:
        merge(tx, rt, SCOPE, "a", "b")
        entry = tx.boards.entry(earlier.board_id, pid(store, "b"))
    assert entry is not None and (entry.attempt_id, entry.reached_at) == (earlier.id, T0)


def test_a_merge_moves_entries_of_a_finalized_board() -> None:
    store, rt, clock = event_world()
    gone = play(store, rt, "a", SPRINT, 90)
    play(store, rt, "b", SPRINT, 10)
    clock.advance(86_400)
    with store.transaction() as tx:
        for window in tx.windows.due_to_close(clock.now(), 10):
            close_window(tx, rt, window.id, window.game_id)
        merge(tx, rt, SCOPE, "a", "b")
        board = tx.boards.get("gam_1", gone.board_id)
        grants = tx.grants.recent(pid(store, "b"), 10)
    assert board is not None and board.status is BoardStatus.FINALIZED
    assert standings(store, gone.board_id) == [("b", 90)]
    # The source's rank-1 reward, paid at the close, moved with its grants.
    assert [(g.source_kind, g.source_ref_id) for g in grants if g.source_kind == "event_rank"] == [
        ("event_rank", gone.board_id)
    ]


@settings(max_examples=examples(60), deadline=None)
@given(
    order=st.sampled_from(list(Order)),
    source=st.lists(st.tuples(st.integers(0, 5), st.integers(-3, 3), st.integers(0, 3)), max_size=4),
    target=st.lists(st.tuples(st.integers(0, 5), st.integers(-3, 3), st.integers(0, 3)), max_size=4),
)
def test_after_a_merge_each_board_holds_the_better_of_the_two_entries(
    order: Order, source: list[tuple[int, int, int]], target: list[tuple[int, int, int]]
) -> None:
    """(board, score, seconds after T0) entries for each player, on boards of either order: the target
    ends with, per board, whichever entry comes first in board order, and the source with none."""
    store, rt, _ = event_world()
    a, b = pid(store, "a"), pid(store, "b")
    boards = [
        Board(f"lb_{i}", "gam_1", Environment.TEST, "sprint", "ev_1", "win_1", order, T0) for i in range(4)
    ]
    entries: dict[tuple[str, str], BoardEntry] = {}
    for player, rows in ((a, source), (b, target)):
        for score, seconds, index in rows:
            at = T0 + timedelta(seconds=seconds)
            entries[boards[index].id, player] = BoardEntry(
                boards[index].id, player, score, at, f"att_{player}"
            )
    with store.transaction() as tx:
        for board in boards:
            tx.boards.insert(board)
        for entry in entries.values():
            tx.boards.put_entry(tx.boards.get("gam_1", entry.board_id), entry)  # type: ignore[arg-type]
        merge(tx, rt, SCOPE, "a", "b")
        for board in boards:
            mine, theirs = entries.get((board.id, a)), entries.get((board.id, b))
            candidates = [e for e in (mine, theirs) if e is not None]
            got = tx.boards.entry(board.id, b)
            if not candidates:
                assert got is None
                continue
            # Board order, as the target's; the same score reached at the same time: the target's stays.
            best = min(reversed(candidates), key=lambda e: sort_key(order, attrs.evolve(e, player_id=b)))
            assert got is not None and (got.score, got.reached_at, got.attempt_id) == (
                best.score,
                best.reached_at,
                best.attempt_id,
            )
            assert tx.boards.entry(board.id, a) is None
            assert tx.boards.size(board.id) == 1


def test_erasure_keeps_attempts_and_board_entries_under_the_anonymized_row() -> None:
    """An erased player's attempts stay, naming its placeholder; its board entries stay in place and show
    the anonymized identity, as every read of a board shows identities as they are now."""
    store, rt, clock = event_world()
    mine = play(store, rt, "a", SPRINT, 70)
    play(store, rt, "b", SPRINT, 50)
    with store.transaction() as tx:
        placeholder = erase(tx, rt, SCOPE, "a", ErasureReason.GDPR_ERASURE).placeholder
        (kept,) = tx.attempts.recent(mine.player_id, 10)
        page = read_board(tx, rt, SCOPE, mine.board_id)
    clock.advance(86_400)
    with store.transaction() as tx:
        for window in tx.windows.due_to_close(clock.now(), 10):
            close_window(tx, rt, window.id, window.game_id)
        (rank_grant,) = tx.grants.recent(mine.player_id, 10)
    # The rank it holds is paid at the close, to the anonymous row, like any grant it keeps.
    assert (rank_grant.source_kind, rank_grant.external_player_id) == ("event_rank", placeholder)
    assert placeholder is not None and placeholder.startswith("__deleted_")
    assert kept == attrs.evolve(mine, external_player_id=placeholder)
    top = page.standings[0]
    assert (top.rank, top.entry.score, top.entry.attempt_id) == (1, 70, mine.id)
    fields = entry_fields(top)
    assert fields["external_player_id"] == placeholder
    assert (fields["name"], fields["avatar"], fields["country"]) == (RETIRED_NAME, None, None)
    assert (fields["anonymized_name"], fields["anonymized_avatar"]) == (RETIRED_NAME, None)
