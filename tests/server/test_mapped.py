"""A record's insert and row conversions derived from its declared table (livecore_server.storage.mapped):
what each kind of column is written as and read back as, and what a declaration that does not fit its
record is refused with."""

from __future__ import annotations

import enum
from datetime import UTC, datetime
from typing import Any

import attrs
import pytest

from livecore.economy.rules import Reason
from livecore_server.storage.mapped import Convert, Mapped
from livecore_server.storage.schema import (
    BIGINT,
    BOOL,
    JSON,
    MS,
    POSTGRES,
    SEQ,
    Column,
    Only,
    nullable,
    table,
)


class Colour(enum.StrEnum):
    RED = "red"


@attrs.frozen
class Note:
    id: str
    colour: Colour
    reason: Reason
    at: datetime
    seen_at: datetime | None
    pinned: bool
    count: int
    data: dict[str, Any]
    tags: tuple[str, ...]
    owner_name: str = ""


NOTES = table(
    "notes",
    Column("seq", SEQ, only=Only(POSTGRES, "insertion order")),
    Column("id"),
    Column("colour"),
    Column("reason"),
    Column("at", MS),
    nullable("seen_at", MS),
    Column("flag", BOOL),
    Column("count", BIGINT),
    Column("data", JSON),
    Column("tags"),
)
AT = datetime(2026, 1, 2, 3, 4, 5, 6000, tzinfo=UTC)
NOTE = Note("n1", Colour.RED, Reason.GRANT, AT, None, True, 3, {"b": 1, "a": [2]}, ("x", "y"))
TAGS = Convert(",".join, lambda text: tuple(text.split(",")))


def test_a_record_is_written_as_its_columns_and_read_back_whole() -> None:
    notes = Mapped(
        NOTES,
        Note,
        alias="n",
        attributes={"flag": "pinned"},
        convert={"tags": TAGS},
        joined={"owner_name": "o.name"},
    )
    # The column the database numbers, and one of a single dialect, are neither written nor read.
    assert notes.insert.sql == (
        "INSERT INTO notes (id, colour, reason, at, seen_at, flag, count, data, tags)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    params = notes.params(NOTE)
    assert params == ("n1", "red", "grant", 1767323045006, None, True, 3, '{"b":1,"a":[2]}', "x,y")
    assert [type(p) for p in params[1:3]] == [str, str]
    assert (
        notes.columns.sql
        == "n.id, n.colour, n.reason, n.at, n.seen_at, n.flag, n.count, n.data, n.tags, o.name"
    )
    # SQLite gives a flag back as 1.
    read = notes.columns.of((*params[:5], 1, *params[6:], "Ada"))
    assert read == attrs.evolve(NOTE, owner_name="Ada")
    assert read.pinned is True and read.reason is Reason.GRANT
    later = attrs.evolve(NOTE, seen_at=AT)
    assert notes.columns.of((*notes.params(later), "")) == later


def test_a_declaration_that_does_not_fit_its_record_is_refused() -> None:
    with pytest.raises(TypeError, match="no attribute flag"):
        Mapped(NOTES, Note, convert={"tags": TAGS})
    with pytest.raises(TypeError, match="no column pinned"):
        Mapped(NOTES, Note, attributes={"pinned": "pinned"})
    with pytest.raises(TypeError, match="no attribute owner"):
        Mapped(NOTES, Note, attributes={"flag": "pinned"}, joined={"owner": "o.name"})


@attrs.frozen
class Score:
    id: str
    player_id: str
    score: float
    milestones: tuple[str, ...]


SCORES = table(
    "scores",
    Column("id"),
    Column("player_id"),
    Column("score"),
    Column("rank_key"),
    Column("milestones", JSON),
)


def test_a_computed_column_is_written_not_read_and_a_replacing_insert_rewrites_the_rest() -> None:
    scores = Mapped(SCORES, Score, computed={"rank_key": lambda s: -s.score}, replaces=("id",))
    assert scores.insert.sql == (
        "INSERT INTO scores (id, player_id, score, rank_key, milestones) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (id) DO UPDATE SET player_id = excluded.player_id, score = excluded.score,"
        " rank_key = excluded.rank_key, milestones = excluded.milestones"
    )
    score = Score("s1", "p1", 2.5, ("a", "b"))
    assert scores.params(score) == ("s1", "p1", 2.5, -2.5, '["a","b"]')
    # The SELECT leaves the computed column out; a JSON document held in a tuple is read back as one.
    assert scores.columns.sql == "id, player_id, score, milestones"
    assert scores.columns.of(("s1", "p1", 2.5, '["a","b"]')) == score
    with pytest.raises(TypeError, match="no column rank"):
        Mapped(SCORES, Score, computed={"rank": lambda s: -s.score})
