"""The core's bounds on numbers, entries, arrays and names (docs/reference/conventions.md#limits),
without a server: the embedded simulation refuses what the server refuses."""

from __future__ import annotations

import typing
from datetime import UTC, datetime
from typing import Any

import attrs
import pytest

from livecore.api.convert import camel, structure
from livecore.errors import LivecoreError
from livecore.games import Order
from livecore.leaderboards.rules import SharedEntry, combine
from livecore.leaderboards.settings import Aggregation
from livecore.limits import FREE_FORM, SAFE_INTEGER_MAX, board_number_problem, saturate
from livecore.names import fold
from livecore.teams.rules import TeamMember, team_score
from livecore.teams.settings import Formation, TeamSettings
from tests import installed as routes

NOW = datetime(2026, 3, 2, tzinfo=UTC)


@pytest.mark.parametrize("value", [float("inf"), float("nan"), 1e308, 10**100, 2**53, -(2**53), True, "1"])
def test_a_number_outside_the_board_bound_has_a_problem(value: Any) -> None:
    assert board_number_problem(value) is not None


@pytest.mark.parametrize("value", [0, -SAFE_INTEGER_MAX, SAFE_INTEGER_MAX, 1.5, -2.25])
def test_a_number_inside_the_board_bound_has_none(value: float) -> None:
    assert board_number_problem(value) is None


def test_a_summed_board_saturates_at_the_bound() -> None:
    assert combine(Aggregation.SUM, Order.DESC, SAFE_INTEGER_MAX, SAFE_INTEGER_MAX) == SAFE_INTEGER_MAX
    assert combine(Aggregation.SUM, Order.DESC, -SAFE_INTEGER_MAX, -5) == -SAFE_INTEGER_MAX
    assert saturate(1e300) == SAFE_INTEGER_MAX


def test_a_team_score_saturates_at_the_bound() -> None:
    settings = TeamSettings(formation=Formation.EXTERNAL, size=4)
    members = [
        TeamMember(f"tms_{i}", "team_x", "win_x", f"plr_{i}", f"p{i}", NOW, contribution=SAFE_INTEGER_MAX)
        for i in range(3)
    ]
    assert team_score(settings, members) == SAFE_INTEGER_MAX


@pytest.mark.parametrize("score", [float("inf"), float("nan"), 2.0**60])
def test_a_stored_score_can_never_be_outside_the_bound(score: float) -> None:
    with pytest.raises(ValueError, match="outside the board bound"):
        SharedEntry(period_id="lbp_x", player_id="plr_x", score=score, reached_at=NOW)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Star Pilots", "star\u00a0pilots"),
        ("Star Pilots", "STAR\u2003PILOTS"),
        ("Star Pilots", "Star\u3000Pilots"),
        ("Star Pilots", "  Star   Pilots "),
        ("Star Pilots", "\uff33\uff54\uff41\uff52 Pilots"),
        ("Strasse", "Stra\u00dfe"),
    ],
)
def test_names_that_only_look_different_fold_alike(a: str, b: str) -> None:
    assert fold(a) == fold(b)


def test_names_that_differ_fold_apart() -> None:
    assert fold("Star Pilots") != fold("StarPilots")


# --- every array field of every request --------------------------------------------------------------


def _array_fields(cls: type, path: str = "") -> list[tuple[type, str]]:
    """(model, wire name) of every list, tuple or set field of ``cls`` (nested models included)."""
    found: list[tuple[type, str]] = []
    hints = typing.get_type_hints(cls)
    for f in attrs.fields(cls):
        tp = hints[f.name]
        for arg in (tp, *typing.get_args(tp)):
            if typing.get_origin(arg) in (list, tuple, set, frozenset):
                found.append((cls, camel(f.name)))
            elif attrs.has(arg):
                found += _array_fields(arg)
    return found


ARRAY_FIELDS = sorted(
    {(cls, name) for r in routes.ALL if r.request is not None for cls, name in _array_fields(r.request)},
    key=lambda x: (x[0].__qualname__, x[1]),
)


@pytest.mark.parametrize(("cls", "name"), ARRAY_FIELDS, ids=lambda x: getattr(x, "__qualname__", x))
@pytest.mark.parametrize("value", ["abc", "5", {"a": 1}])
def test_every_array_field_refuses_what_is_not_an_array(cls: type, name: str, value: Any) -> None:
    with pytest.raises(LivecoreError) as caught:
        structure({name: value}, cls)
    assert caught.value.details is not None
    assert caught.value.details["fields"][name] == "must be an array"


def _nested(levels: int) -> dict[str, Any]:
    """An object ``levels`` deep, itself included."""
    value: dict[str, Any] = {}
    for _ in range(levels - 1):
        value = {"a": value}
    return value


@pytest.mark.parametrize(
    ("value", "field", "problem"),
    [
        ({"level": float("nan")}, "attributes.level", "must be a finite number"),
        ({"level": float("inf")}, "attributes.level", "must be a finite number"),
        ({"tags": [1, {"n": -float("inf")}]}, "attributes.tags[1].n", "must be a finite number"),
        ({"level": 2**63}, "attributes.level", "must fit in signed 64 bits"),
        ({"level": -(2**63) - 1}, "attributes.level", "must fit in signed 64 bits"),
        ({"level": 10**4000}, "attributes.level", "must fit in signed 64 bits"),
        (_nested(33), "attributes", "must not nest deeper than 32 levels"),
        ({"a": [_nested(50)]}, "attributes", "must not nest deeper than 32 levels"),
        ({"color": "x" * 5000}, "attributes", "must be at most 4 KiB as compact JSON"),
    ],
)
def test_a_free_form_object_holds_only_what_json_and_64_bit_stores_carry(
    value: dict[str, Any], field: str, problem: str
) -> None:
    """One check of free-form objects (a request's, the manifest's), named at the path at fault."""
    with pytest.raises(LivecoreError) as caught:
        FREE_FORM.check(value, "attributes")
    assert caught.value.details == {"fields": {field: problem}}


@pytest.mark.parametrize(
    "value",
    [{"level": 2**63 - 1, "low": -(2**63), "x": 1e308, "ok": [True, None, "s"]}, _nested(32)],
)
def test_a_free_form_object_within_the_limits_passes(value: dict[str, Any]) -> None:
    assert FREE_FORM.check(value, "attributes") is value
