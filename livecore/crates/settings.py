"""Crates' settings: ``[games.<key>.crates.<key>]`` (docs/grants.md#crates), read from the manifest by
:data:`livecore.crates.manifest.CRATES`, held in a game's settings under :data:`CRATE_SETTINGS` by crate key.
"""

from __future__ import annotations

import attrs

from livecore.games import Entry, SettingsKey


@attrs.frozen
class CrateRow:
    """One row of a crate's reward table: drawn with probability ``weight`` over the table's total
    weight, it gives every one of ``rewards``."""

    weight: int
    rewards: tuple[Entry, ...]


@attrs.frozen
class CrateSettings:
    """``[games.<game>.crates.<key>]`` (docs/grants.md#crates): opening one crate draws ``rolls`` rows
    of ``table``, with replacement."""

    table: tuple[CrateRow, ...]
    rolls: int = 1


CRATE_SETTINGS: SettingsKey[dict[str, CrateSettings]] = SettingsKey("crates", dict[str, CrateSettings], {})
