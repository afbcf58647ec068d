"""Reads ahead of a commit group on PostgreSQL (livecore_server.storage.postgres_prefetch): what a queued
write declares is read for the whole group in one round trip, and a prefetched row is used only while no
write of the group has changed it."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from livecore.clock import ManualClock, to_millis
from livecore.commands import Runtime
from livecore.commands.reads import Reads
from livecore.crates.reads import CrateOpenReads
from livecore.economy.commands import server_adjust
from livecore.errors import LivecoreError
from livecore.friends import commands as friends_cmd
from livecore.games import Game, ResourceType
from livecore.gifts import commands as gifts_cmd
from livecore.gifts.reads import GiftSendReads
from livecore.gifts.rules import Gift, GiftStatus, SenderStats, SendRequest, stats_window
from livecore.gifts.settings import GIFTING_SETTINGS
from livecore.guilds.reads import GuildDonateReads
from livecore.hashing import KeyedHasher
from livecore.idempotency import StoredResponse
from livecore.live_events.reads import ProgressReads
from livecore.players.commands import first_contact
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore_server.crates import read_ahead as crate_reads
from livecore_server.gifts import read_ahead as gift_reads
from livecore_server.gifts.prefetched import GIFT_KEYS, STATS, Stats, gift_written, stats_for
from livecore_server.guilds import read_ahead as guild_reads
from livecore_server.live_events import read_ahead as event_reads
from livecore_server.manifest import parse_manifest
from livecore_server.players import read_ahead as player_reads
from livecore_server.registry import storage
from livecore_server.storage import postgres_prefetch
from livecore_server.storage.postgres import PostgresStore
from livecore_server.storage.postgres_transaction import PostgresTransaction, _numbered
from livecore_server.storage.read_ahead import Prefetched
from tests.budget import examples
from tests.kept import keep_every_event_in
from tests.postgres_support import drop_store, new_store, require_postgres, scratch_store

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
DAY = datetime(2026, 3, 2, tzinfo=UTC)
# The statements a group reads ahead with, by name: every write's (postgres_prefetch, its players'
# livecore_server/players/read_ahead.py), a gift send's
# (livecore_server/gifts/read_ahead.py), a guild donation's (livecore_server/guilds/read_ahead.py), a crate
# open's (livecore_server/crates/read_ahead.py; its holdings are a send's), a progress write's
# (livecore_server/live_events/read_ahead.py).
READS_AHEAD = {
    "PLAYERS": player_reads.PLAYERS,
    "IDEMPOTENCY": postgres_prefetch.IDEMPOTENCY,
    "GIFT_KEYS": gift_reads.KEYS,
    "PAIRS": gift_reads.PAIRS,
    "HOLDINGS": gift_reads.COSTS,
    "DONATIONS": guild_reads.DONATIONS,
    "CRATES": crate_reads.CRATES,
    "PROGRESS": event_reads.PROGRESS,
}


def _stats(last: datetime | None, today: int = 3) -> Stats:
    since = T0 - timedelta(hours=1)
    return Stats(to_millis(since), to_millis(DAY), None if last is None else to_millis(last), today)


def test_prefetched_stats_answer_the_same_window() -> None:
    last = T0 - timedelta(minutes=30)
    assert stats_for(_stats(last), T0 - timedelta(hours=1), DAY) == SenderStats(last, 3)


def test_a_later_window_keeps_the_latest_gift_only_while_it_is_inside() -> None:
    last = T0 - timedelta(minutes=30)
    inside = T0 - timedelta(minutes=31)
    assert stats_for(_stats(last), inside, DAY) == SenderStats(last, 3)
    # The window moved past the latest gift: no gift holds the friend on cooldown any more.
    assert stats_for(_stats(last), last, DAY) == SenderStats(None, 3)
    assert stats_for(_stats(None), inside, DAY) == SenderStats(None, 3)


def test_an_earlier_window_or_another_day_is_read_again() -> None:
    last = T0 - timedelta(minutes=30)
    assert stats_for(_stats(last), T0 - timedelta(hours=2), DAY) is None
    assert stats_for(_stats(last), T0 - timedelta(minutes=50), DAY + timedelta(days=1)) is None
    assert stats_for(_stats(last), T0 - timedelta(minutes=50), None) is None


def test_without_a_counted_day_nothing_is_counted() -> None:
    stats = Stats(to_millis(T0 - timedelta(hours=1)), None, None, 7)
    assert stats_for(stats, T0 - timedelta(hours=1), None) == SenderStats(None, 0)


def _gift(sender: str, key: str) -> Gift:
    return Gift(
        id="g1",
        grant_id="gr1",
        game_id="gam",
        sender_id=sender,
        sender_external_id=sender,
        recipient_id="r",
        recipient_external_id="r",
        type=ResourceType.CURRENCY,
        resource_key="coins",
        amount=1,
        message=None,
        status=GiftStatus.PENDING,
        sent_at=T0,
        expires_at=None,
        deducted_from_sender=False,
        idempotency_key=key,
    )


def test_a_gift_forgets_its_senders_statistics_and_keys_only() -> None:
    ahead = Prefetched(
        found={
            GIFT_KEYS: {("a", "k"): None, ("b", "k"): None},
            STATS: {("a", "r"): _stats(None), ("a", "s"): _stats(None), ("b", "r"): _stats(None)},
        }
    )
    gift_written(ahead, _gift("a", "k"))
    assert list(ahead.of(GIFT_KEYS)) == [("b", "k")]
    assert list(ahead.of(STATS)) == [("b", "r")]


# --- On PostgreSQL, through the app ------------------------------------------------------------------


@pytest.fixture
def backend() -> str:
    return "postgres"


PG_MANIFEST = """
studio = "pf"
[games.g]
name = "G"
economy = "platform"
[games.g.gifting]
enabled = true
cooldown_seconds = 60
daily_send_limit = 4
[games.g.resources.coins]
type = "currency"
giftable = true
max_per_gift = 50
costs_sender = true
[games.g.resources.gems]
type = "currency"
giftable = true
max_per_gift = 5
"""
GID = "gam_pf"
NAMES = ("a", "b", "c", "zed")  # zed does not exist until an op makes it
PICKED = st.sampled_from(("a", "b", "a", "b", "c", "zed"))  # mostly the two friends
KEYS = ("k1", "k2")
SCOPE_KEY = "gam_pf:test:gifts.send"


class _Rollback(Exception):
    pass


@attrs.frozen
class _World:
    store: PostgresStore
    rt: Runtime
    scope: Scope
    game: Game


@pytest.fixture
def pf() -> Iterator[_World]:
    """A game with players a, b and c, a and b friends, a and b holding coins (committed once; every
    example of the property runs in a transaction that is rolled back)."""
    require_postgres()
    manifest = parse_manifest(PG_MANIFEST)
    game = Game(id=GID, studio_id="std_pf", key="g", name="G", settings=manifest.games["g"].settings())
    store = new_store()
    try:
        store.put_game(game)
        keep_every_event_in(store)  # the events written, held back or not, are among the rows compared
        rt = Runtime(clock=ManualClock(T0), rng=SeededRandomSource(5), hasher=KeyedHasher(b"k" * 32))
        scope = Scope(studio_id="std_pf", game_id=GID, env=Environment.TEST)
        world = _World(store, rt, scope, game)

        def seed(tx: Any) -> None:
            for name in NAMES[:3]:
                first_contact(tx, rt, scope, name)
            a, b = tx.players.get(GID, "a"), tx.players.get(GID, "b")
            friends_cmd.add(tx, rt, scope, game, a, b)
            friends_cmd.add(tx, rt, scope, game, b, a)
            # A gift a -> b at the start: a's statistics read ahead hold a latest gift, which later
            # windows drop once the clock has moved past it.
            request = SendRequest(ResourceType.CURRENCY, "gems", 1)
            gifts_cmd.send(tx, rt, scope, game, a, b, request)
            for p in (a, b):
                server_adjust(
                    tx, rt, scope, game, p, ResourceType.CURRENCY, "coins", 5,
                    credit=True, note=None, source_ref_id=None,
                )  # fmt: skip

        store.run(seed)
        yield world
    finally:
        drop_store(store)


def _declared(w: _World) -> Reads:
    since, day = stats_window(w.game.settings.of(GIFTING_SETTINGS), w.rt.clock.now())
    return Reads(
        players=tuple((GID, n) for n in NAMES),
        idempotency=tuple((SCOPE_KEY, k) for k in KEYS),
        areas=tuple(
            GiftSendReads((GID, s), (GID, r), "k1", "coins", since, day)
            for s in NAMES
            for r in NAMES
            if s != r
        ),
    )


def _all_reads_agree(tx: PostgresTransaction, w: _World) -> None:
    """Every read the prefetch may answer, through the transaction and straight from the database (the
    same ports with nothing read ahead)."""
    ahead = _every_read(tx, w)
    kept, tx.prefetched = tx.prefetched, None
    try:
        assert ahead == _every_read(tx, w)
    finally:
        tx.prefetched = kept


def _every_read(tx: PostgresTransaction, w: _World) -> dict[tuple[Any, ...], Any]:
    since, day = stats_window(w.game.settings.of(GIFTING_SETTINGS), w.rt.clock.now())
    read: dict[tuple[Any, ...], Any] = {}
    ids = []
    for name in NAMES:
        player = read["player", name] = tx.players.get(GID, name)
        if player is not None:
            ids.append(player.id)
    for key in KEYS:
        read["idempotency", key] = tx.idempotency.get(SCOPE_KEY, key)
    for s in ids:
        read["holding", s] = tx.ledger.holding(s, "coins")
        for key in KEYS:
            read["gift key", s, key] = tx.gifts.by_key(s, key)
        for r in ids:
            if s != r:
                read["friendship", s, r] = tx.friends.get_friendship(s, r)
                read["stats", s, r] = tx.gifts.sender_stats(s, r, since, day)
    return read


OPS = st.one_of(
    st.tuples(st.just("send"), PICKED, PICKED,
              st.sampled_from(("coins", "gems")), st.sampled_from((None, *KEYS))),
    st.tuples(st.just("credit"), PICKED, st.integers(1, 3)),
    st.tuples(st.just("record"), st.sampled_from(KEYS)),
    st.tuples(st.just("touch"), PICKED),
    st.tuples(st.just("register"), PICKED),
    st.tuples(st.just("befriend"), PICKED, PICKED),
    st.tuples(st.just("other"),),
)  # fmt: skip


def _apply(tx: PostgresTransaction, w: _World, op: tuple[Any, ...]) -> None:
    kind, *args = op
    now = w.rt.clock.now()
    find = functools.partial(tx.players.get, GID)
    if kind == "send":
        sender, recipient = find(args[0]), find(args[1])
        if sender is not None and recipient is not None:
            request = SendRequest(ResourceType.CURRENCY, args[2], 1, idempotency_key=args[3])
            gifts_cmd.send(tx, w.rt, w.scope, w.game, sender, recipient, request)
    elif kind == "credit" and (player := find(args[0])) is not None:
        server_adjust(
            tx, w.rt, w.scope, w.game, player, ResourceType.CURRENCY, "coins", args[1],
            credit=True, note=None, source_ref_id=None,
        )  # fmt: skip
    elif kind == "record":
        tx.idempotency.put(StoredResponse(SCOPE_KEY, args[0], "fp", 201, b"{}", now))
    elif kind == "touch" and (player := find(args[0])) is not None:
        tx.players.update(attrs.evolve(player, last_seen_at=now))
    elif kind == "register":
        first_contact(tx, w.rt, w.scope, args[0])
    elif kind == "befriend":
        a, b = find(args[0]), find(args[1])
        if a is not None and b is not None and a.id != b.id:
            friends_cmd.add(tx, w.rt, w.scope, w.game, a, b)
    elif kind == "other":
        # A write the prefetch knows nothing about, changing a prefetched kind.
        tx.execute(
            "UPDATE holdings SET amount = amount + 1"
            " WHERE player_id IN (SELECT id FROM players WHERE game_id = ?)",
            (GID,),
        )


@settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(st.tuples(OPS, st.integers(0, 45), st.booleans()), min_size=1, max_size=10))
def test_a_read_answered_from_the_reads_ahead_is_what_the_database_answers(
    pf: _World, steps: list[tuple[tuple[Any, ...], int, bool]]
) -> None:
    """A transaction's port writes in any order, with the clock moving (windows of the gift statistics
    move on): after each, every prefetchable read agrees."""
    clock = ManualClock(T0)  # each example from the same instant (the seed's)
    pf = attrs.evolve(pf, rt=attrs.evolve(pf.rt, clock=clock))
    with contextlib.suppress(_Rollback), pf.store.transaction(queue=f"game:{GID}") as tx:
        tx.prefetch(_declared(pf))
        _all_reads_agree(tx, pf)
        for op, seconds, check_before in steps:
            clock.advance(seconds)
            if check_before:
                _all_reads_agree(tx, pf)
            _one_write(tx, pf, op)
            _all_reads_agree(tx, pf)
        raise _Rollback


def _one_write(tx: PostgresTransaction, w: _World, op: tuple[Any, ...]) -> None:
    """``op`` through the ports (without waiting for its answers); a refusal changed nothing."""
    with contextlib.suppress(LivecoreError):
        _apply(tx, w, op)


# Every table the writes change, and the order its rows are compared in (seq itself differs: a
# sequence moves on in rolled-back transactions too).
_TABLES = {
    "players": "id",
    "friendships": "player_id, friend_id",
    "gifts": "seq",
    "grants": "id",
    "ledger": "seq",
    "holdings": "player_id, resource_key",
    "outbox": "seq",
    "idempotency": "scope, key",
}


def _tables(tx: PostgresTransaction) -> dict[str, list[tuple[Any, ...]]]:
    dump = {}
    for table, order in _TABLES.items():
        cursor = tx.execute(f"SELECT * FROM {table} ORDER BY {order}")
        names = [column.name for column in cursor.description or ()]
        dump[table] = [tuple(v for n, v in zip(names, row, strict=True) if n != "seq") for row in cursor]
    return dump


@settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(st.tuples(OPS, st.integers(0, 45)), min_size=1, max_size=12))
# One key's record written twice, nothing read in between: two changes of one row held back together.
@example(steps=[(("record", "k1"), 0), (("record", "k1"), 0)])
def test_inserts_held_back_leave_what_inserts_sent_at_once_leave(
    pf: _World, steps: list[tuple[tuple[Any, ...], int]]
) -> None:
    """The same writes, once with their inserts held back and sent together (postgres_batches) and once
    each as it comes: the same rows, in the same order."""
    dumps = []
    for hold in (True, False):
        clock = ManualClock(T0)
        w = attrs.evolve(pf, rt=attrs.evolve(pf.rt, clock=clock, rng=SeededRandomSource(11)))
        with contextlib.suppress(_Rollback), w.store.transaction(queue=f"game:{GID}") as tx:
            tx.hold_writes(hold)
            tx.prefetch(_declared(w))  # reads answered ahead send nothing: inserts pile up
            for op, seconds in steps:
                clock.advance(seconds)
                _one_write(tx, w, op)
            dumps.append(_tables(tx))
            raise _Rollback
    assert dumps[0] == dumps[1]


def test_reads_ahead_planned_on_empty_tables_look_rows_up_by_index() -> None:
    """A server prepares its statements early, often on a new database whose tables are still empty, and
    PostgreSQL keeps a prepared statement's generic plan for the life of the connection (until the
    tables are analyzed), which the reads ahead use (the next test). Those plans must find each key's
    row through an index on the whole key, not scan a whole table that grows under them (a hash join
    over every player, say), nor an index range with the rest of the key as a filter (every player of
    the game through the search-name index)."""
    with scratch_store() as store, store.connection() as conn:
        conn.execute("SET plan_cache_mode = force_generic_plan")
        for name, read in READS_AHEAD.items():
            statement = _numbered(read.sql)
            conn.execute(f"PREPARE {name} AS {statement}")
            conn.execute(f"EXECUTE {name} ('[]')")  # planned now, on empty tables
            plan = "\n".join(row[0] for row in conn.execute(f"EXPLAIN EXECUTE {name} ('[]')"))
            assert "Seq Scan" not in plan, f"{name}:\n{plan}"
            assert "Filter:" not in plan, f"{name}:\n{plan}"


def test_reads_ahead_are_planned_once() -> None:
    """PostgreSQL plans a prepared statement anew on every run while a custom plan looks cheaper than the
    generic one, as it always did for keys given as arrays (an unnest of a known array is counted at
    its length, of a parameter at 10), and planning the reads ahead cost more than running them. Given
    as a recordset, they keep the generic plan after PostgreSQL's first five custom ones."""
    reads = Reads(
        players=(("g", "a"), ("g", "b")),
        idempotency=(("g:test:send", "k"),),
        areas=(
            GiftSendReads(("g", "a"), ("g", "b"), "k", "coins", T0, DAY),
            GuildDonateReads(("g", "a"), "r"),
            CrateOpenReads("g", "c", ("g", "a"), ()),
            ProgressReads("g", "t"),
        ),
    )
    runs = 20
    with scratch_store(pool_size=1) as store:
        # One connection: every run prepares and plans on the session read back below (the pool may
        # otherwise open its one connection beyond the loop's, and share the runs between the two).
        store._pool.resize(min_size=1, max_size=1)
        for _ in range(runs):
            with store.transaction(queue="game:g") as tx:
                tx.prefetch(reads)
        with store.connection() as conn:
            plans = conn.execute(
                "SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                " WHERE statement LIKE '%jsonb_to_recordset%'"
            ).fetchall()
    assert len(plans) == len(READS_AHEAD)
    # psycopg prepares a statement from its 6th run on; of those runs, PostgreSQL plans 5 to compare.
    assert all(custom <= 5 and generic >= runs - 5 - 5 for generic, custom in plans), plans


@pytest.mark.parametrize(
    ("table", "forgets"),
    [
        *((table, True) for table in sorted(storage().read_aheads.tables)),
        ("outbox", False),
        ("ledger", False),
        ("merges", False),
    ],
)
def test_a_change_of_a_table_read_ahead_forgets_what_was_read(pf: _World, table: str, forgets: bool) -> None:
    """Each statement names the table it changes: one the reads ahead read forgets them all (a write
    that knows exactly what it changes forgets just that, above); another table leaves them exact."""
    with contextlib.suppress(_Rollback), pf.store.transaction(queue=f"game:{GID}") as tx:
        tx.prefetch(_declared(pf))
        tx.change(table, f"UPDATE {table} SET {_ANY_COLUMN[table]} WHERE FALSE")
        assert (tx.prefetched is None) is forgets
        tx.prefetch(_declared(pf))
        tx.execute("SELECT 1")  # a statement that names no table may change anything
        assert tx.prefetched is None
        raise _Rollback


_ANY_COLUMN = {
    "players": "streak = 0",
    "idempotency": "status = 0",
    "friendships": "since = 0",
    "gifts": "message = NULL",
    "holdings": "amount = 0",
    "grants": "acked_by = NULL",
    "outbox": "not_before = NULL",
    "ledger": "note = NULL",
    "merges": "placeholder = placeholder",
    "windows": "closed_at = NULL",
    "attempts": "flagged = flagged",
    "boards": "version = version",
    "board_entries": "score = score",
    "guilds": "name = name",
    "guild_stints": "role = role",
    "guild_help_requests": "donated = donated",
}
