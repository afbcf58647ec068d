"""The merges port. What a merge leaves behind: the latest merge of each external id that was merged away."""

from __future__ import annotations

from typing import Protocol

from livecore.player_tools.merge import MergeRecord
from livecore.scope import Environment


class MergeStore(Protocol):
    def get(self, game_id: str, env: Environment, from_external_id: str) -> MergeRecord | None:
        """The latest merge of a player once known by this external id."""
        ...

    def insert(self, record: MergeRecord) -> None: ...

    def forget_into(self, player_id: str) -> None:
        """Drop the records of merges into this player (it is being erased: they hold original ids)."""
        ...


class HasMerges(Protocol):
    """A transaction that reaches the merges port."""

    @property
    def merges(self) -> MergeStore: ...
