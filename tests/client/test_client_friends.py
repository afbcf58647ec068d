"""Friends and presence methods over a mocked HTTP layer: request shape (method, path, query
``progression=coins,gems``, camelCase body, idempotency key, player secret), response parsing (including
the bare-array search answer), one error class per code, and the typed friend webhook payloads."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
import respx

import livecore_client
from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.friends import commands as friend_commands
from livecore.games import Game, Studio
from livecore.hashing import KeyedHasher
from livecore.memory import MemoryStore
from livecore.players.commands import register
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore.webhooks.envelope import build_envelope
from livecore.webhooks.signing import signature_header
from livecore_client import (
    AlreadyFriendsError,
    APIResponseValidationError,
    AsyncSdkClient,
    AsyncServerClient,
    CannotFriendSelfError,
    ConflictError,
    FriendCodeInvalidError,
    FriendLimitReachedError,
    FriendRequestNotFoundError,
    GiftNotFriendsError,
    InvalidRequestError,
    LivecoreAPIError,
    NotBlockedError,
    NotFoundError,
    NotFriendsError,
    PermissionDeniedError,
    PlayerBlockedError,
    SdkClient,
    ServerClient,
)
from livecore_client.models import (
    GIFT_ROW,
    BlockRow,
    Counterparty,
    Direction,
    FriendRow,
    IdentityView,
    RelationshipView,
    SearchHit,
    SuggestionRow,
)
from livecore_client.webhooks import (
    PAYLOAD_TYPES,
    FriendRemoved,
    FriendRequestAccepted,
    FriendRequestSent,
    construct_event,
)
from tests.client.support import BASE, pick, sent_json


def params(route: respx.Route) -> dict[str, str]:
    return dict(route.calls.last.request.url.params)


SDK = f"{BASE}/sdk/v1/players"
SRV = f"{BASE}/server/v1/players"
TS = "2026-03-02T12:00:00.000Z"
WHEN = datetime(2026, 3, 2, 12, tzinfo=UTC)

IDENT = {"name": "Bea", "avatar": "avatar_02", "country": "SE"}
BEA = IdentityView(name="Bea", avatar="avatar_02", country="SE")
FRIEND = {
    "externalPlayerId": "p2",
    "displayIdentity": IDENT,
    "friendsSince": TS,
    "online": True,
    "lastActiveAt": TS,
    "status": "in a race",
}
REQUEST = {
    "requestId": "frq_1",
    "direction": "outgoing",
    "player": {"externalPlayerId": "p2", "displayIdentity": IDENT},
    "createdAt": TS,
}
BLOCK = {"externalPlayerId": "p3", "displayIdentity": IDENT, "blockedAt": TS}
HIT = {"displayIdentity": IDENT, "externalPlayerId": "p2", "relationship": "request_incoming"}
SUGGESTION = {
    "externalPlayerId": "p4",
    "displayIdentity": IDENT,
    "online": False,
    "lastActiveAt": None,
    "status": None,
}


def ok(data: Any, status: int = 200) -> httpx.Response:
    return httpx.Response(status, json={"data": data})


def refusal(status: int, code: str) -> httpx.Response:
    return httpx.Response(status, json={"error": {"code": code, "message": f"{code} message"}})


def assert_read(route: respx.Route, query: dict[str, str] | None = None, secret: str = "sec_1") -> None:
    request = route.calls.last.request
    assert request.method == "GET"
    assert request.headers["Authorization"] == "Bearer ck_test"
    assert request.headers["X-Player-Secret"] == secret
    assert "Idempotency-Key" not in request.headers
    assert request.content == b""
    assert params(route) == (query or {})


def assert_write(route: respx.Route, method: str = "POST", key: str | None = None) -> str:
    """A player write: the secret, and an idempotency key in the header (16 random bytes unless given)."""
    request = route.calls.last.request
    assert request.method == method
    assert request.headers["Authorization"] == "Bearer ck_test"
    assert request.headers["X-Player-Secret"] == "sec_1"
    sent: str = request.headers["Idempotency-Key"]
    if key is None:
        assert len(bytes.fromhex(sent)) == 16
    else:
        assert sent == key
    return sent


# --- Friend code, search, suggestions --------------------------------------------------------------


def test_friend_code(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SDK}/p1/friends/code").mock(
        return_value=ok({"friendCode": "ABC234", "displayIdentity": IDENT})
    )
    result = sdk.friends.code("p1")
    assert_read(route)
    assert (result.friend_code, result.display_identity, result.progression) == ("ABC234", BEA, None)

    route.return_value = ok({"friendCode": "ABC234", "displayIdentity": IDENT, "progression": {"coins": 5}})
    assert sdk.friends.code("p1", progression=["coins", "gems"]).progression == {"coins": 5}
    assert_read(route, {"progression": "coins,gems"})
    assert route.calls.last.request.url.query == b"progression=coins%2Cgems"


@pytest.mark.parametrize(
    ("given", "sent"),
    [
        (("coins", "gems"), {"progression": "coins,gems"}),  # any sequence
        ("coins", {"progression": "coins"}),  # one string is one key, not its letters
        ([], {}),  # nothing asked: no parameter
        (None, {}),
    ],
)
def test_progression_query(
    sdk: SdkClient, respx_mock: respx.MockRouter, given: Any, sent: dict[str, str]
) -> None:
    route = respx_mock.get(f"{SDK}/p1/friends").mock(return_value=ok({"friends": []}))
    sdk.friends.list("p1", progression=given)
    assert params(route) == sent


def test_search_players_parses_the_bare_array(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SDK}/p1/friends/search").mock(
        return_value=ok([HIT, {**HIT, "externalPlayerId": "p5", "relationship": "none", "rank": 3}])
    )
    hits = sdk.friends.search("p1", "Be a")
    assert_read(route, {"q": "Be a", "limit": "20"})
    assert isinstance(hits, list)
    assert hits == [
        SearchHit(
            display_identity=BEA, external_player_id="p2", relationship=RelationshipView.REQUEST_INCOMING
        ),
        SearchHit(display_identity=BEA, external_player_id="p5", relationship=RelationshipView.NONE),
    ]

    route.return_value = ok([{**HIT, "progression": {"coins": 10, "gems": 0}}])
    [hit] = sdk.friends.search("p1", "bea", limit=5, progression=["coins", "gems"])
    assert_read(route, {"q": "bea", "limit": "5", "progression": "coins,gems"})
    assert hit.progression == {"coins": 10, "gems": 0}

    route.return_value = ok([])
    assert sdk.friends.search("p1", "nobody") == []


def test_search_answer_that_is_not_an_array_is_refused(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    respx_mock.get(f"{SDK}/p1/friends/search").mock(return_value=ok({"hits": [HIT]}))
    with pytest.raises(APIResponseValidationError):
        sdk.friends.search("p1", "bea")


def test_search_answer_empty_object_is_refused(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    respx_mock.get(f"{SDK}/p1/friends/search").mock(return_value=ok({}))
    with pytest.raises(APIResponseValidationError):
        sdk.friends.search("p1", "bea")


def test_friend_suggestions(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SDK}/p1/friends/suggestions").mock(
        return_value=ok({"suggestions": [SUGGESTION]})
    )
    [row] = sdk.friends.suggestions("p1").suggestions
    assert_read(route, {"limit": "5"})
    assert row == SuggestionRow(
        external_player_id="p4", display_identity=BEA, online=False, last_active_at=None, status=None
    )
    sdk.friends.suggestions("p1", limit=25, progression=["coins"])
    assert_read(route, {"limit": "25", "progression": "coins"})


# --- Requests -------------------------------------------------------------------------------------


def test_send_friend_request_by_code_pending(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SDK}/p1/friends/requests").mock(
        return_value=ok({"status": "pending", "request": REQUEST}, 201)
    )
    result = sdk.friends.send_request("p1", friend_code="abc234")
    key = assert_write(route)
    assert route.calls.last.request.headers["Content-Type"] == "application/json"
    assert sent_json(route) == {"friendCode": "abc234", "externalPlayerId": None, "idempotencyKey": key}
    assert result.status == "pending"
    assert result.friend is None
    assert result.request is not None
    assert result.request.request_id == "frq_1"
    assert result.request.direction is Direction.OUTGOING
    assert result.request.player == Counterparty(external_player_id="p2", display_identity=BEA)
    assert result.request.created_at == WHEN


def test_send_friend_request_by_id_reciprocal_accept(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SDK}/p1/friends/requests").mock(
        return_value=ok({"status": "accepted", "friend": FRIEND})
    )
    result = sdk.friends.send_request("p1", external_player_id="p2", idempotency_key="add-p2")
    assert_write(route, key="add-p2")
    assert sent_json(route) == {"friendCode": None, "externalPlayerId": "p2", "idempotencyKey": "add-p2"}
    assert (result.status, result.request) == ("accepted", None)
    assert result.friend == FriendRow(
        external_player_id="p2",
        display_identity=BEA,
        friends_since=WHEN,
        online=True,
        last_active_at=WHEN,
        status="in a race",
    )


@pytest.mark.parametrize("method", ["friends.send_request", "friends.block"])
@pytest.mark.parametrize("target", [{}, {"friend_code": "ABC234", "external_player_id": "p2"}])
def test_exactly_one_target_checked_locally(
    sdk: SdkClient, respx_mock: respx.MockRouter, method: str, target: dict[str, str]
) -> None:
    with pytest.raises(ValueError, match="exactly one of friend_code and external_player_id"):
        pick(sdk, method)("p1", **target)
    assert not respx_mock.calls


def test_friend_requests(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    incoming = {**REQUEST, "requestId": "frq_2", "direction": "incoming", "progression": {"coins": 3}}
    route = respx_mock.get(f"{SDK}/p1/friends/requests").mock(
        return_value=ok({"incoming": [incoming], "outgoing": [REQUEST]})
    )
    result = sdk.friends.requests("p1", progression=["coins", "gems"])
    assert_read(route, {"progression": "coins,gems"})
    assert [(r.request_id, r.direction, r.progression) for r in result.incoming] == [
        ("frq_2", Direction.INCOMING, {"coins": 3})
    ]
    assert [(r.request_id, r.direction) for r in result.outgoing] == [("frq_1", Direction.OUTGOING)]


def test_accept_friend_request(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SDK}/p1/friends/requests/frq_1/accept").mock(
        return_value=ok({"friend": FRIEND})
    )
    result = sdk.friends.accept_request("p1", "frq_1")
    assert_write(route)
    assert route.calls.last.request.content == b""  # no body: the key is in the header only
    assert result.friend.external_player_id == "p2"
    assert result.friend.online


@pytest.mark.parametrize(("action", "status"), [("decline", "declined"), ("cancel", "cancelled")])
def test_decline_and_cancel(sdk: SdkClient, respx_mock: respx.MockRouter, action: str, status: str) -> None:
    route = respx_mock.post(f"{SDK}/p1/friends/requests/frq_1/{action}").mock(
        return_value=ok({"requestId": "frq_1", "status": status})
    )
    result = getattr(sdk.friends, f"{action}_request")("p1", "frq_1", idempotency_key=f"{action}-1")
    assert_write(route, key=f"{action}-1")
    assert route.calls.last.request.content == b""
    assert (result.request_id, result.status) == ("frq_1", status)


# --- Friends, blocks, presence -------------------------------------------------------------------


def test_friends(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    cooling = {**FRIEND, "externalPlayerId": "p3", "giftCooldownUntil": TS, "progression": {"coins": 0}}
    route = respx_mock.get(f"{SDK}/p1/friends").mock(return_value=ok({"friends": [FRIEND, cooling]}))
    first, second = sdk.friends.list("p1", progression=["coins"]).friends
    assert_read(route, {"progression": "coins"})
    assert (first.online, first.status, first.of(GIFT_ROW).gift_cooldown_until, first.progression) == (
        True,
        "in a race",
        None,
        None,
    )
    assert (second.of(GIFT_ROW).gift_cooldown_until, second.progression) == (WHEN, {"coins": 0})


def test_remove_friend(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.delete(f"{SDK}/p1/friends/p%2F2").mock(return_value=ok({"removed": True}))
    assert sdk.friends.remove("p1", "p/2").removed is True
    assert_write(route, "DELETE")
    assert route.calls.last.request.content == b""


def test_block_player(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SDK}/p1/friends/blocks").mock(return_value=ok({"block": BLOCK}, 201))
    block = sdk.friends.block("p1", external_player_id="p3").block
    key = assert_write(route)
    assert sent_json(route) == {"friendCode": None, "externalPlayerId": "p3", "idempotencyKey": key}
    assert block == BlockRow(external_player_id="p3", display_identity=BEA, blocked_at=WHEN)

    sdk.friends.block("p1", friend_code="XYZ789", idempotency_key="blk-1")
    assert sent_json(route) == {"friendCode": "XYZ789", "externalPlayerId": None, "idempotencyKey": "blk-1"}


def test_blocks_and_unblock(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    listed = respx_mock.get(f"{SDK}/p1/friends/blocks").mock(return_value=ok({"blocks": [BLOCK]}))
    unblock = respx_mock.delete(f"{SDK}/p1/friends/blocks/p3").mock(return_value=ok({"unblocked": True}))
    assert [b.external_player_id for b in sdk.friends.blocks("p1").blocks] == ["p3"]
    assert_read(listed)
    assert sdk.friends.unblock("p1", "p3").unblocked is True
    assert_write(unblock, "DELETE")
    assert unblock.calls.last.request.content == b""


def test_heartbeat(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SDK}/p1/presence").mock(
        return_value=ok({"online": True, "lastActiveAt": TS, "status": "in lobby"})
    )
    presence = sdk.presence.heartbeat("p1", "in lobby")
    assert_write(route)
    assert sent_json(route) == {"status": "in lobby"}
    assert (presence.online, presence.last_active_at, presence.status) == (True, WHEN, "in lobby")

    route.return_value = ok({"online": True, "lastActiveAt": TS, "status": None})
    assert sdk.presence.heartbeat("p1").status is None
    assert sent_json(route) == {"status": None}  # null clears the label; the player stays online


def test_per_call_secret_overrides_the_clients(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SDK}/p2/friends").mock(return_value=ok({"friends": []}))
    sdk.friends.list("p2", player_secret="sec_2")
    assert_read(route, secret="sec_2")


PLAYER_CALLS: list[Callable[[SdkClient], Any]] = [
    lambda c: c.friends.code("p1"),
    lambda c: c.friends.search("p1", "bea"),
    lambda c: c.friends.send_request("p1", friend_code="ABC234"),
    lambda c: c.friends.requests("p1"),
    lambda c: c.friends.accept_request("p1", "frq_1"),
    lambda c: c.friends.decline_request("p1", "frq_1"),
    lambda c: c.friends.cancel_request("p1", "frq_1"),
    lambda c: c.friends.list("p1"),
    lambda c: c.friends.remove("p1", "p2"),
    lambda c: c.friends.suggestions("p1"),
    lambda c: c.friends.block("p1", external_player_id="p2"),
    lambda c: c.friends.blocks("p1"),
    lambda c: c.friends.unblock("p1", "p2"),
    lambda c: c.presence.heartbeat("p1"),
]


@pytest.mark.parametrize("call", PLAYER_CALLS)
def test_friend_routes_need_a_secret(respx_mock: respx.MockRouter, call: Callable[[SdkClient], Any]) -> None:
    with SdkClient("ck_test", base_url=BASE) as client, pytest.raises(ValueError, match="player's secret"):
        call(client)
    assert not respx_mock.calls


def test_empty_request_id_refused(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    with pytest.raises(ValueError, match="requestId"):
        sdk.friends.accept_request("p1", "")
    assert not respx_mock.calls


# --- Server reads ----------------------------------------------------------------------------------


def test_server_reads(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    friends = respx_mock.get(f"{SRV}/p1/friends").mock(return_value=ok({"friends": [FRIEND]}))
    requests = respx_mock.get(f"{SRV}/p1/friends/requests").mock(
        return_value=ok({"incoming": [], "outgoing": [REQUEST]})
    )
    blocks = respx_mock.get(f"{SRV}/p1/blocks").mock(return_value=ok({"blocks": [BLOCK]}))

    assert [f.status for f in server.friends.list("p1").friends] == ["in a race"]
    assert [r.request_id for r in server.friends.requests("p1").outgoing] == ["frq_1"]
    assert [b.external_player_id for b in server.friends.blocks("p1").blocks] == ["p3"]
    for route in (friends, requests, blocks):
        request = route.calls.last.request
        assert request.method == "GET"
        assert request.headers["Authorization"] == "Bearer sk_test"
        assert "X-Player-Secret" not in request.headers
        assert "Idempotency-Key" not in request.headers
        assert request.url.query == b""


# --- Errors ---------------------------------------------------------------------------------------

ERROR_CASES = [
    # (method, url, call, status, code, class, status class)
    ("POST", f"{SDK}/p1/friends/requests", lambda c: c.friends.send_request("p1", external_player_id="p1"),
     400, "cannot_friend_self", CannotFriendSelfError, InvalidRequestError),
    ("POST", f"{SDK}/p1/friends/requests", lambda c: c.friends.send_request("p1", external_player_id="p2"),
     409, "already_friends", AlreadyFriendsError, ConflictError),
    ("POST", f"{SDK}/p1/friends/requests", lambda c: c.friends.send_request("p1", friend_code="ZZZZZZ"),
     404, "friend_code_invalid", FriendCodeInvalidError, NotFoundError),
    ("POST", f"{SDK}/p1/friends/requests", lambda c: c.friends.send_request("p1", external_player_id="p3"),
     403, "player_blocked", PlayerBlockedError, PermissionDeniedError),
    ("POST", f"{SDK}/p1/friends/requests/frq_1/accept", lambda c: c.friends.accept_request("p1", "frq_1"),
     409, "friend_limit_reached", FriendLimitReachedError, ConflictError),
    ("POST", f"{SDK}/p1/friends/requests/frq_1/cancel", lambda c: c.friends.cancel_request("p1", "frq_1"),
     404, "friend_request_not_found", FriendRequestNotFoundError, NotFoundError),
    ("DELETE", f"{SDK}/p1/friends/p2", lambda c: c.friends.remove("p1", "p2"),
     404, "not_friends_yet", NotFriendsError, NotFoundError),
    ("DELETE", f"{SDK}/p1/friends/blocks/p2", lambda c: c.friends.unblock("p1", "p2"),
     404, "not_blocked", NotBlockedError, NotFoundError),
]  # fmt: skip


@pytest.mark.parametrize(
    ("method", "url", "call", "status", "code", "cls", "family"),
    ERROR_CASES,
    ids=[case[4] for case in ERROR_CASES],
)
def test_error_codes_raise_their_class(
    sdk: SdkClient,
    respx_mock: respx.MockRouter,
    method: str,
    url: str,
    call: Callable[[SdkClient], Any],
    status: int,
    code: str,
    cls: type[LivecoreAPIError],
    family: type[LivecoreAPIError],
) -> None:
    route = respx_mock.request(method, url).mock(return_value=refusal(status, code))
    with pytest.raises(family) as info:  # catchable by the status class
        call(sdk)
    error = info.value
    assert type(error) is cls
    assert issubclass(cls, family)
    assert getattr(livecore_client, cls.__name__) is cls  # exported from the package
    assert (error.status, error.code, error.message) == (status, code, f"{code} message")
    assert route.call_count == 1  # a refusal is final: never retried


def test_gift_not_friends_is_not_the_remove_refusal(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    # not_friends (403, gifting) is GiftNotFriendsError, never NotFriendsError (404 not_friends_yet).
    respx_mock.delete(f"{SDK}/p1/friends/p2").mock(return_value=refusal(403, "not_friends"))
    with pytest.raises(PermissionDeniedError) as info:
        sdk.friends.remove("p1", "p2")
    assert type(info.value) is GiftNotFriendsError
    assert not isinstance(info.value, NotFriendsError)


# --- Sync and async are one definition ------------------------------------------------------------

SDK_METHODS = [
    "friends.code",
    "friends.search",
    "friends.send_request",
    "friends.requests",
    "friends.accept_request",
    "friends.decline_request",
    "friends.cancel_request",
    "friends.list",
    "friends.remove",
    "friends.suggestions",
    "friends.block",
    "friends.blocks",
    "friends.unblock",
    "presence.heartbeat",
]
SERVER_METHODS = ["friends.list", "friends.requests", "friends.blocks"]


@pytest.mark.parametrize(
    ("sync_cls", "async_cls", "names"),
    [(SdkClient, AsyncSdkClient, SDK_METHODS), (ServerClient, AsyncServerClient, SERVER_METHODS)],
)
def test_sync_and_async_methods_share_signature_and_docs(
    sync_cls: type[Any], async_cls: type[Any], names: list[str]
) -> None:
    for name in names:
        sync_method, async_method = pick(sync_cls, name), pick(async_cls, name)
        assert inspect.signature(sync_method) == inspect.signature(async_method), name
        assert sync_method.__doc__ and sync_method.__doc__ == async_method.__doc__, name
        assert sync_method.__name__ == name.split(".")[-1]
        assert inspect.iscoroutinefunction(async_method)
        assert not inspect.iscoroutinefunction(sync_method)


def test_sdk_player_secret_is_keyword_with_client_default() -> None:
    for name in SDK_METHODS:
        parameter = inspect.signature(pick(SdkClient, name)).parameters["player_secret"]
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY, name
        assert parameter.default is None, name


# --- Async twins ----------------------------------------------------------------------------------


async def test_async_request_flow(async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter) -> None:
    send = respx_mock.post(f"{SDK}/p1/friends/requests").mock(
        return_value=ok({"status": "pending", "request": REQUEST}, 201)
    )
    search = respx_mock.get(f"{SDK}/p1/friends/search").mock(return_value=ok([HIT]))
    accept = respx_mock.post(f"{SDK}/p2/friends/requests/frq_1/accept").mock(
        return_value=ok({"friend": FRIEND})
    )
    beat = respx_mock.post(f"{SDK}/p1/presence").mock(
        return_value=ok({"online": True, "lastActiveAt": TS, "status": "racing"})
    )

    [hit] = await async_sdk.friends.search("p1", "bea", progression=["coins", "gems"])
    assert hit.relationship is RelationshipView.REQUEST_INCOMING
    assert params(search) == {"q": "bea", "limit": "20", "progression": "coins,gems"}

    sent = await async_sdk.friends.send_request("p1", friend_code="ABC234", idempotency_key="k-1")
    assert sent_json(send) == {"friendCode": "ABC234", "externalPlayerId": None, "idempotencyKey": "k-1"}
    assert sent.request is not None

    friend = await async_sdk.friends.accept_request("p2", sent.request.request_id, player_secret="sec_2")
    assert accept.calls.last.request.headers["X-Player-Secret"] == "sec_2"
    assert friend.friend.friends_since == WHEN

    assert (await async_sdk.presence.heartbeat("p1", "racing")).status == "racing"
    assert sent_json(beat) == {"status": "racing"}

    with pytest.raises(ValueError, match="exactly one"):
        await async_sdk.friends.block("p1")


async def test_async_deletes_and_errors(async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter) -> None:
    respx_mock.delete(f"{SDK}/p1/friends/p2").mock(return_value=refusal(404, "not_friends_yet"))
    unblock = respx_mock.delete(f"{SDK}/p1/friends/blocks/p3").mock(return_value=ok({"unblocked": True}))
    with pytest.raises(NotFriendsError):
        await async_sdk.friends.remove("p1", "p2")
    assert (await async_sdk.friends.unblock("p1", "p3")).unblocked
    assert unblock.calls.last.request.method == "DELETE"


async def test_async_server_reads(async_server: AsyncServerClient, respx_mock: respx.MockRouter) -> None:
    respx_mock.get(f"{SRV}/p1/friends").mock(return_value=ok({"friends": []}))
    respx_mock.get(f"{SRV}/p1/friends/requests").mock(
        return_value=ok({"incoming": [REQUEST], "outgoing": []})
    )
    respx_mock.get(f"{SRV}/p1/blocks").mock(return_value=ok({"blocks": []}))
    assert (await async_server.friends.list("p1")).friends == []
    assert (await async_server.friends.requests("p1")).incoming[0].request_id == "frq_1"
    assert (await async_server.friends.blocks("p1")).blocks == []


# --- Typed friend webhooks (docs/reference/webhooks.md#kinds) -----------------------------------------------

WEBHOOK_SECRET = "whsec_friends"
WEBHOOK_NOW = 1_772_452_800  # 2026-03-02T12:00:00Z


def test_friend_kinds_are_typed() -> None:
    assert PAYLOAD_TYPES["friend.request_sent"] is FriendRequestSent
    assert PAYLOAD_TYPES["friend.request_accepted"] is FriendRequestAccepted
    assert PAYLOAD_TYPES["friend.removed"] is FriendRemoved


def test_events_emitted_by_the_friend_commands_structure() -> None:
    # The very payloads the service emits (livecore.friends.commands), enveloped and signed as the
    # dispatcher does, read back typed by the studio's verifier.
    store = MemoryStore()
    game = Game(id="gam_1", studio_id="std_1", key="g", name="G")
    store.add_game(Studio(id="std_1", key="acme"), game)
    rt = Runtime(clock=ManualClock(WHEN), rng=SeededRandomSource(7), hasher=KeyedHasher(b"k" * 32))
    scope = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
    with store.transaction() as tx:
        ada, bob, cleo = (register(tx, rt, scope, name).player for name in ("ada", "bob", "cleo"))
        request = friend_commands.add(tx, rt, scope, game, ada, bob).request
        assert request is not None
        friend_commands.accept(tx, rt, scope, game, bob, request.id)
        friend_commands.add(tx, rt, scope, game, cleo, ada)
        friend_commands.add(tx, rt, scope, game, ada, cleo)  # reciprocal: friends at once
        friend_commands.remove(tx, rt, scope, ada, bob)
        friend_commands.block(tx, rt, scope, ada, cleo)

    events = []
    for event in store.outbox:
        if not event.kind.startswith("friend."):
            continue
        body = build_envelope(event, delivery_attempt=1)
        header = signature_header(WEBHOOK_SECRET, WEBHOOK_NOW, body)
        events.append(construct_event(body, header, WEBHOOK_SECRET, now=WEBHOOK_NOW).data)

    assert [type(e) for e in events] == [
        FriendRequestSent,
        FriendRequestAccepted,
        FriendRequestSent,
        FriendRequestAccepted,
        FriendRemoved,
        FriendRemoved,
    ]
    sent, accepted, _, reciprocal, removed, blocked = events
    assert isinstance(sent, FriendRequestSent)
    assert (sent.requester_external_player_id, sent.target_external_player_id) == ("ada", "bob")
    assert (sent.request_id, sent.created_at) == (request.id, WHEN)
    assert isinstance(accepted, FriendRequestAccepted)
    assert (accepted.external_player_id, accepted.friend_external_player_id) == ("bob", "ada")
    assert (accepted.request_id, accepted.reciprocal, accepted.friends_since) == (request.id, False, WHEN)
    assert isinstance(reciprocal, FriendRequestAccepted)
    assert (reciprocal.external_player_id, reciprocal.reciprocal) == ("ada", True)
    assert isinstance(removed, FriendRemoved)
    assert (removed.external_player_id, removed.friend_external_player_id, removed.reason) == (
        "ada",
        "bob",
        "removed",
    )
    assert removed.player_id == ada.id
    assert removed.removed_at == WHEN
    assert isinstance(blocked, FriendRemoved)
    assert (blocked.friend_external_player_id, blocked.reason) == ("cleo", "blocked")
