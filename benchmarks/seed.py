"""Seeding a shared leaderboard with many entries, straight through the store.

Scores submitted over HTTP cost a request each; a board of 100,000 entries would take minutes of setup.
This opens the run's own database in the bench's process and runs the same commands the server runs
(``first_contact`` without webhooks, as a migration does, then ``record_score``), a few thousand to a
transaction, while the server is idle or not yet started. The entries are what submissions would have
made, in the period holding now.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from livecore.clock import to_millis
from livecore.commands import Runtime
from livecore.games import Order
from livecore.hashing import KeyedHasher
from livecore.leaderboards.commands import record_score
from livecore.leaderboards.settings import LEADERBOARD_SETTINGS
from livecore.players.commands import first_contact, register
from livecore.players.identity import Identity
from livecore.players.rules import Player
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore_server.clock import SystemClock
from livecore_server.leaderboards.sql import PUT_ENTRY as PUT_SHARED_ENTRY
from livecore_server.players.rows import player_row
from livecore_server.players.sql import INSERT_PLAYER
from livecore_server.registry import storage
from livecore_server.storage.postgres import PostgresStore
from livecore_server.storage.schema import POSTGRES, SQLITE
from livecore_server.storage.server_store import ServerStore, ServerTransaction, open_store
from livecore_server.storage.sqlite import SqliteStore
from livecore_server.storage.sqlport import Insert

BATCH = 2_000


def score_of(i: int) -> float:
    """Distinct, scattered scores: player i's place on the board is not i."""
    return float((i * 7_919) % 1_000_003)


def seed_board(db: str, studio_id: str, game_id: str, board_key: str, n: int, prefix: str) -> list[str]:
    """``n`` test-environment players ``<prefix>-<i>``, each with one score on ``board_key``; their
    external ids."""
    store = open_store(db, areas=storage())
    rt = Runtime(SystemClock(), SeededRandomSource(n), KeyedHasher(b"bench-seed" * 4))
    scope = Scope(studio_id=studio_id, game_id=game_id, env=Environment.TEST)
    names = [f"{prefix}-{i}" for i in range(n)]

    def batch(start: int) -> None:
        def write(tx: ServerTransaction) -> None:
            game = tx.games.get(game_id)
            assert game is not None
            settings = game.settings.of(LEADERBOARD_SETTINGS)[board_key]
            now = rt.clock.now()
            for i in range(start, min(n, start + BATCH)):
                player = first_contact(tx, rt, scope, names[i], announce=False)
                record_score(tx, game, scope.env, settings, player, score_of(i), now)

        store.run(write)

    try:
        for start in range(0, n, BATCH):
            batch(start)
    finally:
        store.close()
    return names


def seed_players(
    db: str, studio_id: str, game_id: str, n: int, prefix: str, hasher: KeyedHasher
) -> list[str]:
    """``n`` registered test-environment players ``<prefix>-<i>`` (``player.registered`` each, as a
    register request makes); their secrets, hashed with ``hasher``: the server's, for them to work."""
    store = open_store(db, areas=storage())
    rt = Runtime(SystemClock(), SeededRandomSource(n), hasher)
    scope = Scope(studio_id=studio_id, game_id=game_id, env=Environment.TEST)
    secrets: list[str] = []

    def batch(names: list[str]) -> list[str]:
        def write(tx: ServerTransaction) -> list[str]:
            return [register(tx, rt, scope, name).secret for name in names]

        return store.run(write)

    try:
        for start in range(0, n, BATCH):
            secrets += batch([f"{prefix}-{i}" for i in range(start, min(n, start + BATCH))])
    finally:
        store.close()
    return secrets


def seed_ranked(
    db: str, studio_id: str, game_id: str, board_key: str, n: int, prefix: str, sample: int
) -> list[str]:
    """``n`` test-environment players ``<prefix>-<i>`` with a score each on ``board_key`` (all-time,
    ``desc``), written straight into the store's tables: a million through the commands would take an
    hour. The first goes through the commands (it opens the period); the others are rows made by the
    store's own row functions, loaded in bulk (PostgreSQL's COPY, SQLite's executemany), and the rank
    pages are then made as the migration that added them makes them. Answers the external ids of
    ``sample`` players at ranks drawn uniformly."""
    seed_board(db, studio_id, game_id, board_key, 1, prefix)
    store = open_store(db, areas=storage())
    try:
        period = store.run(lambda tx: tx.leaderboards.open_period(game_id, Environment.TEST, board_key))
        assert period is not None and period.settings.order is Order.DESC
        first = store.run(lambda tx: tx.leaderboards.page(period, None, None, 1))[0][0]
        now = first.reached_at
        players = (
            player_row(
                Player(
                    id=f"plr_{i:032x}",
                    game_id=game_id,
                    env=Environment.TEST,
                    external_id=f"{prefix}-{i}",
                    first_seen_at=now,
                    last_seen_at=now,
                    anonymized=Identity(name=f"Ranked {i}", avatar=None),
                )
            )
            for i in range(1, n)
        )
        entries = (
            (period.id, f"plr_{i:032x}", score_of(i), -score_of(i), to_millis(now), None) for i in range(1, n)
        )
        _load(store, INSERT_PLAYER, players)
        _load(store, PUT_SHARED_ENTRY, entries)
        _repage(store)
    finally:
        store.close()
    by_rank = sorted(range(n), key=lambda i: -score_of(i))
    return [f"{prefix}-{by_rank[r]}" for r in random.Random(n).sample(range(n), min(sample, n))]


def _load(store: ServerStore, insert: Insert, rows: Iterable[tuple[Any, ...]]) -> None:
    """Rows into the insert's table, in bulk."""
    if isinstance(store, SqliteStore):
        # One transaction (the store's connection is in autocommit: a transaction per row otherwise).
        store.conn.execute("BEGIN")
        store.conn.executemany(
            f"INSERT INTO {insert.table} ({', '.join(insert.columns)}) VALUES " + insert.row, rows
        )
        store.conn.execute("COMMIT")
        return
    assert isinstance(store, PostgresStore)
    with (
        store.connection() as conn,
        conn.cursor().copy(f"COPY {insert.table} ({', '.join(insert.columns)}) FROM STDIN") as copy,
    ):
        for row in rows:
            copy.write_row(row)


def _repage(store: ServerStore) -> None:
    """Every period's rank pages made again from its entries (nothing else writes during setup), and on
    PostgreSQL the tables' statistics and visibility taken, as autovacuum would after such a load."""
    try:
        from livecore_server.leaderboards.sql import PAGES as SHARED_PAGES
        from livecore_server.live_events.sql.rank_pages import paged
    except ImportError:  # a server from before the rank pages (a before side of benchmarks.alternate)
        repage = []
    else:
        dialect = SQLITE if isinstance(store, SqliteStore) else POSTGRES
        repage = ["DELETE FROM shared_pages", paged(SHARED_PAGES, dialect)]
    if isinstance(store, SqliteStore):
        store.conn.execute("BEGIN")
        for statement in repage:
            store.conn.execute(statement)
        store.conn.execute("COMMIT")
        return
    assert isinstance(store, PostgresStore)
    with store.connection() as conn:
        for statement in repage:
            conn.execute(statement)
        for table in ("players", "shared_entries", *(("shared_pages",) if repage else ())):
            conn.execute(f"VACUUM ANALYZE {table}")
