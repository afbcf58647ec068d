"""Crates' section of a game's manifest: ``[games.<key>.crates.<key>]`` (docs/grants.md#crates,
docs/reference/manifest-and-cli.md#manifest)::

    .crates.<key>   table (required: a list of { weight, rewards }, both required; rewards may be []),
                    rolls = 1

The crate key matches the key pattern; ``table`` holds 1 to 100 rows; a row's ``weight`` is a whole number
from 1 to 1,000,000; ``rolls`` from 1 to 100; ``rewards`` entries as an event's rewards (declared resources
of that type, ``amount`` 1 to 10^12, ``parameters`` only on items); an empty ``rewards`` is a row that
gives nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from livecore.crates.rules import ROLLS, TABLE, WEIGHT
from livecore.crates.settings import CRATE_SETTINGS, CrateRow, CrateSettings
from livecore.section import Problems, Rules, Section, entry_references, items, key, within


def _table_rows(value: Any, path: str, problems: Problems) -> None:
    if isinstance(value, list) and not (TABLE.min_items <= len(value) <= (TABLE.max_items or len(value))):
        problems[path] = f"must hold {TABLE.describe()} rows: a crate draws from its table"


def _references(game: Mapping[str, Any], path: str, problems: Problems, _: Mapping[str, Any]) -> None:
    """The rewards of every row of every crate's table name the game's declared resources."""
    crates = game.get("crates")
    if not isinstance(crates, dict):
        return
    lists = [
        (f"{path}.crates.{key_}.table[{i}].rewards", False, row.get("rewards"))
        for key_, crate in crates.items()
        if isinstance(crate, dict)
        for i, row in items(crate, "table")
    ]
    entry_references(lists, game, problems)


CRATES = Section(
    key="crates",
    record=dict[str, CrateSettings],
    default=dict,
    holds=CRATE_SETTINGS,
    rules=Rules(
        fields={
            (CrateSettings, "rolls"): within(ROLLS, " draws per crate"),
            (CrateSettings, "table"): _table_rows,
            (CrateRow, "weight"): within(WEIGHT, ""),
        }
    ),
    key_rule=key,
    check=_references,
)
