"""The erasures port. What an erasure leaves behind: the latest erasure of each external id hash."""

from __future__ import annotations

from typing import Protocol

from livecore.player_tools.erasure import ErasureRecord


class ErasureStore(Protocol):
    def get(self, game_id: str, external_id_hash: str) -> ErasureRecord | None:
        """The latest erasure of a player once known by this id hash."""
        ...

    def insert(self, record: ErasureRecord) -> None: ...


class HasErasures(Protocol):
    """A transaction that reaches the erasures port."""

    @property
    def erasures(self) -> ErasureStore: ...
