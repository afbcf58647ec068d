"""Gift methods over a mocked HTTP layer: request shape (method, path, the ``pending``/``limit`` and
``direction`` queries, the camelCase send body with its ``idempotencyKey``, the player secret), response
parsing (the bare-array inbox and sent lists, the server history with ``grantStatus``), one error class
per gift code, and the typed ``gift.sent`` / ``gift.claimed`` webhooks built from the service's own
payloads."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import httpx
import pytest
import respx

import livecore_client
from livecore import registry
from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.events import DomainEvent
from livecore.friends import commands as friend_commands
from livecore.friends.errors import NOT_FRIENDS
from livecore.games import Game, GameSettings, Resource, ResourceType, Studio
from livecore.gifts import commands as gift_commands
from livecore.gifts.rules import Gift, GiftStatus, SendRequest
from livecore.gifts.settings import GIFT_RESOURCE, GIFTING_SETTINGS, GiftingSettings, GiftResource
from livecore.hashing import KeyedHasher
from livecore.memory import MemoryStore
from livecore.players.commands import register
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore.webhooks.envelope import build_envelope
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.signing import signature_header
from livecore_client import (
    APIResponseValidationError,
    AsyncSdkClient,
    AsyncServerClient,
    ConflictError,
    FriendCodeInvalidError,
    GiftAlreadyClaimedError,
    GiftAmountInvalidError,
    GiftCooldownError,
    GiftExpiredError,
    GiftingDisabledError,
    GiftInsufficientBalanceError,
    GiftLimitReachedError,
    GiftNotAllowedError,
    GiftNotFoundError,
    GiftNotFriendsError,
    GoneError,
    IdempotencyConflictError,
    InvalidRequestError,
    LivecoreAPIError,
    NotFoundError,
    PermissionDeniedError,
    PlayerNotFoundError,
    SdkClient,
    ServerClient,
)
from livecore_client.models import (
    Counterparty,
    Direction,
    GiftCatalogResource,
    GiftCatalogResponse,
    GiftHistoryDirection,
    GiftView,
    GrantStatus,
    IdentityView,
)
from livecore_client.webhooks import PAYLOAD_TYPES, GiftClaimed, GiftSent, construct_event
from tests.client.support import BASE, Sleeps, pick, sent_json, sent_key
from tests.installed import SAMPLES

SDK = f"{BASE}/sdk/v1/players"
SRV = f"{BASE}/server/v1/players"
TS = "2026-03-02T12:00:00.000Z"
WHEN = datetime(2026, 3, 2, 12, tzinfo=UTC)
LATER = "2026-03-03T12:00:00.000Z"

IDENT = {"name": "Bea", "avatar": "avatar_02", "country": "SE"}
BEA = IdentityView(name="Bea", avatar="avatar_02", country="SE")
GIFT_ID = "01956f2a-0000-7000-8000-000000000001"
GRANT_ID = "01956f2a-0000-7000-8000-000000000002"
GIFT = {
    "giftId": GIFT_ID,
    "grantId": GRANT_ID,
    "direction": "outgoing",
    "player": {"externalPlayerId": "p2", "displayIdentity": IDENT},
    "type": "currency",
    "resourceKey": "coins",
    "amount": 5,
    "message": "gg",
    "status": "pending",
    "sentAt": TS,
    "claimedAt": None,
    "expiresAt": LATER,
}
SENT_VIEW = GiftView(
    gift_id=GIFT_ID,
    grant_id=GRANT_ID,
    direction=Direction.OUTGOING,
    player=Counterparty(external_player_id="p2", display_identity=BEA),
    type=ResourceType.CURRENCY,
    resource_key="coins",
    amount=5,
    message="gg",
    status=GiftStatus.PENDING,
    sent_at=WHEN,
    claimed_at=None,
    expires_at=WHEN + timedelta(days=1),
)
INCOMING = {**GIFT, "direction": "incoming", "player": {"externalPlayerId": "p1", "displayIdentity": IDENT}}
CLAIMED = {**INCOMING, "status": "claimed", "claimedAt": TS}
CATALOG = {
    "enabled": True,
    "cooldownSeconds": 86400,
    "dailySendLimit": None,
    "sentToday": 2,
    "resources": [
        {"type": "currency", "key": "coins", "maxAmount": 100, "costsSender": False},
        {"type": "item", "key": "sword", "maxAmount": 1, "costsSender": True},
    ],
}


def ok(data: Any, status: int = 200) -> httpx.Response:
    return httpx.Response(status, json={"data": data})


def refusal(status: int, code: str, details: dict[str, Any] | None = None) -> httpx.Response:
    error: dict[str, Any] = {"code": code, "message": f"{code} message"}
    if details is not None:
        error["details"] = details
    return httpx.Response(status, json={"error": error})


def params(route: respx.Route) -> dict[str, str]:
    return dict(route.calls.last.request.url.params)


def assert_read(route: respx.Route, query: dict[str, str] | None = None, secret: str = "sec_1") -> None:
    request = route.calls.last.request
    assert request.method == "GET"
    assert request.headers["Authorization"] == "Bearer ck_test"
    assert request.headers["X-Player-Secret"] == secret
    assert "Idempotency-Key" not in request.headers
    assert request.content == b""
    assert params(route) == (query or {})


def assert_write(route: respx.Route, key: str | None = None) -> str:
    """A player POST: the secret, and an idempotency key in the header (16 random bytes unless given)."""
    request = route.calls.last.request
    assert request.method == "POST"
    assert request.headers["Authorization"] == "Bearer ck_test"
    assert request.headers["X-Player-Secret"] == "sec_1"
    sent = sent_key(route)
    if key is None:
        assert len(bytes.fromhex(sent)) == 16
    else:
        assert sent == key
    return sent


# --- Send -------------------------------------------------------------------------------------------


def test_send_gift_by_external_id(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SDK}/p1/friends/gifts").mock(return_value=ok({"gift": GIFT}, 201))
    result = sdk.gifts.send(
        "p1", type="currency", resource_key="coins", amount=5, external_player_id="p2", message="gg"
    )
    key = assert_write(route)
    assert route.calls.last.request.headers["Content-Type"] == "application/json"
    # The key the client stamps goes in the body's idempotencyKey too
    # (docs/reference/conventions.md#idempotency), the same value.
    assert sent_json(route) == {
        "type": "currency",
        "resourceKey": "coins",
        "amount": 5,
        "externalPlayerId": "p2",
        "friendCode": None,
        "message": "gg",
        "idempotencyKey": key,
    }
    assert result.gift == SENT_VIEW
    assert result.gift.grant_status is None  # only the server history carries it


def test_send_gift_by_friend_code_with_own_key(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SDK}/p1/friends/gifts").mock(
        return_value=ok({"gift": {**GIFT, "type": "item", "resourceKey": "sword", "amount": 1}}, 201)
    )
    gift = sdk.gifts.send(
        "p1",
        type=ResourceType.ITEM,
        resource_key="sword",
        amount=1,
        friend_code="abc234",
        idempotency_key="gift-p2-day-1",
        player_secret="sec_1",
    ).gift
    assert_write(route, key="gift-p2-day-1")
    assert sent_json(route) == {
        "type": "item",
        "resourceKey": "sword",
        "amount": 1,
        "externalPlayerId": None,
        "friendCode": "abc234",
        "message": None,
        "idempotencyKey": "gift-p2-day-1",
    }
    assert (gift.type, gift.resource_key, gift.amount) == (ResourceType.ITEM, "sword", 1)


def test_send_gift_retry_resends_the_same_key(
    sdk: SdkClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    # A lost answer is retried with the very same bytes, so the service answers the original gift.
    route = respx_mock.post(f"{SDK}/p1/friends/gifts").mock(
        side_effect=[httpx.Response(503), ok({"gift": GIFT}, 200)]
    )
    gift = sdk.gifts.send("p1", type="currency", resource_key="coins", amount=5, external_player_id="p2")
    assert gift.gift.gift_id == GIFT_ID
    assert route.call_count == 2
    assert sleeps == [0.25]
    first, second = (call.request for call in route.calls)
    assert first.content == second.content
    assert sent_key(route, 0) == sent_key(route, 1) == sent_json(route, 0)["idempotencyKey"]


@pytest.mark.parametrize("target", [{}, {"friend_code": "ABC234", "external_player_id": "p2"}])
def test_send_gift_needs_exactly_one_target(
    sdk: SdkClient, respx_mock: respx.MockRouter, target: dict[str, str]
) -> None:
    with pytest.raises(ValueError, match="exactly one of friend_code and external_player_id"):
        sdk.gifts.send("p1", type="currency", resource_key="coins", amount=1, **target)
    assert not respx_mock.calls


def test_send_gift_refuses_an_unknown_type_locally(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    with pytest.raises(ValueError, match="ResourceType"):
        sdk.gifts.send("p1", type="xp", resource_key="xp", amount=1, external_player_id="p2")
    assert not respx_mock.calls


# --- Claim, catalog, lists ------------------------------------------------------------------------------


def test_claim_gift(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SDK}/p2/friends/gifts/{GIFT_ID}/claim").mock(
        return_value=ok({"gift": CLAIMED})
    )
    gift = sdk.gifts.claim("p2", GIFT_ID).gift
    assert_write(route)
    assert route.calls.last.request.content == b""  # no body: the key is in the header only
    assert (gift.status, gift.claimed_at, gift.direction) == (GiftStatus.CLAIMED, WHEN, Direction.INCOMING)
    assert gift.player.external_player_id == "p1"

    sdk.gifts.claim("p2", GIFT_ID, idempotency_key="claim-1")
    assert_write(route, key="claim-1")


def test_claim_gift_escapes_the_id_and_refuses_an_empty_one(
    sdk: SdkClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.post(f"{SDK}/p2/friends/gifts/a%2Fb/claim").mock(return_value=ok({"gift": CLAIMED}))
    sdk.gifts.claim("p2", "a/b")
    assert route.called
    with pytest.raises(ValueError, match="giftId"):
        sdk.gifts.claim("p2", "")


def test_gift_catalog(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SDK}/p1/friends/gifts/catalog").mock(return_value=ok(CATALOG))
    catalog = sdk.gifts.catalog("p1")
    assert_read(route)
    assert catalog == GiftCatalogResponse(
        enabled=True,
        cooldown_seconds=86400,
        daily_send_limit=None,
        sent_today=2,
        resources=[
            GiftCatalogResource(type=ResourceType.CURRENCY, key="coins", max_amount=100, costs_sender=False),
            GiftCatalogResource(type=ResourceType.ITEM, key="sword", max_amount=1, costs_sender=True),
        ],
    )
    route.return_value = ok({**CATALOG, "enabled": False, "dailySendLimit": 5, "resources": []})
    off = sdk.gifts.catalog("p1")
    assert (off.enabled, off.daily_send_limit, off.resources) == (False, 5, [])


@pytest.mark.parametrize(("method", "path"), [("gifts.inbox", "inbox"), ("gifts.sent", "sent")])
def test_gift_lists_parse_the_bare_array(
    sdk: SdkClient, respx_mock: respx.MockRouter, method: str, path: str
) -> None:
    route = respx_mock.get(f"{SDK}/p1/friends/gifts/{path}").mock(
        return_value=ok([GIFT, {**GIFT, "giftId": "g2", "status": "claimed", "claimedAt": TS, "extra": 1}])
    )
    gifts = pick(sdk, method)("p1")
    assert_read(route, {"pending": "false", "limit": "100"})  # the model's defaults
    assert isinstance(gifts, list)
    assert gifts[0] == SENT_VIEW
    assert (gifts[1].gift_id, gifts[1].status, gifts[1].claimed_at) == ("g2", GiftStatus.CLAIMED, WHEN)

    route.return_value = ok([])
    assert pick(sdk, method)("p1", pending=True) == []
    assert_read(route, {"pending": "true", "limit": "100"})
    pick(sdk, method)("p1", pending=True, limit=5)
    assert_read(route, {"pending": "true", "limit": "5"})
    assert route.calls.last.request.url.query == b"pending=true&limit=5"
    pick(sdk, method)("p1", limit=200, player_secret="sec_2")
    assert_read(route, {"pending": "false", "limit": "200"}, secret="sec_2")


@pytest.mark.parametrize("path", ["inbox", "sent"])
def test_gift_list_answer_that_is_not_an_array_is_refused(
    sdk: SdkClient, respx_mock: respx.MockRouter, path: str
) -> None:
    respx_mock.get(f"{SDK}/p1/friends/gifts/{path}").mock(return_value=ok({"gifts": [GIFT]}))
    with pytest.raises(APIResponseValidationError):
        (sdk.gifts.inbox if path == "inbox" else sdk.gifts.sent)("p1")


PLAYER_CALLS: list[Callable[[SdkClient], Any]] = [
    lambda c: c.gifts.send("p1", type="currency", resource_key="coins", amount=1, external_player_id="p2"),
    lambda c: c.gifts.claim("p1", GIFT_ID),
    lambda c: c.gifts.catalog("p1"),
    lambda c: c.gifts.inbox("p1"),
    lambda c: c.gifts.sent("p1", pending=True),
]


@pytest.mark.parametrize("call", PLAYER_CALLS)
def test_gift_routes_need_a_secret(respx_mock: respx.MockRouter, call: Callable[[SdkClient], Any]) -> None:
    with SdkClient("ck_test", base_url=BASE) as client, pytest.raises(ValueError, match="player's secret"):
        call(client)
    assert not respx_mock.calls


# --- Server history -------------------------------------------------------------------------------------


def test_server_player_gifts(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SRV}/p2/gifts").mock(
        return_value=ok({"direction": "received", "gifts": [{**INCOMING, "grantStatus": "pending"}]})
    )
    history = server.gifts.list("p2")
    request = route.calls.last.request
    assert request.method == "GET"
    assert request.headers["Authorization"] == "Bearer sk_test"
    assert "X-Player-Secret" not in request.headers
    assert "Idempotency-Key" not in request.headers
    assert params(route) == {"direction": "received", "limit": "50"}
    assert history.direction is GiftHistoryDirection.RECEIVED
    [gift] = history.gifts
    assert (gift.direction, gift.grant_status, gift.player.external_player_id) == (
        Direction.INCOMING,
        GrantStatus.PENDING,
        "p1",
    )

    route.return_value = ok({"direction": "sent", "gifts": []})
    assert server.gifts.list("p2", direction="sent", limit=10).direction is GiftHistoryDirection.SENT
    assert params(route) == {"direction": "sent", "limit": "10"}
    server.gifts.list("p2", direction=GiftHistoryDirection.SENT)
    assert params(route) == {"direction": "sent", "limit": "50"}


def test_server_player_gifts_refuses_an_unknown_direction_locally(
    server: ServerClient, respx_mock: respx.MockRouter
) -> None:
    with pytest.raises(ValueError, match="GiftHistoryDirection"):
        server.gifts.list("p2", direction="incoming")
    assert not respx_mock.calls


# --- Errors ---------------------------------------------------------------------------------------------

_SEND = f"{SDK}/p1/friends/gifts"
_CLAIM = f"{SDK}/p1/friends/gifts/{GIFT_ID}/claim"


def _send(c: SdkClient) -> Any:
    return c.gifts.send("p1", type="currency", resource_key="coins", amount=5, external_player_id="p2")


def _claim(c: SdkClient) -> Any:
    return c.gifts.claim("p1", GIFT_ID)


ERROR_CASES = [
    # (method, url, call, status, code, class, status class)
    ("POST", _SEND, _send, 403, "gifting_disabled", GiftingDisabledError, PermissionDeniedError),
    ("POST", _SEND, _send, 403, "not_friends", GiftNotFriendsError, PermissionDeniedError),
    ("POST", _SEND, _send, 403, "gift_not_allowed", GiftNotAllowedError, PermissionDeniedError),
    ("POST", _SEND, _send, 400, "gift_amount_invalid", GiftAmountInvalidError, InvalidRequestError),
    ("POST", _SEND, _send, 409, "gift_cooldown", GiftCooldownError, ConflictError),
    ("POST", _SEND, _send, 409, "gift_limit_reached", GiftLimitReachedError, ConflictError),
    ("POST", _SEND, _send, 409, "gift_insufficient_balance", GiftInsufficientBalanceError, ConflictError),
    ("POST", _SEND, _send, 409, "idempotency_conflict", IdempotencyConflictError, ConflictError),
    ("POST", _SEND, _send, 404, "player_not_found", PlayerNotFoundError, NotFoundError),
    ("POST", _SEND, lambda c: c.gifts.send("p1", type="currency", resource_key="coins", amount=5,
                                          friend_code="ZZZZZZ"),
     404, "friend_code_invalid", FriendCodeInvalidError, NotFoundError),
    ("POST", _CLAIM, _claim, 404, "gift_not_found", GiftNotFoundError, NotFoundError),
    ("POST", _CLAIM, _claim, 409, "gift_already_claimed", GiftAlreadyClaimedError, ConflictError),
    ("POST", _CLAIM, _claim, 410, "gift_expired", GiftExpiredError, GoneError),
    ("POST", f"{SDK}/p1/grants/{GRANT_ID}/claim", lambda c: c.grants.claim("p1", GRANT_ID),
     409, "gift_already_claimed", GiftAlreadyClaimedError, ConflictError),
    ("POST", f"{SDK}/p1/grants/{GRANT_ID}/claim", lambda c: c.grants.claim("p1", GRANT_ID),
     410, "gift_expired", GiftExpiredError, GoneError),
]  # fmt: skip


@pytest.mark.parametrize(
    ("method", "url", "call", "status", "code", "cls", "family"),
    ERROR_CASES,
    ids=[f"{case[2].__name__.strip('_<>')}-{case[4]}" for case in ERROR_CASES],
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


def test_server_history_gifting_disabled(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    respx_mock.get(f"{SRV}/p1/gifts").mock(return_value=refusal(403, "gifting_disabled"))
    with pytest.raises(GiftingDisabledError) as info:
        server.gifts.list("p1")
    assert info.value.status == 403


def test_gift_cooldown_error_carries_the_time(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(_SEND).mock(return_value=refusal(409, "gift_cooldown", {"cooldownUntil": LATER}))
    with pytest.raises(GiftCooldownError) as info:
        _send(sdk)
    assert info.value.cooldown_until == WHEN + timedelta(days=1)
    assert info.value.details == {"cooldownUntil": LATER}

    for details in (None, {}, {"cooldownUntil": "soon"}, {"cooldownUntil": 12}):
        route.return_value = refusal(409, "gift_cooldown", details)
        with pytest.raises(GiftCooldownError) as without:
            _send(sdk)
        assert without.value.cooldown_until is None  # advisory: never breaks the refusal itself


def test_every_gift_code_has_its_class() -> None:
    from livecore_client.errors import _BY_CODE, error_class

    gift_codes = [
        c
        for c in registry.error_codes(registry.installed())
        if c.value.startswith("gift") or c is NOT_FRIENDS
    ]
    assert len(gift_codes) == 10
    for code in gift_codes:
        cls = _BY_CODE[code.value]
        assert error_class(code.status, code.value) is cls
        # The class sits under the family of the status the service answers with.
        assert issubclass(cls, error_class(code.status, None)), code


# --- Sync and async are one definition ----------------------------------------------------------------

SDK_METHODS = ["gifts.send", "gifts.claim", "gifts.catalog", "gifts.inbox", "gifts.sent"]


@pytest.mark.parametrize(
    ("sync_cls", "async_cls", "names"),
    [(SdkClient, AsyncSdkClient, SDK_METHODS), (ServerClient, AsyncServerClient, ["gifts.list"])],
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


def test_sdk_gift_methods_take_keyword_secret_and_key() -> None:
    for name in SDK_METHODS:
        parameters = inspect.signature(pick(SdkClient, name)).parameters
        assert parameters["player_secret"].kind is inspect.Parameter.KEYWORD_ONLY, name
        assert parameters["player_secret"].default is None, name
    for name in ("gifts.send", "gifts.claim"):
        key = inspect.signature(pick(SdkClient, name)).parameters["idempotency_key"]
        assert (key.kind, key.default) == (inspect.Parameter.KEYWORD_ONLY, None)
    send = inspect.signature(SdkClient.gifts.send).parameters
    assert [n for n, p in send.items() if p.kind is inspect.Parameter.KEYWORD_ONLY] == [
        "type",
        "resource_key",
        "amount",
        "external_player_id",
        "friend_code",
        "message",
        "player_secret",
        "idempotency_key",
    ]


# --- Async twins ------------------------------------------------------------------------------------


async def test_async_gift_flow(async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter) -> None:
    send = respx_mock.post(f"{SDK}/p1/friends/gifts").mock(return_value=ok({"gift": GIFT}, 201))
    inbox = respx_mock.get(f"{SDK}/p2/friends/gifts/inbox").mock(return_value=ok([INCOMING]))
    claim = respx_mock.post(f"{SDK}/p2/friends/gifts/{GIFT_ID}/claim").mock(
        return_value=ok({"gift": CLAIMED})
    )
    sent = respx_mock.get(f"{SDK}/p1/friends/gifts/sent").mock(return_value=ok([]))
    catalog = respx_mock.get(f"{SDK}/p1/friends/gifts/catalog").mock(return_value=ok(CATALOG))

    assert (await async_sdk.gifts.catalog("p1")).sent_today == 2
    assert catalog.called
    gift = (
        await async_sdk.gifts.send(
            "p1",
            type="currency",
            resource_key="coins",
            amount=5,
            external_player_id="p2",
            idempotency_key="k",
        )
    ).gift
    assert sent_json(send)["idempotencyKey"] == "k" == sent_key(send)
    assert gift == SENT_VIEW

    [waiting] = await async_sdk.gifts.inbox("p2", pending=True, limit=3, player_secret="sec_2")
    assert params(inbox) == {"pending": "true", "limit": "3"}
    assert inbox.calls.last.request.headers["X-Player-Secret"] == "sec_2"
    assert waiting.direction is Direction.INCOMING

    claimed = (await async_sdk.gifts.claim("p2", waiting.gift_id, player_secret="sec_2")).gift
    assert claim.calls.last.request.headers["X-Player-Secret"] == "sec_2"
    assert claimed.status is GiftStatus.CLAIMED

    assert await async_sdk.gifts.sent("p1", pending=True) == []
    assert params(sent) == {"pending": "true", "limit": "100"}

    claim.return_value = refusal(409, "gift_already_claimed")
    with pytest.raises(GiftAlreadyClaimedError):
        await async_sdk.gifts.claim("p2", waiting.gift_id, player_secret="sec_2")
    with pytest.raises(ValueError, match="exactly one"):
        await async_sdk.gifts.send("p1", type="currency", resource_key="coins", amount=1)


async def test_async_server_player_gifts(
    async_server: AsyncServerClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.get(f"{SRV}/p1/gifts").mock(
        return_value=ok({"direction": "sent", "gifts": [{**GIFT, "grantStatus": "claimed"}]})
    )
    history = await async_server.gifts.list("p1", direction="sent", limit=1)
    assert params(route) == {"direction": "sent", "limit": "1"}
    assert [g.grant_status for g in history.gifts] == [GrantStatus.CLAIMED]
    route.return_value = refusal(403, "gifting_disabled")
    with pytest.raises(GiftingDisabledError):
        await async_server.gifts.list("p1")


# --- Typed gift webhooks (docs/reference/webhooks.md#kinds) -------------------------------------------------

WEBHOOK_SECRET = "whsec_gifts"
WEBHOOK_NOW = 1_772_452_800  # 2026-03-02T12:00:00Z


def receive(kind: str, payload: WebhookPayload | dict[str, Any]) -> Any:
    event = DomainEvent(
        id="evt_gift",
        kind=kind,
        studio_id="std_1",
        game_id="gam_1",
        env=Environment.TEST,
        occurred_at=WHEN,
        payload=payload,
    )
    body = build_envelope(event, delivery_attempt=1)
    header = signature_header(WEBHOOK_SECRET, WEBHOOK_NOW, body)
    return construct_event(body, header, WEBHOOK_SECRET, now=WEBHOOK_NOW).data


def test_gift_kinds_are_typed_and_exported() -> None:
    assert PAYLOAD_TYPES["gift.sent"] is GiftSent
    assert PAYLOAD_TYPES["gift.claimed"] is GiftClaimed
    assert {"GiftSent", "GiftClaimed"} <= set(livecore_client.webhooks.__all__)
    assert receive("gift.sent", SAMPLES["gift.sent"]) == SAMPLES["gift.sent"]
    assert receive("gift.claimed", SAMPLES["gift.claimed"]) == SAMPLES["gift.claimed"]


@pytest.mark.parametrize(
    ("message", "expires_at", "deducted"),
    [("gg", WHEN + timedelta(days=7), True), (None, None, False)],
)
def test_payloads_built_from_the_gift_reach_the_studio_unchanged(
    message: str | None, expires_at: datetime | None, deducted: bool
) -> None:
    gift = Gift(
        id=GIFT_ID,
        grant_id=GRANT_ID,
        game_id="gam_1",
        sender_id="plr_1",
        sender_external_id="ada",
        recipient_id="plr_2",
        recipient_external_id="bob",
        type=ResourceType.ITEM,
        resource_key="sword",
        amount=2,
        message=message,
        status=GiftStatus.PENDING,
        sent_at=WHEN,
        expires_at=expires_at,
        deducted_from_sender=deducted,
    )
    sent = receive("gift.sent", GiftSent.of(gift))
    assert sent == GiftSent(
        gift_id=GIFT_ID,
        grant_id=GRANT_ID,
        sender_player_id="plr_1",
        sender_external_player_id="ada",
        recipient_player_id="plr_2",
        recipient_external_player_id="bob",
        type="item",
        resource_key="sword",
        amount=2,
        deducted_from_sender=deducted,
        message=message,
        sent_at=WHEN,
        expires_at=expires_at,
    )
    opened = WHEN + timedelta(hours=1)
    claimed = receive(
        "gift.claimed",
        GiftClaimed.of(attrs.evolve(gift, status=GiftStatus.CLAIMED, claimed_at=opened)),
    )
    assert claimed == GiftClaimed(
        gift_id=GIFT_ID,
        grant_id=GRANT_ID,
        sender_player_id="plr_1",
        sender_external_player_id="ada",
        recipient_player_id="plr_2",
        recipient_external_player_id="bob",
        type="item",
        resource_key="sword",
        amount=2,
        claimed_at=opened,
    )


def test_events_emitted_by_the_gift_commands_structure() -> None:
    # The very events the service emits (livecore.gifts.commands): send, then claim through the gift.
    store = MemoryStore()
    coins = Resource(
        key="coins",
        type=ResourceType.CURRENCY,
        parts={GIFT_RESOURCE: GiftResource(giftable=True, max_per_gift=50)},
    )
    settings = GameSettings(
        sections={GIFTING_SETTINGS: GiftingSettings(enabled=True, claim_expiry_seconds=3600)},
        resources={"coins": coins},
    )
    game = Game(id="gam_1", studio_id="std_1", key="g", name="G", settings=settings)
    store.add_game(Studio(id="std_1", key="acme"), game)
    clock = ManualClock(WHEN)
    rt = Runtime(clock=clock, rng=SeededRandomSource(7), hasher=KeyedHasher(b"k" * 32))
    scope = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
    with store.transaction() as tx:
        ada, bob = (register(tx, rt, scope, name).player for name in ("ada", "bob"))
        request = friend_commands.add(tx, rt, scope, game, ada, bob).request
        assert request is not None
        friend_commands.accept(tx, rt, scope, game, bob, request.id)
        gift = gift_commands.send(
            tx, rt, scope, game, ada, bob, SendRequest(ResourceType.CURRENCY, "coins", 7, message="hi")
        ).gift
    clock.advance(300)
    with store.transaction() as tx:
        gift_commands.claim(tx, rt, scope, bob, gift.id)

    typed = [receive(event.kind, event.data) for event in store.outbox if event.kind.startswith("gift.")]
    assert [type(t) for t in typed] == [GiftSent, GiftClaimed]
    sent, claimed = typed
    assert isinstance(sent, GiftSent)
    assert (sent.gift_id, sent.grant_id) == (gift.id, gift.grant_id)
    assert (sent.sender_player_id, sent.sender_external_player_id) == (ada.id, "ada")
    assert (sent.recipient_player_id, sent.recipient_external_player_id) == (bob.id, "bob")
    assert (sent.type, sent.resource_key, sent.amount, sent.message) == ("currency", "coins", 7, "hi")
    assert (sent.deducted_from_sender, sent.sent_at, sent.expires_at) == (
        False,
        WHEN,
        WHEN + timedelta(hours=1),
    )
    assert isinstance(claimed, GiftClaimed)
    assert (claimed.gift_id, claimed.amount, claimed.claimed_at) == (gift.id, 7, WHEN + timedelta(minutes=5))
    # And they ride beside the grant events, as the contract (docs/reference/webhooks.md#kinds) says.
    kinds = [e.kind for e in store.outbox if e.kind.startswith(("gift.", "grant."))]
    assert kinds == ["gift.sent", "grant.created", "gift.claimed", "grant.claimed"]
