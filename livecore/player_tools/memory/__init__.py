"""The player tools area's ports in memory (merges, erasures, migration keys), over its tables."""

from __future__ import annotations

import attrs

from livecore.player_tools.erasure import ErasureRecord
from livecore.player_tools.merge import MergeRecord


@attrs.define
class PlayerToolTables:
    """The player tools area's tables in memory."""

    # (game id, env, original external id) and (game id, id hash) -> the latest record
    merges: dict[tuple[str, str, str], MergeRecord] = attrs.field(factory=dict)
    erasures: dict[tuple[str, str], ErasureRecord] = attrs.field(factory=dict)
    migration_keys: dict[tuple[str, str, str, str], str] = attrs.field(
        factory=dict
    )  # (game, env, kind, key) -> fp
