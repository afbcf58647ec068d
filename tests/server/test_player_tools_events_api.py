"""Player tools and live events through the API, on SQLite and PostgreSQL: the profile's attempts and
their counters, the export's attempts, a merge moving attempts and event-board entries, an erasure keeping
them under the anonymous row (docs/player-tools.md, docs/reference/player-tools.md).

The game is ``arena`` of ``tests/server/player_tools_support.py`` with two events whose windows are open
from the start of the manual clock (2026-03-02T12:00:00.000Z) for a day: ``sprint`` (higher is better,
rank 1 paid 5 coins) and ``lap`` (a time: lower is better)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import attrs
import pytest

from livecore.live_events.attempts import Attempt
from tests.conftest import start_world
from tests.server.player_tools_support import ARENA, DELETED_ID, MERGED_ID, Arena, error, ok

EVENTS = """
[games.arena.events.sprint]
name = "Sprint"
starts_at = "2026-03-02T11:00:00Z"
window_seconds = 86400
attempt_seconds = 600
score_metric = "score"

[[games.arena.events.sprint.rank_rewards]]
from = 1
to = 1
rewards = [{ type = "currency", key = "coins", amount = 5 }]

[games.arena.events.lap]
name = "Lap"
starts_at = "2026-03-02T11:00:00Z"
window_seconds = 86400
attempt_seconds = 600
score_metric = "lap_ms"
order = "asc"
"""

ATTEMPT_FIELDS = {
    "attemptId",
    "eventKey",
    "eventId",
    "windowId",
    "leaderboardId",
    "lobbyId",
    "status",
    "score",
    "metrics",
    "startedAt",
    "endsAt",
    "completedAt",
    "attemptCount",
    "milestones",
    "flagged",
}


@pytest.fixture
async def arena(db_url: str) -> AsyncIterator[Arena]:
    world = await start_world(db_url, manifest_extra=ARENA + EVENTS)
    a = Arena(world, "arena")
    try:
        yield a
    finally:
        await world.client.close()


async def play(
    a: Arena, who: str, event: str, score: float | None, *, complete: bool = True
) -> dict[str, Any]:
    """An attempt of ``who``: started, then (with a score) one progress write; the attempt as answered."""
    attempt: dict[str, Any] = ok(await a.sdk("POST", who, f"/events/{event}/start", {}), 201)["attempt"]
    if score is None:
        return attempt
    metric = "score" if event == "sprint" else "lap_ms"
    body = {"metrics": {metric: score}, "complete": complete}
    path = f"/events/{event}/attempts/{attempt['attemptId']}/progress"
    done: dict[str, Any] = ok(await a.sdk("POST", who, path, body))["attempt"]
    return done


async def board(a: Arena, board_id: str) -> list[dict[str, Any]]:
    answer = await a.world.call("GET", f"/sdk/v1/event-leaderboards/{board_id}", key=a.api_key("client"))
    entries: list[dict[str, Any]] = ok(answer)["entries"]
    return entries


def ranked(entries: list[dict[str, Any]]) -> list[tuple[int, str, float]]:
    return [(e["rank"], e["externalPlayerId"], e["score"]) for e in entries]


async def advance(a: Arena, seconds: int) -> None:
    """Service time moves and the scheduled work that came due runs (expiry sweep, window closes)."""
    ok(await a.world.call("POST", "/server/v1/dev/clock/advance", json={"seconds": seconds}))


# --- Profile ------------------------------------------------------------------------------------------


async def test_profile_lists_attempts_newest_first_as_the_attempt_record(arena: Arena) -> None:
    await arena.register("sam")
    first = await play(arena, "sam", "sprint", 40)
    arena.world.clock.advance(60)
    second = await play(arena, "sam", "lap", 31_000, complete=False)
    data = ok(await arena.profile("sam"))
    assert [a["attemptId"] for a in data["attempts"]] == [second["attemptId"], first["attemptId"]]
    assert set(data["attempts"][0]) == ATTEMPT_FIELDS
    assert data["attempts"][0] == second  # as the progress write answered it
    assert data["attempts"][1]["status"] == "completed" and data["attempts"][1]["score"] == 40


async def test_profile_limit_caps_the_attempts_while_the_summary_counts_them_all(arena: Arena) -> None:
    await arena.register("sam")
    for score in (1, 2, 3):
        await play(arena, "sam", "sprint", score)
        arena.world.clock.advance(1)
    data = ok(await arena.profile("sam", "?limit=2"))
    assert [a["score"] for a in data["attempts"]] == [3, 2]
    assert data["summary"]["attemptCount"] == 3


async def test_profile_summary_counts_attempts_completed_and_expired(arena: Arena) -> None:
    await arena.register("sam")
    await play(arena, "sam", "sprint", 10)  # completed
    await play(arena, "sam", "sprint", 20, complete=False)  # left to run out
    await play(arena, "sam", "lap", None)  # still running below
    summary = ok(await arena.profile("sam"))["summary"]
    assert (summary["attemptCount"], summary["attemptsCompleted"], summary["attemptsExpired"]) == (3, 1, 0)
    await advance(arena, 601)  # both running attempts end; the sweep marks them
    data = ok(await arena.profile("sam"))
    summary = data["summary"]
    assert (summary["attemptCount"], summary["attemptsCompleted"], summary["attemptsExpired"]) == (3, 1, 2)
    assert sorted(a["status"] for a in data["attempts"]) == ["completed", "expired", "expired"]


async def test_profile_shows_an_attempt_past_its_end_as_expired_before_the_sweep(arena: Arena) -> None:
    await arena.register("sam")
    await play(arena, "sam", "sprint", 20, complete=False)
    arena.world.clock.advance(601)  # no scheduled work runs
    (attempt,) = ok(await arena.profile("sam"))["attempts"]
    assert attempt["status"] == "expired"


# --- Export -------------------------------------------------------------------------------------------


async def test_export_carries_the_players_attempts_newest_first(arena: Arena) -> None:
    await arena.register("sam", "tom")
    first = await play(arena, "sam", "sprint", 40)
    arena.world.clock.advance(60)
    second = await play(arena, "sam", "lap", 29_000)
    await play(arena, "tom", "sprint", 50)
    data = await arena.exported("sam")
    assert data["attempts"] == [second, first]


async def test_export_attempts_are_capped_at_1000_newest_first(arena: Arena) -> None:
    await arena.register("sam")
    newest = await play(arena, "sam", "sprint", 1)
    await insert_attempt_copies(arena, newest["attemptId"], 1005)
    data = await arena.exported("sam")
    assert len(data["attempts"]) == 1000
    assert data["attempts"][0]["attemptId"] == newest["attemptId"]
    started = [a["startedAt"] for a in data["attempts"]]
    assert started == sorted(started, reverse=True)


# --- Merge --------------------------------------------------------------------------------------------


async def test_merge_moves_the_sources_attempts_to_the_target(arena: Arena) -> None:
    await arena.register("sam", "tom")
    mine = await play(arena, "sam", "sprint", 40)
    theirs = await play(arena, "tom", "lap", 30_000)
    placeholder = ok(await arena.merge("sam", "tom"))["anonymizedExternalPlayerId"]
    assert re.fullmatch(MERGED_ID, placeholder)
    data = ok(await arena.profile("tom"))
    assert {a["attemptId"] for a in data["attempts"]} == {mine["attemptId"], theirs["attemptId"]}
    assert data["summary"]["attemptCount"] == 2
    assert ok(await arena.profile(placeholder))["attempts"] == []
    # The moved attempt is the target's now: its webhooks and reads name the target.
    stored = stored_attempt(arena, mine["attemptId"])
    assert (stored.player_id, stored.external_player_id) == (arena.player_id("tom"), "tom")


async def test_merge_keeps_the_better_entry_of_the_two_on_each_board(arena: Arena) -> None:
    await arena.register("sam", "tom", "ann")
    sprint = await play(arena, "sam", "sprint", 80)  # the source is better here
    await play(arena, "tom", "sprint", 50)
    await play(arena, "ann", "sprint", 60)
    lap = await play(arena, "sam", "lap", 31_000)  # and worse here
    await play(arena, "tom", "lap", 29_500)
    ok(await arena.merge("sam", "tom"))
    assert ranked(await board(arena, sprint["leaderboardId"])) == [(1, "tom", 80), (2, "ann", 60)]
    assert ranked(await board(arena, lap["leaderboardId"])) == [(1, "tom", 29_500)]


async def test_merge_moves_an_entry_the_target_does_not_have_and_the_target_plays_on(arena: Arena) -> None:
    await arena.register("sam", "tom")
    only = await play(arena, "sam", "sprint", 7)
    ok(await arena.merge("sam", "tom"))
    assert ranked(await board(arena, only["leaderboardId"])) == [(1, "tom", 7)]
    better = await play(arena, "tom", "sprint", 9)
    assert better["attemptCount"] == 2  # the moved attempt counts in the window
    assert ranked(await board(arena, only["leaderboardId"])) == [(1, "tom", 9)]


async def test_merge_that_fails_moves_no_attempt_or_entry(arena: Arena) -> None:
    await arena.register("sam", "tom")
    mine = await play(arena, "sam", "sprint", 7)
    ok(await arena.ban_api("tom"))
    assert error(await arena.merge("sam", "tom")) == (422, "invalid_merge")
    assert [a["attemptId"] for a in ok(await arena.profile("sam"))["attempts"]] == [mine["attemptId"]]
    assert ranked(await board(arena, mine["leaderboardId"])) == [(1, "sam", 7)]


# --- Erasure ------------------------------------------------------------------------------------------


async def test_an_erased_players_entry_stays_on_the_board_with_the_anonymous_identity(arena: Arena) -> None:
    await arena.register("sam", "tom")
    ok(await arena.sdk("PUT", "sam", "/identity", {"name": "Sam Spade", "avatar": "hat"}))
    mine = await play(arena, "sam", "sprint", 70)
    await play(arena, "tom", "sprint", 50)
    placeholder = ok(await arena.erase("sam"))["anonymizedExternalId"]
    assert re.fullmatch(DELETED_ID, placeholder)
    top, second = await board(arena, mine["leaderboardId"])
    assert (top["rank"], top["externalPlayerId"], top["score"]) == (1, placeholder, 70)
    assert (top["name"], top["avatar"], top["country"]) == ("Deleted player", None, None)
    assert "Sam Spade" not in repr(top)
    assert (second["rank"], second["externalPlayerId"]) == (2, "tom")


async def test_an_erased_players_attempts_stay_under_the_placeholder(arena: Arena) -> None:
    await arena.register("sam")
    mine = await play(arena, "sam", "sprint", 70)
    placeholder = ok(await arena.erase("sam"))["anonymizedExternalId"]
    data = ok(await arena.profile(placeholder))
    assert [a["attemptId"] for a in data["attempts"]] == [mine["attemptId"]]
    assert data["summary"]["attemptCount"] == 1
    assert stored_attempt(arena, mine["attemptId"]).external_player_id == placeholder


async def test_an_erased_players_rank_is_paid_to_the_anonymous_row_at_the_close(arena: Arena) -> None:
    await arena.register("sam", "tom")
    mine = await play(arena, "sam", "sprint", 70)
    await play(arena, "tom", "sprint", 50)
    placeholder = ok(await arena.erase("sam"))["anonymizedExternalId"]
    ok(await arena.write("POST", "/dev/events/sprint/end-now"))
    grants = ok(await arena.profile(placeholder))["grants"]
    assert [(g["sourceKind"], g["sourceRefId"]) for g in grants] == [("event_rank", mine["leaderboardId"])]
    assert ok(await arena.profile("tom"))["grants"] == []


# --- helpers ----------------------------------------------------------------------------------------


def stored_attempt(arena: Arena, attempt_id: str) -> Attempt:
    game_id = arena.world.applied["games"]["arena"]["id"]
    attempt = arena.world.services.store.run(lambda tx: tx.attempts.get(game_id, attempt_id), write=False)
    assert attempt is not None
    return attempt


async def insert_attempt_copies(arena: Arena, attempt_id: str, count: int) -> None:
    """``count`` older copies of an attempt, through the attempts port (one second apart, older and
    older)."""
    original = stored_attempt(arena, attempt_id)

    def insert(tx: Any) -> None:
        for i in range(1, count + 1):
            started = original.started_at - timedelta(seconds=i)
            tx.attempts.insert(
                attrs.evolve(
                    original,
                    id=f"att_00000000000070008000{i:012d}",
                    started_at=started,
                    ends_at=started + timedelta(seconds=600),
                )
            )

    await arena.world.services.store.run_async(insert)
