"""Inserts held back and sent together on PostgreSQL (livecore_server.storage.postgres_batches): how
together() turns declared inserts into few statements with the same effect. (That they leave the same
database as statements sent one by one is a property in test_postgres_prefetch.py, on a real database.)"""

from __future__ import annotations

from livecore_server.economy.sql import INSERT_ENTRY, PUT_HOLDING
from livecore_server.gifts.rows import GIFT as GIFT_ROW
from livecore_server.grants.sql import INSERT_GRANT
from livecore_server.players.sql import INSERT_PLAYER
from livecore_server.storage.postgres_batches import BATCHED_TABLES, MAX_PARAMETERS, together
from livecore_server.storage.sql.idempotency import PUT_RECORD
from livecore_server.storage.sql.outbox import INSERT_EVENT
from livecore_server.storage.sqlport import Insert

OUTBOX = Insert("outbox", ("id", "kind"))
GIFT = Insert("gifts", ("id", "sender_id"))
HOLDING = Insert(
    "holdings",
    ("player_id", "resource_key", "amount"),
    conflict=("player_id", "resource_key"),
    action="DO UPDATE SET amount = excluded.amount",
)
PLAIN_HOLDING = Insert("holdings", ("player_id", "resource_key", "amount"))


def test_a_declared_insert_is_the_statement_it_names() -> None:
    assert HOLDING.sql == (
        "INSERT INTO holdings (player_id, resource_key, amount) VALUES (?, ?, ?)"
        " ON CONFLICT (player_id, resource_key) DO UPDATE SET amount = excluded.amount"
    )
    assert HOLDING.key == (0, 1)
    assert OUTBOX.sql == "INSERT INTO outbox (id, kind) VALUES (?, ?)" and OUTBOX.key == ()


def test_the_ports_batch_the_inserts_of_a_send_and_never_a_players_row() -> None:
    """What a gift send inserts may be held back; players are what the held-back rows point to (their
    foreign keys), so a player's row always goes out as it comes."""
    assert {
        i.table for i in (GIFT_ROW.insert, INSERT_GRANT, PUT_RECORD, INSERT_ENTRY, PUT_HOLDING, INSERT_EVENT)
    } <= (BATCHED_TABLES)
    assert INSERT_PLAYER.table not in BATCHED_TABLES


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
    assert together([(GIFT, ("g1", "ann"))]) == [(GIFT.sql, ("g1", "ann"))]


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
    assert sent[0][0] == HOLDING.sql.replace("(?, ?, ?)", "(?, ?, ?), (?, ?, ?)")


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
