"""The live-event routes through the real app, on SQLite and PostgreSQL, with the manual clock: the events
list, start and progress with every transition and refusal (the orders of ``livecore.live_events.attempts``),
the
windows the scheduler opens and closes, rank rewards, end-now (tests/server/event_support.py has the
game)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from livecore.clock import ManualClock, format_ts, to_millis
from livecore_server.app import create_app
from livecore_server.services import SERVICES
from tests.conftest import START, service_args, start_world
from tests.server.event_support import SPRINT_OPENS, Arcade, error, start_event_world
from tests.waiting import until


@pytest.fixture
async def arcade(db_url: str) -> AsyncIterator[Arcade]:
    game = await start_event_world(db_url)
    try:
        yield game
    finally:
        await game.world.client.close()


async def open_sprint(g: Arcade, *players: str, gems: int = 10) -> None:
    """Register ``players`` with ``gems`` each and move to the opening of the first sprint window."""
    await g.register(*players)
    for who in players:
        if gems:
            await g.credit(who, "gems", gems)
    await g.advance_to(SPRINT_OPENS)


# --- the events list --------------------------------------------------------------------------------


async def test_the_events_list_tells_each_events_state_and_window_and_attempts_only_with_the_secret(
    arcade: Arcade,
) -> None:
    g = arcade
    await g.register("ann")
    listed = await g.listed("ann")
    sprint, golf = listed["sprint"], listed["golf"]
    assert sprint["state"] == "scheduled" and sprint["window"] is None
    assert sprint["nextWindowStartsAt"] == format_ts(SPRINT_OPENS)
    assert sprint["entryCost"] == [{"type": "currency", "key": "gems", "amount": 5}]
    assert (sprint["maxAttempts"], sprint["target"], sprint["order"], sprint["lobby"]) == (
        2,
        1000,
        "desc",
        False,
    )
    assert golf["state"] == "open" and golf["nextWindowStartsAt"] is None
    assert golf["window"]["startsAt"] == format_ts(START.replace(hour=0))
    assert golf["window"]["endsAt"] == format_ts(START.replace(hour=0) + timedelta(days=1))
    assert (golf["entryCost"], golf["maxAttempts"], golf["target"]) == ([], None, None)
    assert "attempts" not in sprint and "attempts" not in golf

    # With the secret: the player's attempts in the open window.
    attempt = await g.started("ann", "golf")
    with_secret = await g.listed("ann", secret=g.secrets["ann"])
    assert with_secret["sprint"]["attempts"] == []
    assert [a["attemptId"] for a in with_secret["golf"]["attempts"]] == [attempt["attemptId"]]
    assert with_secret["golf"]["window"]["id"] == attempt["windowId"]

    # A wrong secret is a 401, as everywhere; without one, anyone's list (even an unknown player's).
    status, body, _ = await g.events_of("ann", secret="lcps_" + "x" * 43)
    assert (status, error(body)) == (401, "player_secret_invalid")
    status, body, _ = await g.events_of("nobody")
    assert status == 200 and "attempts" not in body["data"]["events"][0]
    status, body, _ = await g.events_of("nobody", secret=g.secrets["ann"])
    assert (status, error(body)) == (401, "player_secret_invalid")

    # After golf's only window: ended.
    await g.advance_to(START.replace(hour=0) + timedelta(days=1, seconds=1))
    assert (await g.listed("ann"))["golf"]["state"] == "ended"


# --- windows ----------------------------------------------------------------------------------------


async def test_a_window_opens_at_its_start_and_closes_at_its_end_with_window_webhooks_for_live_only(
    arcade: Arcade,
) -> None:
    g = arcade
    await g.register("ann")
    await g.advance_to(SPRINT_OPENS - timedelta(seconds=1))
    # golf's window (open by the schedule since before the world started) opened at the first step.
    assert [e.data["eventKey"] for e in g.events("window.opened")] == ["golf"]
    assert (await g.listed("ann"))["sprint"]["state"] == "scheduled"
    await g.advance(1)
    opened = g.events("window.opened")
    # golf's and sprint's, each once, live only.
    assert sorted(e.data["eventKey"] for e in opened) == ["golf", "sprint"]
    assert {e.env.value for e in opened} == {"live"}
    sprint_opened = next(e for e in opened if e.data["eventKey"] == "sprint")
    assert sprint_opened.occurred_at == SPRINT_OPENS
    listed = await g.listed("ann")
    assert listed["sprint"]["state"] == "open"

    await g.advance_to(SPRINT_OPENS + timedelta(hours=1))
    closed = [e for e in g.events("window.closed") if e.data["eventKey"] == "sprint"]
    assert len(closed) == 1 and closed[0].env.value == "live"
    assert closed[0].occurred_at == SPRINT_OPENS + timedelta(hours=1)
    listed = await g.listed("ann")
    assert listed["sprint"]["state"] == "scheduled"
    assert listed["sprint"]["nextWindowStartsAt"] == format_ts(SPRINT_OPENS + timedelta(hours=2))

    # The next window opens on schedule, once.
    await g.advance_to(SPRINT_OPENS + timedelta(hours=2))
    assert len([e for e in g.events("window.opened") if e.data["eventKey"] == "sprint"]) == 2


# --- start --------------------------------------------------------------------------------------------


async def test_start_refuses_in_order_banned_unknown_event_not_open_in_progress_max_attempts_cost(
    arcade: Arcade,
) -> None:
    g = arcade
    await g.register("ann", "bob")
    # 409 event_not_open before the window, 404 for an unknown event.
    status, body, _ = await g.start("ann")
    assert (status, error(body), body["error"]["details"]) == (409, "event_not_open", {"eventKey": "sprint"})
    status, body, _ = await g.start("ann", "marathon")
    assert (status, error(body)) == (404, "event_not_found")
    await g.advance_to(SPRINT_OPENS)

    # 409 insufficient_entry_cost, with what is needed and held; nothing charged or written.
    before = g.footprint()
    status, body, _ = await g.start("ann")
    assert (status, error(body)) == (409, "insufficient_entry_cost")
    assert body["error"]["details"] == {"resource": "gems", "needed": 5, "have": 0}
    assert g.footprint() == before
    assert g.world.rows("SELECT COUNT(*) FROM attempts") == [(0,)]

    # Started: the cost paid in the attempt's transaction.
    await g.credit("ann", "gems", 10)
    kinds_before = len(g.kinds())
    first = await g.started("ann")
    assert (first["status"], first["attemptCount"], first["score"], first["milestones"]) == (
        "in_progress",
        1,
        None,
        [],
    )
    assert first["endsAt"] == format_ts(SPRINT_OPENS + timedelta(minutes=10))
    assert await g.balance("ann", "gems") == 5
    assert g.kinds()[kinds_before:] == ["wallet.changed", "event.attempt_started", "entry_cost.charged"]
    charged = g.events("entry_cost.charged")[0].data
    assert charged["cost"]["currencies"] == [{"key": "gems", "amount": 5}]
    assert charged["eventWindowId"] == first["windowId"]

    # 409 attempt_in_progress names it.
    status, body, _ = await g.start("ann")
    assert (status, error(body), body["error"]["details"]) == (
        409,
        "attempt_in_progress",
        {"attemptId": first["attemptId"]},
    )
    # A finished attempt lets the next start: attempt_restarted, then attempt_started.
    await g.progressed("ann", first["attemptId"], {"score": 40}, complete=True)
    kinds_before = len(g.kinds())
    second = await g.started("ann")
    assert second["attemptCount"] == 2 and await g.balance("ann", "gems") == 0
    assert [k for k in g.kinds()[kinds_before:] if k.startswith("event.")] == [
        "event.attempt_restarted",
        "event.attempt_started",
    ]
    restarted = g.events("event.attempt_restarted")[0].data
    assert (restarted["priorAttemptId"], restarted["priorStatus"], restarted["priorScore"]) == (
        first["attemptId"],
        "completed",
        40,
    )
    await g.progressed("ann", second["attemptId"], {"score": 1}, complete=True)
    # 409 max_attempts_reached comes before the cost (ann has no gems left).
    status, body, _ = await g.start("ann")
    assert (status, error(body)) == (409, "max_attempts_reached")

    # 403 player_banned before anything else, even an unknown event.
    await g.ban("bob")
    for event in ("sprint", "marathon"):
        status, body, _ = await g.start("bob", event)
        assert (status, error(body)) == (403, "player_banned")


async def test_two_concurrent_starts_by_one_player_create_one_attempt_and_charge_once(arcade: Arcade) -> None:
    g = arcade
    await open_sprint(g, "ann", gems=20)
    answers = await asyncio.gather(*(g.start("ann") for _ in range(4)))
    assert sorted(status for status, _, _ in answers) == [201, 409, 409, 409]
    assert {error(body) for status, body, _ in answers if status == 409} == {"attempt_in_progress"}
    assert g.world.rows("SELECT COUNT(*) FROM attempts") == [(1,)]
    assert await g.balance("ann", "gems") == 15
    assert Counter(g.kinds())["entry_cost.charged"] == 1


async def test_a_start_replayed_with_its_idempotency_key_answers_the_same_attempt(arcade: Arcade) -> None:
    g = arcade
    await open_sprint(g, "ann")
    headers = {"Idempotency-Key": "start-1"}
    status, first, _ = await g.start("ann", headers=headers)
    assert status == 201
    status, again, replay_headers = await g.start("ann", headers=headers)
    assert (status, again, replay_headers["Idempotent-Replay"]) == (200, first, "true")
    assert await g.balance("ann", "gems") == 5


async def test_start_refuses_an_oversize_player_context_and_a_segment_value_that_is_not_a_string(
    arcade: Arcade,
) -> None:
    g = arcade
    await g.register("ann")
    status, body, _ = await g.start("ann", "golf", {"blob": "x" * 5000})
    assert (status, error(body)) == (400, "invalid_request")
    assert "playerContext" in body["error"]["details"]["fields"]
    status, body, _ = await g.start("ann", "golf", {"country": 44})
    assert (status, error(body)) == (400, "invalid_request")
    assert body["error"]["details"]["fields"] == {"playerContext.country": "must be a string"}
    assert g.world.rows("SELECT COUNT(*) FROM attempts") == [(0,)]
    # The segment value picks the board; the country of the request when the context has none.
    fr = await g.started("ann", "golf", context={"country": "FR"})
    await g.progressed("ann", fr["attemptId"], {"strokes": 70}, event="golf", complete=True)
    await g.register("bob")
    de = await g.started("bob", "golf", headers={"CF-IPCountry": "DE"})
    assert fr["leaderboardId"] != de["leaderboardId"]
    status, body, _ = await g.board(de["leaderboardId"])
    assert body["data"]["leaderboard"]["segmentValues"] == {"country": "DE"}


# --- progress -----------------------------------------------------------------------------------------


async def test_progress_refusals_change_nothing(arcade: Arcade) -> None:
    g = arcade
    await open_sprint(g, "ann", "bob")
    mine = await g.started("ann")
    attempt = mine["attemptId"]
    await g.progressed("ann", attempt, {"score": 10})
    before = g.footprint()

    async def refused(who: str, attempt_id: str, metrics: Any, event: str = "sprint") -> tuple[int, Any]:
        status, body, _ = await g.progress(who, attempt_id, metrics, event=event)
        return status, body

    # Unknown metric, a string, a boolean: 400 naming each.
    status, body = await refused("ann", attempt, {"speed": 3, "score": "high", "combo": True})
    assert (status, error(body)) == (400, "invalid_request")
    assert set(body["error"]["details"]["fields"]) == {"metrics.speed", "metrics.score", "metrics.combo"}
    status, body = await refused("ann", attempt, {})
    assert (status, error(body)) == (400, "invalid_request")
    # Another player's attempt, an unknown one, one of another event: 404.
    for who, attempt_id, event in (
        ("bob", attempt, "sprint"),
        ("ann", "att_nope", "sprint"),
        ("ann", attempt, "golf"),
    ):
        status, body = await refused(who, attempt_id, {"score": 20}, event)
        assert (status, error(body)) == (404, "attempt_not_found"), (who, attempt_id, event)
    # The score cap rejects: 422 naming the check, nothing applied, no webhook.
    status, body = await refused("ann", attempt, {"score": 6000})
    assert (status, error(body), body["error"]["details"]) == (
        422,
        "anti_cheat_rejected",
        {"validator": "score-cap"},
    )
    assert g.footprint() == before
    status, body, _ = await g.board(mine["leaderboardId"])
    assert [e["score"] for e in body["data"]["entries"]] == [10]


async def test_progress_sets_metrics_keeps_the_best_score_crosses_milestones_once_and_completes_at_target(
    arcade: Arcade,
) -> None:
    g = arcade
    await open_sprint(g, "ann")
    attempt = (await g.started("ann"))["attemptId"]

    done = await g.progressed("ann", attempt, {"score": 150})
    assert done["attempt"]["milestones"] == ["bronze"]
    [grant] = done["milestonesGranted"]
    assert grant["entries"] == [{"type": "item", "key": "badge", "amount": 1}]
    assert (grant["sourceKind"], grant["sourceRefId"], grant["status"]) == (
        "event_milestone",
        attempt,
        "pending",
    )

    # A lower value is written as the metric, the score stays the best.
    done = await g.progressed("ann", attempt, {"score": 120, "combo": 5})
    assert (done["attempt"]["score"], done["attempt"]["metrics"]) == (150, {"score": 120, "combo": 5})
    assert done["milestonesGranted"] == []

    # A combo rising faster than 10 a second is flagged, and applied.
    await g.advance(2)
    done = await g.progressed("ann", attempt, {"combo": 100})
    assert done["attempt"]["flagged"] is True and done["attempt"]["metrics"]["combo"] == 100
    [flag] = g.events("event.attempt_flagged")
    assert (flag.data["validatorKey"], flag.data["metricSnapshot"]["metricKey"]) == ("combo-rate", "combo")

    done = await g.progressed("ann", attempt, {"score": 700})
    assert done["attempt"]["milestones"] == ["bronze", "silver"] and len(done["milestonesGranted"]) == 1
    assert [e.data["milestoneKey"] for e in g.events("event.milestone_granted")] == ["bronze", "silver"]

    # The target completes it, with its completion rewards.
    done = await g.progressed("ann", attempt, {"score": 1000})
    assert done["attempt"]["status"] == "completed" and done["attempt"]["completedAt"] is not None
    assert len(g.events("event.completed")) == 1
    assert [row[2] for row in g.grants("event_completion")] == [attempt]
    status, body, _ = await g.progress("ann", attempt, {"score": 1001})
    assert (status, error(body)) == (409, "attempt_not_in_progress")


async def test_complete_true_finishes_an_attempt_below_target(arcade: Arcade) -> None:
    g = arcade
    await open_sprint(g, "ann")
    attempt = (await g.started("ann"))["attemptId"]
    done = await g.progressed("ann", attempt, {"score": 30}, complete=True)
    assert (done["attempt"]["status"], done["attempt"]["score"]) == ("completed", 30)
    assert len(g.events("event.completed")) == 1 and len(g.grants("event_completion")) == 1


async def test_progress_after_ends_at_is_refused_and_the_sweep_expires_the_attempt_once(
    arcade: Arcade,
) -> None:
    g = arcade
    await open_sprint(g, "ann")
    attempt = await g.started("ann")
    await g.progressed("ann", attempt["attemptId"], {"score": 80})
    await g.advance(600)  # endsAt: the sweep runs at that very time
    status, body, _ = await g.progress("ann", attempt["attemptId"], {"score": 90})
    assert (status, error(body)) == (409, "attempt_not_in_progress")
    [expired] = g.events("event.expired")
    assert expired.occurred_at == SPRINT_OPENS + timedelta(minutes=10)
    listed = await g.listed("ann", secret=g.secrets["ann"])
    [view] = listed["sprint"]["attempts"]
    assert (view["status"], view["score"]) == ("expired", 80)
    await g.advance(600)
    assert len(g.events("event.expired")) == 1
    # The expired attempt still counts on the board.
    assert await g.entries(attempt["leaderboardId"]) == [(1, "ann", 80)]


async def test_concurrent_progress_writes_never_lose_the_higher_score(arcade: Arcade) -> None:
    g = arcade
    await open_sprint(g, "ann")
    attempt = await g.started("ann")
    scores = [10, 90, 40, 70, 20, 85, 30]
    answers = await asyncio.gather(*(g.progress("ann", attempt["attemptId"], {"score": s}) for s in scores))
    assert [status for status, _, _ in answers] == [200] * len(scores)
    listed = await g.listed("ann", secret=g.secrets["ann"])
    assert listed["sprint"]["attempts"][0]["score"] == 90
    assert await g.entries(attempt["leaderboardId"]) == [(1, "ann", 90)]


async def test_progress_updated_is_debounced_per_attempt_to_one_event_per_five_seconds(
    arcade: Arcade,
) -> None:
    g = arcade
    await open_sprint(g, "ann")
    attempt = (await g.started("ann"))["attemptId"]
    for score in (10, 20, 30):
        await g.progressed("ann", attempt, {"score": score})
        await g.advance(1)
    [burst] = g.events("event.progress_updated")
    assert burst.data["score"] == 30  # the latest state
    await g.advance(3)  # 5 s after the burst's first write: sent, and the next write starts a new one
    await g.progressed("ann", attempt, {"score": 40})
    updates = g.events("event.progress_updated")
    assert [e.data["score"] for e in updates] == [30, 40]
    assert updates[0].occurred_at == SPRINT_OPENS + timedelta(seconds=2)


# --- closing ----------------------------------------------------------------------------------------


async def test_closing_a_window_expires_attempts_finalizes_boards_and_pays_rank_rewards_once(
    arcade: Arcade,
) -> None:
    g = arcade
    players = ("ann", "bob", "cat", "dan")
    await open_sprint(g, *players)
    attempts = {}
    for who, score in zip(players, (300, 900, 300, 50), strict=True):
        attempts[who] = await g.started(who)
        await g.progressed(who, attempts[who]["attemptId"], {"score": score})
        await g.advance(1)
    [board] = {a["leaderboardId"] for a in attempts.values()}
    # ann finishes hers (an equal score is no better: she still reached 300 first) and starts another at
    # 13:55, which ends with the window (14:00), not 10 minutes later; the others' attempts run out at 13:10.
    await g.progressed("ann", attempts["ann"]["attemptId"], {"score": 300}, complete=True)
    await g.advance_to(SPRINT_OPENS + timedelta(minutes=55))
    assert len(g.events("event.expired")) == 3
    late = await g.started("ann")
    assert late["endsAt"] == format_ts(SPRINT_OPENS + timedelta(hours=1))

    await g.advance_to(SPRINT_OPENS + timedelta(hours=1))
    status, body, _ = await g.board(board)
    assert body["data"]["leaderboard"]["status"] == "finalized"
    assert [(e["rank"], e["externalPlayerId"], e["score"]) for e in body["data"]["entries"]] == [
        (1, "bob", 900),
        (2, "ann", 300),  # reached 300 before cat
        (3, "cat", 300),
        (4, "dan", 50),
    ]
    paid = {row[1]: row[2] for row in g.grants("event_rank")}
    assert paid == {g.player_id(who): board for who in ("bob", "ann", "cat")}
    [finalized] = g.events("leaderboard.finalized")
    assert [e["externalPlayerId"] for e in finalized.data["top"]] == ["bob", "ann", "cat", "dan"]
    assert len(g.events("event.expired")) == 4  # bob, cat, dan, and ann's late attempt
    kinds = g.kinds()
    assert kinds.index("leaderboard.finalized") > max(i for i, k in enumerate(kinds) if k == "event.expired")
    # Nothing happens twice.
    await g.advance(3600)
    assert len(g.grants("event_rank")) == 3 and len(g.events("leaderboard.finalized")) == 1
    status, body, _ = await g.progress("ann", late["attemptId"], {"score": 5000})
    assert (status, error(body)) == (409, "attempt_not_in_progress")


# --- end-now ----------------------------------------------------------------------------------------


async def test_end_now_closes_the_open_window_of_the_test_environment_only(arcade: Arcade) -> None:
    g = arcade
    status, body, _ = await g.end_now("sprint", key="live-server")
    assert (status, error(body)) == (403, "permission_denied")
    status, body, _ = await g.end_now("marathon")
    assert (status, error(body)) == (404, "event_not_found")
    status, body, _ = await g.end_now("sprint")
    assert (status, body["data"]) == (200, {"closedWindows": []})

    await open_sprint(g, "ann")
    attempt = await g.started("ann")
    await g.progressed("ann", attempt["attemptId"], {"score": 200})
    status, body, _ = await g.end_now("sprint")
    assert (status, body["data"]) == (200, {"closedWindows": [attempt["windowId"]]})
    assert len(g.events("event.expired")) == 1 and len(g.grants("event_rank")) == 1
    assert g.kinds_in("live").count("window.closed") == 0  # the test environment's window
    status, body, _ = await g.start("ann")
    assert (status, error(body)) == (409, "event_not_open")
    assert (await g.listed("ann"))["sprint"]["state"] == "scheduled"
    status, body, _ = await g.end_now("sprint")
    assert body["data"] == {"closedWindows": []}

    # The live window is untouched and closes on time; the next test window opens on schedule.
    await g.advance_to(SPRINT_OPENS + timedelta(hours=1))
    assert g.kinds_in("live").count("window.closed") == 1
    await g.advance_to(SPRINT_OPENS + timedelta(hours=2))
    assert (await g.listed("ann"))["sprint"]["state"] == "open"


# --- the clock ----------------------------------------------------------------------------------------


async def test_with_the_system_clock_a_window_opens_and_closes_within_about_a_second(db_url: str) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    blink = f"""
[games.space-race.events.blink]
name = "Blink"
starts_at = "{now.strftime("%Y-%m-%dT%H:%M:%SZ")}"
window_seconds = 3
attempt_seconds = 3
score_metric = "score"
"""
    world = await start_world(db_url, manual=False, manifest_extra=blink)
    try:

        def live(kind: str) -> list[Any]:
            return [e for e in world.events() if e.kind == kind and e.env.value == "live"]

        [opened] = await until(lambda: live("window.opened"), "the window to open")
        [closed] = await until(lambda: live("window.closed"), "the window to close")
        assert opened.data["eventKey"] == closed.data["eventKey"] == "blink"
        # Within the scheduler's second (and this machine's load) of the window's times.
        assert closed.occurred_at - (now + timedelta(seconds=3)) < timedelta(seconds=5)
        assert closed.occurred_at >= now + timedelta(seconds=3)
    finally:
        await world.client.close()


async def test_a_server_starting_after_downtime_catches_up_before_it_serves(db_url: str) -> None:
    """Windows that ended while no server ran close (expiring their attempts, paying their ranks), and
    the one open now opens, as the server starts."""
    g = await start_event_world(db_url)
    try:
        await open_sprint(g, "ann")
        attempt = await g.started("ann")
        await g.progressed("ann", attempt["attemptId"], {"score": 10})
    finally:
        await g.world.client.close()
    config, _, rng = service_args(db_url)
    later = ManualClock(SPRINT_OPENS + timedelta(hours=2, minutes=30))  # the next window is open
    client = TestClient(TestServer(create_app(config, later, rng)))
    await client.start_server()
    try:
        services = client.app[SERVICES]
        rows = services.store.run(
            lambda tx: [
                tuple(r)
                for r in tx.execute(
                    "SELECT starts_at, status FROM windows WHERE event_key = ? ORDER BY starts_at, env",
                    ("sprint",),
                )
            ],
            write=False,
        )
        first, second = to_millis(SPRINT_OPENS), to_millis(SPRINT_OPENS + timedelta(hours=2))
        assert rows == [(first, "closed"), (first, "closed"), (second, "open"), (second, "open")]
        kinds = [e.kind for e in services.store.run(lambda tx: tx.outbox.events(), write=False)]
        assert kinds.count("event.expired") == 1 and kinds.count("leaderboard.finalized") == 1
        assert (
            services.store.run(
                lambda tx: list(tx.execute("SELECT COUNT(*) FROM grants WHERE source_kind = 'event_rank'")),
                write=False,
            )[0][0]
            == 1
        )
    finally:
        await client.close()
