"""What the crates area reads ahead of an open (:data:`READ_AHEAD`, its ``ServerArea``'s): the crate
grant, and the opener's holdings of what the game's crates may give, which the open otherwise read one
round trip at a time. PostgreSQL reads a group's in the one round trip of its reads ahead
(:func:`_postgres`); SQLite, where a read costs no round trip, reads them as the open runs."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from livecore.crates.reads import CrateOpenReads
from livecore_server.economy.read_ahead import HOLDINGS_OF, holdings_found
from livecore_server.grants.rows import GRANT_COLUMNS
from livecore_server.storage.postgres_prefetch import key_read, maybe
from livecore_server.storage.read_ahead import Prefetched, ReadAhead

GRANTS = "grants"  # the grants port's kind, by (game id, grant id)

# Each grant through its primary key alone; its game is checked as its rows are read (_postgres), as the
# port reads it (by id and game).
CRATES = key_read(
    "game text, crate text",
    f"SELECT k.game, k.crate, {GRANT_COLUMNS.qualified('t')} FROM {{keys}} "
    + maybe("t", GRANT_COLUMNS.sql, "grants", "id = k.crate"),
)


def _sqlite(tx: Any, found: Prefetched, declared: Sequence[Any]) -> None:
    """Nothing: on SQLite a read costs no round trip, and the open reads as it runs."""


def _postgres(
    declared: Sequence[Any],
) -> tuple[list[tuple[str, Sequence[Any]]], Callable[[Prefetched, Iterator[list[Any]]], None]]:
    opens = [d for d in declared if isinstance(d, CrateOpenReads)]
    grants = sorted({(d.game_id, d.grant_id) for d in opens})
    holdings = sorted({(*d.opener, key) for d in opens for key in d.keys})
    statements: list[tuple[str, Sequence[Any]]] = [(CRATES.sql, CRATES.keys(grants))]
    if holdings:
        statements.append((HOLDINGS_OF.sql, HOLDINGS_OF.keys(holdings)))

    def found_by(found: Prefetched, results: Iterator[list[Any]]) -> None:
        for game_id, grant_id, *grant_row in next(results):
            grant, _ = GRANT_COLUMNS.split_joined(grant_row)
            found.of(GRANTS)[game_id, grant_id] = (
                grant if grant is not None and grant.game_id == game_id else None
            )
        if holdings:
            holdings_found(found, next(results))

    return statements, found_by


#: The crates area's reads ahead (its ``ServerArea.read_ahead``).
READ_AHEAD = ReadAhead(
    reads=(CrateOpenReads,),
    tables=frozenset({"grants", "holdings"}),
    sqlite=_sqlite,
    postgres=_postgres,
)
