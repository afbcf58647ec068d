"""Event teams and partners through the real app, on SQLite and PostgreSQL with the manual clock
(docs/teams.md): a whole window of studio teams (roster PUTs, contributions, a milestone, a kick, the
goal, ``locked_elsewhere``, the close with its team board), a kick that removes a contribution, partner
invites from refusal to acceptance and expiry, the player's own team, and the 404s.

The ``arcade`` game of ``tests/server/event_support.py`` gains three team events, open from 11:00 (the
clock starts at 12:00): ``raid`` (studio teams of 3, daily windows of two hours, goal 1000, milestone
``half`` at 500, a team board paying rank 1), ``purge`` (studio teams of 2 that lose a member's
contribution when it leaves) and ``pair`` (partner teams, one window of three days).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

from livecore.clock import format_ts
from livecore.live_events.rules import window_id
from livecore.scope import Environment
from tests.conftest import START
from tests.server.event_support import Arcade, error, start_event_world

TEAM_EVENTS = """
[games.arcade.events.raid]
name = "Raid"
starts_at = "2026-03-02T11:00:00Z"
window_seconds = 7200
repeat_every_seconds = 86400
attempt_seconds = 600
score_metric = "score"

[games.arcade.events.raid.teams]
formation = "external"
size = 3
goal = 1000
board = true

[[games.arcade.events.raid.teams.milestones]]
key = "half"
threshold = 500
rewards = [{ type = "currency", key = "coins", amount = 50 }]

[[games.arcade.events.raid.teams.rank_rewards]]
from = 1
to = 1
rewards = [{ type = "currency", key = "coins", amount = 500 }]

[games.arcade.events.purge]
name = "Purge"
starts_at = "2026-03-02T11:00:00Z"
window_seconds = 7200
attempt_seconds = 600
score_metric = "score"

[games.arcade.events.purge.teams]
formation = "external"
size = 2
on_leave = "remove_contribution"

[games.arcade.events.pair]
name = "Pair"
starts_at = "2026-03-02T11:00:00Z"
window_seconds = 259200
attempt_seconds = 600
score_metric = "score"

[games.arcade.events.pair.teams]
formation = "partner"
size = 2
goal = 500
"""

OPENED = START - timedelta(hours=1)
CLOSES = START + timedelta(hours=1)


@pytest.fixture
async def arcade(db_url: str) -> AsyncIterator[Arcade]:
    g = await start_event_world(db_url, events=TEAM_EVENTS)
    try:
        yield g
    finally:
        await g.world.client.close()


def window_of(g: Arcade, event: str, starts_at: Any = OPENED) -> str:
    return window_id(g.id, Environment.TEST, event, starts_at)


def snapshot(g: Arcade) -> dict[str, list[Any]]:
    """Every row a roster PUT could write."""
    tables = ("players", "outbox", "teams", "team_members", "partner_invites", "grants", "idempotency")
    # The outbox without its delivery bookkeeping, which the dispatcher updates in the background.
    columns = {"outbox": "seq, id, studio_id, game_id, env, kind, occurred_at, data"}
    return {t: sorted(g.world.rows(f"SELECT {columns.get(t, '*')} FROM {t}"), key=repr) for t in tables}


async def put(
    g: Arcade, team: str, players: list[str], *, event: str = "raid", key: str | None = None, **extra: Any
) -> tuple[int, Any, Any]:
    body = {"externalPlayerIds": players, "idempotencyKey": key or f"{team}-{'-'.join(players)}", **extra}
    return await g.server("PUT", f"/events/{event}/teams/{team}", body)


async def put_ok(g: Arcade, team: str, players: list[str], **kw: Any) -> dict[str, Any]:
    status, body, _ = await put(g, team, players, **kw)
    assert status == 200, body
    view: dict[str, Any] = body["data"]["team"]
    return view


async def read(g: Arcade, team: str, *, event: str = "raid", window: str | None = None) -> tuple[int, Any]:
    query = f"?windowId={window}" if window else ""
    status, body, _ = await g.server("GET", f"/events/{event}/teams/{team}{query}")
    return status, body


async def team_view(g: Arcade, team: str, **kw: Any) -> dict[str, Any]:
    status, body = await read(g, team, **kw)
    assert status == 200, body
    view: dict[str, Any] = body["data"]["team"]
    return view


def members(view: dict[str, Any]) -> list[tuple[str, float, int]]:
    return [(m["externalPlayerId"], m["contribution"], m["rank"]) for m in view["members"]]


async def mine(g: Arcade, who: str, event: str = "raid") -> dict[str, Any] | None:
    status, body, _ = await g.sdk("GET", who, f"/events/{event}/team")
    assert status == 200, body
    team: dict[str, Any] | None = body["data"]["team"]
    return team


async def score(g: Arcade, who: str, value: float, event: str = "raid") -> None:
    """Report ``value`` on the player's attempt in progress at ``event`` (started now if it has none)."""
    attempts = [
        a
        for a in (await g.listed(who, secret=g.secrets[who]))[event]["attempts"]
        if a["status"] == "in_progress"
    ]
    attempt = attempts[0]["attemptId"] if attempts else (await g.started(who, event))["attemptId"]
    await g.progressed(who, attempt, {"score": value}, event=event)


def payloads(g: Arcade, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in g.events(kind)]


# --- a whole window of studio teams --------------------------------------------------------------------


async def test_a_whole_window_of_studio_teams(arcade: Arcade) -> None:
    g = arcade
    await g.register("ann", "bob", "cat", "dan", "eli", "fin")
    raid = window_of(g, "raid")

    red = await put_ok(g, "red", ["ann", "bob"], name="Red", attributes={"color": "red"})
    assert red["teamId"].startswith("team_")
    assert {k: v for k, v in red.items() if k not in ("teamId", "members")} == {
        "key": "red",
        "name": "Red",
        "formation": "external",
        "windowId": raid,
        "score": 0,
        "goal": 1000,
        "completed": False,
        "finalRank": None,
        "attributes": {"color": "red"},
    }
    # Equal contributions rank by seat: the earlier seated first.
    assert members(red) == [("ann", 0, 1), ("bob", 0, 2)]
    assert red["members"][0]["displayIdentity"]["name"]  # the anonymized identity when never set
    blue = await put_ok(g, "blue", ["cat", "dan"])
    assert (blue["windowId"], blue["name"], blue["attributes"]) == (raid, None, None)
    assert g.kinds().count("event_team.formed") == 2
    assert g.kinds().count("event_team.member_joined") == 4

    # Progress moves the member's contribution and the team's score.
    await score(g, "ann", 300)
    view = await team_view(g, "red")
    assert (view["score"], members(view)) == (300, [("ann", 300, 1), ("bob", 0, 2)])

    # Crossing the milestone pays every seated member once.
    await score(g, "bob", 250)
    await score(g, "bob", 400)
    view = await team_view(g, "red")
    assert (view["score"], members(view)) == (700, [("bob", 400, 1), ("ann", 300, 2)])
    paid = g.grants("event_team_milestone")
    assert sorted(p for _, p, _ in paid) == sorted(g.player_id(p) for p in ("ann", "bob"))
    assert {ref for _, _, ref in paid} == {red["teamId"]}
    [unlocked] = payloads(g, "event_team.milestone_unlocked")
    assert (unlocked["milestoneKey"], unlocked["seatCount"], unlocked["paidSeatCount"]) == ("half", 2, 2)
    await score(g, "cat", 100)
    assert (await team_view(g, "blue"))["score"] == 100

    # A kick: bob leaves (reason kicked), his contribution stays in the score (keep_contribution).
    view = await put_ok(g, "red", ["ann", "eli"])
    assert (view["score"], members(view)) == (700, [("ann", 300, 1), ("eli", 0, 2)])
    [left] = payloads(g, "event_team.member_left")
    assert (left["externalPlayerId"], left["reason"], left["contributionRemoved"]) == ("bob", "kicked", False)
    assert await mine(g, "bob") is None

    # A player on another team of the window: 409, and nothing changes.
    before = snapshot(g)
    status, body = (await put(g, "blue", ["cat", "ann", "bob"]))[:2]
    assert (status, error(body), body["error"]["details"]) == (
        409,
        "locked_elsewhere",
        {"externalPlayerIds": ["ann"]},
    )
    assert snapshot(g) == before

    # The goal: 700 + ann's 400 more = 1100 >= 1000, once.
    await score(g, "ann", 700)
    view = await team_view(g, "red")
    assert (view["score"], view["completed"]) == (1100, True)
    assert g.kinds().count("event_team.goal_completed") == 1
    assert await mine(g, "ann") == view
    assert await mine(g, "fin") is None

    # The close: the team board ranks the window's teams and pays rank 1's seated members.
    await g.advance_to(CLOSES)
    red_final = await team_view(g, "red", window=raid)
    blue_final = await team_view(g, "blue", window=raid)
    assert (red_final["finalRank"], blue_final["finalRank"]) == (1, 2)
    finalized = {p["teamKey"]: p for p in payloads(g, "event_team.finalized")}
    assert {k: (p["rank"], p["boardSize"], p["score"], p["completed"]) for k, p in finalized.items()} == {
        "red": (1, 2, 1100, True),
        "blue": (2, 2, 100, False),
    }
    [board] = [
        p
        for p in payloads(g, "leaderboard.finalized")
        if p.get("participantScope") == "team" and p["eventWindowId"] == raid
    ]
    assert board["entryCount"] == 2
    ranked = g.grants("event_team_rank")
    assert sorted(p for _, p, _ in ranked) == sorted(g.player_id(p) for p in ("ann", "eli"))
    assert {ref for _, _, ref in ranked} == {red["teamId"]}
    assert len(g.grants("event_team_milestone")) == 2

    # No window open now: the default read finds nothing; a PUT targets the next scheduled window.
    status, body = await read(g, "red")
    assert (status, error(body)) == (404, "team_not_found")
    assert await mine(g, "ann") is None
    status, body, _ = await put(g, "red", ["ann"], windowId=raid)
    assert (status, error(body)) == (409, "event_not_open")
    tomorrow = await put_ok(g, "red", ["ann", "bob"], key="tomorrow")
    assert tomorrow["windowId"] == window_of(g, "raid", OPENED + timedelta(days=1))
    assert tomorrow["teamId"] != red["teamId"] and members(tomorrow) == [("ann", 0, 1), ("bob", 0, 2)]


async def test_a_kick_removes_the_contribution_when_the_event_says_so(arcade: Arcade) -> None:
    g = arcade
    await g.register("ann", "bob")
    await put_ok(g, "p", ["ann", "bob"], event="purge")
    await score(g, "ann", 200, event="purge")
    await score(g, "bob", 100, event="purge")
    assert (await team_view(g, "p", event="purge"))["score"] == 300
    view = await put_ok(g, "p", ["ann"], event="purge", key="kick-bob")
    assert (view["score"], members(view)) == (200, [("ann", 200, 1)])
    [left] = payloads(g, "event_team.member_left")
    assert (left["reason"], left["contribution"], left["contributionRemoved"]) == ("kicked", 100, True)
    # Taken back, the same seat counts again, once.
    view = await put_ok(g, "p", ["ann", "bob"], event="purge", key="bob-again")
    assert (view["score"], members(view)) == (300, [("ann", 200, 1), ("bob", 100, 2)])


async def test_a_roster_put_is_idempotent_on_its_key(arcade: Arcade) -> None:
    g = arcade
    await g.register("ann", "bob")
    status, first, _ = await put(g, "red", ["ann"], key="k1")
    assert status == 200
    status, again, headers = await put(g, "red", ["ann"], key="k1")
    assert (status, again, headers.get("Idempotent-Replay")) == (200, first, "true")
    status, body, _ = await put(g, "red", ["ann", "bob"], key="k1")
    assert (status, error(body)) == (409, "idempotency_conflict")
    status, body, _ = await g.server(
        "PUT", "/events/raid/teams/red", {"externalPlayerIds": ["ann"]}, idem="header-only"
    )
    assert status == 400 and "idempotencyKey" in body["error"]["details"]["fields"]
    assert g.kinds().count("event_team.formed") == 1


async def test_roster_refusals(arcade: Arcade) -> None:
    g = arcade
    await g.register("ann", "bob", "cat", "dan")
    before = snapshot(g)
    for players, event, code in [
        (["ann", "ann"], "raid", "invalid_request"),
        (["ann", "bob", "cat", "dan"], "raid", "invalid_request"),
        (["ann", "nobody"], "raid", "player_not_found"),
        (["ann"], "pair", "invalid_request"),  # partner teams take no roster
        (["ann"], "sprint", "invalid_request"),  # not a team event
        (["ann"], "nope", "event_not_found"),
    ]:
        status, body, _ = await put(g, "red", players, event=event)
        assert error(body) == code, (players, event, body)
    status, body, _ = await put(g, "red", ["ann"], windowId="win_" + "0" * 32)
    assert (status, list(body["error"]["details"]["fields"])) == (400, ["windowId"])
    assert snapshot(g) == before


# --- partners ------------------------------------------------------------------------------------------


async def invite(g: Arcade, sender: str, to: str) -> tuple[int, Any]:
    status, body, _ = await g.sdk("POST", sender, "/events/pair/partner-invites", {"externalPlayerId": to})
    return status, body


async def accept(g: Arcade, who: str, invite_id: str) -> tuple[int, Any]:
    status, body, _ = await g.sdk("POST", who, f"/events/pair/partner-invites/{invite_id}/accept")
    return status, body


async def test_partner_invites_from_refusals_to_a_team_of_two(arcade: Arcade) -> None:
    g = arcade
    await g.register("ann", "bob", "cat", "dan")
    await g.befriend("ann", "bob", "dan")
    await g.befriend("cat", "dan")

    for sender, to, status, code in [
        ("ann", "ann", 400, "invalid_request"),
        ("ann", "cat", 403, "not_friends"),
        ("ann", "nobody", 404, "player_not_found"),
    ]:
        got = await invite(g, sender, to)
        assert (got[0], error(got[1])) == (status, code), (sender, to)

    status, body = await invite(g, "ann", "bob")
    assert status == 201, body
    sent = body["data"]["invite"]
    assert sent["inviteId"].startswith("inv_")
    assert {k: v for k, v in sent.items() if k != "inviteId"} == {
        "fromExternalPlayerId": "ann",
        "toExternalPlayerId": "bob",
        "expiresAt": format_ts(START + timedelta(hours=24)),
    }
    for sender, to in (("ann", "bob"), ("bob", "ann")):  # either way
        got = await invite(g, sender, to)
        assert (got[0], error(got[1])) == (409, "invite_pending")

    # Only the invitee accepts: anyone else finds no such invite.
    for who in ("ann", "cat"):
        got = await accept(g, who, sent["inviteId"])
        assert (got[0], error(got[1])) == (404, "invite_not_found")
    status, body = await accept(g, "bob", sent["inviteId"])
    assert status == 200, body
    team = body["data"]["team"]
    assert (team["key"], team["formation"], team["windowId"], team["goal"]) == (
        sent["inviteId"],
        "partner",
        window_of(g, "pair"),
        500,
    )
    assert members(team) == [("ann", 0, 1), ("bob", 0, 2)]
    assert await mine(g, "ann", "pair") == team == await mine(g, "bob", "pair")
    assert await mine(g, "cat", "pair") is None
    assert g.kinds().count("partner.invite_accepted") == 1

    # Accepted already; and a player on a team is refused before a pending check.
    got = await accept(g, "bob", sent["inviteId"])
    assert (got[0], error(got[1])) == (409, "already_on_team")
    got = await invite(g, "ann", "dan")
    assert (got[0], error(got[1])) == (409, "already_on_team")
    # Not friends is refused before being on a team.
    got = await invite(g, "ann", "cat")
    assert (got[0], error(got[1])) == (403, "not_friends")

    # The team plays: its score is the pair's.
    await score(g, "ann", 120, event="pair")
    assert (await mine(g, "bob", "pair") or {})["score"] == 120
    status, body = await read(g, sent["inviteId"], event="pair")
    assert status == 200 and body["data"]["team"]["score"] == 120


async def test_an_invite_expires_after_24_hours(arcade: Arcade) -> None:
    g = arcade
    await g.register("cat", "dan")
    await g.befriend("cat", "dan")
    status, body = await invite(g, "cat", "dan")
    assert status == 201, body
    invite_id = body["data"]["invite"]["inviteId"]
    await g.advance(24 * 3600 - 1)
    got = await invite(g, "dan", "cat")
    assert (got[0], error(got[1])) == (409, "invite_pending")  # still pending a second before
    await g.advance(1)
    status, body = await accept(g, "dan", invite_id)
    assert (status, error(body)) == (410, "invite_expired")
    assert await mine(g, "dan", "pair") is None
    # Expired, it no longer stands between the two.
    status, body = await invite(g, "dan", "cat")
    assert status == 201, body


# --- 404s ----------------------------------------------------------------------------------------------


async def test_not_found(arcade: Arcade) -> None:
    g = arcade
    await g.register("ann", "bob")
    await g.befriend("ann", "bob")
    await put_ok(g, "red", ["ann"])
    for event, team, code in [
        ("raid", "green", "team_not_found"),
        ("nope", "red", "event_not_found"),
    ]:
        status, body = await read(g, team, event=event)
        assert (status, error(body)) == (404, code)
    status, body = await read(g, "red", window=window_of(g, "raid", OPENED + timedelta(days=1)))
    assert (status, error(body)) == (404, "team_not_found")  # the next window has no team yet
    status, body, _ = await g.sdk("GET", "ann", "/events/nope/team")
    assert (status, error(body)) == (404, "event_not_found")
    for invite_id in ("inv_" + "0" * 32, "x" * 300):
        status, body = await accept(g, "bob", invite_id)
        assert (status, error(body)) == (404, "invite_not_found"), invite_id


async def test_a_team_of_the_next_window_reads_by_its_window_id(arcade: Arcade) -> None:
    g = arcade
    await g.register("ann")
    tomorrow = window_of(g, "raid", OPENED + timedelta(days=1))
    team = await put_ok(g, "red", ["ann"], windowId=tomorrow)
    assert team["windowId"] == tomorrow
    assert await team_view(g, "red", window=tomorrow) == team


async def test_after_end_now_no_team_is_the_open_windows(arcade: Arcade) -> None:
    g = arcade
    await g.register("ann")
    await put_ok(g, "red", ["ann"])
    await g.started("ann", "raid")
    status, body, _ = await g.end_now("raid")
    assert status == 200, body
    assert (await g.start("ann", "raid"))[0] == 409
    assert await mine(g, "ann") is None
    status, body = await read(g, "red")
    assert (status, error(body)) == (404, "team_not_found")
