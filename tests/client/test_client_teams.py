"""The team calls over a mocked HTTP layer, sync and async: the studio's roster PUT and a team's read,
the player's own team, partner invites and their acceptance, and each team code's class
(docs/teams.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
import respx

from livecore.teams.errors import (
    ALREADY_ON_TEAM,
    INVITE_EXPIRED,
    INVITE_NOT_FOUND,
    INVITE_PENDING,
    LOCKED_ELSEWHERE,
    TEAM_NOT_FOUND,
)
from livecore_client import (
    AlreadyOnTeamError,
    AsyncSdkClient,
    AsyncServerClient,
    ConflictError,
    GiftNotFriendsError,
    GoneError,
    InviteExpiredError,
    InviteNotFoundError,
    InvitePendingError,
    LockedElsewhereError,
    NotFoundError,
    SdkClient,
    ServerClient,
    TeamNotFoundError,
)
from livecore_client.models import Formation
from tests.client.support import BASE, Sleeps, sent_json, sent_key

SDK = f"{BASE}/sdk/v1"
SERVER = f"{BASE}/server/v1"
EXPIRES = "2026-03-03T12:00:00.000Z"
IDENTITY: dict[str, Any] = {"name": "Otter", "avatar": None, "country": None}
TEAM: dict[str, Any] = {
    "teamId": "team_1",
    "key": "red",
    "name": "Red",
    "formation": "external",
    "windowId": "win_1",
    "score": 700,
    "goal": 1000,
    "completed": False,
    "finalRank": None,
    "attributes": {"color": "red"},
    "members": [
        {"externalPlayerId": "bob", "displayIdentity": IDENTITY, "contribution": 400, "rank": 1},
        {"externalPlayerId": "ada", "displayIdentity": IDENTITY, "contribution": 300, "rank": 2},
    ],
}
INVITE = {
    "inviteId": "inv_1",
    "fromExternalPlayerId": "ada",
    "toExternalPlayerId": "bob",
    "expiresAt": EXPIRES,
}


def refusal(status: int, code: str, details: dict[str, Any] | None = None) -> httpx.Response:
    body: dict[str, Any] = {"code": code, "message": "no"}
    if details is not None:
        body["details"] = details
    return httpx.Response(status, json={"error": body})


def test_put_roster_sends_the_body_key_and_header_alike_and_retries_with_them(
    server: ServerClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    route = respx_mock.put(f"{SERVER}/events/raid/teams/red").mock(
        side_effect=[httpx.Response(503), httpx.Response(200, json={"data": {"team": TEAM}})]
    )
    team = server.teams.put_roster(
        "raid", "red", ("ada", "bob"), name="Red", attributes={"color": "red"}, window_id="win_1"
    ).team
    assert (team.team_id, team.formation, team.score, team.final_rank) == (
        "team_1",
        Formation.EXTERNAL,
        700,
        None,
    )
    assert [(m.external_player_id, m.contribution, m.rank) for m in team.members] == [
        ("bob", 400, 1),
        ("ada", 300, 2),
    ]
    assert route.call_count == 2 and sleeps == [0.25]
    body = sent_json(route, 0)
    assert body == sent_json(route, 1)
    assert sent_key(route, 0) == sent_key(route, 1) == body.pop("idempotencyKey")
    assert body == {
        "externalPlayerIds": ["ada", "bob"],
        "name": "Red",
        "attributes": {"color": "red"},
        "windowId": "win_1",
    }


async def test_async_put_roster_with_its_key_and_locked_elsewhere(
    async_server: AsyncServerClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.put(f"{SERVER}/events/raid/teams/red").mock(
        side_effect=[
            httpx.Response(200, json={"data": {"team": TEAM}}),
            refusal(409, "locked_elsewhere", {"externalPlayerIds": ["cy"]}),
        ]
    )
    await async_server.teams.put_roster("raid", "red", ["ada"], idempotency_key="roster-7")
    assert sent_json(route) == {
        "externalPlayerIds": ["ada"],
        "name": None,
        "attributes": None,
        "windowId": None,
        "idempotencyKey": "roster-7",
    }
    assert sent_key(route) == "roster-7"
    with pytest.raises(LockedElsewhereError) as info:
        await async_server.teams.put_roster("raid", "red", ["cy"])
    assert info.value.external_player_ids == ["cy"]


def test_the_team_read_with_and_without_a_window(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SERVER}/events/raid/teams/red").mock(
        return_value=httpx.Response(200, json={"data": {"team": {**TEAM, "finalRank": 1}}})
    )
    assert server.teams.get("raid", "red").team.final_rank == 1
    assert route.calls[-1].request.url.params.get("windowId") is None
    server.teams.get("raid", "red", window_id="win_1")
    assert route.calls[-1].request.url.params["windowId"] == "win_1"


async def test_async_team_read_refusal(async_server: AsyncServerClient, respx_mock: respx.MockRouter) -> None:
    respx_mock.get(f"{SERVER}/events/raid/teams/none").mock(return_value=refusal(404, "team_not_found"))
    with pytest.raises(TeamNotFoundError):
        await async_server.teams.get("raid", "none")


def test_my_team_or_none(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SDK}/players/ada/events/raid/team").mock(
        side_effect=[
            httpx.Response(200, json={"data": {"team": TEAM}}),
            httpx.Response(200, json={"data": {"team": None}}),
        ]
    )
    team = sdk.teams.mine("ada", "raid").team
    assert team is not None and team.key == "red"
    assert sdk.teams.mine("ada", "raid").team is None
    assert route.calls[0].request.headers["X-Player-Secret"] == "sec_1"


async def test_async_invite_then_accept(async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter) -> None:
    sent = respx_mock.post(f"{SDK}/players/ada/events/pair/partner-invites").mock(
        return_value=httpx.Response(201, json={"data": {"invite": INVITE}})
    )
    accepted = respx_mock.post(f"{SDK}/players/bob/events/pair/partner-invites/inv_1/accept").mock(
        return_value=httpx.Response(
            200, json={"data": {"team": {**TEAM, "key": "inv_1", "formation": "partner", "name": None}}}
        )
    )
    invite = (await async_sdk.teams.invite_partner("ada", "pair", "bob", idempotency_key="i-1")).invite
    assert (invite.invite_id, invite.to_external_player_id, invite.expires_at) == (
        "inv_1",
        "bob",
        datetime(2026, 3, 3, 12, tzinfo=UTC),
    )
    assert sent_json(sent) == {"externalPlayerId": "bob"} and sent_key(sent) == "i-1"
    team = (await async_sdk.teams.accept_invite("bob", "pair", "inv_1", player_secret="sec_b")).team
    assert (team.key, team.formation) == ("inv_1", Formation.PARTNER)
    assert accepted.calls[0].request.headers["X-Player-Secret"] == "sec_b"
    assert accepted.calls[0].request.content == b""


@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [
        (403, "not_friends", GiftNotFriendsError),
        (409, "already_on_team", AlreadyOnTeamError),
        (409, "invite_pending", InvitePendingError),
    ],
)
def test_invite_refusals(
    sdk: SdkClient, respx_mock: respx.MockRouter, status: int, code: str, cls: type[Exception]
) -> None:
    respx_mock.post(f"{SDK}/players/ada/events/pair/partner-invites").mock(return_value=refusal(status, code))
    with pytest.raises(cls):
        sdk.teams.invite_partner("ada", "pair", "bob")


@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [
        (404, "invite_not_found", InviteNotFoundError),
        (409, "already_on_team", AlreadyOnTeamError),
        (410, "invite_expired", InviteExpiredError),
    ],
)
def test_accept_refusals(
    sdk: SdkClient, respx_mock: respx.MockRouter, status: int, code: str, cls: type[Exception]
) -> None:
    respx_mock.post(f"{SDK}/players/bob/events/pair/partner-invites/inv_1/accept").mock(
        return_value=refusal(status, code)
    )
    with pytest.raises(cls):
        sdk.teams.accept_invite("bob", "pair", "inv_1")


TEAM_CODES = {
    LOCKED_ELSEWHERE: LockedElsewhereError,
    TEAM_NOT_FOUND: TeamNotFoundError,
    ALREADY_ON_TEAM: AlreadyOnTeamError,
    INVITE_PENDING: InvitePendingError,
    INVITE_EXPIRED: InviteExpiredError,
    INVITE_NOT_FOUND: InviteNotFoundError,
}


def test_every_team_code_has_its_class_under_its_status_family() -> None:
    from livecore_client.errors import error_class

    for code, cls in TEAM_CODES.items():
        assert error_class(code.status, code.value) is cls
        assert issubclass(cls, error_class(code.status, None)), code
    assert issubclass(InviteExpiredError, GoneError)
    assert issubclass(LockedElsewhereError, ConflictError) and issubclass(TeamNotFoundError, NotFoundError)


def test_locked_elsewhere_without_details_names_nobody() -> None:
    from livecore_client.errors import error_from_response

    error = error_from_response(409, {}, {"error": {"code": "locked_elsewhere", "message": "no"}}, "")
    assert isinstance(error, LockedElsewhereError) and error.external_player_ids == []
