"""Reads a write makes ahead of running, on SQLite (what stays exact and how: :mod:`.read_ahead`).

SQLite runs in-process, so a read costs no round trip; what it costs is the statement itself, and a
write's port reads one row each. A write's declared reads (:class:`livecore.commands.reads.Reads`) are
read here with joins instead: the caller and the other players it names together with its idempotency
record in one statement, then what the areas' commands declared, as each area reads it
(:class:`~.read_ahead.ReadAhead`: a gift send's friendship, statistics, earlier gift of its key and
balance in one statement, a gift claim's gift with its grant, its sender and the recipient's holding in
another).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from livecore.commands.reads import PlayerKey, Reads
from livecore_server.storage.read_ahead import PlayerRows, Prefetched, ReadAheads
from livecore_server.storage.rows import STORED_RESPONSE_COLUMNS
from livecore_server.storage.sqlport import SqlTransaction

_IDEMPOTENCY = f"SELECT {STORED_RESPONSE_COLUMNS.sql} FROM idempotency WHERE scope = ? AND key = ?"
_NO_RECORD = ", ".join("NULL" for _ in range(STORED_RESPONSE_COLUMNS.width))


def load(tx: SqlTransaction, reads: Reads, aheads: ReadAheads) -> Prefetched:
    """Read everything ``reads`` names."""
    found = aheads.new()
    keys = aheads.players(reads)
    records = sorted(set(reads.idempotency))
    if keys:
        # The write's idempotency record rides along with its players (a write has one at most).
        _players(tx, found, aheads.player_rows, keys, records[0] if len(records) == 1 else None)
        if len(records) == 1:
            records = []
    for scope, key in records:
        row = tx.read(_IDEMPOTENCY, (scope, key)).fetchone()
        found.idempotency[scope, key] = None if row is None else STORED_RESPONSE_COLUMNS.of(row)
    for ahead, declared in aheads.of(reads):
        ahead.sqlite(tx, found, declared)
    return found


def _players(
    tx: SqlTransaction,
    found: Prefetched,
    players: PlayerRows,
    keys: Sequence[PlayerKey],
    record: tuple[str, str] | None,
) -> None:
    """The players of ``keys`` and the idempotency ``record``, in one statement: each SELECT of the UNION
    finds its rows through its unique index, and fills the other's columns with NULLs."""
    games: dict[str, list[str]] = {}
    for game_id, external_id in keys:
        games.setdefault(game_id, []).append(external_id)
    selects: list[str] = []
    params: list[Any] = []
    for game_id, external_ids in games.items():
        found.players.update(dict.fromkeys((game_id, e) for e in external_ids))
        selects.append(
            f"SELECT {players.columns.sql}, {_NO_RECORD} FROM players"
            f" WHERE game_id = ? AND external_id IN ({', '.join('?' * len(external_ids))})"
        )
        params += (game_id, *external_ids)
    if record is not None:
        found.idempotency[record] = None
        selects.append(
            f"SELECT {players.no_row}, {STORED_RESPONSE_COLUMNS.sql} FROM idempotency"
            " WHERE scope = ? AND key = ?"
        )
        params += record
    width = players.columns.width
    for row in tx.read(" UNION ALL ".join(selects), params):
        if row[0] is not None:
            player = players.columns.of(row[:width])
            found.players[player.game_id, player.external_id] = player
        else:
            stored = STORED_RESPONSE_COLUMNS.of(row[width:])
            found.idempotency[stored.scope, stored.key] = stored
