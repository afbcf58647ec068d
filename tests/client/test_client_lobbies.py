"""The lobby calls over a mocked HTTP layer, sync and async: a start's 202 ``lobby_forming`` read as a
:class:`LobbyForming`, the lobby read on both surfaces and the studio's push (docs/lobbies.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
import respx

from livecore_client import (
    AsyncSdkClient,
    AsyncServerClient,
    ConflictError,
    IdempotencyConflictError,
    LivecoreAPIError,
    LobbyNotFoundError,
    NotFoundError,
    SdkClient,
    ServerClient,
)
from livecore_client.models import AttemptResponse, LobbyForming, LobbyStatus, PromotionReason
from tests.client.support import BASE, Sleeps, sent_json

SDK = f"{BASE}/sdk/v1"
SERVER = f"{BASE}/server/v1"
LOBBY_ID = "lob_0195c0de000070008000000000000001"
FILL_BY = "2026-03-02T12:01:00.000Z"
FORMING = {
    "error": {
        "code": "lobby_forming",
        "message": "The lobby is still forming; start again once it is active.",
        "details": {"lobbyId": LOBBY_ID, "participantCount": 3, "capacity": 8, "fillBy": FILL_BY},
    }
}
IDENTITY: dict[str, Any] = {"name": "Otter", "avatar": None, "country": None}
LOBBY: dict[str, Any] = {
    "lobbyId": LOBBY_ID,
    "eventKey": "duel",
    "windowId": "win_1",
    "leaderboardId": "lb_1",
    "status": "active",
    "capacity": 2,
    "participantCount": 2,
    "botCount": 1,
    "participants": [
        {"externalPlayerId": "ada", "displayIdentity": IDENTITY, "isBot": False, "joinedAt": FILL_BY},
        {"externalPlayerId": None, "displayIdentity": IDENTITY, "isBot": True, "joinedAt": FILL_BY},
    ],
    "fillBy": None,
    "startedAt": FILL_BY,
    "endsAt": "2026-03-02T13:00:00.000Z",
    "closedAt": None,
    "promotionReason": "external_push",
    "metadata": {"region": "eu"},
}
EXPECTED_FORMING = LobbyForming(
    lobby_id=LOBBY_ID, participant_count=3, capacity=8, fill_by=datetime(2026, 3, 2, 12, 1, tzinfo=UTC)
)


def test_a_start_while_the_lobby_forms_answers_its_details(
    sdk: SdkClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.post(f"{SDK}/players/ada/events/duel/start").mock(
        return_value=httpx.Response(202, json=FORMING)
    )
    assert sdk.live_events.start_attempt("ada", "duel") == EXPECTED_FORMING
    assert route.call_count == 1  # a success: not retried


async def test_async_start_while_the_lobby_forms(
    async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter
) -> None:
    respx_mock.post(f"{SDK}/players/ada/events/duel/start").mock(
        return_value=httpx.Response(202, json=FORMING)
    )
    result = await async_sdk.live_events.start_attempt("ada", "duel")
    assert result == EXPECTED_FORMING
    assert not isinstance(result, AttemptResponse)


def test_only_lobby_forming_is_a_success_among_2xx_envelopes(
    sdk: SdkClient, respx_mock: respx.MockRouter
) -> None:
    other = {"error": {"code": "teapot", "message": "short and stout"}}
    respx_mock.post(f"{SDK}/players/ada/events/duel/start").mock(return_value=httpx.Response(202, json=other))
    with pytest.raises(LivecoreAPIError) as info:
        sdk.live_events.start_attempt("ada", "duel")
    assert (info.value.status, info.value.code) == (202, "teapot")


def test_the_lobby_read_on_both_surfaces(
    sdk: SdkClient, server: ServerClient, respx_mock: respx.MockRouter
) -> None:
    respx_mock.get(f"{SDK}/lobbies/{LOBBY_ID}").mock(
        return_value=httpx.Response(200, json={"data": {"lobby": LOBBY}})
    )
    respx_mock.get(f"{SERVER}/games/gam_1/lobbies/{LOBBY_ID}").mock(
        return_value=httpx.Response(200, json={"data": {"lobby": LOBBY}})
    )
    lobby = sdk.lobbies.get(LOBBY_ID).lobby
    assert server.lobbies.get("gam_1", LOBBY_ID).lobby == lobby
    assert (lobby.status, lobby.promotion_reason, lobby.bot_count) == (
        LobbyStatus.ACTIVE,
        PromotionReason.EXTERNAL_PUSH,
        1,
    )
    assert [(p.external_player_id, p.is_bot) for p in lobby.participants] == [("ada", False), (None, True)]
    assert (lobby.fill_by, lobby.metadata) == (None, {"region": "eu"})


@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [(404, "lobby_not_found", LobbyNotFoundError), (404, "not_found", NotFoundError)],
)
async def test_lobby_read_refusals(
    async_sdk: AsyncSdkClient,
    async_server: AsyncServerClient,
    respx_mock: respx.MockRouter,
    status: int,
    code: str,
    cls: type[Exception],
) -> None:
    answer = httpx.Response(status, json={"error": {"code": code, "message": "no"}})
    respx_mock.get(f"{SDK}/lobbies/x").mock(return_value=answer)
    respx_mock.get(f"{SERVER}/games/gam_2/lobbies/x").mock(return_value=answer)
    with pytest.raises(cls):
        await async_sdk.lobbies.get("x")
    with pytest.raises(cls):
        await async_server.lobbies.get("gam_2", "x")


def test_push_sends_the_body_key_no_idempotency_header_and_its_retries_are_safe(
    server: ServerClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    route = respx_mock.post(f"{SERVER}/games/gam_1/events/duel/lobbies").mock(
        side_effect=[httpx.Response(503), httpx.Response(201, json={"data": {"lobby": LOBBY}})]
    )
    lobby = server.lobbies.push(
        "gam_1", "duel", "match-1", ["ada"], capacity=2, fill_bots=True, metadata={"region": "eu"}
    )
    assert lobby.lobby.lobby_id == LOBBY_ID
    assert route.call_count == 2 and sleeps == [0.25]
    assert (
        sent_json(route, 0)
        == sent_json(route, 1)
        == {
            "key": "match-1",
            "externalPlayerIds": ["ada"],
            "capacity": 2,
            "fillBots": True,
            "metadata": {"region": "eu"},
        }
    )
    assert "Idempotency-Key" not in route.calls[0].request.headers


async def test_async_push_defaults_and_refusals(
    async_server: AsyncServerClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.post(f"{SERVER}/games/gam_1/events/duel/lobbies").mock(
        side_effect=[
            httpx.Response(201, json={"data": {"lobby": LOBBY}}),
            httpx.Response(409, json={"error": {"code": "idempotency_conflict", "message": "other players"}}),
            httpx.Response(
                409,
                json={
                    "error": {
                        "code": "conflict",
                        "message": "seated",
                        "details": {"externalPlayerIds": ["bo"]},
                    }
                },
            ),
        ]
    )
    await async_server.lobbies.push("gam_1", "duel", "k", ("ada", "bo"))
    assert sent_json(route) == {
        "key": "k",
        "externalPlayerIds": ["ada", "bo"],
        "capacity": None,
        "fillBots": False,
        "metadata": None,
    }
    with pytest.raises(IdempotencyConflictError):
        await async_server.lobbies.push("gam_1", "duel", "k", ["ada"])
    with pytest.raises(ConflictError) as info:
        await async_server.lobbies.push("gam_1", "duel", "k2", ["bo"])
    assert info.value.details == {"externalPlayerIds": ["bo"]}
