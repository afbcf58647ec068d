"""The ledger port. The ledger: append-only entries; a holding (balance and item parameters) moves with each
entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from livecore.economy.rules import DebitTally, Holding, LedgerEntry, NotedDebits


class Ledger(Protocol):
    def balances_of(self, player_ids: list[str], keys: list[str]) -> dict[str, dict[str, int]]:
        """Balances of ``keys`` for many players at once (progression on a page of rows)."""
        ...

    def holding(self, player_id: str, key: str) -> Holding: ...

    def holdings(self, player_id: str) -> dict[str, Holding]: ...

    def append(self, entry: LedgerEntry, holding: Holding) -> None: ...

    def entries(self, player_id: str, key: str | None = None) -> list[LedgerEntry]: ...

    def debits(
        self,
        game_id: str,
        reasons: Sequence[str],
        since: datetime,
        until: datetime,
        except_noted: str | None = None,
    ) -> dict[str, DebitTally]:
        """Player id -> its debits of a game for one of ``reasons`` from ``since`` to before ``until``,
        but those whose note starts with ``except_noted``, tallied, in one read."""
        ...

    def moved(
        self,
        game_id: str,
        reasons: Sequence[str],
        since: datetime,
        until: datetime,
        except_noted: str | None = None,
    ) -> dict[tuple[str, str], int]:
        """(reason, resource key) -> the entries' deltas summed, of a game's entries for one of
        ``reasons`` from ``since`` to before ``until``, but those whose note starts with
        ``except_noted``, in one read."""
        ...

    def noted(
        self, game_id: str, reasons: Sequence[str], prefix: str, since: datetime, until: datetime
    ) -> dict[tuple[str, str, int], NotedDebits]:
        """(note, resource key, amount) -> the debits of a game for one of ``reasons`` whose note starts
        with ``prefix``, from ``since`` to before ``until``, of that amount (taken), in one read."""
        ...

    def move(self, from_id: str, to_id: str, holdings: dict[str, Holding]) -> None:
        """Every ledger entry of ``from_id`` becomes ``to_id``'s; ``from_id`` holds nothing after, and
        ``to_id``'s holdings become ``holdings``."""
        ...


class HasLedger(Protocol):
    """A transaction that reaches the ledger port."""

    @property
    def ledger(self) -> Ledger: ...
