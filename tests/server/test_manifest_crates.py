"""A game's crates (docs/grants.md#crates): ``[games.X.crates.<key>]`` with its weighted table and ``rolls``,
its refusals field by field, and its round trip through the stored settings JSON."""

from __future__ import annotations

import orjson
import pytest

from livecore.crates.rules import ROLLS, TABLE, WEIGHT
from livecore.crates.settings import CRATE_SETTINGS, CrateRow, CrateSettings
from livecore.games import Entry, GameSettings, ResourceType
from livecore.manifest import ManifestError
from livecore_server.manifest import parse_manifest
from livecore_server.storage.records import settings_converter

GAME = """studio = "acme"

[games.g]
name = "G"

[games.g.resources.coins]
type = "currency"

[games.g.resources.sword]
type = "item"
"""
COINS = '{ type = "currency", key = "coins", amount = 50 }'
SWORD = '{ type = "item", key = "sword", amount = 1, parameters = { level = 2 } }'
C = "games.g.crates.bronze-chest"


def crate(table: str | None = None, key: str = "bronze-chest", **fields: str) -> str:
    """A crate with every field, with ``table`` (its rows' TOML) and ``fields`` replaced or added (an
    empty value removes the field)."""
    rows = (
        table
        if table is not None
        else f"[{{ weight = 70, rewards = [{COINS}] }}, {{ weight = 30, rewards = [{SWORD}] }}]"
    )
    body = {"rolls": "1", "table": rows, **fields}
    return f'\n[games.g.crates."{key}"]\n' + "".join(f"{n} = {v}\n" for n, v in body.items() if v)


def row(weight: str = "10", rewards: str = f"[{COINS}]") -> str:
    return f"{{ weight = {weight}, rewards = {rewards} }}"


def crates_of(text: str) -> dict[str, CrateSettings]:
    return parse_manifest(text).games["g"].settings().of(CRATE_SETTINGS)


def problems_of(text: str) -> dict[str, str]:
    with pytest.raises(ManifestError) as caught:
        parse_manifest(text)
    return caught.value.problems


def test_decisions_crate_example_becomes_crate_settings() -> None:
    assert crates_of(GAME + crate()) == {
        "bronze-chest": CrateSettings(
            table=(
                CrateRow(70, (Entry(ResourceType.CURRENCY, "coins", 50),)),
                CrateRow(30, (Entry(ResourceType.ITEM, "sword", 1, {"level": 2}),)),
            ),
            rolls=1,
        )
    }


def test_rolls_defaults_to_one() -> None:
    assert crates_of(GAME + crate(rolls=""))["bronze-chest"].rolls == 1


def test_a_row_with_no_rewards_is_a_row_that_gives_nothing() -> None:
    found = crates_of(GAME + crate(f"[{row('9')}, {row('1', '[]')}]"))
    assert found["bronze-chest"].table[1] == CrateRow(1, ())


def test_a_game_without_crates_has_none() -> None:
    assert crates_of(GAME) == {}


def test_the_table_is_required() -> None:
    assert f"{C}.table" in problems_of(GAME + crate(table=""))


def test_an_empty_table_is_refused() -> None:
    assert "rows" in problems_of(GAME + crate("[]"))[f"{C}.table"]


def test_a_table_of_more_than_the_maximum_rows_is_refused() -> None:
    rows = ", ".join(row() for _ in range((TABLE.max_items or 0) + 1))
    assert f"{C}.table" in problems_of(GAME + crate(f"[{rows}]"))


@pytest.mark.parametrize("weight", ["0", "-5", str(WEIGHT.maximum + 1)])
def test_a_weight_outside_its_range_is_refused(weight: str) -> None:
    assert "from 1 to" in problems_of(GAME + crate(f"[{row(weight)}]"))[f"{C}.table[0].weight"]


def test_a_weight_that_is_not_a_whole_number_is_refused() -> None:
    assert f"{C}.table[0].weight" in problems_of(GAME + crate(f"[{row('2.5')}]"))


def test_a_row_without_a_weight_is_refused() -> None:
    assert f"{C}.table[0].weight" in problems_of(GAME + crate(f"[{{ rewards = [{COINS}] }}]"))


@pytest.mark.parametrize("rolls", ["0", str(ROLLS.maximum + 1)])
def test_rolls_outside_their_range_are_refused(rolls: str) -> None:
    assert "draws per crate" in problems_of(GAME + crate(rolls=rolls))[f"{C}.rolls"]


def test_rolls_that_are_not_a_whole_number_are_refused() -> None:
    assert f"{C}.rolls" in problems_of(GAME + crate(rolls='"3"'))


def test_a_reward_naming_an_undeclared_resource_is_refused() -> None:
    bad = '[{ type = "currency", key = "gems", amount = 5 }]'
    problem = problems_of(GAME + crate(f"[{row('1', bad)}]"))[f"{C}.table[0].rewards[0].key"]
    assert "no currency named gems" in problem


def test_a_reward_of_the_wrong_type_for_its_key_is_refused() -> None:
    bad = '[{ type = "item", key = "coins", amount = 5 }]'
    problem = problems_of(GAME + crate(f"[{row('1', bad)}]"))[f"{C}.table[0].rewards[0].key"]
    assert "declared with type currency" in problem


def test_a_reward_naming_a_system_item_is_refused() -> None:
    bad = '[{ type = "item", key = "sessions", amount = 1 }]'
    assert "system item" in problems_of(GAME + crate(f"[{row('1', bad)}]"))[f"{C}.table[0].rewards[0].key"]


def test_a_reward_amount_below_one_is_refused() -> None:
    bad = '[{ type = "currency", key = "coins", amount = 0 }]'
    assert f"{C}.table[0].rewards[0].amount" in problems_of(GAME + crate(f"[{row('1', bad)}]"))


def test_parameters_on_a_currency_reward_are_refused() -> None:
    bad = '[{ type = "currency", key = "coins", amount = 1, parameters = { a = 1 } }]'
    problems = problems_of(GAME + crate(f"[{row('1', bad)}]"))
    assert problems[f"{C}.table[0].rewards[0].parameters"] == "only items carry parameters"


def test_an_unknown_field_of_a_crate_is_refused() -> None:
    assert f"{C}.draws" in problems_of(GAME + crate(draws="2"))


def test_an_unknown_field_of_a_row_is_refused() -> None:
    assert f"{C}.table[0].chance" in problems_of(GAME + crate("[{ weight = 1, rewards = [], chance = 2 }]"))


def test_a_crate_key_outside_the_key_pattern_is_refused() -> None:
    assert "games.g.crates.Bronze Chest" in problems_of(GAME + crate(key="Bronze Chest"))


def test_crate_settings_round_trip_through_the_stored_settings_json() -> None:
    settings = parse_manifest(GAME + crate()).games["g"].settings()
    stored = orjson.loads(orjson.dumps(settings_converter.unstructure(settings)))

    back = settings_converter.structure(stored, GameSettings)
    assert back == settings
    assert isinstance(back.of(CRATE_SETTINGS)["bronze-chest"].table, tuple)
    assert back.of(CRATE_SETTINGS)["bronze-chest"].table[1].rewards[0].parameters == {"level": 2}


def test_settings_stored_before_crates_still_load() -> None:
    settings = parse_manifest(GAME).games["g"].settings()
    stored = orjson.loads(orjson.dumps(settings_converter.unstructure(settings)))
    del stored["crates"]

    assert settings_converter.structure(stored, GameSettings).of(CRATE_SETTINGS) == {}


def test_the_demo_manifest_declares_two_crates() -> None:
    from livecore_server.manifest import demo_manifest

    crates = demo_manifest().games["space-race"].settings().of(CRATE_SETTINGS)
    assert set(crates) == {"bronze-chest", "gem-box"}
    assert crates["gem-box"].rolls == 3 and crates["gem-box"].table[-1].rewards == ()
