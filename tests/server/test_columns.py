"""A record's SELECT list and its converter come from one declaration (livecore_server.storage.columns)."""

from __future__ import annotations

from typing import Any

import pytest

from livecore_server.players.rows import CARD_COLUMNS, PLAYER_COLUMNS
from livecore_server.storage.columns import Columns


def _pair(first: Any, second: Any) -> tuple[Any, Any]:
    return first, second


def test_the_builders_parameters_are_the_select_list() -> None:
    pair = Columns(_pair)
    assert pair.names == ("first", "second")
    assert pair.sql == "first, second"
    assert pair.width == 2
    assert pair.of(("a", "b")) == ("a", "b")


def test_an_alias_qualifies_the_plain_columns_and_an_expression_replaces_one() -> None:
    pair = Columns(_pair, "t", second="u.other")
    assert pair.sql == "t.first, u.other"
    assert pair.qualified("e") == "e.first, u.other"
    assert pair.qualified("e", first="k.key") == "k.key, u.other"


def test_an_expression_must_name_a_parameter() -> None:
    with pytest.raises(TypeError, match="third"):
        Columns(_pair, third="x")


def test_split_builds_from_the_leading_columns_and_leaves_the_rest() -> None:
    record, rest = Columns(_pair).split(("a", "b", "c", "d"))
    assert record == ("a", "b")
    assert tuple(rest) == ("c", "d")


def test_a_declaration_is_not_sql_text() -> None:
    with pytest.raises(TypeError, match=r"\.sql"):
        f"SELECT {Columns(_pair)} FROM t"


def test_the_shared_declarations_read_the_tables_columns() -> None:
    assert PLAYER_COLUMNS.names[:4] == ("id", "game_id", "env", "external_id")
    assert CARD_COLUMNS.sql.startswith("p.id, p.external_id, COALESCE(p.display_name, p.anon_name)")
