"""Players' holdings read ahead on PostgreSQL, for the writes that pay or deposit (a wallet or inventory
write's, :data:`READ_AHEAD`; a gift's cost and a crate's contents, read by their areas):
:data:`HOLDINGS_OF` reads them by player and resource key in a group's one round trip of reads ahead
(:mod:`livecore_server.storage.postgres_prefetch`), :func:`holdings_found` hands them to the ledger
port's reads (``holdings`` by player id and key). SQLite reads them as the write runs."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from livecore.economy.reads import HoldingReads
from livecore_server.economy.rows import HOLDING_COLUMNS
from livecore_server.storage.postgres_prefetch import key_read, maybe, one
from livecore_server.storage.read_ahead import Prefetched, ReadAhead

HOLDINGS = "holdings"  # the ledger port's kind, by (player id, resource key)

# Every player found, with or without a holding of the key.
HOLDINGS_OF = key_read(
    "game text, player text, key text",
    f"SELECT p.id, {HOLDING_COLUMNS.qualified('h', resource_key='k.key')} FROM {{keys}} "
    + one("p", "id", "players", "game_id = k.game AND external_id = k.player")
    + " "
    + maybe("h", HOLDING_COLUMNS.sql, "holdings", "player_id = p.id AND resource_key = k.key"),
)


def holdings_found(found: Prefetched, rows: Iterable[Sequence[Any]]) -> None:
    """What the rows of :data:`HOLDINGS_OF` tell."""
    for player_id, *holding_row in rows:
        holding = HOLDING_COLUMNS.of(holding_row)
        found.of(HOLDINGS)[player_id, holding.key] = holding


def _postgres(
    declared: Sequence[Any],
) -> tuple[list[tuple[str, Sequence[Any]]], Callable[[Prefetched, Iterator[list[Any]]], None]]:
    keys = sorted({(*r.player, r.resource_key) for r in declared if isinstance(r, HoldingReads)})
    return [(HOLDINGS_OF.sql, HOLDINGS_OF.keys(keys))], lambda found, results: holdings_found(
        found, next(results)
    )


#: The economy area's reads ahead (its ``ServerArea.read_ahead``).
READ_AHEAD = ReadAhead(reads=(HoldingReads,), tables=frozenset({HOLDINGS}), postgres=_postgres)
