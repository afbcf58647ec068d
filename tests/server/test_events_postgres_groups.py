"""Live-event writes in a PostgreSQL commit group, with their players read ahead, leave exactly what they
leave run one at a time: the new tables are not read ahead, and the writes that change a row read ahead
(a start that records the player's country, an entry cost) forget it."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.commands.reads import Reads
from livecore.economy.commands import change
from livecore.economy.rules import Reason, resource
from livecore.games import Game
from livecore.hashing import KeyedHasher
from livecore.live_events.commands import live_events as cmd
from livecore.players.commands import first_contact, load_game
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore_server.storage.postgres import PostgresStore
from tests.core.events_machine import SETTINGS, T0
from tests.kept import keep_every_event_in
from tests.postgres_support import drop_store, new_store, require_postgres
from tests.waiting import until

SCOPE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
QUEUE = "game:gam_1"
NAMES = ("a", "b", "c")


@pytest.fixture(autouse=True)
def _postgres() -> None:
    require_postgres()


@pytest.fixture
def stores() -> Iterator[tuple[PostgresStore, PostgresStore]]:
    made = [new_store(), new_store()]
    try:
        for store in made:
            store.put_game(Game(id="gam_1", studio_id="std_1", key="g", name="G", settings=SETTINGS))
            keep_every_event_in(store)  # the events written are among what is compared
        yield made[0], made[1]
    finally:
        for store in made:
            drop_store(store)


class Refused(Exception):
    pass


def _runtime() -> Runtime:
    return Runtime(
        clock=ManualClock(T0 + timedelta(minutes=31)),
        rng=SeededRandomSource(8),
        hasher=KeyedHasher(b"g" * 32),
    )


def _writes(rt: Runtime) -> list[Callable[[Any], Any]]:
    """Starts (one recording a country on the player row), progress on the attempts they started (read
    back through the ports), a write that fails after writing, a completion."""

    def player(tx: Any, name: str) -> Any:
        return tx.players.get(SCOPE.game_id, name)

    def start(name: str, key: str, country: str | None = None) -> Callable[[Any], Any]:
        context = None if country is None else {"country": country}
        return lambda tx: cmd.start(tx, rt, SCOPE, player(tx, name), key, context).id

    def progress(name: str, key: str, value: float, *, fail: bool = False, complete: bool = False) -> Any:
        metric = "points" if key == "race" else "time"

        def write(tx: Any) -> Any:
            me = player(tx, name)
            mine = [a for a in tx.attempts.recent(me.id, 10) if a.event_key == key]
            if not mine:
                raise Refused
            attempt = mine[0]
            done, _ = cmd.record_progress(tx, rt, SCOPE, me, key, attempt.id, {metric: value}, complete)
            if fail:
                raise Refused
            return (done.score, tx.boards.get(SCOPE.game_id, done.board_id).version)

        return write

    return [
        start("a", "race"),
        start("b", "sprint", "FR"),
        progress("a", "race", 40),
        start("c", "race"),
        progress("b", "sprint", 30),
        start("b", "race", "DE"),
        progress("c", "race", 40),
        progress("b", "race", 90, fail=True),
        progress("b", "race", 60),
        progress("a", "race", 70, complete=True),
        start("a", "race"),  # the second attempt: another entry cost
        progress("c", "sprint", 1),  # c has no sprint attempt: refused
    ]


def _prepared(store: PostgresStore, rt: Runtime) -> None:
    def credit(tx: Any) -> None:
        game = load_game(tx, SCOPE)
        for name in NAMES:
            who = first_contact(tx, rt, SCOPE, name)
            change(tx, rt, SCOPE, game, who, resource(game, "coins"), 25, Reason.SERVER_CREDIT)

    store.run(credit)


def _contents(store: PostgresStore) -> dict[str, list[tuple[Any, ...]]]:
    tables = {
        "windows": "SELECT * FROM windows ORDER BY id",
        "boards": "SELECT * FROM boards ORDER BY id",
        "attempts": "SELECT * FROM attempts ORDER BY id",
        "board_entries": "SELECT * FROM board_entries ORDER BY board_id, player_id",
        "holdings": "SELECT * FROM holdings ORDER BY player_id, resource_key",
        "players": "SELECT * FROM players ORDER BY id",
        "outbox": "SELECT kind, data FROM outbox ORDER BY seq",
    }
    return {
        name: store.run(lambda tx, q=q: [tuple(r) for r in tx.execute(q).fetchall()], write=False)
        for name, q in tables.items()
    }


def _outcome(result: Any) -> Any:
    return type(result).__name__ if isinstance(result, BaseException) else result


async def test_a_group_of_event_writes_with_reads_ahead_leaves_what_they_leave_one_at_a_time(
    stores: tuple[PostgresStore, PostgresStore],
) -> None:
    grouped, serial = stores
    rt_grouped, rt_serial = _runtime(), _runtime()
    _prepared(grouped, rt_grouped)
    _prepared(serial, rt_serial)

    one_at_a_time = []
    for write in _writes(rt_serial):
        try:
            one_at_a_time.append(serial.run(write, queue=QUEUE))
        except Refused as exc:
            one_at_a_time.append(exc)

    # Every write waits behind a holder of the queue, so that they make one group, which reads every
    # player ahead.
    started, release = threading.Event(), threading.Event()

    def holder(tx: Any) -> None:
        started.set()
        release.wait(10)

    every_player = Reads(players=tuple((SCOPE.game_id, name) for name in NAMES))
    first = asyncio.create_task(grouped.run_async(holder, queue=QUEUE))
    assert await asyncio.to_thread(started.wait, 10)
    try:
        writes = [
            asyncio.create_task(grouped.run_async(w, queue=QUEUE, reads=lambda _tx: every_player))
            for w in _writes(rt_grouped)
        ]
        queue = grouped._groups._queues

        def waiting() -> int:
            return len(queue[QUEUE].waiting) if QUEUE in queue else 0

        await until(lambda: waiting() == len(writes), lambda: f"{waiting()} of {len(writes)} writes waiting")
    finally:
        release.set()
        await first
    together = await asyncio.gather(*writes, return_exceptions=True)

    assert [_outcome(r) for r in together] == [_outcome(r) for r in one_at_a_time]
    assert isinstance(together[7], Refused)
    assert _contents(grouped) == _contents(serial)
