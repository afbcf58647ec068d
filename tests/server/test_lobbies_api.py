"""Lobbies through the real app, on SQLite and PostgreSQL with the manual clock (docs/lobbies.md):
matchmaking's 202 then 201, the lobby read on both surfaces, the studio's push and its refusals, the
``fill_by`` promotion, closing with the window and end-now, sudden death, the 404s, and the player tools.

The ``arcade`` game of ``tests/server/event_support.py`` gains three lobby events, open from 11:00 to
13:00 (the clock starts at 12:00): ``duel`` (3 seats, bots at ``fill_by``, 5 gems to enter), ``solo``
(2 seats, no bots, sudden death ``close`` at 1000) and ``frost`` (2 seats, sudden death ``freeze`` at
1000); ``later`` opens tomorrow.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

from livecore.clock import format_ts
from tests.conftest import START
from tests.server.event_support import Arcade, error, start_event_world

LOBBY_EVENTS = """
[games.arcade.events.duel]
name = "Duel"
starts_at = "2026-03-02T11:00:00Z"
window_seconds = 7200
attempt_seconds = 600
score_metric = "score"
entry_cost = [{ type = "currency", key = "gems", amount = 5 }]

[games.arcade.events.duel.lobby]
capacity = 3
fill_seconds = 60
fill_bots = true
bot_score = { min = 200, max = 900 }

[games.arcade.events.solo]
name = "Solo"
starts_at = "2026-03-02T11:00:00Z"
window_seconds = 7200
attempt_seconds = 600
score_metric = "score"

[games.arcade.events.solo.lobby]
capacity = 2
fill_seconds = 60

[[games.arcade.events.solo.sudden_death]]
label = "first-to-1000"
type = "score_reached"
threshold = 1000
resolution = "close"

[games.arcade.events.frost]
name = "Frost"
starts_at = "2026-03-02T11:00:00Z"
window_seconds = 7200
attempt_seconds = 600
score_metric = "score"

[games.arcade.events.frost.lobby]
capacity = 2
fill_seconds = 60

[[games.arcade.events.frost.sudden_death]]
label = "first-to-1000"
type = "score_reached"
threshold = 1000
resolution = "freeze"

[games.arcade.events.later]
name = "Later"
starts_at = "2026-03-03T11:00:00Z"
window_seconds = 7200
attempt_seconds = 600
score_metric = "score"

[games.arcade.events.later.lobby]
capacity = 2
fill_seconds = 60
"""

WINDOW_ENDS = START + timedelta(hours=1)
FILL_BY = START + timedelta(seconds=60)


@pytest.fixture
async def arcade(db_url: str) -> AsyncIterator[Arcade]:
    g = await start_event_world(db_url, events=LOBBY_EVENTS)
    try:
        yield g
    finally:
        await g.world.client.close()


def snapshot(g: Arcade) -> dict[str, list[Any]]:
    """Every row a start or a push could write."""
    tables = ("players", "outbox", "lobbies", "lobby_seats", "attempts", "boards", "ledger", "idempotency")
    # The outbox without its delivery bookkeeping, which the dispatcher updates in the background.
    columns = {"outbox": "seq, id, studio_id, game_id, env, kind, occurred_at, data"}
    return {t: sorted(g.world.rows(f"SELECT {columns.get(t, '*')} FROM {t}"), key=repr) for t in tables}


def lobby_kinds(g: Arcade) -> list[str]:
    return [k for k in g.kinds() if k.startswith(("lobby.", "session."))]


async def players(g: Arcade, *names: str, gems: int = 10) -> None:
    await g.register(*names)
    for name in names:
        await g.credit(name, "gems", gems)


async def read(g: Arcade, lobby_id: str, *, key: str | None = None) -> tuple[int, Any, Any]:
    return await g.world.call("GET", f"/sdk/v1/lobbies/{lobby_id}", key=key or g.api_key(g.client_key))


async def read_server(g: Arcade, lobby_id: str, game_id: str | None = None) -> tuple[int, Any, Any]:
    return await g.server("GET", f"/games/{game_id or g.id}/lobbies/{lobby_id}")


async def lobby(g: Arcade, lobby_id: str) -> dict[str, Any]:
    """The lobby as both surfaces read it (they must agree)."""
    status, body, _ = await read(g, lobby_id)
    assert status == 200, body
    status, server_body, _ = await read_server(g, lobby_id)
    assert status == 200, server_body
    assert server_body == body
    view: dict[str, Any] = body["data"]["lobby"]
    return view


async def push(
    g: Arcade, event: str = "duel", game_id: str | None = None, **body: Any
) -> tuple[int, Any, Any]:
    return await g.server("POST", f"/games/{game_id or g.id}/events/{event}/lobbies", body)


async def forming_id(g: Arcade, who: str, event: str = "duel") -> str:
    status, body, _ = await g.start(who, event)
    assert status == 202, body
    return str(body["error"]["details"]["lobbyId"])


# --- matchmaking ---------------------------------------------------------------------------------------


async def test_starts_answer_202_while_the_lobby_forms_charging_nothing_then_201_once_the_last_seat_fills(
    arcade: Arcade,
) -> None:
    await players(arcade, "ann", "bob", "cat")
    status, body, _ = await arcade.start("ann", "duel")
    assert status == 202
    lobby_id = body["error"]["details"]["lobbyId"]
    assert lobby_id.startswith("lob_")
    assert body == {
        "error": {
            "code": "lobby_forming",
            "message": "The lobby is still forming; start again once it is active.",
            "details": {
                "lobbyId": lobby_id,
                "participantCount": 1,
                "capacity": 3,
                "fillBy": format_ts(FILL_BY),
            },
        }
    }
    before = snapshot(arcade)
    status, again, _ = await arcade.start("ann", "duel")
    assert (status, again) == (202, body)
    assert snapshot(arcade) == before  # starting again while it forms changes nothing

    status, body, _ = await arcade.start("bob", "duel")
    assert status == 202
    assert body["error"]["details"] == {
        "lobbyId": lobby_id,
        "participantCount": 2,
        "capacity": 3,
        "fillBy": format_ts(FILL_BY),
    }
    assert [await arcade.balance(p, "gems") for p in ("ann", "bob")] == [10, 10]
    assert arcade.world.rows("SELECT COUNT(*) FROM attempts WHERE game_id = ?", (arcade.id,)) == [(0,)]

    cat = await arcade.started("cat", "duel")  # the last seat: the lobby starts
    view = await lobby(arcade, lobby_id)
    assert (view["status"], view["promotionReason"], view["startedAt"]) == (
        "active",
        "capacity",
        format_ts(START),
    )
    assert (cat["lobbyId"], cat["leaderboardId"], cat["status"]) == (
        lobby_id,
        view["leaderboardId"],
        "in_progress",
    )
    assert await arcade.balance("cat", "gems") == 5
    ann = await arcade.started("ann", "duel")
    assert (ann["lobbyId"], ann["leaderboardId"]) == (lobby_id, view["leaderboardId"])
    assert [await arcade.balance(p, "gems") for p in ("ann", "bob")] == [5, 10]
    assert lobby_kinds(arcade) == [
        "lobby.created",
        "lobby.player_joined",
        "lobby.player_joined",
        "lobby.player_joined",
        "lobby.started",
    ]


# --- fill_by and the lobby read ------------------------------------------------------------------------


async def test_at_exactly_fill_by_bots_take_the_empty_seats_and_the_read_shows_every_field(
    arcade: Arcade,
) -> None:
    await players(arcade, "ann")
    lobby_id = await forming_id(arcade, "ann")
    view = await lobby(arcade, lobby_id)
    ann = view["participants"][0]
    assert view == {
        "lobbyId": lobby_id,
        "eventKey": "duel",
        "windowId": view["windowId"],
        "leaderboardId": view["leaderboardId"],
        "status": "forming",
        "capacity": 3,
        "participantCount": 1,
        "botCount": 0,
        "participants": [
            {
                "externalPlayerId": "ann",
                "displayIdentity": ann["displayIdentity"],
                "isBot": False,
                "joinedAt": format_ts(START),
            }
        ],
        "fillBy": format_ts(FILL_BY),
        "startedAt": None,
        "endsAt": format_ts(WINDOW_ENDS),
        "closedAt": None,
        "promotionReason": None,
        "metadata": None,
    }
    assert view["windowId"].startswith("win_") and view["leaderboardId"].startswith("lb_")

    await arcade.advance(59.999)
    assert (await lobby(arcade, lobby_id))["status"] == "forming"
    await arcade.advance(0.001)
    view = await lobby(arcade, lobby_id)
    assert {
        k: view[k] for k in ("status", "participantCount", "botCount", "startedAt", "promotionReason")
    } == {
        "status": "active",
        "participantCount": 3,
        "botCount": 2,
        "startedAt": format_ts(FILL_BY),
        "promotionReason": "timeout",
    }
    assert view["participants"][0] == ann
    bots = view["participants"][1:]
    for bot in bots:
        assert (bot["externalPlayerId"], bot["isBot"], bot["joinedAt"]) == (None, True, format_ts(FILL_BY))
        assert bot["displayIdentity"]["name"]
    assert lobby_kinds(arcade) == [
        "lobby.created",
        "lobby.player_joined",
        "lobby.bot_filled",
        "lobby.started",
        "lobby.fill_timeout",
    ]
    started = arcade.events("lobby.started")[0].data
    assert (started["promotionReason"], started["botCount"]) == ("timeout", 2)

    # Once active, the seated player's start answers an attempt on the lobby's board, bots ranked beside.
    attempt = await arcade.started("ann", "duel")
    assert (attempt["lobbyId"], attempt["leaderboardId"]) == (lobby_id, view["leaderboardId"])
    status, body, _ = await arcade.board(view["leaderboardId"])
    assert status == 200, body
    entries = body["data"]["entries"]
    assert sum(1 for e in entries if e["isBot"] and e["externalPlayerId"] is None) == 2


# --- the studio's push ---------------------------------------------------------------------------------


async def test_a_push_answers_201_its_replay_200_and_a_conflict_or_each_refusal_changes_nothing(
    arcade: Arcade,
) -> None:
    await players(arcade, "ann", "seated")
    await forming_id(arcade, "seated")  # "seated" holds a seat in a forming lobby of duel's window
    request = {
        "key": "match-1",
        "externalPlayerIds": ["ann", "newbie"],
        "capacity": 4,
        "metadata": {"r": "eu"},
    }
    status, body, headers = await push(arcade, **request)
    assert status == 201, body
    assert "Idempotent-Replay" not in headers
    view = body["data"]["lobby"]
    assert {
        k: view[k] for k in view if k not in ("lobbyId", "windowId", "leaderboardId", "participants")
    } == {
        "eventKey": "duel",
        "status": "active",
        "capacity": 4,
        "participantCount": 2,
        "botCount": 0,
        "fillBy": None,
        "startedAt": format_ts(START),
        "endsAt": format_ts(WINDOW_ENDS),
        "closedAt": None,
        "promotionReason": "external_push",
        "metadata": {"r": "eu"},
    }
    assert sorted(p["externalPlayerId"] for p in view["participants"]) == ["ann", "newbie"]
    assert await lobby(arcade, view["lobbyId"]) == view
    assert arcade.kinds().count("player.registered") == 3  # ann, seated, and newbie on first contact

    before = snapshot(arcade)
    status, replay, headers = await push(arcade, **request)
    assert (status, replay, headers.get("Idempotent-Replay")) == (200, body, "true")
    assert snapshot(arcade) == before

    other = await arcade.server("GET", "/ping")
    other_game = "gam_" + "0" * 26
    assert other[0] == 200
    refusals: list[tuple[dict[str, Any], str | None, str | None, int, str]] = [
        ({**request, "externalPlayerIds": ["ann"]}, None, None, 409, "idempotency_conflict"),
        # A malformed push is refused even under the key of a lobby it made: no replay answers it.
        ({**request, "capacity": 10001}, None, None, 400, "invalid_request"),
        ({"key": "k2", "externalPlayerIds": ["bob"]}, None, other_game, 404, "not_found"),
        ({"key": "k2", "externalPlayerIds": ["bob"]}, "nope", None, 404, "event_not_found"),
        ({"key": "k2", "externalPlayerIds": ["bob"]}, "sprint", None, 400, "invalid_request"),
        ({"key": "k2", "externalPlayerIds": []}, None, None, 400, "invalid_request"),
        ({"key": "k2", "externalPlayerIds": ["bob", "bob"]}, None, None, 400, "invalid_request"),
        ({"key": "k2", "externalPlayerIds": ["a", "b", "c", "d"]}, None, None, 400, "invalid_request"),
        ({"key": "k2", "externalPlayerIds": ["bob"], "capacity": 1}, None, None, 400, "invalid_request"),
        ({"key": "k2", "externalPlayerIds": ["bob"], "capacity": 10001}, None, None, 400, "invalid_request"),
        ({"key": "k2", "externalPlayerIds": ["bob"]}, "later", None, 409, "event_not_open"),
        ({"key": "k2", "externalPlayerIds": ["bob", "seated", "ann"]}, None, None, 409, "conflict"),
    ]
    for body_sent, event, game_id, expected_status, code in refusals:
        status, answer, _ = await push(arcade, event or "duel", game_id, **body_sent)
        assert (status, error(answer)) == (expected_status, code), (body_sent, event, answer)
        assert snapshot(arcade) == before, (body_sent, event)
        if code == "invalid_request" and event is None:
            assert answer["error"]["details"]["fields"], answer
        if code == "conflict":
            assert answer["error"]["details"]["externalPlayerIds"] == ["seated", "ann"]


async def test_a_push_with_fill_bots_seats_bots_at_once_with_its_webhooks_in_order(arcade: Arcade) -> None:
    status, body, _ = await push(arcade, key="m", externalPlayerIds=["ann"], fillBots=True)
    assert status == 201, body
    view = body["data"]["lobby"]
    assert (view["capacity"], view["participantCount"], view["botCount"]) == (3, 3, 2)
    assert sorted(p["isBot"] for p in view["participants"]) == [False, True, True]
    assert lobby_kinds(arcade) == [
        "lobby.created",
        "lobby.player_joined",
        "lobby.bot_filled",
        "lobby.started",
    ]
    joined = arcade.events("lobby.player_joined")[0].data
    assert (joined["source"], joined["externalPlayerId"]) == ("server_push", "ann")


async def test_a_pushs_participants_read_in_the_order_given_then_its_bots(arcade: Arcade) -> None:
    status, body, _ = await push(
        arcade, key="m", externalPlayerIds=["zed", "amy", "kim"], capacity=5, fillBots=True
    )
    assert status == 201, body
    participants = body["data"]["lobby"]["participants"]
    assert [p["externalPlayerId"] for p in participants] == ["zed", "amy", "kim", None, None]


# --- closing ----------------------------------------------------------------------------------------------


async def test_lobbies_close_with_end_now_and_at_their_windows_end(arcade: Arcade) -> None:
    await players(arcade, "ann")
    forming = await forming_id(arcade, "ann", "solo")
    status, body, _ = await push(arcade, key="m", externalPlayerIds=["bob", "cy"])
    assert status == 201, body
    pushed = body["data"]["lobby"]["lobbyId"]

    status, body, _ = await arcade.end_now("duel")
    assert status == 200, body
    view = await lobby(arcade, pushed)
    assert (view["status"], view["closedAt"]) == ("closed", format_ts(START))
    assert (await lobby(arcade, forming))["status"] == "forming"

    await arcade.advance_to(FILL_BY - timedelta(milliseconds=1))
    # solo has no bots: at fill_by its lobby starts with the one player seated.
    await arcade.advance(0.001)
    assert ((await lobby(arcade, forming))["status"], (await lobby(arcade, forming))["botCount"]) == (
        "active",
        0,
    )
    await arcade.advance_to(WINDOW_ENDS)
    view = await lobby(arcade, forming)
    assert (view["status"], view["closedAt"]) == ("closed", format_ts(WINDOW_ENDS))
    assert arcade.kinds().count("lobby.closed") == 2


async def test_a_lobby_whose_window_ends_while_it_forms_closes_without_starting(arcade: Arcade) -> None:
    await players(arcade, "ann")
    lobby_id = await forming_id(arcade, "ann", "frost")
    status, body, _ = await arcade.end_now("frost")
    assert status == 200, body
    view = await lobby(arcade, lobby_id)
    assert (view["status"], view["startedAt"], view["promotionReason"]) == ("closed", None, None)
    status, body, _ = await arcade.start("ann", "frost")
    assert (status, error(body)) == (409, "event_not_open")


# --- sudden death ---------------------------------------------------------------------------------------


async def _playing(g: Arcade, event: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    await players(g, "ann", "bob")
    status, body, _ = await push(g, event, key=f"{event}-1", externalPlayerIds=["ann", "bob"])
    assert status == 201, body
    return body["data"]["lobby"]["lobbyId"], await g.started("ann", event), await g.started("bob", event)


async def test_sudden_death_freeze_freezes_the_attempts_in_progress_once(arcade: Arcade) -> None:
    lobby_id, ann, bob = await _playing(arcade, "frost")
    await arcade.progressed("bob", bob["attemptId"], {"score": 300}, event="frost")
    await arcade.progressed("ann", ann["attemptId"], {"score": 1000}, event="frost")
    assert lobby_kinds(arcade)[-3:] == ["session.terminated", "session.frozen", "session.frozen"]
    terminated = arcade.events("session.terminated")[0].data
    assert (terminated["firedTrigger"], terminated["resolution"], terminated["frozenCount"]) == (
        "first-to-1000",
        "freeze",
        2,
    )
    status, body, _ = await arcade.progress("bob", bob["attemptId"], {"score": 2000}, event="frost")
    assert (status, error(body)) == (409, "attempt_not_in_progress")
    assert (await lobby(arcade, lobby_id))["status"] == "active"
    await arcade.progress("ann", ann["attemptId"], {"score": 1100}, event="frost")
    assert arcade.kinds().count("session.terminated") == 1


async def test_sudden_death_close_expires_the_attempts_finalizes_the_board_and_closes_the_lobby(
    arcade: Arcade,
) -> None:
    lobby_id, ann, bob = await _playing(arcade, "solo")
    await arcade.progressed("ann", ann["attemptId"], {"score": 1000}, event="solo")
    view = await lobby(arcade, lobby_id)
    assert (view["status"], view["closedAt"]) == ("closed", format_ts(START))
    kinds = lobby_kinds(arcade)
    assert kinds[-2:] == ["session.terminated", "lobby.closed"]
    assert "leaderboard.finalized" in arcade.kinds()
    status, body, _ = await arcade.progress("bob", bob["attemptId"], {"score": 10}, event="solo")
    assert (status, error(body)) == (409, "attempt_not_in_progress")
    status, body, _ = await arcade.start("bob", "solo")
    assert (status, error(body), body["error"]["details"]["lobbyId"]) == (409, "event_not_open", lobby_id)
    # The window's own end later closes nothing twice.
    await arcade.advance_to(WINDOW_ENDS)
    assert arcade.kinds().count("lobby.closed") == 1


# --- 404s ------------------------------------------------------------------------------------------------


async def test_a_lobby_of_another_environment_an_unknown_id_and_another_games_id_are_404(
    arcade: Arcade,
) -> None:
    status, body, _ = await push(arcade, key="m", externalPlayerIds=["ann"])
    lobby_id = body["data"]["lobby"]["lobbyId"]
    status, body, _ = await read(arcade, lobby_id, key=arcade.api_key("live-client"))
    assert (status, error(body)) == (404, "lobby_not_found")
    status, body, _ = await arcade.world.call(
        "GET", f"/server/v1/games/{arcade.id}/lobbies/{lobby_id}", key=arcade.api_key("live-server")
    )
    assert (status, error(body)) == (404, "lobby_not_found")
    for malformed in ("nope", "lob_", lobby_id + "x", "brd_" + lobby_id[4:]):
        status, body, _ = await read(arcade, malformed)
        assert (status, error(body)) == (404, "lobby_not_found"), malformed
        status, body, _ = await read_server(arcade, malformed)
        assert (status, error(body)) == (404, "lobby_not_found"), malformed
    space_race = arcade.world.applied["games"]["space-race"]["id"]
    for game_id in (space_race, "nope"):
        status, body, _ = await read_server(arcade, lobby_id, game_id)
        assert (status, error(body)) == (404, "not_found"), game_id


# --- player tools ----------------------------------------------------------------------------------------


async def test_the_profile_and_the_export_show_the_players_lobby(arcade: Arcade) -> None:
    await players(arcade, "ann")
    lobby_id = await forming_id(arcade, "ann")
    status, body, _ = await arcade.server("GET", "/players/ann")
    assert status == 200, body
    profile = body["data"]
    assert [row["lobbyId"] for row in profile["lobbies"]] == [lobby_id]
    assert profile["summary"]["lobbiesActive"] == 1
    status, body, _ = await arcade.server("GET", "/players/ann/export")
    assert status == 200, body
    assert [row["lobbyId"] for row in body["data"]["lobbyMemberships"]] == [lobby_id]
