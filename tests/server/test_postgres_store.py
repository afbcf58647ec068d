"""The PostgreSQL store against the SQLite store, step for step: the same commands and port calls on
both (same seed, same clock) must return the same records, in the same order. Covers what the
model-based machines do not reach: merge and erasure, purchases and spend, migration keys, gift lists
and stats, idempotency records, the outbox with debounce; plus migrations, rollback and retry."""

from __future__ import annotations

import copy
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import attrs
import orjson
import psycopg
import pytest

from livecore.clock import ManualClock, to_millis
from livecore.commands import Runtime
from livecore.economy.commands import change, server_adjust
from livecore.economy.rules import DebitTally, Holding, LedgerEntry, NotedDebits, Reason, resource
from livecore.events import DEBOUNCE, DomainEvent
from livecore.friends import commands as friends_cmd
from livecore.games import Entry, Game, ResourceType, Studio
from livecore.gifts import commands as gifts_cmd
from livecore.gifts.rules import SendRequest, SentGifts
from livecore.grants.commands import create_grant
from livecore.grants.rules import GrantKind
from livecore.hashing import KeyedHasher
from livecore.idempotency import StoredResponse
from livecore.leaderboards import commands as leaderboards_cmd
from livecore.leaderboards.rules import PeriodStatus, PlayerTier
from livecore.live_events.attempts import AttemptStatus, AttemptTally, ScoreSpread
from livecore.live_events.boards import BoardStatus, sort_key
from livecore.live_events.commands import live_events
from livecore.live_events.commands.boards import merge_entries
from livecore.live_events.settings import EVENT_SETTINGS
from livecore.lobbies.rules import Lobby, LobbyStatus, PromotionReason, Seat, SeatSource
from livecore.memory import MemoryStore
from livecore.player_tools.commands.erasure import erase
from livecore.player_tools.commands.merge import merge
from livecore.player_tools.erasure import ErasureReason, ErasureRecord
from livecore.player_tools.migration import MigrationKind
from livecore.players.commands import first_contact, heartbeat, load_game
from livecore.players.identity import Identity
from livecore.players.rules import DebugFlag, PeriodActivity
from livecore.purchases.rules import Purchase, ValidationStatus
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore_server.manifest import parse_manifest
from livecore_server.registry import storage
from livecore_server.storage.postgres import RETRYABLE, PostgresStore
from livecore_server.storage.records import settings_converter
from livecore_server.storage.rows import OUTBOX_COLUMNS
from livecore_server.storage.sqlite import SqliteStore
from tests.core.events_machine import SETTINGS as EVENT_GAME_SETTINGS
from tests.core.events_machine import T0
from tests.core.leaderboards_machine import SETTINGS as LEAGUE_SETTINGS
from tests.core.leaderboards_machine import T0 as LEAGUE_T0
from tests.kept import keep_every_event_in
from tests.postgres_support import drop_store, new_store, require_postgres, waiting_for_queue
from tests.waiting import until_sync

START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

MANIFEST = """
studio = "pg"
[games.g]
name = "G"
economy = "platform"
[games.g.gifting]
enabled = true
cooldown_seconds = 60
daily_send_limit = 10
claim_expiry_seconds = 3600
[games.g.resources.coins]
type = "currency"
giftable = true
max_per_gift = 50
costs_sender = true
[games.g.resources.gems]
type = "currency"
giftable = true
max_per_gift = 5
[games.g.resources.sword]
type = "item"
"""


@pytest.fixture(autouse=True)
def _postgres() -> None:
    require_postgres()


@attrs.define
class Twin:
    """The same game on SQLite and on PostgreSQL (and, where given, in memory), each with its own runtime
    (same seed, same clock)."""

    sqlite: SqliteStore
    pg: PostgresStore
    scope: Scope
    runtimes: list[Runtime]
    memory: MemoryStore | None = None

    def do(self, fn: Callable[[Any, Runtime], Any]) -> Any:
        """Run ``fn(tx, rt)`` in a transaction on each store; all must return the same; returns it."""
        stores: list[Any] = (
            [self.sqlite, self.pg] if self.memory is None else [self.sqlite, self.pg, self.memory]
        )
        results = []
        for i, store in enumerate(stores):
            results.append(self._once(i, store, fn))
        assert all(result == results[0] for result in results[1:]), results
        return results[1]

    def _once(self, i: int, store: Any, fn: Callable[[Any, Runtime], Any]) -> Any:
        """``fn`` in one transaction of ``store``, run again from the same randomness when PostgreSQL
        cancels it: the other tests' transactions on the shared database can conflict with it through
        SERIALIZABLE's coarse predicate locks, and the store's own run retries so too."""
        for attempt in range(5):
            rt = attrs.evolve(self.runtimes[i], rng=copy.deepcopy(self.runtimes[i].rng))
            try:
                with store.transaction() as tx:
                    result = fn(tx, rt)
            except RETRYABLE:
                if attempt == 4:
                    raise
                continue
            self.runtimes[i] = rt
            return result
        raise AssertionError("unreachable")

    def read(self, fn: Callable[[Any], Any]) -> Any:
        return self.do(lambda tx, _rt: fn(tx))

    def advance(self, seconds: float) -> None:
        for rt in self.runtimes:
            assert isinstance(rt.clock, ManualClock)
            rt.clock.advance(seconds)

    def player(self, tx: Any, external_id: str) -> Any:
        return tx.players.get(self.scope.game_id, external_id)

    def game(self, tx: Any) -> Game:
        return load_game(tx, self.scope)


@pytest.fixture
def twin(tmp_path: Path) -> Iterator[Twin]:
    manifest = parse_manifest(MANIFEST)
    game = Game(id="gam_1", studio_id="std_1", key="g", name="G", settings=manifest.games["g"].settings())
    sqlite = SqliteStore(str(tmp_path / "twin.db"), storage())
    sqlite.conn.execute("INSERT INTO studios (id, key, created_at) VALUES ('std_1', 'pg', 0)")
    sqlite.conn.execute(
        "INSERT INTO games (id, studio_id, key, name, settings, created_at, updated_at, gifting_ever_enabled)"
        " VALUES (?, ?, ?, ?, ?, 0, 0, 1)",
        (
            game.id,
            game.studio_id,
            game.key,
            game.name,
            orjson.dumps(settings_converter.unstructure(game.settings)),
        ),
    )
    pg = new_store()
    try:
        pg.put_game(game)
        for store in (sqlite, pg):
            keep_every_event_in(store)  # the outbox tests read what is emitted
        runtimes = [
            Runtime(clock=ManualClock(START), rng=SeededRandomSource(11), hasher=KeyedHasher(b"k" * 32))
            for _ in range(2)
        ]
        yield Twin(sqlite, pg, Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST), runtimes)
    finally:
        sqlite.close()
        drop_store(pg)


def pg_outbox(store: PostgresStore) -> list[tuple[DomainEvent, int | None]]:
    with store.transaction() as tx:
        rows = tx.conn.execute(f"SELECT not_before, {OUTBOX_COLUMNS.sql} FROM outbox ORDER BY seq").fetchall()
    return [(OUTBOX_COLUMNS.of(event), not_before) for not_before, *event in rows]


def sqlite_outbox(store: SqliteStore) -> list[tuple[DomainEvent, int | None]]:
    rows = store.conn.execute(f"SELECT not_before, {OUTBOX_COLUMNS.sql} FROM outbox ORDER BY seq").fetchall()
    return [(OUTBOX_COLUMNS.of(event), not_before) for not_before, *event in rows]


def players(twin: Twin, *names: str) -> None:
    for name in names:
        twin.do(lambda tx, rt, name=name: first_contact(tx, rt, twin.scope, name))


def befriend(twin: Twin, a: str, b: str) -> None:
    def op(tx: Any, rt: Runtime) -> Any:
        game = twin.game(tx)
        friends_cmd.add(tx, rt, twin.scope, game, twin.player(tx, a), twin.player(tx, b))
        return friends_cmd.add(tx, rt, twin.scope, game, twin.player(tx, b), twin.player(tx, a))

    twin.do(op)


def credit(twin: Twin, who: str, key: str, amount: int) -> None:
    twin.do(
        lambda tx, rt: server_adjust(
            tx,
            rt,
            twin.scope,
            twin.game(tx),
            twin.player(tx, who),
            ResourceType.CURRENCY,
            key,
            amount,
            credit=True,
            note=None,
            source_ref_id=None,
        )
    )


def send(twin: Twin, sender: str, to: str, key: str, amount: int, **kw: Any) -> Any:
    return twin.do(
        lambda tx, rt: gifts_cmd.send(
            tx,
            rt,
            twin.scope,
            twin.game(tx),
            twin.player(tx, sender),
            twin.player(tx, to),
            SendRequest(ResourceType.CURRENCY, key, amount, **kw),
        )
    )


def purchase(twin: Twin, who: str, n: int, *, at: datetime, cents: int, product: str = "p1") -> Purchase:
    def op(tx: Any, _rt: Runtime) -> Purchase:
        p = twin.player(tx, who)
        record = Purchase(
            id=f"pur_{n:03d}",
            game_id=twin.scope.game_id,
            env=Environment.TEST,
            player_id=p.id,
            external_player_id=p.external_id,
            transaction_id=f"tx{n}",
            store="apple",
            product_id=product,
            product_type="consumable",
            amount_minor=cents,
            currency="USD",
            normalized_amount_minor=cents,
            fx_rate=1.0,
            validation_status=ValidationStatus.UNVERIFIED,
            purchased_at=at,
            tracked_at=at,
            metadata={"z": 1, "a": [n]},
        )
        tx.purchases.insert(record)
        return record

    result: Purchase = twin.do(op)
    return result


@pytest.fixture
def events(twin: Twin) -> Twin:
    """A game with live events (tests/core/events_machine.py's) on both stores and in memory, from the
    race's first minute."""
    game = Game(id="gam_2", studio_id="std_1", key="e", name="E", settings=EVENT_GAME_SETTINGS)
    twin.sqlite.conn.execute(
        "INSERT INTO games (id, studio_id, key, name, settings, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, 0, 0)",
        (
            game.id,
            game.studio_id,
            game.key,
            game.name,
            orjson.dumps(settings_converter.unstructure(game.settings)),
        ),
    )
    twin.pg.put_game(game)
    for store in (twin.sqlite, twin.pg):
        keep_every_event_in(store)  # as the memory store keeps them
    memory = MemoryStore()
    memory.add_game(Studio(id="std_1", key="pg"), game)
    runtimes = [
        Runtime(
            clock=ManualClock(T0 + timedelta(minutes=31)),
            rng=SeededRandomSource(12),
            hasher=KeyedHasher(b"k" * 32),
        )
        for _ in range(3)
    ]
    return Twin(twin.sqlite, twin.pg, attrs.evolve(twin.scope, game_id=game.id), runtimes, memory)


# --- migrations ---------------------------------------------------------------------------------------


def test_migrations_apply_once_even_when_processes_start_together() -> None:
    first = new_store()
    try:
        assert first.applied == [name for name, _ in storage().history.postgres]
        assert first.name_trigrams  # pg_trgm is available on the test database
        again = PostgresStore(first.dsn, schema=first.schema, areas=storage())
        assert again.applied == []
        again.close()
    finally:
        drop_store(first)

    # Several stores starting at once on a new schema: the migration lock lets exactly one apply.
    dsn, schema = require_postgres(), f"lc_test_{secrets.token_hex(6)}"
    results: list[Any] = []

    def start() -> None:
        try:
            results.append(PostgresStore(dsn, schema=schema, areas=storage()))
        except Exception as exc:
            results.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert all(isinstance(r, PostgresStore) for r in results), results
        assert sorted(len(r.applied) for r in results) == [0, 0, 0, len(storage().history.postgres)]
    finally:
        for r in results:
            if isinstance(r, PostgresStore):
                r.close()
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


# --- players and search -------------------------------------------------------------------------------


def test_players_search_suggestions_and_streaks(twin: Twin) -> None:
    names = {"p1": "Alpha", "p2": "alphabet", "p3": "Beta_x", "p4": "100% Fun", "p5": "Zeta", "p6": "Éclair"}
    players(twin, *names)
    for i, (ext, name) in enumerate(names.items()):
        twin.advance(1)

        def rename(tx: Any, rt: Runtime, ext: str = ext, name: str = name, i: int = i) -> None:
            p = twin.player(tx, ext)
            activity = attrs.evolve(
                p.activity, last_active_at=rt.clock.now(), streak=i, streak_day=START.date()
            )
            tx.players.update(attrs.evolve(p, display=Identity(name=name, avatar=None), activity=activity))

        twin.do(rename)
    for text in ("al", "a", "AL", "pha", "ALPHA", "_x", "a_x", "100%", "0% f", "zzz", "éc", "lair", "%", "_"):
        found = twin.read(
            lambda tx, text=text: tx.players.search_by_name(twin.scope.game_id, Environment.TEST, text, 10)
        )
        assert all(text.lower() in p.identity.name.lower() for p in found), text
    assert [
        p.external_id
        for p in twin.read(lambda tx: tx.players.search_by_name("gam_1", Environment.TEST, "ALP", 10))
    ] == [
        "p1",
        "p2",
    ]
    assert len(twin.read(lambda tx: tx.players.search_by_name("gam_1", Environment.LIVE, "alp", 10))) == 0
    recent = twin.read(lambda tx: tx.players.recently_active("gam_1", Environment.TEST, 3))
    assert [p.external_id for p in recent] == ["p6", "p5", "p4"]
    activities = twin.read(lambda tx: tx.players.activities([p.id for p in recent] + ["plr_unknown"]))
    assert [activities[p.id].streak for p in recent] == [5, 4, 3] and "plr_unknown" not in activities
    code = twin.read(lambda tx: twin.player(tx, "p3").friend_code)
    if code is not None:
        twin.read(lambda tx: tx.players.by_friend_code("gam_1", Environment.TEST, code))
    assert twin.read(lambda tx: tx.players.reset_missed_streaks(START.date() + timedelta(days=1))) == 5
    twin.read(lambda tx: [tx.players.by_id(twin.player(tx, e).id) for e in names])


# --- friends ------------------------------------------------------------------------------------------


def test_friend_lists(twin: Twin) -> None:
    players(twin, "a", "b", "c", "d", "e")
    befriend(twin, "a", "b")
    twin.advance(1)
    befriend(twin, "a", "c")

    def op(tx: Any, rt: Runtime) -> None:
        game = twin.game(tx)
        friends_cmd.add(tx, rt, twin.scope, game, twin.player(tx, "a"), twin.player(tx, "d"))
        friends_cmd.add(tx, rt, twin.scope, game, twin.player(tx, "e"), twin.player(tx, "a"))
        friends_cmd.block(tx, rt, twin.scope, twin.player(tx, "b"), twin.player(tx, "e"))

    twin.do(op)
    a_id, b_id, e_id = twin.read(lambda tx: [twin.player(tx, x).id for x in "abe"])
    assert len(twin.read(lambda tx: tx.friends.friend_cards(a_id))) == 2
    assert len(twin.read(lambda tx: tx.friends.list_requests(a_id))) == 2
    assert twin.read(lambda tx: tx.friends.request_peers(a_id)) == {
        twin.read(lambda tx: twin.player(tx, "d").id): True,
        e_id: False,
    }
    assert twin.read(lambda tx: tx.friends.blocked_either_way(e_id)) == {b_id}
    assert len(twin.read(lambda tx: tx.friends.list_blocks(b_id))) == 1
    twin.read(
        lambda tx: (
            tx.friends.friend_ids(a_id),
            tx.friends.count_friends(a_id),
            tx.friends.blocks_involving(e_id),
        )
    )
    twin.read(
        lambda tx: (
            tx.friends.get_friendship(a_id, b_id),
            tx.friends.get_block(b_id, e_id),
            tx.friends.request_between(e_id, a_id),
        )
    )


# --- gifts --------------------------------------------------------------------------------------------


def test_gift_lists_stats_and_keys(twin: Twin) -> None:
    players(twin, "a", "b", "c")
    befriend(twin, "a", "b")
    befriend(twin, "a", "c")
    credit(twin, "a", "coins", 100)
    # Two gifts in the same millisecond: "newest first" breaks the tie by insertion order.
    first = send(twin, "a", "b", "coins", 5, message="hi", idempotency_key="k1")
    send(twin, "a", "c", "gems", 2)
    twin.advance(61)
    send(twin, "a", "b", "gems", 1)
    twin.do(lambda tx, rt: gifts_cmd.claim(tx, rt, twin.scope, twin.player(tx, "b"), first.gift.id))
    a_id, b_id, c_id = twin.read(lambda tx: [twin.player(tx, x).id for x in "abc"])
    now = twin.runtimes[0].clock.now()
    sent = twin.read(lambda tx: tx.gifts.page(a_id, sent=True, claimable_at=None, limit=10))
    assert len(sent) == 3
    assert len(twin.read(lambda tx: tx.gifts.page(b_id, sent=False, claimable_at=now, limit=10))) == 1
    assert len(twin.read(lambda tx: tx.gifts.page(b_id, sent=False, claimable_at=None, limit=1))) == 1
    # The claimable list leaves out what expired by then.
    assert (
        twin.read(lambda tx: tx.gifts.page(c_id, sent=False, claimable_at=now + timedelta(hours=2), limit=9))
        == []
    )
    stats = twin.read(
        lambda tx: tx.gifts.sender_stats(a_id, b_id, now - timedelta(seconds=60), now - timedelta(hours=1))
    )
    assert stats.sent_today == 3 and stats.last_to_recipient == now
    assert (
        twin.read(lambda tx: tx.gifts.sender_stats(a_id, None, now - timedelta(seconds=60), None)).sent_today
        == 0
    )
    assert twin.read(lambda tx: tx.gifts.cooldowns(a_id, now - timedelta(hours=1))) == {
        b_id: now,
        c_id: START,
    }
    assert twin.read(lambda tx: tx.gifts.by_key(a_id, "k1")).id == first.gift.id
    twin.read(lambda tx: (tx.gifts.get("gam_1", first.gift.id), tx.grants.pending(c_id, now, 10)))
    twin.read(lambda tx: tx.grants.past_expiry(now + timedelta(hours=2), 10))
    twin.read(
        lambda tx: (tx.ledger.entries(a_id), tx.ledger.entries(a_id, "coins"), tx.ledger.holdings(a_id))
    )
    assert twin.read(lambda tx: tx.ledger.balances_of([a_id, b_id, c_id], ["coins", "gems"])) == {
        a_id: {"coins": 95},
        b_id: {"coins": 5},
    }
    twin.read(lambda tx: (tx.grants.recent(b_id, 10), tx.grants.counts(b_id)))


# --- merge and erasure --------------------------------------------------------------------------------


def test_merge_moves_grants_gifts_purchases_and_ledger(twin: Twin) -> None:
    players(twin, "old", "new", "friend")
    befriend(twin, "old", "friend")
    credit(twin, "old", "coins", 30)
    credit(twin, "new", "coins", 4)
    send(twin, "old", "friend", "coins", 5)
    send(twin, "friend", "old", "gems", 2)
    purchase(twin, "old", 1, at=START, cents=499)
    old_id = twin.read(lambda tx: twin.player(tx, "old").id)
    twin.advance(1)
    merged = twin.do(lambda tx, rt: merge(tx, rt, twin.scope, "old", "new"))
    new_id = twin.read(lambda tx: twin.player(tx, "new").id)
    assert twin.read(lambda tx: tx.ledger.holdings(new_id))["coins"].amount == 29
    assert twin.read(lambda tx: tx.ledger.holdings(old_id)) == {}
    assert twin.read(lambda tx: tx.ledger.entries(old_id)) == []
    assert {e.player_id for e in twin.read(lambda tx: tx.ledger.entries(new_id))} == {new_id}
    assert {g.player_id for g in twin.read(lambda tx: tx.grants.recent(new_id, 10))} == {new_id}
    assert len(twin.read(lambda tx: tx.gifts.page(new_id, sent=True, claimable_at=None, limit=10))) == 1
    assert len(twin.read(lambda tx: tx.gifts.page(new_id, sent=False, claimable_at=None, limit=10))) == 1
    assert [p.player_id for p in twin.read(lambda tx: tx.purchases.page(new_id, None, 10))] == [new_id]
    assert twin.read(lambda tx: tx.merges.get("gam_1", Environment.TEST, "old")) == merged.record
    # A replay is a no-op on both.
    twin.do(lambda tx, rt: merge(tx, rt, twin.scope, "old", "new"))


def test_erasure_forgets_the_graph_messages_and_merges(twin: Twin) -> None:
    players(twin, "x", "y", "z", "w")
    befriend(twin, "x", "y")
    credit(twin, "x", "coins", 10)
    send(twin, "x", "y", "coins", 3, message="secret")
    twin.do(lambda tx, rt: merge(tx, rt, twin.scope, "w", "x"))

    def graph(tx: Any, rt: Runtime) -> None:
        friends_cmd.add(tx, rt, twin.scope, twin.game(tx), twin.player(tx, "z"), twin.player(tx, "x"))
        friends_cmd.block(tx, rt, twin.scope, twin.player(tx, "x"), twin.player(tx, "z"))

    twin.do(graph)
    x_id, y_id = twin.read(lambda tx: [twin.player(tx, "x").id, twin.player(tx, "y").id])
    twin.advance(1)
    twin.do(lambda tx, rt: erase(tx, rt, twin.scope, "x", ErasureReason.GDPR_ERASURE))
    assert twin.read(lambda tx: tx.friends.friend_cards(y_id)) == []
    assert twin.read(lambda tx: tx.friends.friend_ids(x_id)) == set()
    assert twin.read(lambda tx: tx.friends.blocks_involving(x_id)) == []
    assert [
        g.gift.message
        for g in twin.read(lambda tx: tx.gifts.page(y_id, sent=False, claimable_at=None, limit=9))
    ] == [None]
    assert twin.read(lambda tx: tx.merges.get("gam_1", Environment.TEST, "w")) is None
    # A second erasure record of the same hash: the latest one is answered.
    record = ErasureRecord("gam_1", "h1", "ply_a", "ph_a", ErasureReason.TEST, START)
    twin.read(lambda tx: tx.erasures.insert(record))
    twin.read(
        lambda tx: tx.erasures.insert(attrs.evolve(record, player_id="ply_b", erased_at=START + timedelta(1)))
    )
    assert twin.read(lambda tx: tx.erasures.get("gam_1", "h1")).player_id == "ply_b"


# --- purchases ----------------------------------------------------------------------------------------


def test_purchases_spend_spenders_and_revenue(twin: Twin) -> None:
    players(twin, "a", "b", "dbg")
    day = timedelta(days=1)
    for n, (who, at, cents, product) in enumerate(
        [
            ("a", START, 100, "p1"),
            ("a", START, 250, "p2"),  # same millisecond: the keyset breaks the tie by id
            ("a", START + day, 999, "p1"),
            ("b", START + 2 * day, 400, "p2"),
            ("b", START - 40 * day, 50, "p1"),
            ("dbg", START, 10_000, "p1"),
        ]
    ):
        purchase(twin, who, n, at=at, cents=cents, product=product)

    def flag(tx: Any, _rt: Runtime) -> None:
        p = twin.player(tx, "dbg")
        tx.players.update(attrs.evolve(p, debug=DebugFlag(reason="qa", flagged_at=START)))

    twin.do(flag)
    a_id, b_id = twin.read(lambda tx: [twin.player(tx, "a").id, twin.player(tx, "b").id])
    page1 = twin.read(lambda tx: tx.purchases.page(a_id, None, 2))
    assert [p.product_id for p in page1] == ["p1", "p2"]
    last = page1[-1]
    page2 = twin.read(lambda tx: tx.purchases.page(a_id, (last.purchased_at, last.id), 2))
    assert [p.id for p in page2] == ["pur_000"]
    twin.read(lambda tx: tx.purchases.set_validation("pur_000", ValidationStatus.VERIFIED))
    assert twin.read(lambda tx: tx.purchases.get("gam_1", Environment.TEST, "tx0")).validation_status == (
        ValidationStatus.VERIFIED
    )
    now = START + 3 * day
    spend = twin.read(lambda tx: tx.purchases.player_spend(b_id, now, (7, 30, 90)))
    assert (spend.lifetime_amount_minor, spend.purchase_count) == (450, 2)
    assert [(w.amount_minor, w.purchase_count) for w in spend.windows] == [(400, 1), (400, 1), (450, 2)]
    twin.read(lambda tx: tx.purchases.player_spend("nobody", now, (7,)))
    ranked = twin.read(lambda tx: tx.purchases.spenders("gam_1", Environment.TEST, 0, None, 10, 0))
    assert [(s.external_player_id, s.amount_minor) for s in ranked] == [("a", 1349), ("b", 450)]
    assert (
        twin.read(lambda tx: tx.purchases.spenders("gam_1", Environment.TEST, 500, START - day, 10, 0))[
            0
        ].amount_minor
        == 1349
    )
    assert (
        twin.read(lambda tx: tx.purchases.spenders("gam_1", Environment.TEST, 0, None, 10, 1))[
            0
        ].external_player_id
        == "b"
    )
    summary = twin.read(
        lambda tx: tx.purchases.revenue("gam_1", Environment.TEST, START - 50 * day, START + 3 * day)
    )
    assert (summary.gross_amount_minor, summary.purchase_count, summary.paying_players) == (1799, 5, 2)
    assert [p.product_id for p in summary.per_product] == ["p1", "p2"]
    assert len(summary.per_day) == 4


def test_migration_keys(twin: Twin) -> None:
    for i in range(3):
        twin.read(
            lambda tx, i=i: tx.migrations.put(
                "gam_1", Environment.TEST, MigrationKind.WALLET, f"k{i}", f"f{i}", START
            )
        )
    got = twin.read(
        lambda tx: tx.migrations.fingerprints(
            "gam_1", Environment.TEST, MigrationKind.WALLET, ["k0", "k2", "k9"]
        )
    )
    assert got == {"k0": "f0", "k2": "f2"}
    assert (
        twin.read(
            lambda tx: tx.migrations.fingerprints("gam_1", Environment.LIVE, MigrationKind.WALLET, ["k0"])
        )
        == {}
    )
    assert (
        twin.read(lambda tx: tx.migrations.fingerprints("gam_1", Environment.TEST, MigrationKind.PLAYERS, []))
        == {}
    )


# --- idempotency and outbox ---------------------------------------------------------------------------


def test_idempotency_records(twin: Twin) -> None:
    stored = StoredResponse("scope", "key", "fp1", 201, b'{"a":1}\x00\xff', START)
    twin.read(lambda tx: tx.idempotency.put(stored))
    assert twin.read(lambda tx: tx.idempotency.get("scope", "key")) == stored
    replaced = attrs.evolve(stored, fingerprint="fp2", status=200, body=b"x")
    twin.read(lambda tx: tx.idempotency.put(replaced))
    assert twin.read(lambda tx: tx.idempotency.get("scope", "key")) == replaced
    assert twin.read(lambda tx: tx.idempotency.get("scope", "other")) is None


def test_outbox_debounces_by_key(twin: Twin) -> None:
    def event(n: int, key: str | None, at: datetime) -> DomainEvent:
        return DomainEvent(
            f"evt_{n}", "player.updated", "std_1", "gam_1", Environment.TEST, at, {"n": n, "b": [1]}, key
        )

    twin.read(lambda tx: tx.outbox.emit(event(1, "d1", START)))
    twin.read(lambda tx: tx.outbox.emit(event(2, None, START)))
    twin.read(
        lambda tx: tx.outbox.emit(event(3, "d1", START + timedelta(seconds=2)))
    )  # replaces evt_1's data
    twin.read(lambda tx: tx.outbox.emit(event(4, "d2", START)))
    expected = sqlite_outbox(twin.sqlite)
    assert pg_outbox(twin.pg) == expected
    assert [(e.id, e.data["n"], nb) for e, nb in expected] == [
        ("evt_1", 3, to_millis(START + DEBOUNCE)),
        ("evt_2", 2, None),
        ("evt_4", 4, to_millis(START + DEBOUNCE)),
    ]


# --- transactions -------------------------------------------------------------------------------------


def test_rollback_and_the_database_refuses_a_negative_holding(twin: Twin) -> None:
    players(twin, "a")
    store = twin.pg
    with pytest.raises(RuntimeError, match="boom"), store.transaction() as tx:
        tx.migrations.put("gam_1", Environment.TEST, MigrationKind.WALLET, "k", "f", START)
        raise RuntimeError("boom")
    with store.transaction() as tx:
        assert tx.migrations.fingerprints("gam_1", Environment.TEST, MigrationKind.WALLET, ["k"]) == {}
        a = tx.players.get("gam_1", "a")
    entry = LedgerEntry(
        "led_x",
        a.id,
        "gam_1",
        "coins",
        ResourceType.CURRENCY,
        -1,
        0,
        Reason.SERVER_DEBIT,
        None,
        None,
        {},
        START,
    )
    with pytest.raises(psycopg.errors.CheckViolation), store.transaction() as tx:
        tx.ledger.append(entry, Holding("coins", -1))
    with store.transaction() as tx:
        assert tx.ledger.entries(a.id) == []
    # A failed statement whose error the block swallowed must not commit the rest silently.
    with pytest.raises(RuntimeError, match="rolled back"), store.transaction() as tx:
        tx.migrations.put("gam_1", Environment.TEST, MigrationKind.WALLET, "k", "f", START)
        with pytest.raises(psycopg.errors.UniqueViolation):
            tx.migrations.put("gam_1", Environment.TEST, MigrationKind.WALLET, "k", "f", START)
    with store.transaction() as tx:
        assert tx.migrations.fingerprints("gam_1", Environment.TEST, MigrationKind.WALLET, ["k"]) == {}


def _bad_ledger_entry(player_id: str) -> tuple[LedgerEntry, Holding]:
    """A write the database refuses (a negative holding), sent without waiting for its answer."""
    entry = LedgerEntry(
        "led_bad", player_id, "gam_1", "coins", ResourceType.CURRENCY, -1, -1, Reason.SERVER_DEBIT,
        None, None, {}, START,
    )  # fmt: skip
    return entry, Holding("coins", -1)


def test_a_write_transactions_writes_travel_together_with_the_next_answer(
    twin: Twin, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writes nobody reads the answer of are sent without waiting: a transaction of one read and five
    writes waits for the server twice (the read, then the writes with the COMMIT), not seven times."""
    players(twin, "a", "b")
    store = twin.pg
    syncs = [0]
    sync = psycopg.Pipeline.sync

    def counted(self: psycopg.Pipeline) -> None:
        syncs[0] += 1
        sync(self)

    monkeypatch.setattr(psycopg.Pipeline, "sync", counted)
    with store.transaction() as tx:
        a = tx.players.get("gam_1", "a")
        syncs[0] = 0
        for n in range(5):
            tx.migrations.put("gam_1", Environment.TEST, MigrationKind.WALLET, f"k{n}", "f", START)
            tx.players.update(attrs.evolve(a, last_seen_at=START + timedelta(seconds=n)))
    # put_migration_key reads its answer (it checks the key): 5 syncs; the 5 player updates ride along
    # with them and with the COMMIT (the pipeline's own sync at its end is not counted here).
    assert syncs[0] == 5
    with store.transaction(write=False) as tx:
        assert tx.players.get("gam_1", "a").last_seen_at == START + timedelta(seconds=4)


def test_a_refused_write_fails_the_transaction_where_its_answer_arrives(twin: Twin) -> None:
    players(twin, "a")
    store = twin.pg
    # At the next statement that waits for an answer...
    with pytest.raises(psycopg.errors.CheckViolation), store.transaction() as tx:
        a = tx.players.get("gam_1", "a")
        tx.ledger.append(*_bad_ledger_entry(a.id))
        tx.migrations.put("gam_1", Environment.TEST, MigrationKind.WALLET, "k", "f", START)
    # ...or at the COMMIT, and nothing of the transaction stays.
    with pytest.raises(psycopg.errors.CheckViolation), store.transaction() as tx:
        tx.players.update(attrs.evolve(a, last_seen_at=START + timedelta(days=1)))
        tx.ledger.append(*_bad_ledger_entry(a.id))
    with store.transaction(write=False) as tx:
        assert tx.players.get("gam_1", "a").last_seen_at == a.last_seen_at
        assert tx.migrations.fingerprints("gam_1", Environment.TEST, MigrationKind.WALLET, ["k"]) == {}
        assert tx.ledger.entries(a.id) == []


def test_the_write_queue_is_given_back_after_a_commit_and_after_a_failed_one(twin: Twin) -> None:
    players(twin, "a")
    store = twin.pg
    with store.transaction(queue="game:q") as tx:
        a = tx.players.get("gam_1", "a")
        tx.players.update(attrs.evolve(a, last_seen_at=START + timedelta(seconds=1)))
    with pytest.raises(psycopg.errors.CheckViolation), store.transaction(queue="game:q") as tx:
        tx.ledger.append(*_bad_ledger_entry(a.id))
    # Another session takes the queue at once: nobody holds it any more.
    with psycopg.connect(store.dsn, autocommit=True) as other:
        (got,) = other.execute("SELECT pg_try_advisory_lock(hashtextextended('game:q', 0))").fetchone()
        assert got is True


def test_concurrent_debits_serialize_and_retry(twin: Twin) -> None:
    """Two transactions read the same balance and both write it: SERIALIZABLE fails one, run() retries it
    from the start, and the result is as if they ran one after the other."""
    players(twin, "a")
    credit(twin, "a", "coins", 10)
    store = twin.pg
    both_read = threading.Barrier(2, timeout=10)
    attempts: list[int] = []

    def debit(n: int) -> Callable[[Any], None]:
        def fn(tx: Any) -> None:
            attempts.append(n)
            player = tx.players.get("gam_1", "a")
            holding = tx.ledger.holding(player.id, "coins")
            if attempts.count(n) == 1:
                both_read.wait()  # the first attempts overlap
            entry = LedgerEntry(
                f"led_{n}_{attempts.count(n)}",
                player.id,
                "gam_1",
                "coins",
                ResourceType.CURRENCY,
                -3,
                holding.amount - 3,
                Reason.SERVER_DEBIT,
                None,
                None,
                {},
                START,
            )
            tx.ledger.append(entry, Holding("coins", holding.amount - 3))

        return fn

    threads = [threading.Thread(target=store.run, args=(debit(n),)) for n in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with store.transaction() as tx:
        a = tx.players.get("gam_1", "a")
        assert tx.ledger.holding(a.id, "coins").amount == 4
        assert [e.balance_after for e in tx.ledger.entries(a.id, "coins")] == [10, 7, 4]
    assert len(attempts) == 3  # one of the two ran twice


def test_a_queued_transaction_sees_what_the_previous_holder_of_its_queue_committed(twin: Twin) -> None:
    """The queue's lock travels with BEGIN and the first read; the transaction must still start after the
    lock is granted, so a writer waiting in the queue reads the previous holder's write (at READ
    COMMITTED: it holds its game's lock, so no other write of the game changes its rows meanwhile)."""
    players(twin, "a")
    store = twin.pg
    holding = threading.Event()
    seen: list[Any] = []

    def first() -> None:
        with store.transaction(queue="game:q") as tx:
            a = tx.players.get("gam_1", "a")
            holding.set()
            until_sync(lambda: waiting_for_queue(store, "game:q") == 1, "the second transaction to wait")
            tx.players.update(attrs.evolve(a, last_seen_at=START + timedelta(days=3)))

    def second() -> None:
        holding.wait(10)
        with store.transaction(queue="game:q") as tx:
            seen.append(tx.players.get("gam_1", "a").last_seen_at)
            seen.append(tx.execute("SHOW transaction_isolation").fetchone()[0])

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [START + timedelta(days=3), "read committed"]


def test_a_queued_transaction_costs_no_round_trip_for_its_queue(
    twin: Twin, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock, BEGIN and the first read come back together: one wait for all three."""
    players(twin, "a")
    store = twin.pg
    syncs = [0]
    sync = psycopg.Pipeline.sync
    execute = psycopg.Connection.execute
    outside = [0]
    # Only this thread's statements: those of other tests' threads still winding down are not its own.
    here = threading.get_ident()

    def counted(self: psycopg.Pipeline) -> None:
        if threading.get_ident() == here:
            syncs[0] += 1
        sync(self)

    def counted_execute(self: psycopg.Connection[Any], *args: Any, **kw: Any) -> Any:
        if self._pipeline is None and threading.get_ident() == here:
            outside[0] += 1
        return execute(self, *args, **kw)

    monkeypatch.setattr(psycopg.Pipeline, "sync", counted)
    monkeypatch.setattr(psycopg.Connection, "execute", counted_execute)
    with store.transaction(queue="game:q") as tx:
        tx.players.get("gam_1", "a")
    assert (syncs[0], outside[0]) == (1, 0)


def test_without_psycopgs_private_sync_the_implicit_transaction_ends_the_public_way() -> None:
    from livecore_server.storage.postgres import _end_implicit_transaction

    class PublicOnly:
        synced = 0

        def sync(self) -> None:
            self.synced += 1

    pipeline = PublicOnly()
    _end_implicit_transaction(pipeline)  # type: ignore[arg-type]
    assert pipeline.synced == 1


# --- live events: windows, attempts, boards -----------------------------------------------------------


def _granted(twin: Twin, name: str, amount: int, source: str | None = None) -> None:
    """A studio's reward grant of ``amount`` coins to the player, by its source reference."""
    coins = Entry(type=ResourceType.CURRENCY, key="coins", amount=amount)
    twin.do(
        lambda tx, rt: create_grant(
            tx,
            rt,
            twin.scope,
            name,
            kind=GrantKind.REWARD,
            entries=[coins],
            expires_at=None,
            source_kind="studio",
            source_ref_id=source,
            metadata=None,
        )
    )


def _credited(twin: Twin, *names: str) -> None:
    for name in names:

        def op(tx: Any, rt: Runtime, name: str = name) -> None:
            game = twin.game(tx)
            player = first_contact(tx, rt, twin.scope, name)
            change(tx, rt, twin.scope, game, player, resource(game, "coins"), 100, Reason.SERVER_CREDIT)

        twin.do(op)


def _start(twin: Twin, name: str, key: str, country: str | None = None) -> Any:
    context = None if country is None else {"country": country}
    return twin.do(lambda tx, rt: live_events.start(tx, rt, twin.scope, twin.player(tx, name), key, context))


def _progress(twin: Twin, name: str, attempt: Any, metrics: dict[str, Any], complete: bool = False) -> Any:
    return twin.do(
        lambda tx, rt: live_events.record_progress(
            tx, rt, twin.scope, twin.player(tx, name), attempt.event_key, attempt.id, metrics, complete
        )
    )


def _keysets_agree(twin: Twin, board: Any, top: list[Any]) -> None:
    """Each entry's key: as many entries ahead as its position, the page after it the entries after it."""
    for i, (entry, _) in enumerate(top):
        key = sort_key(board.order, entry)
        assert twin.read(lambda tx, key=key: tx.boards.count_ahead(board, key)) == i
        assert twin.read(lambda tx, key=key: tx.boards.page(board, key, 2)) == top[i + 1 : i + 3]
        before = twin.read(lambda tx, key=key: tx.boards.page_before(board, key, 2))
        assert before == top[max(0, i - 2) : i]


def test_event_windows_attempts_and_boards_read_back_alike_on_every_store(events: Twin) -> None:
    twin = events
    assert [
        g.id for g in twin.read(lambda tx: [g for g in tx.games.every() if g.settings.of(EVENT_SETTINGS)])
    ] == ["gam_2"] * 1
    _credited(twin, "a", "b", "c", "d", "e")
    # The race (desc): ties on score ordered by who reached it first, then by player id; fractions and
    # negative scores; the sprint (asc) with one board per country.
    race = {n: _start(twin, n, "race") for n in "abcde"}
    twin.advance(1)
    sprint = {n: _start(twin, n, "sprint", c) for n, c in zip("abcd", ("FR", "DE", "FR", None), strict=True)}
    for name, points in (("a", 30), ("b", 0.1 + 0.2), ("c", 30), ("d", -4.5)):
        _progress(twin, name, race[name], {"points": points})
        twin.advance(1)
    _progress(twin, "e", race["e"], {"points": 30})  # same score as a and c, a second later
    _progress(twin, "a", race["a"], {"points": 20})  # worse: the attempt keeps its best, the board too
    for name, time in (("a", 42.25), ("b", 11), ("c", 42.25), ("d", 70)):
        _progress(twin, name, sprint[name], {"time": time, "laps": 3})
    twin.advance(2)
    _progress(twin, "c", sprint["c"], {"time": 12}, complete=True)

    window = twin.read(lambda tx: tx.windows.get(twin.scope.game_id, race["a"].window_id))
    assert window.status.value == "open" and window.settings == EVENT_GAME_SETTINGS.of(EVENT_SETTINGS)["race"]
    assert twin.read(lambda tx: tx.windows.get("gam_1", window.id)) is None  # another game's id
    assert twin.read(lambda tx: tx.windows.open_of(twin.scope.game_id, Environment.TEST, "race")) == [window]
    assert twin.read(lambda tx: tx.windows.open_of(twin.scope.game_id, Environment.LIVE, "race")) == []
    assert twin.read(lambda tx: tx.windows.due_to_close(T0 + timedelta(minutes=59), 10)) == []
    due = twin.read(lambda tx: tx.windows.due_to_close(T0 + timedelta(hours=2), 10))
    assert [w.event_key for w in due] == ["race", "sprint"]  # oldest end first (the race's 13:00)

    board = twin.read(lambda tx: tx.boards.get(twin.scope.game_id, race["a"].board_id))
    assert board.version == 5
    assert twin.read(lambda tx: tx.boards.get("gam_1", board.id)) is None
    assert twin.read(lambda tx: tx.boards.of_window(window.id)) == [board]
    assert len(twin.read(lambda tx: tx.boards.of_window(sprint["a"].window_id))) == 3  # FR, DE, none
    top = twin.read(lambda tx: tx.boards.page(board, None, 10))
    ids = {p.external_id: p.id for _, p in top}
    assert [p.external_id for _, p in top] == ["a", "c", "e", "b", "d"]
    assert [e.score for e, _ in top] == [30, 30, 30, 0.1 + 0.2, -4.5]
    _keysets_agree(twin, board, top)
    # Keys between entries: the same millisecond and score, a player id between two.
    between = (-30.0, top[0][0].reached_at, "plr_" + "0" * 8)
    assert twin.read(lambda tx: tx.boards.count_ahead(board, between)) == 0
    assert twin.read(lambda tx: tx.boards.size(board.id)) == 5
    assert twin.read(lambda tx: tx.boards.entry(board.id, ids["a"])) == top[0][0]
    assert twin.read(lambda tx: tx.boards.entry(board.id, "plr_nobody")) is None
    fr = twin.read(lambda tx: tx.boards.get(twin.scope.game_id, sprint["a"].board_id))
    assert fr.segment_values == {"country": "FR"}
    fr_top = twin.read(lambda tx: tx.boards.page(fr, None, 10))
    assert [(p.external_id, e.score) for e, p in fr_top] == [("c", 12), ("a", 42.25)]  # asc
    _keysets_agree(twin, fr, fr_top)
    assert twin.read(lambda tx: tx.boards.entries_of(ids["a"])) == sorted(
        [top[0][0], twin.read(lambda tx: tx.boards.entry(fr.id, ids["a"]))], key=lambda e: e.board_id
    )

    attempt = twin.read(lambda tx: tx.attempts.get(twin.scope.game_id, race["a"].id))
    assert (attempt.score, attempt.metrics, attempt.milestones) == (30, {"points": 20}, ())
    assert twin.read(lambda tx: tx.attempts.get("gam_1", attempt.id)) is None
    assert twin.read(lambda tx: tx.attempts.of_player_in_window(ids["a"], window.id)) == [attempt]
    running = twin.read(lambda tx: tx.attempts.in_progress_in_window(window.id, 3))
    # Oldest start first; started in one millisecond, by id.
    assert [a.id for a in running] == sorted(a.id for a in race.values())[:3]
    assert twin.read(lambda tx: tx.attempts.past_end(T0 + timedelta(minutes=40), 10)) == []
    past = twin.read(lambda tx: tx.attempts.past_end(T0 + timedelta(hours=2), 100))
    assert len(past) == 8  # every attempt but c's completed sprint; the race's end first
    assert [a.event_key for a in twin.read(lambda tx: tx.attempts.recent(ids["c"], 10))] == ["sprint", "race"]
    counts = twin.read(lambda tx: tx.attempts.counts(ids["c"]))
    assert (counts[AttemptStatus.IN_PROGRESS], counts[AttemptStatus.COMPLETED]) == (1, 1)

    # A merge moves attempts and entries; the target keeps its better entry.
    def merged(tx: Any, _rt: Runtime) -> Any:
        target = twin.player(tx, "e")
        tx.attempts.reassign(ids["a"], target)
        merge_entries(tx, ids["a"], target)
        return (
            tx.attempts.recent(target.id, 10),
            tx.boards.entries_of(target.id),
            tx.attempts.recent(ids["a"], 9),
        )

    moved, entries, left = twin.do(merged)
    assert {a.external_player_id for a in moved} == {"e"} and len(moved) == 3 and left == []
    assert [e.attempt_id for e in entries if e.board_id == board.id] == [race["a"].id]  # a's 30 came first
    assert twin.read(lambda tx: tx.boards.entries_of(ids["a"])) == []
    twin.read(lambda tx: tx.boards.delete_entry(fr.id, ids["e"]))
    assert twin.read(lambda tx: tx.boards.size(fr.id)) == 1

    # Closing: attempts expire, boards finalize (a change of the board itself), the window closes.
    twin.advance(3_600)
    board = twin.read(lambda tx: tx.boards.get(twin.scope.game_id, board.id))
    assert board.version == 6  # the merge moved an entry

    def close(tx: Any, rt: Runtime) -> list[Any]:
        closed = []
        for w in live_events.due_windows(tx, rt, 10):
            assert live_events.close_window(tx, rt, w.id, w.game_id)
            closed.append(tx.windows.get(w.game_id, w.id))
        return closed

    closed = twin.do(close)
    assert [w.status.value for w in closed] == ["closed", "closed"]
    assert twin.read(lambda tx: tx.windows.open_of(twin.scope.game_id, Environment.TEST, "race")) == []
    final = twin.read(lambda tx: tx.boards.get(twin.scope.game_id, board.id))
    assert final.status is BoardStatus.FINALIZED and final.version == board.version + 1
    assert twin.read(lambda tx: tx.attempts.in_progress_in_window(window.id, 10)) == []
    assert twin.read(lambda tx: tx.attempts.past_end(T0 + timedelta(days=1), 10)) == []


# --- what a population is fitted from (livecore/simulation/fitting.py) --------------------------------


def test_the_tallies_a_population_is_fitted_from_read_alike_on_every_store(events: Twin) -> None:
    """The players active in a period with their sessions, their attempts by event (a play: a run of
    attempts each started before the one before was due to end, counted where it starts, one begun
    before the period included), and their debits (a moment: the debits of one instant)."""
    twin = events
    game_id, env = twin.scope.game_id, Environment.TEST
    _credited(twin, "a", "b", "c")

    def beat(name: str) -> None:
        twin.do(lambda tx, rt: heartbeat(tx, rt, twin.player(tx, name), None))

    def debit(name: str, amount: int) -> None:
        twin.do(
            lambda tx, rt: change(
                tx,
                rt,
                twin.scope,
                twin.game(tx),
                twin.player(tx, name),
                resource(twin.game(tx), "coins"),
                -amount,
                Reason.CLIENT_DEBIT,
            )
        )

    beat("a")
    beat("b")
    first = _start(twin, "a", "sprint")  # 12:31, due to end 12:41
    twin.advance(300)
    _progress(twin, "a", first, {"time": 30}, complete=True)
    second = _start(twin, "a", "sprint")  # before the first was due to end: the same play
    twin.advance(60)
    _progress(twin, "a", second, {"time": 20}, complete=True)
    debit("a", 10)
    debit("a", 10)  # the same instant: one spend
    race = _start(twin, "b", "race")
    _progress(twin, "b", race, {"points": 40})
    twin.advance(1_200)  # 12:57
    _start(twin, "a", "sprint")  # a new play, not scored
    twin.advance(600)
    beat("a")  # more than 30 minutes after its last: a second session
    debit("a", 30)
    ids = {n: twin.read(lambda tx, n=n: twin.player(tx, n).id) for n in "abc"}
    since, until = T0, T0 + timedelta(hours=2)

    active = twin.read(lambda tx: tx.players.active_in(game_id, env, since, until))
    seen = twin.read(lambda tx: twin.player(tx, "a").first_seen_at)
    assert set(active) == {ids["a"], ids["b"]} and active[ids["a"]] == PeriodActivity(seen, 2, seen.date(), 1)
    assert twin.read(lambda tx: tx.players.active_in(game_id, Environment.LIVE, since, until)) == {}
    # Where the game's history starts: its first player's first sighting (a, the first made).
    assert twin.read(lambda tx: tx.players.first_seen(game_id, env)) == seen
    assert twin.read(lambda tx: tx.players.first_seen(game_id, Environment.LIVE)) is None
    assert twin.read(lambda tx: tx.players.active_in(game_id, env, until, until + timedelta(hours=1))) == {}

    tallies = twin.read(lambda tx: tx.attempts.tallies(game_id, env, since, until))
    assert tallies == {
        (ids["a"], "sprint"): AttemptTally(
            attempts=3, plays=2, scored=2, score_sum=50.0, score_squares=1_300.0, busy=1_080.0
        ),
        (ids["b"], "race"): AttemptTally(
            attempts=1, plays=1, scored=1, score_sum=40.0, score_squares=1_600.0, busy=900.0
        ),
    }
    # From the second attempt on: a play begun before the period is not counted again.
    later = twin.read(lambda tx: tx.attempts.tallies(game_id, env, T0 + timedelta(minutes=33), until))
    assert later[ids["a"], "sprint"] == AttemptTally(
        attempts=2, plays=1, scored=1, score_sum=20.0, score_squares=400.0, busy=480.0
    )
    assert twin.read(lambda tx: tx.attempts.tallies(game_id, Environment.LIVE, since, until)) == {}

    spending = ["client_debit", "server_debit"]
    debits = twin.read(lambda tx: tx.ledger.debits(game_id, spending, since, until))
    # a's 100 coins (the sprint is free): 10 of 100, 10 of 90, 30 of 80.
    assert debits == {
        ids["a"]: DebitTally(
            moments=2,
            entries=3,
            share_sum=10 / 100 + 10 / 90 + 30 / 80,
            inverse_sum=1 / 100 + 1 / 90 + 1 / 80,
        )
    }
    assert twin.read(lambda tx: tx.ledger.debits(game_id, ["entry_cost"], since, until)).keys() == {ids["b"]}
    assert twin.read(lambda tx: tx.ledger.debits(game_id, [], since, until)) == {}
    # The coins credited (100 each at the start) and debited, by reason and resource, summed.
    moved = twin.read(lambda tx: tx.ledger.moved(game_id, ["server_credit", *spending], since, until))
    assert moved == {("server_credit", "coins"): 300, ("client_debit", "coins"): -50}
    assert twin.read(lambda tx: tx.ledger.moved(game_id, spending, until, until + timedelta(hours=1))) == {}

    # The scores' spread by event, from the tallies: a's sprint scored 30 and 20 (its mean 25), b's race
    # 40 once.
    assert ScoreSpread.of(tallies) == {
        "sprint": ScoreSpread(scored=2, total=50.0, within=50.0, freedom=1),
        "race": ScoreSpread(scored=1, total=40.0, within=0.0, freedom=0),
    }

    # The entries of the grants of a kind made in the period, summed by key.
    twin.advance(3_600)  # past the period: its grants (the events' rewards) are left out
    _granted(twin, "a", 5)
    _granted(twin, "b", 5)
    _granted(twin, "c", 7)
    end = until + timedelta(hours=1)
    assert twin.read(lambda tx: tx.grants.made(game_id, "reward", until, end)) == {"coins": 17}
    assert twin.read(lambda tx: tx.grants.made(game_id, "crate", until, end)) == {}


def test_an_offers_sales_and_the_grants_made_for_them_read_alike_on_every_store(events: Twin) -> None:
    """The debits whose note starts with a prefix, by note, resource and amount (how many, the last),
    and the latest grant's entries by a source reference that starts with it: what an offer is fitted
    from (livecore/grants/offers.py); and the spends' and the grants' reads without them."""
    twin = events
    game_id = twin.scope.game_id
    _credited(twin, "a", "b")

    def debit(name: str, amount: int, note: str | None, reason: Reason = Reason.CLIENT_DEBIT) -> None:
        twin.do(
            lambda tx, rt: change(
                tx,
                rt,
                twin.scope,
                twin.game(tx),
                twin.player(tx, name),
                resource(twin.game(tx), "coins"),
                -amount,
                reason,
                note=note,
            )
        )

    since = T0 + timedelta(minutes=31)
    debit("a", 10, "offer:chest")
    _granted(twin, "a", 5, "offer:chest")
    debit("b", 10, "offer:chest", Reason.SERVER_DEBIT)  # a studio-managed game's sale
    _granted(twin, "b", 5, "offer:chest")
    debit("a", 3, "other:chest")  # another prefix
    debit("a", 3, None)
    _granted(twin, "a", 9, "studio:chest")
    _granted(twin, "a", 9, None)
    twin.advance(600)
    debit("a", 8, "offer:chest")  # the price cut: the last sale
    _granted(twin, "a", 6, "offer:chest")  # what it gives changed: the latest grant
    debit("b", 4, "offer:gem_pack")
    _granted(twin, "b", 2, "offer:gem_pack")
    twin.advance(600)
    until = T0 + timedelta(minutes=51)
    debit("a", 10, "offer:chest")  # after the period
    _granted(twin, "a", 1, "offer:chest")
    first, last = since, since + timedelta(minutes=10)
    spending = ["client_debit", "server_debit"]

    sales = twin.read(lambda tx: tx.ledger.noted(game_id, spending, "offer:", since, until))
    assert sales == {
        ("offer:chest", "coins", 10): NotedDebits(2, first),
        ("offer:chest", "coins", 8): NotedDebits(1, last),
        ("offer:gem_pack", "coins", 4): NotedDebits(1, last),
    }
    assert twin.read(lambda tx: tx.ledger.noted(game_id, ["client_debit"], "offer:", since, until)) == {
        ("offer:chest", "coins", 10): NotedDebits(1, first),
        ("offer:chest", "coins", 8): NotedDebits(1, last),
        ("offer:gem_pack", "coins", 4): NotedDebits(1, last),
    }
    # A prefix is matched as it is: ``_`` is no wildcard.
    assert twin.read(lambda tx: tx.ledger.noted(game_id, spending, "offer_", since, until)) == {}
    assert twin.read(lambda tx: tx.ledger.noted(game_id, [], "offer:", since, until)) == {}

    made = twin.read(lambda tx: tx.grants.latest(game_id, "offer:", since, until))
    coins = Entry(type=ResourceType.CURRENCY, key="coins", amount=6)
    assert made == {"offer:chest": (coins,), "offer:gem_pack": (attrs.evolve(coins, amount=2),)}
    assert twin.read(lambda tx: tx.grants.latest(game_id, "offer_", since, until)) == {}
    assert twin.read(lambda tx: tx.grants.latest(game_id, "offer:", until, until)) == {}

    # The spends and the grants made, but the sales' (a note or a source reference of none is kept).
    # a's two debits of one instant (3 of 90 coins, then 3 of 87; summed in another order by each store).
    debits = twin.read(
        lambda tx: {
            p: (d.moments, d.entries, round(d.share_sum, 12))
            for p, d in tx.ledger.debits(game_id, spending, since, until, "offer:").items()
        }
    )
    assert debits == {twin.read(lambda tx: twin.player(tx, "a").id): (1, 2, round(3 / 90 + 3 / 87, 12))}
    assert twin.read(lambda tx: tx.ledger.moved(game_id, spending, since, until, "offer:")) == {
        ("client_debit", "coins"): -6
    }
    assert twin.read(lambda tx: tx.ledger.moved(game_id, spending, since, until)) == {
        ("client_debit", "coins"): -28,
        ("server_debit", "coins"): -10,
    }
    assert twin.read(lambda tx: tx.grants.made(game_id, "reward", since, until, "offer:")) == {"coins": 18}
    assert twin.read(lambda tx: tx.grants.made(game_id, "reward", since, until)) == {"coins": 36}


@pytest.fixture
def gifting(twin: Twin) -> Twin:
    """The gifting game on both stores and in memory."""
    with twin.sqlite.transaction() as tx:
        game = twin.game(tx)
    memory = MemoryStore()
    memory.add_game(Studio(id="std_1", key="pg"), game)
    runtimes = [
        Runtime(clock=ManualClock(START), rng=SeededRandomSource(11), hasher=KeyedHasher(b"k" * 32))
        for _ in range(3)
    ]
    return Twin(twin.sqlite, twin.pg, twin.scope, runtimes, memory)


def test_gifts_sent_in_a_period_are_tallied_by_resource_alike_on_every_store(gifting: Twin) -> None:
    twin = gifting
    players(twin, "a", "b", "c", "d")
    befriend(twin, "a", "b")
    befriend(twin, "a", "c")
    befriend(twin, "a", "d")
    befriend(twin, "b", "c")
    credit(twin, "a", "coins", 100)
    credit(twin, "a", "gems", 10)
    credit(twin, "b", "coins", 100)
    send(twin, "a", "b", "coins", 5)
    send(twin, "a", "c", "coins", 3)
    send(twin, "a", "d", "gems", 2)
    twin.advance(61)
    send(twin, "b", "c", "coins", 1)
    ids = {n: twin.read(lambda tx, n=n: twin.player(tx, n).id) for n in "ab"}
    game_id = twin.scope.game_id
    found = twin.read(lambda tx: tx.gifts.sent(game_id, START, START + timedelta(hours=1)))
    assert found == {
        ids["a"]: {"coins": SentGifts(2, 8), "gems": SentGifts(1, 2)},
        ids["b"]: {"coins": SentGifts(1, 1)},
    }
    later = twin.read(
        lambda tx: tx.gifts.sent(game_id, START + timedelta(seconds=30), START + timedelta(hours=1))
    )
    assert later == {ids["b"]: {"coins": SentGifts(1, 1)}}
    assert twin.read(lambda tx: tx.gifts.sent("gam_2", START, START + timedelta(hours=1))) == {}


# --- shared leaderboards: periods, divisions, entries, tiers ------------------------------------------


@pytest.fixture
def leagues(twin: Twin) -> Twin:
    """A game with shared leaderboards (tests/core/leaderboards_machine.py's) on both stores and in
    memory, two hours before a day ends."""
    game = Game(id="gam_3", studio_id="std_1", key="l", name="L", settings=LEAGUE_SETTINGS)
    twin.sqlite.conn.execute(
        "INSERT INTO games (id, studio_id, key, name, settings, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, 0, 0)",
        (
            game.id,
            game.studio_id,
            game.key,
            game.name,
            orjson.dumps(settings_converter.unstructure(game.settings)),
        ),
    )
    twin.pg.put_game(game)
    for store in (twin.sqlite, twin.pg):
        keep_every_event_in(store)  # as the memory store keeps them
    memory = MemoryStore()
    memory.add_game(Studio(id="std_1", key="pg"), game)
    runtimes = [
        Runtime(clock=ManualClock(LEAGUE_T0), rng=SeededRandomSource(13), hasher=KeyedHasher(b"k" * 32))
        for _ in range(3)
    ]
    return Twin(twin.sqlite, twin.pg, attrs.evolve(twin.scope, game_id=game.id), runtimes, memory)


def _submit(twin: Twin, key: str, who: str, score: int) -> Any:
    return twin.do(lambda tx, rt: leaderboards_cmd.submit(tx, rt, twin.scope, key, who, score))


def _rank_keys_agree(twin: Twin, period: Any, division: str | None, top: list[Any]) -> None:
    """Each entry's key: as many entries ahead as its position, the page after it the entries after it."""
    for i, (entry, _) in enumerate(top):
        key = sort_key(period.settings.order, entry)
        assert twin.read(lambda tx, key=key: tx.leaderboards.count_ahead(period, division, key)) == i
        after = twin.read(lambda tx, key=key: tx.leaderboards.page(period, division, key, 2))
        assert after == top[i + 1 : i + 3]
        before = twin.read(lambda tx, key=key: tx.leaderboards.page_before(period, division, key, 2))
        assert before == top[max(0, i - 2) : i]


def test_shared_leaderboards_read_back_alike_on_every_store(leagues: Twin) -> None:
    twin = leagues
    game_id, env = twin.scope.game_id, Environment.TEST
    # xp sums (desc); time keeps the best (asc); league keeps the latest, in divisions of two.
    for who, score in (("a", 30), ("b", 5), ("c", 30), ("d", -4), ("a", 7)):
        _submit(twin, "xp", who, score)
        twin.advance(1)
    for who, score in (("a", 42), ("b", 11), ("a", 50), ("c", 11)):
        _submit(twin, "time", who, score)
    for who, score in (("a", 3), ("b", 9), ("c", 1), ("d", 4), ("e", 6), ("b", 2)):
        _submit(twin, "league", who, score)
    ids = {n: twin.read(lambda tx, n=n: twin.player(tx, n).id) for n in "abcde"}

    xp = twin.read(lambda tx: tx.leaderboards.open_period(game_id, env, "xp"))
    assert (xp.board_key, xp.status, xp.ends_at) == (
        "xp",
        PeriodStatus.OPEN,
        datetime(2026, 3, 3, tzinfo=UTC),
    )
    assert twin.read(lambda tx: tx.leaderboards.period(game_id, xp.id)) == xp
    assert twin.read(lambda tx: tx.leaderboards.period("gam_1", xp.id)) is None  # another game's id
    assert twin.read(lambda tx: tx.leaderboards.open_period(game_id, Environment.LIVE, "xp")) is None
    assert twin.read(lambda tx: tx.leaderboards.latest_finalized(game_id, env, "xp")) is None
    top = twin.read(lambda tx: tx.leaderboards.page(xp, None, None, 10))
    assert [(p.external_id, e.score) for e, p in top] == [("a", 37), ("c", 30), ("b", 5), ("d", -4)]
    _rank_keys_agree(twin, xp, None, top)
    assert twin.read(lambda tx: tx.leaderboards.size(xp.id, None)) == 4
    assert twin.read(lambda tx: tx.leaderboards.entry(xp.id, ids["a"])) == top[0][0]
    assert twin.read(lambda tx: tx.leaderboards.entry(xp.id, "plr_nobody")) is None
    time = twin.read(lambda tx: tx.leaderboards.open_period(game_id, env, "time"))
    time_top = twin.read(lambda tx: tx.leaderboards.page(time, None, None, 10))
    assert [(p.external_id, e.score) for e, p in time_top] == [("b", 11), ("c", 11), ("a", 42)]  # asc
    _rank_keys_agree(twin, time, None, time_top)

    league = twin.read(lambda tx: tx.leaderboards.open_period(game_id, env, "league"))
    divisions = twin.read(lambda tx: tx.leaderboards.divisions_from(league.id, 0, 10))
    assert [(d.tier, d.number, d.members) for d in divisions] == [(0, 0, 2), (0, 1, 2), (0, 2, 1)]
    assert twin.read(lambda tx: tx.leaderboards.divisions_from(league.id, 1, 1)) == divisions[1:2]
    assert twin.read(lambda tx: tx.leaderboards.newest_division(league.id, 0)) == divisions[-1]
    assert twin.read(lambda tx: tx.leaderboards.newest_division(league.id, 1)) is None
    assert twin.read(lambda tx: tx.leaderboards.top_division(league.id)) == divisions[0]
    assert twin.read(lambda tx: tx.leaderboards.division(league.id, divisions[1].id)) == divisions[1]
    assert twin.read(lambda tx: tx.leaderboards.division(xp.id, divisions[1].id)) is None
    first = twin.read(lambda tx: tx.leaderboards.page(league, divisions[0].id, None, 10))
    assert [(p.external_id, e.score) for e, p in first] == [("a", 3), ("b", 2)]  # b's latest counts
    _rank_keys_agree(twin, league, divisions[0].id, first)
    assert twin.read(lambda tx: tx.leaderboards.size(league.id, divisions[1].id)) == 2
    whole = twin.read(lambda tx: tx.leaderboards.page(league, None, None, 10))
    assert [p.external_id for _, p in whole] == ["e", "d", "a", "b", "c"]
    assert twin.read(lambda tx: tx.leaderboards.tier(game_id, env, "league", ids["a"])) == 0
    assert twin.read(lambda tx: tx.leaderboards.tier(game_id, env, "xp", ids["a"])) is None

    # A day later every daily period is due, the oldest end first; the league rolls over in steps.
    assert twin.read(lambda tx: tx.leaderboards.periods_due(LEAGUE_T0, 10)) == []
    twin.advance(86_400)
    due = twin.read(lambda tx: tx.leaderboards.periods_due(twin.runtimes[0].clock.now(), 10))
    assert sorted(p.board_key for p in due) == ["league", "time", "xp"]  # one end: by id
    assert [p.id for p in due] == sorted(p.id for p in due)
    assert twin.read(lambda tx: tx.leaderboards.periods_due(twin.runtimes[0].clock.now(), 1)) == due[:1]
    steps = [
        twin.do(lambda tx, rt: leaderboards_cmd.rollover_step(tx, rt, game_id, league.id, 2))
        for _ in range(2)
    ]
    assert steps == [False, True]
    done = twin.read(lambda tx: tx.leaderboards.latest_finalized(game_id, env, "league"))
    assert (done.id, done.status, done.finalized_through) == (league.id, PeriodStatus.FINALIZED, 3)
    # Each pair's best goes up (bronze to silver); e, alone in a division, and the others stay.
    tiers = twin.read(lambda tx: [tx.leaderboards.tier(game_id, env, "league", ids[n]) for n in "abcde"])
    assert tiers == [1, 0, 0, 1, 0]
    assert twin.read(lambda tx: tx.leaderboards.tiers_of(ids["a"])) == [PlayerTier(game_id, env, "league", 1)]

    # A merge: the target keeps the better entry per period, and the higher tier.
    _submit(twin, "xp", "e", 1)
    _submit(twin, "league", "a", 8)

    def merged(tx: Any, _rt: Runtime) -> Any:
        leaderboards_cmd.merge_entries(tx, ids["a"], twin.player(tx, "e"))
        return tx.leaderboards.entries_of(ids["e"]), tx.leaderboards.tiers_of(ids["e"])

    entries, tiers = twin.do(merged)
    assert {(e.period_id, e.score) for e in entries} >= {(xp.id, 37), (time.id, 42)}  # e had none there
    assert tiers == [PlayerTier(game_id, env, "league", 1)]
    assert twin.read(lambda tx: tx.leaderboards.entries_of(ids["a"])) == []
    assert twin.read(lambda tx: tx.leaderboards.tiers_of(ids["a"])) == []
    twin.read(lambda tx: tx.leaderboards.delete_tier(game_id, env, "league", ids["e"]))
    assert twin.read(lambda tx: tx.leaderboards.tier(game_id, env, "league", ids["e"])) is None
    twin.read(lambda tx: tx.leaderboards.delete_entry(time.id, ids["e"]))
    assert twin.read(lambda tx: tx.leaderboards.size(time.id, None)) == 2


def test_a_merge_moves_shared_entries_and_an_erasure_keeps_them_anonymized(leagues: Twin) -> None:
    twin = leagues
    game_id, env = twin.scope.game_id, Environment.TEST
    for who, score in (("old", 40), ("new", 10), ("other", 20)):
        _submit(twin, "xp", who, score)
        _submit(twin, "league", who, score)
    twin.do(lambda tx, rt: leaderboards_cmd.rollover_now(tx, rt, twin.scope, "league"))
    league = twin.read(lambda tx: tx.leaderboards.latest_finalized(game_id, env, "league"))
    assert league is None  # rolled over but not yet finalized
    old_id = twin.read(lambda tx: twin.player(tx, "old").id)
    twin.read(lambda tx: tx.leaderboards.set_tier(game_id, env, "league", old_id, 2))
    twin.advance(1)
    twin.do(lambda tx, rt: merge(tx, rt, twin.scope, "old", "new"))
    new_id = twin.read(lambda tx: twin.player(tx, "new").id)
    xp = twin.read(lambda tx: tx.leaderboards.open_period(game_id, env, "xp"))
    top = twin.read(lambda tx: tx.leaderboards.page(xp, None, None, 10))
    assert [(p.external_id, e.score) for e, p in top] == [("new", 40), ("other", 20)]  # old's 40 was better
    assert twin.read(lambda tx: tx.leaderboards.tier(game_id, env, "league", new_id)) == 2
    assert twin.read(lambda tx: tx.leaderboards.entries_of(old_id)) == []
    # The divisions count the one entry left of the two.
    periods = {e.period_id for e in twin.read(lambda tx: tx.leaderboards.entries_of(new_id))}
    for period_id in periods:
        for d in twin.read(lambda tx, p=period_id: tx.leaderboards.divisions_from(p, 0, 10)):
            assert d.members == twin.read(lambda tx, p=period_id, d=d: tx.leaderboards.size(p, d.id))
    twin.advance(1)
    twin.do(lambda tx, rt: erase(tx, rt, twin.scope, "new", ErasureReason.GDPR_ERASURE))
    top = twin.read(lambda tx: tx.leaderboards.page(xp, None, None, 10))
    assert [(p.id, e.score) for e, p in top] == [(new_id, 40), (top[1][1].id, 20)]
    assert top[0][1].external_id != "new" and top[0][1].display is None


# --- lobbies and their seats --------------------------------------------------------------------------


def _lobby(n: int, window: Any, created: datetime, segment: str = "FR", **kw: Any) -> Lobby:
    return Lobby(
        id=f"lob_{n:03d}",
        game_id=kw.pop("game_id", window.game_id),
        env=kw.pop("env", window.env),
        event_key=window.event_key,
        event_id=window.event_id,
        window_id=window.id,
        board_id=f"brd_lobby{n}",
        status=kw.pop("status", LobbyStatus.FORMING),
        capacity=4,
        segment_values={"country": segment},
        segment_key=f'{{"country":"{segment}"}}',
        created_at=created,
        ends_at=window.ends_at,
        **kw,
    )


def _refused_everywhere(twin: Twin, seat: Seat) -> None:
    """Each store refuses ``seat`` with its own integrity error, and keeps nothing of the transaction."""
    assert twin.memory is not None
    for store, error in (
        (twin.sqlite, sqlite3.IntegrityError),
        (twin.pg, psycopg.errors.UniqueViolation),
        (twin.memory, KeyError),
    ):
        with pytest.raises(error), store.transaction() as tx:
            tx.lobbies.add_seat(seat)
            tx.lobbies.seats(seat.lobby_id)  # PostgreSQL answers the insert with this read


def test_lobbies_and_seats_read_back_alike_on_every_store(events: Twin) -> None:
    twin = events
    game_id, env = twin.scope.game_id, Environment.TEST
    _credited(twin, "a", "b")
    race, sprint = _start(twin, "a", "race"), _start(twin, "a", "sprint", "FR")
    w1 = twin.read(lambda tx: tx.windows.get(game_id, race.window_id))
    w2 = twin.read(lambda tx: tx.windows.get(game_id, sprint.window_id))
    ids = {n: twin.read(lambda tx, n=n: twin.player(tx, n).id) for n in "ab"}
    t0 = twin.runtimes[0].clock.now()
    second = timedelta(seconds=1)
    l1 = _lobby(1, w1, t0, fill_by=t0 + 30 * second)
    l2 = _lobby(2, w1, t0 - second, "DE", fill_by=t0 + 30 * second)
    l3 = _lobby(3, w1, t0, fill_by=t0 + 60 * second)  # created with l1: after it, by id
    l4 = _lobby(
        4,
        w1,
        t0 - 5 * second,
        status=LobbyStatus.ACTIVE,
        fill_by=t0 + 10 * second,  # passed, but the lobby is no longer forming
        participant_count=4,
        started_at=t0 - second,
        promotion_reason=PromotionReason.CAPACITY,
    )
    l5 = _lobby(5, w1, t0 - 10 * second, status=LobbyStatus.CLOSED, closed_at=t0, terminated_by="boss")
    pushed = {
        "status": LobbyStatus.ACTIVE,
        "started_at": t0,
        "promotion_reason": PromotionReason.EXTERNAL_PUSH,
        "metadata": {"z": 1, "a": [1, None]},
        "push_key": "k1",
    }
    l6 = _lobby(6, w2, t0, **pushed)
    l7 = _lobby(7, w2, t0, env=Environment.LIVE, **pushed)  # the same key, another environment
    l8 = _lobby(8, w2, t0, game_id="gam_1", **pushed)  # and another game
    for lobby in (l1, l2, l3, l4, l5, l6, l7, l8):
        twin.read(lambda tx, lobby=lobby: tx.lobbies.insert(lobby))

    assert twin.read(lambda tx: tx.lobbies.get(game_id, l6.id)) == l6
    assert twin.read(lambda tx: tx.lobbies.get("gam_1", l1.id)) is None  # another game's id
    assert twin.read(lambda tx: tx.lobbies.oldest_forming(w1.id, l1.segment_key)) == l1
    assert twin.read(lambda tx: tx.lobbies.oldest_forming(w1.id, l2.segment_key)) == l2
    assert twin.read(lambda tx: tx.lobbies.oldest_forming(w2.id, l1.segment_key)) is None
    assert twin.read(lambda tx: tx.lobbies.of_window(w1.id)) == [l4, l2, l1, l3]  # l5 is closed
    assert twin.read(lambda tx: tx.lobbies.by_push_key(game_id, env, "k1")) == l6
    assert twin.read(lambda tx: tx.lobbies.by_push_key(game_id, Environment.LIVE, "k1")) == l7
    assert twin.read(lambda tx: tx.lobbies.by_push_key("gam_1", env, "k1")) == l8
    assert twin.read(lambda tx: tx.lobbies.by_push_key(game_id, env, "k2")) is None
    assert twin.read(lambda tx: tx.lobbies.due_to_fill(t0 + 29 * second, 10)) == []
    assert twin.read(lambda tx: tx.lobbies.due_to_fill(t0 + 30 * second, 10)) == [l1, l2]  # one time: by id
    assert twin.read(lambda tx: tx.lobbies.due_to_fill(t0 + 30 * second, 1)) == [l1]
    assert twin.read(lambda tx: tx.lobbies.due_to_fill(t0 + 90 * second, 10)) == [l1, l2, l3]
    assert twin.read(lambda tx: tx.lobbies.next_fill_by()) == t0 + 30 * second

    # Promoted, l1 leaves matchmaking and the scheduler's look-ups; its record reads back whole.
    started = attrs.evolve(
        l1,
        status=LobbyStatus.ACTIVE,
        participant_count=2,
        bot_count=2,
        started_at=t0 + 30 * second,
        promotion_reason=PromotionReason.TIMEOUT,
        metadata={"b": True},
    )
    twin.read(lambda tx: tx.lobbies.update(started))
    assert twin.read(lambda tx: tx.lobbies.get(game_id, l1.id)) == started
    assert twin.read(lambda tx: tx.lobbies.oldest_forming(w1.id, l1.segment_key)) == l3
    assert twin.read(lambda tx: tx.lobbies.due_to_fill(t0 + 90 * second, 10)) == [l2, l3]
    for lobby in (l2, l3):
        twin.read(lambda tx, lobby=lobby: tx.lobbies.update(attrs.evolve(lobby, status=LobbyStatus.CLOSED)))
    assert twin.read(lambda tx: tx.lobbies.next_fill_by()) is None
    assert twin.read(lambda tx: tx.lobbies.of_window(w1.id)) == [l4, started]

    # Seats in the order taken (one millisecond: by seat id); a player's newest first (one millisecond:
    # the greater lobby id first).
    a3 = Seat(l3.id, w1.id, ids["a"], t0 + second, SeatSource.MATCHMAKING, external_player_id="a")
    b3 = Seat(l3.id, w1.id, ids["b"], t0, SeatSource.MATCHMAKING, external_player_id="b")
    bot = Seat(
        l3.id,
        w1.id,
        "bot_01",
        t0 + second,
        SeatSource.BOT,
        identity=Identity("Brave Fox 07", "a.png"),
        final_score=12.5,
    )
    quiet = Seat(l3.id, w1.id, "bot_02", t0 + second, SeatSource.BOT, identity=Identity("Quiet Owl 01", None))
    a6 = Seat(l6.id, w2.id, ids["a"], t0 + second, SeatSource.SERVER_PUSH, external_player_id="a")
    for seat in (a3, b3, bot, quiet, a6):
        twin.read(lambda tx, seat=seat: tx.lobbies.add_seat(seat))
    assert twin.read(lambda tx: tx.lobbies.seats(l3.id)) == [b3, bot, quiet, a3]
    assert twin.read(lambda tx: tx.lobbies.seats(l1.id)) == []
    assert twin.read(lambda tx: tx.lobbies.seat_in_window(w1.id, ids["a"])) == a3
    assert twin.read(lambda tx: tx.lobbies.seat_in_window(w2.id, ids["b"])) is None
    assert twin.read(lambda tx: tx.lobbies.seats_of(ids["a"], 10)) == [a6, a3]
    assert twin.read(lambda tx: tx.lobbies.seats_of(ids["a"], 1)) == [a6]
    assert twin.read(lambda tx: tx.lobbies.seats_of("bot_01", 10)) == [bot]

    # One seat per player per window: a second lobby of the window refuses a, and so does its own.
    _refused_everywhere(twin, attrs.evolve(a3, lobby_id=l1.id, joined_at=t0 + 2 * second))
    _refused_everywhere(twin, attrs.evolve(a3, joined_at=t0 + 2 * second))
    assert twin.read(lambda tx: tx.lobbies.seats_of(ids["a"], 10)) == [a6, a3]
    # A seat given up frees the window for the player.
    twin.read(lambda tx: tx.lobbies.delete_seat(l3.id, ids["a"]))
    assert twin.read(lambda tx: tx.lobbies.seat_in_window(w1.id, ids["a"])) is None
    a1 = attrs.evolve(a3, lobby_id=l1.id, joined_at=t0 + 3 * second)
    twin.read(lambda tx: tx.lobbies.add_seat(a1))
    assert twin.read(lambda tx: tx.lobbies.seat_in_window(w1.id, ids["a"])) == a1
    assert twin.read(lambda tx: tx.lobbies.seats(l3.id)) == [b3, bot, quiet]


def test_lobby_seats_move_on_merge_one_per_window_and_take_the_placeholder_on_erasure(events: Twin) -> None:
    twin = events
    game_id = twin.scope.game_id
    _credited(twin, "a", "b")
    race, sprint = _start(twin, "a", "race"), _start(twin, "a", "sprint", "FR")
    w1 = twin.read(lambda tx: tx.windows.get(game_id, race.window_id))
    w2 = twin.read(lambda tx: tx.windows.get(game_id, sprint.window_id))
    a, b = (twin.read(lambda tx, n=n: twin.player(tx, n)) for n in "ab")
    t0 = twin.runtimes[0].clock.now()
    l1 = _lobby(1, w1, t0, participant_count=2, bot_count=1)
    l2 = _lobby(2, w1, t0, participant_count=1)
    l3 = _lobby(3, w2, t0, status=LobbyStatus.CLOSED, participant_count=1, closed_at=t0)
    a1 = Seat(l1.id, w1.id, a.id, t0, SeatSource.MATCHMAKING, external_player_id="a")
    bot = Seat(
        l1.id, w1.id, "bot_01", t0, SeatSource.BOT, identity=Identity("Brave Fox 07", None), final_score=1
    )
    b2 = Seat(l2.id, w1.id, b.id, t0, SeatSource.MATCHMAKING, external_player_id="b")
    a3 = Seat(l3.id, w2.id, a.id, t0, SeatSource.SERVER_PUSH, external_player_id="a")
    for lobby in (l1, l2, l3):
        twin.read(lambda tx, lobby=lobby: tx.lobbies.insert(lobby))
    for seat in (a1, bot, b2, a3):
        twin.read(lambda tx, seat=seat: tx.lobbies.add_seat(seat))
    # Forming and active lobbies count; a closed one does not.
    assert twin.read(lambda tx: tx.lobbies.running_count(a.id)) == 1
    assert twin.read(lambda tx: tx.lobbies.running_count(b.id)) == 1
    assert twin.read(lambda tx: tx.lobbies.running_count("nobody")) == 0

    # A merge of a into b: in w1, where b sits already, a's seat goes and l1 counts one fewer; in w2 it
    # becomes b's.
    twin.read(lambda tx: tx.lobbies.reassign(a.id, b))
    assert twin.read(lambda tx: tx.lobbies.seats(l1.id)) == [bot]
    assert twin.read(lambda tx: tx.lobbies.get(game_id, l1.id)) == attrs.evolve(l1, participant_count=1)
    assert twin.read(lambda tx: tx.lobbies.get(game_id, l2.id)) == l2
    assert twin.read(lambda tx: tx.lobbies.seats(l2.id)) == [b2]
    moved = attrs.evolve(a3, seat_id=b.id, external_player_id="b")
    assert twin.read(lambda tx: tx.lobbies.seat_in_window(w2.id, b.id)) == moved
    assert twin.read(lambda tx: tx.lobbies.seats_of(a.id, 10)) == []
    assert twin.read(lambda tx: tx.lobbies.seats_of(b.id, 10)) == [moved, b2]  # one millisecond: by lobby id

    # An erasure: the same row under its placeholder keeps every seat, and every count.
    kept = attrs.evolve(b, external_id="__deleted_x__")
    twin.read(lambda tx: tx.lobbies.reassign(b.id, kept))
    assert twin.read(lambda tx: tx.lobbies.seats_of(b.id, 10)) == [
        attrs.evolve(moved, external_player_id="__deleted_x__"),
        attrs.evolve(b2, external_player_id="__deleted_x__"),
    ]
    assert twin.read(lambda tx: tx.lobbies.get(game_id, l2.id)) == l2
    assert twin.read(lambda tx: tx.lobbies.get(game_id, l3.id)) == l3
    assert twin.read(lambda tx: tx.lobbies.running_count(b.id)) == 1
