"""Reads ahead of a commit group on PostgreSQL (livecore_server.storage.postgres_prefetch): what a queued
write declares is read for the whole group in two round trips, and a prefetched row is used only while no
write of the group has changed it."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest

from livecore.clock import to_millis
from livecore.games import ResourceType
from livecore.gifts import Gift, GiftStatus, SenderStats
from livecore_server.storage import postgres_groups
from livecore_server.storage.postgres_prefetch import (
    Prefetched,
    _Stats,
    keeps_prefetched,
    stats_for,
)
from tests.server.gift_support import Game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
DAY = datetime(2026, 3, 2, tzinfo=UTC)


def _stats(last: datetime | None, today: int = 3) -> _Stats:
    since = T0 - timedelta(hours=1)
    return _Stats(to_millis(since), to_millis(DAY), None if last is None else to_millis(last), today)


def test_prefetched_stats_answer_the_same_window() -> None:
    last = T0 - timedelta(minutes=30)
    assert stats_for(_stats(last), T0 - timedelta(hours=1), DAY) == SenderStats(last, 3)


def test_a_later_window_keeps_the_latest_gift_only_while_it_is_inside() -> None:
    last = T0 - timedelta(minutes=30)
    inside = T0 - timedelta(minutes=31)
    assert stats_for(_stats(last), inside, DAY) == SenderStats(last, 3)
    # The window moved past the latest gift: no gift holds the friend on cooldown any more.
    assert stats_for(_stats(last), last, DAY) == SenderStats(None, 3)
    assert stats_for(_stats(None), inside, DAY) == SenderStats(None, 3)


def test_an_earlier_window_or_another_day_is_read_again() -> None:
    last = T0 - timedelta(minutes=30)
    assert stats_for(_stats(last), T0 - timedelta(hours=2), DAY) is None
    assert stats_for(_stats(last), T0 - timedelta(minutes=50), DAY + timedelta(days=1)) is None
    assert stats_for(_stats(last), T0 - timedelta(minutes=50), None) is None


def test_without_a_counted_day_nothing_is_counted() -> None:
    stats = _Stats(to_millis(T0 - timedelta(hours=1)), None, None, 7)
    assert stats_for(stats, T0 - timedelta(hours=1), None) == SenderStats(None, 0)


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE players SET streak = 0 WHERE streak > 0",
        "INSERT INTO friendships (player_id, friend_id, since) VALUES (?, ?, ?)",
        "DELETE FROM friendships WHERE player_id = ?",
        "UPDATE gifts SET status = ?, claimed_at = ? WHERE id = ?",
        "UPDATE gifts SET sender_id = ? WHERE sender_id = ?",
        "DELETE FROM idempotency WHERE created_at < ?",
        "UPDATE ledger SET player_id = ? WHERE player_id = ?",
        "DELETE FROM holdings WHERE player_id = ?",
        "INSERT INTO holdings (player_id, resource_key, amount, parameters) VALUES (?, ?, ?, ?)",
        "WITH moved AS (UPDATE holdings SET amount = 0 RETURNING 1) SELECT 1",
    ],
)
def test_a_statement_that_may_change_a_prefetched_row_forgets_everything(statement: str) -> None:
    assert not keeps_prefetched(statement)


def _gift(sender: str, key: str) -> Gift:
    return Gift(
        id="g1",
        grant_id="gr1",
        game_id="gam",
        sender_id=sender,
        sender_external_id=sender,
        recipient_id="r",
        recipient_external_id="r",
        type=ResourceType.CURRENCY,
        resource_key="coins",
        amount=1,
        message=None,
        status=GiftStatus.PENDING,
        sent_at=T0,
        expires_at=None,
        deducted_from_sender=False,
        idempotency_key=key,
    )


def test_a_gift_forgets_its_senders_statistics_and_keys_only() -> None:
    ahead = Prefetched(
        gift_keys={("a", "k"): None, ("b", "k"): None},
        stats={("a", "r"): _stats(None), ("a", "s"): _stats(None), ("b", "r"): _stats(None)},
    )
    ahead.gift_written(_gift("a", "k"))
    assert list(ahead.gift_keys) == [("b", "k")]
    assert list(ahead.stats) == [("b", "r")]


# --- On PostgreSQL, through the app ------------------------------------------------------------------


@pytest.fixture
def backend() -> str:
    return "postgres"


async def _in_one_group(game: Game, sends: list[Any]) -> tuple[list[tuple[int, Any, Any]], int]:
    """Run ``sends`` (awaitables of requests) so that they wait for the game's queue together, behind a
    write that holds it; their answers, and how many times the group's writer waited for PostgreSQL."""
    store = game.world.services.store
    started, release = threading.Event(), threading.Event()
    syncs: Counter[int] = Counter()
    sync = psycopg.Pipeline.sync

    in_group = threading.local()  # counted while a group is written (not the dispatcher's passes)
    write_group = postgres_groups.QueueGroups._write_group

    def measured(self: postgres_groups.QueueGroups, queue: str, group: Any) -> None:
        in_group.on = True
        try:
            write_group(self, queue, group)
        finally:
            in_group.on = False

    def counted(self: psycopg.Pipeline) -> None:
        if getattr(in_group, "on", False):
            syncs[threading.get_ident()] += 1
        sync(self)

    writer: list[int] = []

    def holder(tx: Any) -> None:
        writer.append(threading.get_ident())  # the drain that goes on to write the next group
        started.set()
        release.wait(10)
        tx.get_game(game.id)  # the game's settings are cached for the next group (GAME_CACHE_TTL)
        syncs.clear()  # from here: the group after this one (its COMMIT ends the pipeline, uncounted)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(psycopg.Pipeline, "sync", counted)
        mp.setattr(postgres_groups.QueueGroups, "_write_group", measured)
        first = asyncio.create_task(store.run_async(holder, queue=f"game:{game.id}"))
        assert await asyncio.to_thread(started.wait, 10)
        tasks = []
        for send in sends:  # one by one, so that they join the queue in this order
            tasks.append(asyncio.create_task(send))
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # every request passed its idempotency look-up and waits in the queue
        release.set()
        await first
        answers = await asyncio.gather(*tasks)
    return answers, syncs[writer[0]]


async def test_a_group_of_sends_waits_for_postgres_the_same_few_times_whatever_its_size(
    g: dict[str, Game],
) -> None:
    gala = g["gala"]
    senders = [f"s{i}" for i in range(6)]
    await gala.register("ann", "bob", *senders)
    await gala.befriend("ann", *senders)
    await gala.befriend("bob", *senders)
    for sender in senders:
        await gala.credit(sender, "gold", 10)
    few, n_few = await _in_one_group(gala, [gala.send(s, "ann", resource="xp") for s in senders[:2]])
    # gold costs the sender: each of these sends also reads and debits its sender's balance.
    many, n_many = await _in_one_group(gala, [gala.send(s, "bob", resource="gold") for s in senders])
    assert [a[0] for a in few + many] == [201] * 8, [a[1] for a in few + many]
    # Two round trips of reads ahead, whatever the group's size; without them, each send waited for
    # its six reads and its savepoint.
    assert (n_few, n_many) == (2, 2)


async def test_sends_of_one_group_see_each_others_gifts_balance_and_keys(g: dict[str, Game]) -> None:
    """The second send of a pair in one group is on cooldown, a debit sees the one before it, and a key
    used twice answers the first gift: prefetched rows are forgotten when the group's writes change them."""
    quota = g["quota"]  # cooldown 1 hour, daily limit 3, gold costs the sender
    await quota.register("ann", "bob", "cid", "dee", "eve", "fay")
    await quota.befriend("ann", "bob", "cid", "dee", "eve", "fay")
    await quota.credit("ann", "gold", 5)
    answers, _ = await _in_one_group(
        quota,
        [
            quota.send("ann", "bob", resource="gold", amount=3),
            quota.send("ann", "bob", resource="heart"),  # the pair is on cooldown now
            quota.send("ann", "cid", resource="gold", amount=3),  # 2 gold left
            quota.send("ann", "dee", resource="heart", idempotencyKey="same"),
            quota.send("ann", "dee", resource="heart", idempotencyKey="same"),  # a replay
            quota.send("ann", "eve", resource="heart"),  # the third gift of the day
            quota.send("ann", "fay", resource="heart"),  # the daily limit (3) is reached
        ],
    )
    codes = [(s, b["error"]["code"] if s >= 400 else "ok") for s, b, _ in answers]
    assert codes == [
        (201, "ok"),
        (409, "gift_cooldown"),
        (409, "gift_insufficient_balance"),
        (201, "ok"),
        (200, "ok"),
        (201, "ok"),
        (409, "gift_limit_reached"),
    ], answers
    assert answers[3][1]["data"]["gift"]["giftId"] == answers[4][1]["data"]["gift"]["giftId"]
