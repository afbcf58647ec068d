"""Inserts held back and sent together on PostgreSQL (livecore_server.storage.postgres_batches): which
statements may be held back, and how together() turns them into few statements with the same effect.
(That they leave the same database as statements sent one by one is a property in
test_postgres_prefetch.py, on a real database.)"""

from __future__ import annotations

import pytest

from livecore_server.storage.postgres import PostgresTransaction
from livecore_server.storage.postgres_batches import MAX_PARAMETERS, shape_of, together

OUTBOX = "INSERT INTO outbox (id, kind) VALUES (?, ?)"
GIFT = "INSERT INTO gifts (id, sender_id) VALUES (?, ?)"
HOLDING = (
    "INSERT INTO holdings (player_id, resource_key, amount) VALUES (?, ?, ?)"
    " ON CONFLICT (player_id, resource_key) DO UPDATE SET amount = excluded.amount"
)
PLAIN_HOLDING = "INSERT INTO holdings (player_id, resource_key, amount) VALUES (?, ?, ?)"


@pytest.mark.parametrize(
    "statement",
    [
        OUTBOX,
        HOLDING,
        PostgresTransaction.PUT_IDEMPOTENT,
        "INSERT INTO ledger (id, player_id) VALUES (?, ?)",
        "INSERT INTO grants (id) VALUES (?)",
    ],
)
def test_an_insert_of_a_batched_table_is_held_back(statement: str) -> None:
    assert shape_of(statement) is not None


@pytest.mark.parametrize(
    "statement",
    [
        # Other tables: players are what the held-back rows point to (their foreign keys).
        "INSERT INTO players (id, game_id) VALUES (?, ?)",
        "INSERT INTO friendships (player_id, friend_id, since) VALUES (?, ?, ?)",
        # Anything but one plain row of placeholders, or a conflict target that is not a column list.
        "UPDATE outbox SET data = ? WHERE id = ?",
        "INSERT INTO outbox (id, kind) VALUES (?, 'x')",
        "INSERT INTO outbox (id, kind) VALUES (?, ?) RETURNING seq",
        "INSERT INTO outbox (id, kind) VALUES (?, ?) ON CONFLICT DO NOTHING",
        "INSERT INTO outbox (id, kind) VALUES (?, ?) ON CONFLICT ON CONSTRAINT pk DO NOTHING",
        "INSERT INTO outbox (id, kind) VALUES (?, ?, ?)",
        "INSERT INTO outbox (id, kind) SELECT ?, ?",
    ],
)
def test_any_other_statement_goes_out_as_it_comes(statement: str) -> None:
    assert shape_of(statement) is None


def test_rows_of_one_table_go_out_in_one_statement_in_their_order() -> None:
    writes = [
        (OUTBOX, ("e1", "gift.sent")),
        (GIFT, ("g1", "ann")),
        (OUTBOX, ("e2", "grant.created")),
        (GIFT, ("g2", "bob")),
        (OUTBOX, ("e3", "gift.sent")),
    ]
    assert together(writes) == [
        (
            "INSERT INTO outbox (id, kind) VALUES (?, ?), (?, ?), (?, ?)",
            ["e1", "gift.sent", "e2", "grant.created", "e3", "gift.sent"],
        ),
        ("INSERT INTO gifts (id, sender_id) VALUES (?, ?), (?, ?)", ["g1", "ann", "g2", "bob"]),
    ]


def test_a_single_row_goes_out_as_it_came() -> None:
    assert together([(GIFT, ("g1", "ann"))]) == [(GIFT, ("g1", "ann"))]


def test_a_repeated_conflict_key_starts_the_next_statements() -> None:
    """PostgreSQL refuses to change one row twice in one INSERT ... ON CONFLICT: the second change of a
    balance goes out after the first, and so does everything held after it."""
    writes = [
        (HOLDING, ("ann", "gold", 7)),
        (HOLDING, ("bob", "gold", 1)),
        (OUTBOX, ("e1", "economy")),
        (HOLDING, ("ann", "gold", 4)),
        (HOLDING, ("ann", "gems", 2)),
    ]
    sent = together(writes)
    assert [params for _, params in sent] == [
        ["ann", "gold", 7, "bob", "gold", 1],
        ("e1", "economy"),
        ["ann", "gold", 4, "ann", "gems", 2],
    ]
    assert sent[0][0] == HOLDING.replace("(?, ?, ?)", "(?, ?, ?), (?, ?, ?)")


def test_another_statement_form_for_a_table_starts_the_next_statements() -> None:
    writes = [
        (HOLDING, ("ann", "gold", 7)),
        (PLAIN_HOLDING, ("bob", "gold", 1)),
        (HOLDING, ("cid", "gold", 2)),
    ]
    assert [params for _, params in together(writes)] == [
        ("ann", "gold", 7),
        ("bob", "gold", 1),
        ("cid", "gold", 2),
    ]


def test_a_statement_stays_under_postgresqls_parameter_limit() -> None:
    rows = MAX_PARAMETERS // 2 + 1
    sent = together([(GIFT, (f"g{i}", "ann")) for i in range(rows)])
    assert [len(params) for _, params in sent] == [MAX_PARAMETERS, 2]
