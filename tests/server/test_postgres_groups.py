"""Group commit of a write queue on PostgreSQL (livecore_server.storage.postgres_groups): the writes of one
queue waiting in a process run in one transaction, each in its own savepoint."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import psycopg
import pytest

from livecore_server.storage import postgres_groups
from livecore_server.storage.postgres import PostgresStore
from livecore_server.storage.sqlport import Insert
from tests.postgres_support import scratch_store
from tests.waiting import until


@pytest.fixture
def store() -> Iterator[PostgresStore]:
    with scratch_store("CREATE TABLE t (k TEXT PRIMARY KEY, v INT NOT NULL CHECK (v >= 0))") as s:
        yield s


def _rows(store: PostgresStore) -> dict[str, int]:
    return dict(store.run(lambda tx: tx.execute("SELECT k, v FROM t").fetchall(), write=False))


def insert(k: str, v: int = 1) -> Callable[[Any], int]:
    """A write that inserts (k, v) and returns the id of its transaction."""

    def fn(tx: Any) -> int:
        tx.execute("INSERT INTO t (k, v) VALUES (?, ?)", (k, v))
        return int(tx.execute("SELECT txid_current()").fetchone()[0])

    return fn


@contextlib.asynccontextmanager
async def _queue_held(store: PostgresStore) -> AsyncIterator[asyncio.Task[Any]]:
    """A first write holds the queue ``game:g`` (its group is running) until the block ends."""
    started, release = threading.Event(), threading.Event()

    def holder(tx: Any) -> int:
        started.set()
        release.wait(10)
        return insert("holder")(tx)

    first = asyncio.create_task(store.run_async(holder, queue="game:g"))
    assert await asyncio.to_thread(started.wait, 10)
    try:
        yield first
    finally:
        release.set()
        await first


async def _waiting(store: PostgresStore, count: int) -> None:
    """Until ``count`` writes wait in the queue ``game:g`` for its next group."""
    queues = store._groups._queues

    def waiting() -> int:
        return len(queues["game:g"].waiting) if "game:g" in queues else 0

    await until(lambda: waiting() == count, lambda: f"{waiting()} of {count} writes waiting")


async def _after_a_holder(store: PostgresStore, fns: list[Callable[[Any], Any]]) -> list[Any]:
    """Run ``fns`` on one queue while a first write holds it, so that they all wait together; returns
    their outcomes (a result or the exception), in order, and checks the holder committed alone."""
    async with _queue_held(store) as first:
        rest = [asyncio.create_task(store.run_async(fn, queue="game:g")) for fn in fns]
        await _waiting(store, len(fns))
    held = await first
    outcomes = await asyncio.gather(*rest, return_exceptions=True)
    assert held not in outcomes
    return outcomes


async def test_writes_that_wait_for_a_queue_commit_together(store: PostgresStore) -> None:
    txids = await _after_a_holder(store, [insert(f"k{i}") for i in range(5)])
    assert len(set(txids)) == 1
    assert _rows(store) == {"holder": 1, **{f"k{i}": 1 for i in range(5)}}


async def test_a_group_holds_at_most_max_group_writes(
    store: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postgres_groups, "MAX_GROUP", 2)
    txids = await _after_a_holder(store, [insert(f"k{i}") for i in range(5)])
    assert [txids.count(t) for t in dict.fromkeys(txids)] == [2, 2, 1]  # in the order they arrived


async def test_a_write_that_raises_rolls_back_alone_and_answers_its_own_error(store: PostgresStore) -> None:
    def refused(tx: Any) -> None:
        insert("refused")(tx)
        raise ValueError("a rule said no")

    outcomes = await _after_a_holder(store, [insert("a"), refused, insert("b")])
    assert isinstance(outcomes[1], ValueError)
    assert outcomes[0] == outcomes[2]  # one transaction, committed
    assert _rows(store) == {"holder": 1, "a": 1, "b": 1}


async def test_a_statement_whose_answer_was_not_read_fails_its_own_write(store: PostgresStore) -> None:
    """A write's unread statements are waited for before the next write starts, so a constraint they
    break is that write's error, not its neighbour's."""

    def broken(tx: Any) -> None:
        tx.insert(Insert("t", ("k", "v")), ("broken", -1))  # answer not read here

    outcomes = await _after_a_holder(store, [insert("a"), broken, insert("b")])
    assert isinstance(outcomes[1], psycopg.errors.CheckViolation)
    assert outcomes[0] == outcomes[2]
    assert _rows(store) == {"holder": 1, "a": 1, "b": 1}


@pytest.mark.parametrize(
    "lost",
    [
        psycopg.errors.SerializationFailure("lost a race"),
        psycopg.errors.OutOfMemory("out of shared memory"),  # the predicate locks' table, full for a moment
    ],
    ids=["serialization", "lock-table-full"],
)
async def test_a_serialization_failure_runs_the_whole_group_again(
    store: PostgresStore, lost: psycopg.Error
) -> None:
    calls: list[str] = []

    def counted(k: str, failing: int = 0) -> Callable[[Any], int]:
        def fn(tx: Any) -> int:
            calls.append(k)
            txid = insert(k)(tx)
            if calls.count(k) <= failing:
                raise lost
            return txid

        return fn

    # Twice: a run that fails with any other error of the database is tried once more, carefully.
    outcomes = await _after_a_holder(store, [counted("a"), counted("b", failing=2), counted("c")])
    assert calls == ["a", "b", "a", "b", "a", "b", "c"]
    assert len(set(outcomes)) == 1
    assert _rows(store) == {"holder": 1, "a": 1, "b": 1, "c": 1}


async def test_a_group_that_keeps_losing_answers_every_write_with_the_error(store: PostgresStore) -> None:
    def loser(tx: Any) -> None:
        insert("loser")(tx)
        raise psycopg.errors.SerializationFailure("lost a race")

    outcomes = await _after_a_holder(store, [insert("a"), loser, insert("b")])
    assert all(isinstance(o, psycopg.errors.SerializationFailure) for o in outcomes)
    assert _rows(store) == {"holder": 1}


async def test_a_write_whose_request_went_away_is_still_written_with_its_group(store: PostgresStore) -> None:
    async with _queue_held(store):
        gone = asyncio.create_task(store.run_async(insert("gone"), queue="game:g"))
        kept = asyncio.create_task(store.run_async(insert("kept"), queue="game:g"))
        await _waiting(store, 2)
        gone.cancel()
    await kept
    with pytest.raises(asyncio.CancelledError):
        await gone
    assert _rows(store) == {"holder": 1, "gone": 1, "kept": 1}


async def test_the_next_group_sees_what_the_group_before_it_committed(store: PostgresStore) -> None:
    """The next group sets out while the one before it commits (QueueGroups._start_next): its snapshot
    must still come after that COMMIT."""

    def sees_holder(tx: Any) -> int:
        return int(tx.execute("SELECT count(*) FROM t WHERE k = 'holder'").fetchone()[0])

    assert await _after_a_holder(store, [sees_holder, sees_holder]) == [1, 1]


async def test_many_writes_of_one_queue_are_each_written_once_and_the_queue_let_go(
    store: PostgresStore,
) -> None:
    """Writes arriving while groups are written, with the next group setting out behind each COMMIT:
    every write answered and written once, each group's writes after the group before's."""

    def numbered(k: str) -> Callable[[Any], int]:
        def fn(tx: Any) -> int:
            # Each write sees every write of the earlier groups: the count of rows before it.
            seen = int(tx.execute("SELECT count(*) FROM t").fetchone()[0])
            tx.execute("INSERT INTO t (k, v) VALUES (?, ?)", (k, seen))
            return seen

        return fn

    async def arrive(i: int) -> int:
        await asyncio.sleep(i % 7 * 0.002)
        return await store.run_async(numbered(f"k{i}"), queue="game:g")

    seen = await asyncio.wait_for(asyncio.gather(*(arrive(i) for i in range(120))), 60)
    assert sorted(seen) == list(range(120))  # one after another, none twice, none lost
    assert len(_rows(store)) == 120
    groups: Any = store._groups
    await until(lambda: groups._queues == {}, lambda: f"the queues let go: {groups._queues}")


@pytest.mark.parametrize("pool_size", [1, 2])
async def test_a_pool_too_small_for_two_groups_still_writes_every_write(pool_size: int) -> None:
    """With one connection (and one worker thread) the next group can only start once the one before has
    committed; with two, a read holding the other connection makes it wait in the pool. Either way every
    write is written."""
    with scratch_store("CREATE TABLE t (k TEXT PRIMARY KEY, v INT NOT NULL)", pool_size=pool_size) as store:

        def slow_read(tx: Any) -> int:
            return int(tx.execute("SELECT count(*) FROM pg_sleep(0.05), t").fetchone()[0])

        writes = [store.run_async(insert(f"k{i}"), queue="game:g") for i in range(20)]
        reads = [store.run_async(slow_read, write=False) for _ in range(3)]
        await asyncio.wait_for(asyncio.gather(*writes, *reads), 30)
        assert len(_rows(store)) == 20


async def test_other_queues_and_unqueued_writes_do_not_wait_for_a_group(store: PostgresStore) -> None:
    async with _queue_held(store):
        await asyncio.wait_for(store.run_async(insert("other"), queue="game:h"), 5)
        await asyncio.wait_for(store.run_async(insert("unqueued")), 5)
    assert _rows(store) == {"holder": 1, "other": 1, "unqueued": 1}


async def test_a_drain_that_breaks_leaves_no_write_waiting(
    store: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should writing a group fail outside every expected error, its writes and those waiting behind
    them answer that error, and the next write of the queue starts a new drain."""
    groups: Any = store._groups
    write_group = groups._write_group
    broken = [True]

    def once_broken(queue: str, group: list[Any]) -> None:
        if broken[0]:
            broken[0] = False
            raise RuntimeError("a bug in the drain")
        write_group(queue, group)

    monkeypatch.setattr(groups, "_write_group", once_broken)
    outcomes = await asyncio.wait_for(
        asyncio.gather(
            *(store.run_async(insert(f"k{i}"), queue="game:g") for i in range(3)), return_exceptions=True
        ),
        10,
    )
    assert isinstance(outcomes[0], RuntimeError)  # the others may have come in time for a new drain
    await asyncio.wait_for(store.run_async(insert("after"), queue="game:g"), 5)
    written = {f"k{i}" for i, o in enumerate(outcomes) if not isinstance(o, BaseException)}
    assert set(_rows(store)) == written | {"after"}
    # The drain lets go of the queue just after its last answer.
    await until(lambda: groups._queues == {}, lambda: f"the queues let go: {groups._queues}")


async def test_a_write_whose_declared_reads_fail_still_runs_with_its_group(
    store: PostgresStore, caplog: pytest.LogCaptureFixture
) -> None:
    def broken_reads(tx: Any) -> Any:
        raise KeyError("a route's bug")

    async with _queue_held(store):
        tasks = [
            asyncio.create_task(store.run_async(insert(k), queue="game:g", reads=reads))
            for k, reads in (("a", None), ("b", broken_reads), ("c", None))
        ]
        await _waiting(store, 3)
    txids = await asyncio.gather(*tasks)
    assert len(set(txids)) == 1
    assert _rows(store) == {"holder": 1, "a": 1, "b": 1, "c": 1}
    assert "declaring the reads of a write failed" in caplog.text
