"""Migration histories: what :mod:`livecore_server.storage.migrations` (SQLite) and
:mod:`livecore_server.storage.postgres_schema` (PostgreSQL) record of the shared tables, and what each
built-in area records of its own (``livecore_server/<area>/schema.py``), assembled into the one ordered
list each store applies (:func:`assembled`).

A migration is applied once, in its own transaction, and recorded in ``_migrations`` under its name.
The names were recorded in deployed databases: each keeps its name and place. They are numbered per
dialect (SQLite's ``0015_live_events`` is PostgreSQL's ``0007_live_events``), so the assembled order is
the order of the names, and a new migration takes the next number of its dialect, whichever area adds
it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

# A migration's step: SQL, or where SQL cannot say it (a Unicode fold), a function of the open connection
# (sqlite3 or psycopg: both ``execute``) and the dialect's parameter mark (``?`` or ``%s``).
Step = str | Callable[[Any, str], None]
Migration = tuple[str, Sequence[Step]]


@attrs.frozen
class History:
    """Migrations under their recorded names, for each dialect."""

    sqlite: tuple[Migration, ...] = ()
    postgres: tuple[Migration, ...] = ()


def assembled(histories: Iterable[History]) -> History:
    """The histories as one, each dialect's migrations in the order of their names; a name recorded twice
    is refused (two areas numbering a migration alike)."""
    histories = tuple(histories)
    return History(
        sqlite=_in_order(m for h in histories for m in h.sqlite),
        postgres=_in_order(m for h in histories for m in h.postgres),
    )


def _in_order(migrations: Iterable[Migration]) -> tuple[Migration, ...]:
    ordered = tuple(sorted(migrations, key=lambda m: m[0]))
    names = [name for name, _ in ordered]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"migrations recorded twice: {', '.join(twice)}")
    return ordered
