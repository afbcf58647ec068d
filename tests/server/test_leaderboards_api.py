"""The shared leaderboard routes through the real app, on SQLite and PostgreSQL, with the manual clock
across several periods: score submission and its refusals, reads (limit, cursor, around, division,
past periods) and theirs, the rollover the scheduler runs at each boundary and rollover-now (promotions
player by player, rewards once, ``leaderboard.period_finalized``), and event attempts feeding the boards
(tests/server/leaderboard_support.py has the game)."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import orjson
import pytest
from aiohttp.test_utils import TestClient, TestServer

from livecore.clock import ManualClock, format_ts
from livecore.scope import Environment
from livecore_server.app import create_app
from livecore_server.services import SERVICES
from tests.conftest import START, service_args
from tests.server.leaderboard_support import WEEK, League, start_league_world, weeks
from tests.waiting import until


@pytest.fixture
async def league(db_url: str) -> AsyncIterator[League]:
    game = await start_league_world(db_url)
    game.world.only_hourly_jobs()  # the clock moves by days and weeks
    try:
        yield game
    finally:
        await game.world.client.close()


def error(body: Any) -> str:
    return str(body["error"]["code"])


def fields(body: Any) -> set[str]:
    return set(body["error"]["details"]["fields"])


def finalized(g: League, key: str) -> list[Any]:
    return [e for e in g.events("leaderboard.period_finalized") if e.data["leaderboardKey"] == key]


# --- submission ---------------------------------------------------------------------------------------


async def test_a_score_creates_the_player_on_first_contact_and_answers_the_entry_with_its_rank(
    league: League,
) -> None:
    g = league
    entry = await g.submitted("ann", 30)
    assert (entry["rank"], entry["externalPlayerId"], entry["score"]) == (1, "ann", 30)
    assert entry["updatedAt"] == format_ts(START) and entry["isBot"] is False
    assert g.player_id("ann").startswith("plr_")  # created by the score

    assert (await g.submitted("bob", 70))["rank"] == 1
    assert (await g.submitted("ann", 50))["rank"] == 1  # 30 + 50 = 80: summed, now ahead of bob
    assert await g.entries() == [(1, "ann", 80), (2, "bob", 70)]


async def test_a_submission_replayed_with_its_idempotency_key_counts_once(league: League) -> None:
    g = league
    status, first, _ = await g.submit("ann", 30, idem="score-1")
    assert status == 200, first
    status, again, headers = await g.submit("ann", 30, idem="score-1")
    assert (status, again) == (200, first)
    assert headers.get("Idempotent-Replay") == "true"
    assert await g.entries() == [(1, "ann", 30)]
    # The same key with another body is a conflict, as everywhere.
    status, body, _ = await g.submit("ann", 31, idem="score-1")
    assert status == 409, body
    assert await g.entries() == [(1, "ann", 30)]


async def test_each_board_combines_a_new_score_by_its_aggregation(league: League) -> None:
    g = league
    for score in (10, 25, 5):
        await g.submitted("ann", score, "weekly-xp")
        await g.submitted("ann", score, "daily-best")
        await g.submitted("ann", score, "forever")
    assert await g.entries("weekly-xp") == [(1, "ann", 40)]  # sum
    assert await g.entries("daily-best") == [(1, "ann", 25)]  # best
    assert await g.entries("forever") == [(1, "ann", 5)]  # latest


@pytest.mark.parametrize(
    ("score", "field"),
    [
        (1.5, "score"),
        ("10", "score"),
        (True, "score"),
        (None, "score"),
        (2**53, "score"),
        (-(2**53), "score"),
    ],
)
async def test_a_score_that_is_not_a_whole_number_in_range_is_refused_and_changes_nothing(
    league: League, score: Any, field: str
) -> None:
    g = league
    status, body, _ = await g.submit("zed", score)
    assert (status, error(body)) == (400, "invalid_request"), body
    assert field in fields(body)
    assert await g.entries() == [] and "zed" not in [e[1] for e in await g.entries("forever")]
    assert g.world.rows("SELECT id FROM players WHERE game_id = ?", (g.id,)) == []


# 1e3 is the integer 1000, as JSON Schema counts it (docs/reference/conventions.md#requests); 1.5 is not.
@pytest.mark.parametrize("raw", [b"1e400", b"-1e400", b"NaN", b"Infinity", b"1.5"])
async def test_a_non_finite_or_non_integer_json_number_is_refused(league: League, raw: bytes) -> None:
    g = league
    body = b'{"externalPlayerId": "zed", "idempotencyKey": "k1", "score": ' + raw + b"}"
    status, answer, _ = await g.world.call(
        "POST",
        "/server/v1/leaderboards/weekly-xp/scores",
        key=g.api_key(g.server_key),
        data=body,
        headers={"Content-Type": "application/json"},
    )
    assert (status, error(answer)) == (400, "invalid_request"), answer
    assert g.world.rows("SELECT id FROM players WHERE game_id = ?", (g.id,)) == []


async def test_the_score_range_reaches_both_ends(league: League) -> None:
    g = league
    top = 2**53 - 1
    assert (await g.submitted("ann", top, "forever"))["score"] == top
    assert (await g.submitted("bob", -top, "forever"))["score"] == -top
    assert await g.entries("forever") == [(1, "ann", top), (2, "bob", -top)]


async def test_a_score_for_an_unknown_board_is_a_404_and_creates_nobody(league: League) -> None:
    g = league
    status, body, _ = await g.submit("zed", 5, "monthly-xp")
    assert (status, error(body)) == (404, "leaderboard_not_found")
    assert body["error"]["details"] == {"leaderboardKey": "monthly-xp"}
    assert g.world.rows("SELECT id FROM players WHERE game_id = ?", (g.id,)) == []


# --- reading ------------------------------------------------------------------------------------------


async def test_a_board_pages_by_cursor_and_reads_around_a_player(league: League) -> None:
    g = league
    for i, who in enumerate(["p1", "p2", "p3", "p4", "p5", "p6", "p7"]):
        await g.submitted(who, 100 - i, "daily-best")
    page = await g.page("daily-best", "?limit=3")
    assert page["leaderboard"] == {
        "key": "daily-best",
        "name": "Daily best",
        "order": "desc",
        "period": "daily",
        "periodId": page["leaderboard"]["periodId"],
        "periodStartsAt": format_ts(WEEK),
        "periodEndsAt": format_ts(WEEK + timedelta(days=1)),
        "division": None,
    }
    assert [e["externalPlayerId"] for e in page["entries"]] == ["p1", "p2", "p3"]
    second = await g.page("daily-best", f"?limit=3&cursor={page['nextCursor']}")
    assert [(e["rank"], e["externalPlayerId"], e["score"]) for e in second["entries"]] == [
        (4, "p4", 97),
        (5, "p5", 96),
        (6, "p6", 95),
    ]
    last = await g.page("daily-best", f"?limit=3&cursor={second['nextCursor']}")
    assert [(e["rank"], e["externalPlayerId"]) for e in last["entries"]] == [(7, "p7")]
    assert last["nextCursor"] is None

    assert await g.entries("daily-best", "?around=p4&limit=3") == [
        (3, "p3", 98),
        (4, "p4", 97),
        (5, "p5", 96),
    ]
    # Near the bottom the page starts earlier, so that it stays full.
    assert [r for r, _, _ in await g.entries("daily-best", "?around=p7&limit=3")] == [5, 6, 7]


async def test_identities_are_read_at_read_time(league: League) -> None:
    g = league
    await g.register("ann")
    await g.submitted("ann", 5, "forever")
    status, body, _ = await g.sdk("PUT", "ann", "/identity", {"name": "Annie"})
    assert status == 200, body
    (entry,) = (await g.page("forever"))["entries"]
    assert entry["name"] == "Annie"


def forged(list_id: str, reached_ms: int = 0, player_id: str = "plr_x") -> str:
    raw = orjson.dumps([list_id, 1, reached_ms, player_id])
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


async def test_bad_reads_are_refused_with_the_field_named(league: League) -> None:
    g = league
    await g.submitted("ann", 5, "daily-best")
    await g.submitted("ann", 5, "weekly-xp")
    await g.submitted("bob", 4, "daily-best")
    await g.submitted("ann", 5, "cups")
    cups_division = (await g.page("cups"))["leaderboard"]["division"]["id"]
    daily_cursor = (await g.page("daily-best", "?limit=1"))["nextCursor"]
    assert daily_cursor is not None

    refusals = [
        ("daily-best", "?limit=0", "limit"),
        ("daily-best", "?limit=201", "limit"),
        ("daily-best", "?limit=ten", "limit"),
        ("daily-best", "?cursor=forged", "cursor"),
        ("daily-best", "?cursor=" + daily_cursor[:-2] + "xy", "cursor"),
        ("daily-best", "?cursor=" + forged("whatever"), "cursor"),
        ("weekly-xp", "?cursor=" + daily_cursor, "cursor"),  # another board's cursor
        ("daily-best", f"?cursor={daily_cursor}&around=ann", "around"),
        ("daily-best", "?division=" + cups_division, "division"),  # a board without divisions
        ("weekly-xp", "?division=" + cups_division, "division"),  # another board's division
        ("daily-best", "?period=lbp_nothing", "period"),
        ("daily-best", "?previous=true", "previous"),  # no finished period yet
        ("daily-best", "?previous=true&period=lbp_x", "previous"),
        ("daily-best", "?previous=perhaps", "previous"),
    ]
    for board, query, field in refusals:
        status, body, _ = await g.read(board, query)
        assert (status, error(body)) == (400, "invalid_request"), (board, query, body)
        assert field in fields(body), (board, query, body)

    # A forged cursor with a time or an id no entry can have is malformed too, never a 500.
    list_id = f"{(await g.page('daily-best'))['leaderboard']['periodId']}/"
    for cursor in (forged(list_id, reached_ms=2**62), forged(list_id, player_id="p\x00")):
        status, body, _ = await g.read("daily-best", f"?cursor={cursor}")
        assert (status, error(body)) == (400, "invalid_request"), body

    # The period of another board is unknown to this one.
    weekly_period = (await g.page("weekly-xp"))["leaderboard"]["periodId"]
    status, body, _ = await g.read("daily-best", f"?period={weekly_period}")
    assert (status, error(body)) == (400, "invalid_request") and "period" in fields(body)

    status, body, _ = await g.read("nope")
    assert (status, error(body)) == (404, "leaderboard_not_found")
    status, body, _ = await g.read("daily-best", "?around=nobody")
    assert (status, error(body)) == (404, "player_not_found")


async def test_a_cursor_of_a_finished_period_is_stale_in_the_next(league: League) -> None:
    g = league
    await g.submitted("ann", 5, "daily-best")
    await g.submitted("bob", 4, "daily-best")
    cursor = (await g.page("daily-best", "?limit=1"))["nextCursor"]
    await g.advance_to(WEEK + timedelta(days=1))
    await g.submitted("cid", 3, "daily-best")
    status, body, _ = await g.read("daily-best", f"?limit=1&cursor={cursor}")
    assert (status, error(body)) == (400, "invalid_request") and "cursor" in fields(body)
    # It still pages the finished period it came from.
    assert await g.entries("daily-best", "?previous=true&limit=1&cursor=" + cursor) == [(2, "bob", 4)]


# --- rollover at the boundary -------------------------------------------------------------------------


async def test_a_daily_board_rolls_over_at_midnight_once_pays_its_bands_and_a_new_day_starts_empty(
    league: League,
) -> None:
    g = league
    for who, score in (("ann", 30), ("bob", 20), ("cid", 10)):
        await g.submitted(who, score, "daily-best")
    day_one = (await g.page("daily-best"))["leaderboard"]["periodId"]
    midnight = WEEK + timedelta(days=1)
    await g.advance_to(midnight - timedelta(seconds=1))
    assert finalized(g, "daily-best") == []
    await g.advance(1)
    (event,) = finalized(g, "daily-best")
    assert event.occurred_at == midnight  # at the very boundary, with the manual clock
    assert g.paid(day_one) == {"ann": 1, "bob": 1}
    assert await g.entries("daily-best") == []
    assert (await g.page("daily-best"))["leaderboard"]["periodStartsAt"] == format_ts(midnight)
    assert await g.entries("daily-best", "?previous=true") == [(1, "ann", 30), (2, "bob", 20), (3, "cid", 10)]

    # Another day passes with no score: nothing to roll, nothing paid again.
    await g.advance_to(midnight + timedelta(days=1, seconds=1))
    assert len(finalized(g, "daily-best")) == 1 and g.paid(day_one) == {"ann": 1, "bob": 1}


async def test_a_weekly_league_promotes_and_relegates_player_by_player_across_three_weeks(
    league: League,
) -> None:
    """Divisions of 3, one promoted and one relegated each (docs/leaderboards.md#divisions: a division of n
    promotes min(promote, n // 2), then relegates min(relegate, what is left); nobody leaves the top or
    bottom)."""
    g = league
    # Week 1: everybody starts in bronze; divisions fill in turn: [ann, bob, cid], [dan, eve, fay].
    for who, score in (("ann", 30), ("bob", 20), ("cid", 10), ("dan", 5), ("eve", 50), ("fay", 40)):
        await g.submitted(who, score)
    week_one = await g.page("weekly-xp", "?around=ann")
    first_division = week_one["leaderboard"]["division"]
    assert first_division["tier"] == "bronze"
    assert [e["externalPlayerId"] for e in week_one["entries"]] == ["ann", "bob", "cid"]
    assert [e["rank"] for e in week_one["entries"]] == [1, 2, 3]  # ranks within the division
    second = await g.page("weekly-xp", "?around=dan")
    assert [(e["rank"], e["externalPlayerId"]) for e in second["entries"]] == [
        (1, "eve"),
        (2, "fay"),
        (3, "dan"),
    ]
    period_one = week_one["leaderboard"]["periodId"]

    await g.advance_to(weeks(1))
    (event,) = finalized(g, "weekly-xp")
    assert event.occurred_at == weeks(1)
    assert g.paid(period_one) == {"ann": 1, "bob": 1, "eve": 1, "fay": 1}

    # Week 2: ann and eve play silver (one division of two), the rest bronze: [bob, cid, dan], [fay].
    for who, score in (("ann", 10), ("eve", 20), ("bob", 5), ("cid", 7), ("dan", 9), ("fay", 1)):
        await g.submitted(who, score)
    tiers = {who: await g.tier(who) for who in ("ann", "bob", "cid", "dan", "eve", "fay")}
    assert tiers == {
        "ann": "silver",
        "eve": "silver",
        "bob": "bronze",
        "cid": "bronze",
        "dan": "bronze",
        "fay": "bronze",
    }
    period_two = (await g.page())["leaderboard"]["periodId"]
    await g.advance_to(weeks(2))
    assert len(finalized(g, "weekly-xp")) == 2
    # silver: eve up, ann (last of two) down; bronze [bob, cid, dan]: dan up; bronze [fay]: alone, stays.
    assert g.paid(period_two) == {"eve": 1, "ann": 1, "dan": 1, "cid": 1, "fay": 1}

    # Week 3: each player's new tier, seen through their division.
    for who in ("ann", "bob", "cid", "dan", "eve", "fay"):
        await g.submitted(who, 1)
    tiers = {who: await g.tier(who) for who in ("ann", "bob", "cid", "dan", "eve", "fay")}
    assert tiers == {
        "eve": "gold",
        "dan": "silver",
        "ann": "bronze",
        "bob": "bronze",
        "cid": "bronze",
        "fay": "bronze",
    }
    # The past weeks stay readable, division by division.
    assert await g.tier("ann", query=f"&period={period_one}") == "bronze"
    assert await g.tier("ann", query=f"&period={period_two}") == "silver"
    assert await g.entries("weekly-xp", f"?period={period_two}&around=eve") == [
        (1, "eve", 20),
        (2, "ann", 10),
    ]
    previous = await g.page("weekly-xp", "?previous=true")
    assert previous["leaderboard"]["periodId"] == period_two
    assert previous["leaderboard"]["division"]["tier"] == "silver"  # the top division shown first
    # A division named explicitly, of the period read.
    division = first_division["id"]
    named = await g.page("weekly-xp", f"?period={period_one}&division={division}")
    assert [e["externalPlayerId"] for e in named["entries"]] == ["ann", "bob", "cid"]
    status, body, _ = await g.read("weekly-xp", f"?division={division}")  # not a division of this week
    assert (status, error(body)) == (400, "invalid_request") and "division" in fields(body)

    # Nothing was paid twice, and each week finalized once.
    assert len(g.rank_grants()) == 9
    await g.advance_to(weeks(3))
    assert len(finalized(g, "weekly-xp")) == 3


async def test_the_period_finalized_webhook_carries_the_period_and_its_top_ten(league: League) -> None:
    g = league
    for i in range(12):
        await g.submitted(f"p{i:02}", 100 + i, "daily-best")
    await g.advance_to(WEEK + timedelta(days=1))
    (event,) = finalized(g, "daily-best")
    data = event.data
    period = (await g.page("daily-best", "?previous=true"))["leaderboard"]["periodId"]
    assert list(data) == ["leaderboardKey", "periodId", "periodStartsAt", "periodEndsAt", "entryCount", "top"]
    assert (data["leaderboardKey"], data["periodId"], data["entryCount"]) == ("daily-best", period, 12)
    assert (data["periodStartsAt"], data["periodEndsAt"]) == (
        format_ts(WEEK),
        format_ts(WEEK + timedelta(days=1)),
    )
    assert [t["rank"] for t in data["top"]] == list(range(1, 11))
    first = data["top"][0]
    assert first == {
        "rank": 1,
        "playerId": g.player_id("p11"),
        "externalPlayerId": "p11",
        "score": 111,
        "reachedAt": format_ts(START),
        "divisionId": None,
    }
    assert event.env.value == "test"


# --- rollover-now --------------------------------------------------------------------------------------


async def test_rollover_now_finishes_the_period_before_answering_and_a_repeat_rolls_nothing(
    league: League,
) -> None:
    g = league
    for who, score in (("ann", 30), ("bob", 20), ("cid", 10)):
        await g.submitted(who, score)
    period = (await g.page())["leaderboard"]["periodId"]
    status, body, _ = await g.rollover_now()
    assert status == 200, body
    assert body["data"] == {"rolledOver": True, "periodId": period}
    # Finished when it answered: paid, promoted, announced.
    assert g.paid(period) == {"ann": 1, "bob": 1}
    assert len(finalized(g, "weekly-xp")) == 1
    now = g.world.clock.now()
    current = await g.page()
    assert current["entries"] == []
    assert (current["leaderboard"]["periodStartsAt"], current["leaderboard"]["periodEndsAt"]) == (
        format_ts(now),
        format_ts(weeks(1)),
    )
    assert current["leaderboard"]["periodId"] != period

    # Nothing in the new period: a repeat changes nothing.
    status, body, _ = await g.rollover_now()
    assert (status, body["data"]) == (200, {"rolledOver": False, "periodId": None})
    assert len(finalized(g, "weekly-xp")) == 1

    # The period it opened runs to the regular boundary, where the scheduler rolls it.
    await g.submitted("ann", 5)
    assert await g.tier("ann") == "silver"
    await g.advance_to(weeks(1))
    assert len(finalized(g, "weekly-xp")) == 2
    assert len(g.rank_grants()) == 3


async def test_rollover_now_of_an_all_time_board_or_an_empty_period_rolls_nothing(league: League) -> None:
    g = league
    await g.submitted("ann", 5, "forever")
    for board in ("forever", "daily-best"):
        status, body, _ = await g.rollover_now(board)
        assert (status, body["data"]) == (200, {"rolledOver": False, "periodId": None}), board
    assert g.events("leaderboard.period_finalized") == []
    assert await g.entries("forever") == [(1, "ann", 5)]


async def test_rollover_now_takes_a_test_key_and_a_known_board(league: League) -> None:
    g = league
    await g.submitted("ann", 5)
    status, body, _ = await g.rollover_now(key="live-server")
    assert (status, error(body)) == (403, "permission_denied")
    status, body, _ = await g.rollover_now("nope")
    assert (status, error(body)) == (404, "leaderboard_not_found")
    assert g.events("leaderboard.period_finalized") == []
    assert await g.entries() == [(1, "ann", 5)]


# --- feeds from events ----------------------------------------------------------------------------------


async def test_an_event_attempt_feeds_its_boards_once_when_it_completes_or_expires(league: League) -> None:
    g = league
    await g.register("ann")

    async def attempt(score: int) -> str:
        status, body, _ = await g.sdk("POST", "ann", "/events/dash/start")
        assert status == 201, body
        attempt_id = str(body["data"]["attempt"]["attemptId"])
        status, body, _ = await g.sdk(
            "POST", "ann", f"/events/dash/attempts/{attempt_id}/progress", {"metrics": {"score": score}}
        )
        assert status == 200, body
        return attempt_id

    await attempt(100)  # reaches the target: completed, fed at once
    assert await g.entries("weekly-xp") == [(1, "ann", 100)]
    assert await g.entries("forever") == [(1, "ann", 100)]

    await attempt(40)  # in progress: not fed yet
    assert await g.entries("weekly-xp") == [(1, "ann", 100)]
    await g.advance(600)  # it expires with 40
    assert await g.entries("weekly-xp") == [(1, "ann", 140)]  # summed
    assert await g.entries("forever") == [(1, "ann", 40)]  # the latest
    await g.advance(600)
    assert await g.entries("weekly-xp") == [(1, "ann", 140)]  # once
    assert await g.entries("daily-best") == []  # a board the event does not feed


# --- the schedule -------------------------------------------------------------------------------------


async def end_open_period(g: League, board: str, ends_at: datetime) -> str:
    """Move the end of the board's open period (test environment) to ``ends_at``; its id."""

    def move(tx: Any) -> str:
        period = tx.leaderboards.open_period(g.id, Environment.TEST, board)
        assert period is not None
        tx.leaderboards.update_period(attrs.evolve(period, ends_at=ends_at))
        return str(period.id)

    result: str = await g.world.services.store.run_async(move)
    return result


async def test_with_the_system_clock_a_period_rolls_over_within_about_a_second_of_its_end(
    db_url: str,
) -> None:
    g = await start_league_world(db_url, manual=False)
    try:
        await g.submitted("ann", 5, "daily-best")
        ends_at = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=2)
        period = await end_open_period(g, "daily-best", ends_at)
        [event] = await until(lambda: finalized(g, "daily-best"), "the period to roll over")
        assert event.data["periodId"] == period
        # Within the scheduler's second (and this machine's load) of the period's end.
        assert ends_at <= event.occurred_at < ends_at + timedelta(seconds=5)
        assert g.paid(period) == {"ann": 1}
    finally:
        await g.world.client.close()


async def test_a_server_starting_after_a_boundary_rolls_the_period_over_before_it_serves(db_url: str) -> None:
    g = await start_league_world(db_url)
    try:
        await g.submitted("ann", 5)
        await g.submitted("bob", 3)
        period = (await g.page())["leaderboard"]["periodId"]
    finally:
        await g.world.client.close()
    config, _, rng = service_args(db_url)
    later = ManualClock(weeks(1) + timedelta(hours=1))
    client = TestClient(TestServer(create_app(config, later, rng)))
    await client.start_server()
    try:
        store = client.app[SERVICES].store
        kinds = [e.kind for e in store.run(lambda tx: tx.outbox.events(), write=False)]
        assert kinds.count("leaderboard.period_finalized") == 1
        status = store.run(lambda tx: tx.leaderboards.period(g.id, period).status, write=False)
        assert status.value == "finalized"
    finally:
        await client.close()
