"""What the OpenAPI documents declare is what the service checks, from one declaration per rule
(livecore.limits): a string's pattern allows exactly the characters its rule allows, a query's declared
bounds are checked as it is read, an integer written ``2.0`` is the integer 2, and a date or a timestamp a
query names is declared as one (docs/reference/conventions.md#requests)."""

from __future__ import annotations

import re
from typing import Any

import attrs
import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from livecore.api.convert import camel, structure, structure_query
from livecore.api.openapi import build_document
from livecore.api.route import Surface
from livecore.economy.api import AdjustWalletRequest
from livecore.errors import LivecoreError
from livecore.guilds.api import GuildListQuery
from livecore.limits import ID, MOMENT, Text, character_problem, count_of, rule_of
from livecore.purchases.api import RevenueQuery, SpendPlayersQuery
from tests import installed as routes

RULES = [
    ID,
    Text(max_length=200),
    Text(min_length=1, max_length=200, trim=True),
    Text(min_length=1, max_length=200, trim=True, plain=True),
]


@pytest.mark.parametrize("rule", RULES, ids=repr)
@given(value=st.text(max_size=12))
def test_a_string_s_pattern_allows_the_characters_its_rule_allows(rule: Text, value: str) -> None:
    # Lengths are the schema's minLength and maxLength, not the pattern's: the pattern has the characters,
    # and for a trimmed value that may not be empty, one that is not white space.
    allowed = character_problem(value, plain=rule.plain) is None
    if rule.trim and rule.min_length:
        allowed = allowed and bool(value.strip())
    assert (re.search(rule.pattern(), value) is not None) == allowed


@pytest.mark.parametrize("value", ["abc\n", "a\u200bb", "bidi\u202e", "\x7f", "tag\U000e0041"])
def test_a_name_s_pattern_refuses_a_control_or_format_character_anywhere(value: str) -> None:
    assert re.search(ID.pattern(), value) is None
    assert ID.problem(value) is not None


def _refused(fn: Any) -> dict[str, str]:
    with pytest.raises(LivecoreError) as caught:
        fn()
    fields: dict[str, str] = caught.value.details["fields"]
    return fields


def test_a_query_s_declared_bounds_are_checked_as_it_is_read() -> None:
    assert "player" in _refused(lambda: structure_query({"player": [""]}, GuildListQuery))
    assert "player" in _refused(lambda: structure_query({"player": ["p" * 201]}, GuildListQuery))
    assert "offset" in _refused(lambda: structure_query({"offset": ["-1"]}, GuildListQuery))
    assert structure_query({"player": ["p" * 200]}, GuildListQuery).player == "p" * 200


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("windowDays", "0"),
        ("windowDays", "3651"),
        ("limit", "0"),
        ("limit", "201"),
        ("offset", "-1"),
        ("minAmountMinor", "-1"),
    ],
)
def test_a_spend_query_names_the_parameter_it_refuses(name: str, value: str) -> None:
    assert list(_refused(lambda: structure_query({name: [value]}, SpendPlayersQuery))) == [name]


@pytest.mark.parametrize("value", ["2026-11-25", "2026-11-25T10:00:00Z", "2026-11-25T10:00:00.5+05:30"])
def test_a_date_or_a_timestamp_is_a_moment(value: str) -> None:
    assert structure_query({"from": [value]}, RevenueQuery).from_ == value


@pytest.mark.parametrize("value", ["yesterday", "2026-13-01", "2026-11-25T10:00:00", ""])
def test_anything_else_is_not(value: str) -> None:
    assert list(_refused(lambda: structure_query({"from": [value]}, RevenueQuery))) == ["from"]


def test_the_last_day_of_the_calendar_is_a_moment_to_its_last_millisecond() -> None:
    assert MOMENT.parse("9999-12-31", "to", end=True).isoformat() == "9999-12-31T23:59:59.999000+00:00"


@pytest.mark.parametrize("written", ["2", "2.0", "2e0"])
def test_an_integer_written_with_a_fraction_of_zero_is_that_integer(written: str) -> None:
    body = structure(orjson.loads(f'{{"amount": {written}}}'), AdjustWalletRequest)
    assert body.amount == 2 and type(body.amount) is int


@pytest.mark.parametrize("written", [2.5, float("inf"), 1e300, True])
def test_an_integer_field_still_refuses_what_is_not_a_64_bit_integer(written: Any) -> None:
    assert "amount" in _refused(lambda: structure({"amount": written}, AdjustWalletRequest))


def _parameters(doc: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (op["operationId"], p["name"]): p
        for item in doc["paths"].values()
        for method, op in item.items()
        if method != "parameters"
        for p in op.get("parameters", [])
        if "name" in p
    }


@pytest.mark.parametrize("surface", [Surface.SDK, Surface.SERVER])
def test_every_query_bound_the_service_keeps_is_in_its_document(surface: Surface) -> None:
    doc = build_document(surface, routes.ALL, version="test")
    published = _parameters(doc)
    for route in routes.ALL:
        if route.surface is not surface or route.query is None:
            continue
        for field in attrs.fields(route.query):
            rule, count = rule_of(field), count_of(field)
            if rule is None and count is None:
                continue
            schema = published[(route.name, camel(field.name))]["schema"]
            declared = schema.get("items", schema) if count is not None else schema
            assert declared.get("description") or "minimum" in declared, (route.name, field.name)


@pytest.mark.parametrize("surface", [Surface.SDK, Surface.SERVER])
def test_a_required_idempotency_key_is_marked_required(surface: Surface) -> None:
    doc = build_document(surface, routes.ALL, version="test")
    published = _parameters(doc)
    for route in routes.ALL:
        if route.surface is not surface or route.idempotency.value != "required":
            continue
        header = published[(route.name, "Idempotency-Key")]
        body = route.request and attrs.fields_dict(route.request).get("idempotency_key")
        body_required = bool(body) and body.default is attrs.NOTHING  # type: ignore[union-attr]
        assert header["required"] is not body_required, route.name
