"""What the server needs of a store, and opening one from ``--db``.

Two implementations: :class:`~livecore_server.storage.sqlite.SqliteStore` (embedded, one server
process, commands on the event loop with group commit) and
:class:`~livecore_server.storage.postgres.PostgresStore` (several processes on one database, commands on
the event loop too, each in a greenlet whose waits for PostgreSQL are awaited there). Handlers and
workers see only this protocol and :class:`ServerTransaction`: the core's ports
(:class:`livecore.transaction.Transaction`) and the server's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from livecore.commands.reads import Reads
from livecore.games import Game
from livecore_server.config import is_postgres
from livecore_server.storage.area_storage import AreaStorage
from livecore_server.storage.concurrency import Concurrency
from livecore_server.storage.server_transaction import ServerTransaction as ServerTransaction
from livecore_server.storage.sqlport import BoardListener

T = TypeVar("T")


class ServerStore(Protocol):
    # True when the store's database serves one server process only (SQLite).
    single_process: bool

    @property
    def closed(self) -> bool: ...

    def start(self) -> None:
        """Start the store's background work (called once the server serves)."""

    def close(self) -> None: ...

    def scrub_journal(self) -> None:
        """Values were cleared (secrets): drop the earlier copies the store's journal keeps of them
        (SQLite: its WAL; PostgreSQL keeps them until VACUUM, and in its own WAL, out of reach)."""

    def clear_caches(self) -> None:
        """Forget cached game settings and webhook subscriptions."""

    def on_config_changed(self, listener: Callable[[str], None]) -> None:
        """Call ``listener`` with what each transaction changes of the configuration processes cache
        (:meth:`~livecore_server.storage.sqlport.SqlTransaction.config_changed`), in every process, before
        the write that changed it is answered in its own."""

    def heard_now(self) -> None:
        """Apply the changes of other processes that have already arrived, without waiting (PostgreSQL;
        SQLite has no other serving process)."""

    def on_events_committed(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` on the event loop after each commit that wrote outbox events or deliveries,
        other processes' as :meth:`watch` hears of them."""

    def on_player_written(self, listener: Callable[[str], None]) -> None:
        """Call ``listener`` with the id of each player row a transaction of this process writes, when it
        writes it (before the commit, possibly on a thread running synchronous code): for caches of player
        rows to forget it."""

    def on_board_changed(self, listener: BoardListener) -> None:
        """Call ``listener(board_id, version, player_id or None)`` on the event loop for each board change
        committed by any process (``player_id``: whose entry moved; None: the board itself changed, as
        when it is finalized); never for a change that rolled back. On PostgreSQL the changes of other
        processes arrive through :meth:`watch`, which must be running."""

    async def watch(self, written: Callable[[str], None], watching: Callable[[bool], None]) -> None:
        """Hear of the player rows and board changes every process writes, for as long as this runs (a
        background task): ``watching(True)`` once ``written`` is sure to be told the id of every player
        row (and the board listeners every board change) any process commits from then on,
        ``watching(False)`` when that stops being so (then True again, if it recovers); and tell the
        commit listeners (:meth:`on_events_committed`) of other processes' commits that may have written
        deliveries (PostgreSQL: their notifications; SQLite: a look every ``OTHERS_EVERY`` seconds)."""

    def cached_game(self, game_id: str) -> Game | None:
        """The game's settings if read within the last ``GAME_CACHE_TTL``, without reading the database."""

    def run(
        self,
        fn: Callable[[ServerTransaction], T],
        *,
        write: bool = True,
        queue: str | None = None,
        row_locked: bool = False,
    ) -> T:
        """Run ``fn`` in one transaction on the calling thread (CLI, tools, tests)."""
        ...

    async def run_async(
        self,
        fn: Callable[[ServerTransaction], T],
        *,
        write: bool = True,
        queue: str | None = None,
        row_locked: bool = False,
        reads: Callable[[ServerTransaction], Reads] | None = None,
        concurrency: Concurrency = Concurrency.QUEUED,
    ) -> T:
        """Run ``fn`` in one transaction for a request: its writes and events commit together before
        this returns. Writes with the same ``queue`` (a game's) wait for each other across processes as
        their ``concurrency`` says; ``row_locked`` work locks the rows it changes itself (the webhook
        dispatcher). ``reads`` declares what ``fn`` will read, for a store that
        reads ahead (PostgreSQL)."""
        ...

    async def read(self, fn: Callable[[ServerTransaction], T]) -> T:
        """Read committed data."""
        ...

    async def lookup(self, fn: Callable[[ServerTransaction], T | None]) -> T | None:
        """Read committed data for a lookup that is usually a miss (it may be cheaper than :meth:`read`)."""
        ...


def game_queue(game_id: str) -> str:
    """The lock of a game's writes (``run_async(queue=...)``, docs/architecture.md, "Concurrency")."""
    return f"game:{game_id}"


def open_store(db: str, *, areas: AreaStorage, pool_size: int = 8) -> ServerStore:
    """``postgresql://...`` opens PostgreSQL (a pool of ``pool_size`` connections); anything else is a
    SQLite file. It keeps what the ``areas`` served declare (``livecore_server.registry.storage()``: the
    built-in ones and a studio's own), and applies their migrations on opening."""
    if is_postgres(db):
        from livecore_server.storage.postgres import PostgresStore

        return PostgresStore(db, pool_size=pool_size, areas=areas)
    from livecore_server.config import sqlite_path
    from livecore_server.storage.sqlite import SqliteStore

    return SqliteStore(sqlite_path(db), areas)
