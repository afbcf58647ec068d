"""Migration histories: what :mod:`livecore_server.storage.migrations` (SQLite) and
:mod:`livecore_server.storage.postgres_schema` (PostgreSQL) record of the shared tables, and what the
built-in areas added to them (``livecore_server/<area>/schema.py``: the players' table and the columns
other areas gave it), assembled into one ordered list per dialect (:func:`assembled`), which a store
applies before the areas' own migrations.

A migration is applied once, in its own transaction, and recorded in ``_migrations`` under its name.
The names were recorded in deployed databases: each keeps its name and place. They are numbered per
dialect (SQLite's ``0015_live_events`` is PostgreSQL's ``0007_live_events``), so the assembled order is
the order of the names. No migration is added to these histories any more: an area's next migration is
its own (:class:`~livecore_server.storage.area_storage.AreaMigration`, numbered per area).

A migration whose work moved (the first migrations, which built several areas' tables, split so that each
area builds its own) starts with :class:`Recognised`: the names under which that work was recorded. A
database that recorded them all already holds what the migration builds, so it is recorded without running
(:func:`to_run`): a database built before the split is upgraded without touching its rows.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any, cast

import attrs


@attrs.frozen
class Recognised:
    """A migration's first step, when what it builds was built before under other names: on a database
    that recorded all of ``names``, the migration is recorded without running."""

    names: tuple[str, ...]


# A migration's step: SQL, or where SQL cannot say it (a Unicode fold), a function of the open connection
# (sqlite3 or psycopg: both ``execute``) and the dialect's parameter mark (``?`` or ``%s``); or, first,
# what it is recognised by.
Run = str | Callable[[Any, str], None]
Step = Run | Recognised
Migration = tuple[str, Sequence[Step]]


def to_run(steps: Sequence[Step], recorded: Collection[str]) -> Sequence[Run]:
    """The steps of a pending migration to run on a database that ``recorded`` these migrations: none when
    the database is recognised as holding what it builds."""
    if steps and isinstance(steps[0], Recognised):
        if all(name in recorded for name in steps[0].names):
            return ()
        steps = steps[1:]
    if any(isinstance(step, Recognised) for step in steps):
        raise ValueError("Recognised is a migration's first step only")
    return cast("Sequence[Run]", steps)


def recognising(names: Sequence[str], steps: Sequence[Step]) -> list[Step]:
    """``steps``, recognised by ``names`` when there are any."""
    return [Recognised(tuple(names)), *steps] if names else list(steps)


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
    check_names(ordered)
    return ordered


def check_names(migrations: Sequence[Migration]) -> None:
    """Refuses a name recorded twice, and a migration recognised by a name that is still applied: a
    database that recorded it part-way (SQLite applies each migration on its own) would skip the work."""
    names = [name for name, _ in migrations]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"migrations recorded twice: {', '.join(twice)}")
    live = set(names)
    stale = sorted(
        {
            old
            for _, steps in migrations
            if steps and isinstance(steps[0], Recognised)
            for old in steps[0].names
        }
        & live
    )
    if stale:
        raise ValueError(f"migrations recognised by names still applied: {', '.join(stale)}")
