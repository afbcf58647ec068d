"""The ledger port in memory."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import attrs

from livecore.economy.rules import DebitTally, Holding, LedgerEntry, NotedDebits
from livecore.economy.store import Ledger
from livecore.memory.journal import AreaPort


@attrs.define
class EconomyTables:
    """The economy area's tables in memory."""

    holdings: dict[tuple[str, str], Holding] = attrs.field(factory=dict)  # (player id, resource key)
    entries: list[LedgerEntry] = attrs.field(factory=list)


class MemoryLedger(AreaPort[EconomyTables]):
    __slots__ = ()
    TABLES = EconomyTables

    def balances_of(self, player_ids: list[str], keys: list[str]) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for (pid, key), h in self._t.holdings.items():
            if pid in player_ids and key in keys:
                out.setdefault(pid, {})[key] = h.amount
        return out

    def holding(self, player_id: str, key: str) -> Holding:
        return self._t.holdings.get((player_id, key)) or Holding(key=key)

    def holdings(self, player_id: str) -> dict[str, Holding]:
        return {k: h for (p, k), h in self._t.holdings.items() if p == player_id}

    def append(self, entry: LedgerEntry, holding: Holding) -> None:
        entries = self._t.entries
        entries.append(entry)
        self._tx.undo.append(entries.pop)
        self._tx.put(self._t.holdings, (entry.player_id, entry.resource_key), holding)

    def entries(self, player_id: str, key: str | None = None) -> list[LedgerEntry]:
        return [
            e for e in self._t.entries if e.player_id == player_id and (key is None or e.resource_key == key)
        ]

    def debits(
        self,
        game_id: str,
        reasons: Sequence[str],
        since: datetime,
        until: datetime,
        except_noted: str | None = None,
    ) -> dict[str, DebitTally]:
        moments: dict[str, set[datetime]] = {}
        counts: dict[str, list[float]] = {}  # -> entries, share sum, inverse sum
        for e in self._t.entries:
            if e.delta < 0 and _among(e, game_id, reasons, since, until, except_noted):
                moments.setdefault(e.player_id, set()).add(e.created_at)
                tally = counts.setdefault(e.player_id, [0, 0.0, 0.0])
                tally[0] += 1
                tally[1] += -e.delta / (e.balance_after - e.delta)
                tally[2] += 1 / (e.balance_after - e.delta)
        return {
            p: DebitTally(len(moments[p]), int(n), share, inverse)
            for p, (n, share, inverse) in counts.items()
        }

    def moved(
        self,
        game_id: str,
        reasons: Sequence[str],
        since: datetime,
        until: datetime,
        except_noted: str | None = None,
    ) -> dict[tuple[str, str], int]:
        sums: dict[tuple[str, str], int] = {}
        for e in self._t.entries:
            if _among(e, game_id, reasons, since, until, except_noted):
                key = (e.reason.value, e.resource_key)
                sums[key] = sums.get(key, 0) + e.delta
        return sums

    def noted(
        self, game_id: str, reasons: Sequence[str], prefix: str, since: datetime, until: datetime
    ) -> dict[tuple[str, str, int], NotedDebits]:
        found: dict[tuple[str, str, int], NotedDebits] = {}
        for e in self._t.entries:
            note = e.note or ""
            if note.startswith(prefix) and e.delta < 0 and _among(e, game_id, reasons, since, until, None):
                key = (note, e.resource_key, -e.delta)
                before = found.get(key)
                if before is None:
                    found[key] = NotedDebits(1, e.created_at)
                else:
                    found[key] = NotedDebits(before.count + 1, max(before.last, e.created_at))
        return found

    def move(self, from_id: str, to_id: str, holdings: dict[str, Holding]) -> None:
        store = self._t
        before = store.entries
        store.entries = [attrs.evolve(e, player_id=to_id) if e.player_id == from_id else e for e in before]
        self._tx.undo.append(lambda: setattr(store, "entries", before))
        for pid, key in [k for k in store.holdings if k[0] == from_id]:
            self._tx.drop(store.holdings, (pid, key))
        for key, held in holdings.items():
            self._tx.put(store.holdings, (to_id, key), held)


def _among(
    e: LedgerEntry,
    game_id: str,
    reasons: Sequence[str],
    since: datetime,
    until: datetime,
    except_noted: str | None,
) -> bool:
    """Whether a fitting's read counts the entry: a game's, for one of ``reasons``, in the period, and
    not noted with ``except_noted`` first."""
    if e.game_id != game_id or e.reason not in reasons or not since <= e.created_at < until:
        return False
    return except_noted is None or e.note is None or not e.note.startswith(except_noted)


def _implements_the_port(port: MemoryLedger) -> Ledger:
    return port  # mypy checks the class against the area's port here
