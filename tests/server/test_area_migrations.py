"""A database built before the areas had migrations of their own is upgraded without losing a row.

The first migrations built several areas' tables (PostgreSQL's ``0001_core`` those of seven areas; SQLite's
came with the migrations of the areas that needed them, ``0004_economy_and_grants``, ``0005_friends``,
``0009_gifts``, ``0010_player_tools``). Each area now builds its own tables in its
own migrations, recorded as ``<area>:<name>``; one that took over work recorded under an older name is
recognised by it (:class:`~livecore_server.storage.history.Recognised`) and recorded without running.

``layout_before_area_migrations.json`` keeps the service's history as the last version before the split
applied it (each dialect's migrations, by name, as SQL; the two name folds, data steps, left out): a
database built from it, at any point of that history, is migrated by this version to exactly the
declared schema, and its gifts read back as they were written.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import attrs
import pytest

from livecore.games import ResourceType
from livecore.gifts.rules import Gift, GiftStatus
from livecore_server.gifts import schema as gifts_schema
from livecore_server.gifts.rows import GIFT, GIFT_COLUMNS, GIFT_FROM
from livecore_server.registry import storage
from livecore_server.storage import history
from livecore_server.storage.area_storage import AreaMigration
from livecore_server.storage.history import Recognised, to_run
from livecore_server.storage.mapped import Mapped
from livecore_server.storage.schema import POSTGRES, SQLITE, Dialect, Schema, nullable
from tests.server.test_schema_declared import (
    Database,
    PostgresDatabase,
    SqliteDatabase,
    declared_catalogue,
    differences,
)

OLD: dict[str, list[tuple[str, list[str]]]] = {
    dialect: [(name, steps) for name, steps in migrations]
    for dialect, migrations in json.loads(
        Path(__file__).with_name("layout_before_area_migrations.json").read_text()
    ).items()
}

SENT = datetime(2026, 3, 1, 12, 0, 0, 123000, tzinfo=UTC)
GIFT_KEPT = Gift(
    id="gft_1",
    grant_id="grt_1",
    game_id="gam_1",
    sender_id="ply_ann",
    sender_external_id="ann",
    recipient_id="ply_bob",
    recipient_external_id="bob",
    type=ResourceType.CURRENCY,
    resource_key="coins",
    amount=5,
    message="for you",
    status=GiftStatus.PENDING,
    sent_at=SENT,
    expires_at=None,
    deducted_from_sender=True,
    idempotency_key="k1",
)


def build_old(db: Database, upto: int | None = None) -> list[str]:
    """The database as the version before the split left it after the first ``upto`` migrations of its
    history (all of them by default), with their names recorded; the names."""
    old = OLD[db.dialect][:upto]
    db.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)")
    for name, steps in old:
        for step in steps:
            db.execute(step)
        db.execute(f"INSERT INTO _migrations (name, applied_at) VALUES ('{name}', {time.time_ns() // 10**6})")
    return [name for name, _ in old]


def put_gift(db: Database, gift: Gift) -> None:
    """A game, the two players and ``gift``, written as the gifts port writes a gift."""
    now = 1_700_000_000_000
    db.execute(
        "INSERT INTO games (id, studio_id, key, name, settings, created_at, updated_at)"
        f" VALUES ('{gift.game_id}', 'std_1', 'g', 'G', '{{}}', {now}, {now})"
    )
    for player, external in (
        (gift.sender_id, gift.sender_external_id),
        (gift.recipient_id, gift.recipient_external_id),
    ):
        db.execute(
            "INSERT INTO players (id, game_id, env, external_id, first_seen_at, last_seen_at, anon_name)"
            f" VALUES ('{player}', '{gift.game_id}', 'test', '{external}', {now}, {now}, 'Anon')"
        )
    mark = "?" if db.dialect == SQLITE else "%s"
    db.conn.execute(GIFT.insert.sql.replace("?", mark), GIFT.params(gift))


def gifts(db: Database) -> list[Gift]:
    rows: Any = db.conn.execute(f"SELECT {GIFT_COLUMNS.sql} {GIFT_FROM} ORDER BY g.id")
    return [GIFT_COLUMNS.of(row) for row in rows.fetchall()]


def migrate(db: Database) -> list[str]:
    if isinstance(db, SqliteDatabase):
        from livecore_server.storage import sqlite

        return sqlite.migrate(db.conn, storage().history.sqlite)
    from livecore_server.storage import postgres

    return postgres.migrate(db.conn, storage())


@pytest.fixture(params=[SQLITE, POSTGRES])
def dialect(request: pytest.FixtureRequest) -> Dialect:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def databases() -> Iterator[list[Database]]:
    made: list[Database] = []
    yield made
    for db in made:
        db.close()


def new_database(dialect: Dialect, tmp_path: Path, made: list[Database]) -> Database:
    db: Database = SqliteDatabase(tmp_path / f"{len(made)}.db") if dialect == SQLITE else PostgresDatabase()
    made.append(db)
    return db


def test_a_database_built_before_the_split_is_recognised_and_keeps_its_rows(
    dialect: Dialect, tmp_path: Path, databases: list[Database]
) -> None:
    db = new_database(dialect, tmp_path, databases)
    old_names = build_old(db)
    put_gift(db, GIFT_KEPT)
    applied = migrate(db)
    new_names = [name for name, _ in getattr(storage().history, dialect)]
    # Everything this version names is recorded now; what the old names built is recognised, not rebuilt
    # (a rebuilt table would have lost the row, a created one would have failed).
    assert set(applied) == set(new_names) - set(old_names)
    assert {"gifts:0001_gifts", "gifts:0002_drop_gifts_by_recipient"} <= set(applied)
    assert differences(declared_catalogue(db.dialect, db.trigram_ops()), db.catalogue()) == []
    assert gifts(db) == [GIFT_KEPT]
    assert migrate(db) == []
    later = attrs.evolve(GIFT_KEPT, id="gft_2", grant_id="grt_2", idempotency_key=None, expires_at=SENT)
    db.conn.execute(GIFT.insert.sql.replace("?", "?" if dialect == SQLITE else "%s"), GIFT.params(later))
    assert gifts(db) == [GIFT_KEPT, later]


# Where the old history stops: before and after each migration of an area that now has its own (every one
# recognised by an old name), and before a data fix of a table another area built (SQLite's 0023 and
# PostgreSQL's 0015 fix grants).
PART_WAY = [
    (SQLITE, n) for n in (1, 3, 4, 5, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 20, 22, 23, 24, 28, 30)
] + [(POSTGRES, n) for n in (1, 6, 7, 9, 10, 12, 14, 15, 16, 20, 21, 22)]


@pytest.mark.parametrize(("dialect", "upto"), PART_WAY)
def test_a_database_part_way_through_the_old_history_is_completed(
    dialect: Dialect, tmp_path: Path, databases: list[Database], upto: int
) -> None:
    """A database an older version built, not the last before the split, gets what it lacks: the service's
    later migrations run, the areas' recognise what is already there."""
    db = new_database(dialect, tmp_path, databases)
    build_old(db, upto)
    migrate(db)
    assert differences(declared_catalogue(db.dialect, db.trigram_ops()), db.catalogue()) == []


def test_a_fresh_database_records_the_areas_migrations_under_their_names(
    dialect: Dialect, tmp_path: Path, databases: list[Database]
) -> None:
    db = new_database(dialect, tmp_path, databases)
    applied = migrate(db)
    assert applied == [name for name, _ in getattr(storage().history, dialect)]
    assert [n for n in applied if n.startswith("gifts:")] == [
        "gifts:0001_gifts",
        "gifts:0002_drop_gifts_by_recipient",
    ]
    put_gift(db, GIFT_KEPT)
    assert gifts(db) == [GIFT_KEPT]


def test_a_recognised_migration_runs_only_where_what_it_builds_is_missing() -> None:
    steps: Sequence[history.Step] = [Recognised(("0001_core", "0002_more")), "CREATE TABLE t (x INT)"]
    assert to_run(steps, {"0001_core", "0002_more"}) == ()
    assert to_run(steps, {"0001_core"}) == ["CREATE TABLE t (x INT)"]
    assert to_run(steps, set()) == ["CREATE TABLE t (x INT)"]
    with pytest.raises(ValueError, match="first step"):
        to_run(["SELECT 1", Recognised(("a",))], set())


def test_a_migration_recognised_by_a_name_still_applied_is_refused() -> None:
    """SQLite applies each migration on its own: a database that recorded the name part-way would skip
    the work of the migration recognised by it."""
    with pytest.raises(ValueError, match="0009_gifts"):
        history.assembled(
            [
                history.History(
                    sqlite=(
                        ("0009_gifts", ["SELECT 1"]),
                        ("0010_more", [Recognised(("0009_gifts",)), "SELECT 1"]),
                    )
                )
            ]
        )


@attrs.frozen
class WrappedGift(Gift):
    wrapping: str | None = None


def test_a_field_added_to_gifts_is_a_column_and_a_migration(
    dialect: Dialect, tmp_path: Path, databases: list[Database]
) -> None:
    """The worked example of docs/extending.md#adding-a-stored-field: a column declared ``since`` a
    migration, and that migration rendered from the declaration; the insert and the reads follow."""
    table = gifts_schema.SCHEMA.table("gifts")
    wrapped = attrs.evolve(table, columns=(*table.columns, nullable("wrapping", since="0003_gift_wrapping")))
    declared = Schema((wrapped,), gifts_schema.SCHEMA.indexes)
    migration = AreaMigration.adding("0003_gift_wrapping", declared)
    assert migration.sqlite == ["ALTER TABLE gifts ADD COLUMN wrapping TEXT"]
    assert migration.postgres == ['ALTER TABLE gifts ADD COLUMN wrapping TEXT COLLATE "C"']
    creating = AreaMigration.creating("0001_gifts", declared, "gifts").sqlite
    assert not any(isinstance(s, str) and "wrapping" in s for s in creating)
    db = new_database(dialect, tmp_path, databases)
    migrate(db)
    put_gift(db, GIFT_KEPT)
    for statement in migration.sqlite if dialect == SQLITE else migration.postgres:
        assert isinstance(statement, str)
        db.execute(statement)
    whole = storage().schema
    whole = attrs.evolve(whole, tables=tuple(wrapped if t.name == "gifts" else t for t in whole.tables))
    assert differences(declared_catalogue(db.dialect, db.trigram_ops(), whole), db.catalogue()) == []
    mapped = Mapped(
        wrapped,
        WrappedGift,
        alias="g",
        attributes={"deducted": "deducted_from_sender"},
        joined={"sender_external_id": "s.external_id", "recipient_external_id": "r.external_id"},
    )
    assert mapped.insert.columns[-1] == "wrapping"
    wrapped_gift = WrappedGift(
        **{**attrs.asdict(GIFT_KEPT, recurse=False), "id": "gft_2", "grant_id": "grt_2"}
    )
    wrapped_gift = attrs.evolve(wrapped_gift, idempotency_key=None, wrapping="gold")
    mark = "?" if dialect == SQLITE else "%s"
    db.conn.execute(mapped.insert.sql.replace("?", mark), mapped.params(wrapped_gift))
    rows: Any = db.conn.execute(f"SELECT {mapped.columns.sql} {GIFT_FROM} ORDER BY g.id")
    assert [mapped.columns.of(row) for row in rows.fetchall()] == [
        WrappedGift(**attrs.asdict(GIFT_KEPT, recurse=False)),
        wrapped_gift,
    ]
