"""Economy and grant methods over a mocked HTTP layer: request shape (method, path, query, camelCase body,
idempotency key in header and body, player secret), response parsing, and one error class per code."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
import respx

from livecore.economy.api import CurrencyBalance, ItemAdjustResponse, ItemHolding, WalletAdjustResponse
from livecore.games import ResourceType
from livecore.grants.api import GrantSourceKind, RewardEntry
from livecore.grants.rules import AckedBy, GrantKind, GrantStatus
from livecore_client import (
    AsyncSdkClient,
    AsyncServerClient,
    ConflictError,
    GrantAlreadyClaimedError,
    GrantExpiredError,
    GrantNotFoundError,
    InsufficientBalanceError,
    InsufficientQuantityError,
    LivecoreAPIError,
    NotFoundError,
    ResourceNotFoundError,
    SdkClient,
    ServerClient,
    StudioManagedEconomyError,
    SystemResourceLockedError,
)
from tests.client.support import BASE, Sleeps, pick, sent_json, sent_key

SDK = f"{BASE}/sdk/v1/players"
SRV = f"{BASE}/server/v1/players"
GRANT_ID = "0b6c5c8e-6a7e-4a3e-9d59-1f1d2a3b4c5d"

GRANT_DATA: dict[str, Any] = {
    "grantId": GRANT_ID,
    "externalPlayerId": "p1",
    "kind": "reward",
    "status": "pending",
    "entries": [
        {"type": "currency", "key": "coins", "amount": 50},
        {"type": "item", "key": "sword", "amount": 1, "parameters": {"level": 2}},
    ],
    "sourceKind": "api",
    "sourceRefId": "season-3",
    "metadata": {"season": 3},
    "createdAt": "2026-03-02T12:00:00.000Z",
    "claimedAt": None,
    "expiresAt": "2026-03-09T12:00:00.000Z",
    "ackedBy": None,
}
CLAIMED_DATA: dict[str, Any] = {
    **GRANT_DATA,
    "status": "claimed",
    "claimedAt": "2026-03-02T12:05:00.000Z",
    "ackedBy": "server_api",
}
WALLET_DATA = {"currencies": [{"key": "coins", "balance": 40}, {"key": "gems", "balance": 0}]}
INVENTORY_DATA = {
    "items": [
        {"key": "sword", "quantity": 1, "parameters": {"level": 2, "color": "red"}},
        {"key": "sessions", "quantity": 3, "parameters": {}, "system": True},
    ]
}
WALLET_ADJUSTED = {"key": "coins", "balance": 40, "delta": -10, "entryId": "led_1"}
ITEMS_ADJUSTED = {"key": "sword", "quantity": 2, "delta": 1, "parameters": {"level": 2}, "entryId": "led_2"}
ENTRIES = [
    RewardEntry(type=ResourceType.CURRENCY, key="coins", amount=50),
    RewardEntry(type=ResourceType.ITEM, key="sword", amount=1, parameters={"level": 2}),
]


def ok(data: dict[str, Any], status: int = 200) -> httpx.Response:
    return httpx.Response(status, json={"data": data})


def refusal(status: int, code: str) -> httpx.Response:
    return httpx.Response(status, json={"error": {"code": code, "message": f"{code} message"}})


def assert_read(route: respx.Route, secret: str = "sec_1") -> None:
    request = route.calls.last.request
    assert request.method == "GET"
    assert request.headers["Authorization"] == "Bearer ck_test"
    assert request.headers["X-Player-Secret"] == secret
    assert "Idempotency-Key" not in request.headers
    assert request.url.query == b""
    assert request.content == b""


def assert_body_key(route: respx.Route, expected: str | None = None) -> str:
    """The header and the body field carry the same key (docs/reference/conventions.md#idempotency); returns
    it."""
    key = sent_key(route)
    assert sent_json(route)["idempotencyKey"] == key
    if expected is None:
        assert len(bytes.fromhex(key)) == 16
    else:
        assert key == expected
    return key


# --- SDK: wallet and inventory ----------------------------------------------------------------------


def test_wallet(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SDK}/p1/wallet").mock(return_value=ok({**WALLET_DATA, "addedLater": 1}))
    wallet = sdk.wallet.get("p1")
    assert_read(route)
    assert wallet.currencies == [
        CurrencyBalance(key="coins", balance=40),
        CurrencyBalance(key="gems", balance=0),
    ]

    sdk.wallet.get("p1", player_secret="sec_2")
    assert_read(route, secret="sec_2")


def test_debit(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SDK}/p%2F1/wallet/coins/debit").mock(return_value=ok(WALLET_ADJUSTED))
    result = sdk.wallet.debit("p/1", "coins", 10, reason="shop", source_ref_id="order-7")

    request = route.calls.last.request
    assert request.headers["X-Player-Secret"] == "sec_1"
    assert request.headers["Content-Type"] == "application/json"
    key = assert_body_key(route)
    assert sent_json(route) == {
        "amount": 10,
        "reason": "shop",
        "sourceRefId": "order-7",
        "idempotencyKey": key,
    }
    assert result == WalletAdjustResponse(key="coins", balance=40, delta=-10, entry_id="led_1")

    sdk.wallet.debit("p/1", "coins", 10, idempotency_key="spend-1", player_secret="sec_2")
    assert_body_key(route, "spend-1")
    assert route.calls.last.request.headers["X-Player-Secret"] == "sec_2"
    assert sent_json(route) == {
        "amount": 10,
        "reason": None,
        "sourceRefId": None,
        "idempotencyKey": "spend-1",
    }


def test_inventory(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SDK}/p1/inventory").mock(return_value=ok(INVENTORY_DATA))
    inventory = sdk.inventory.get("p1")
    assert_read(route)
    assert inventory.items == [
        ItemHolding(key="sword", quantity=1, parameters={"level": 2, "color": "red"}),
        ItemHolding(key="sessions", quantity=3, parameters={}, system=True),
    ]


def test_consume(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SDK}/p1/inventory/potion%2Fbig/consume").mock(
        return_value=ok({**ITEMS_ADJUSTED, "delta": -1})
    )
    result = sdk.inventory.consume("p1", "potion/big", 1, reason="drank", idempotency_key="use-1")
    assert route.calls.last.request.headers["X-Player-Secret"] == "sec_1"
    assert_body_key(route, "use-1")
    # No "parameters" from a client: the body is the spend body, which has none.
    assert sent_json(route) == {
        "quantity": 1,
        "reason": "drank",
        "sourceRefId": None,
        "idempotencyKey": "use-1",
    }
    assert result == ItemAdjustResponse(
        key="sword", quantity=2, delta=-1, parameters={"level": 2}, entry_id="led_2"
    )


# --- SDK: grants --------------------------------------------------------------------------------------


def test_pending_grants(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SDK}/p1/pending-grants").mock(
        return_value=ok({"grants": [GRANT_DATA, {**GRANT_DATA, "grantId": "g2", "newField": True}]})
    )
    grants = sdk.grants.pending("p1").grants
    assert_read(route)
    assert [g.grant_id for g in grants] == [GRANT_ID, "g2"]
    grant = grants[0]
    assert (grant.kind, grant.status, grant.source_kind) == (GrantKind.REWARD, GrantStatus.PENDING, "api")
    assert grant.entries == ENTRIES
    assert grant.metadata == {"season": 3}
    assert grant.created_at == datetime(2026, 3, 2, 12, tzinfo=UTC)
    assert grant.expires_at == datetime(2026, 3, 9, 12, tzinfo=UTC)
    assert (grant.claimed_at, grant.acked_by) == (None, None)


def test_claim_grant(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SDK}/p1/grants/{GRANT_ID}/claim").mock(
        return_value=ok({"grant": {**CLAIMED_DATA, "ackedBy": "client"}})
    )
    grant = sdk.grants.claim("p1", GRANT_ID).grant
    request = route.calls.last.request
    assert request.headers["X-Player-Secret"] == "sec_1"
    assert len(bytes.fromhex(request.headers["Idempotency-Key"])) == 16  # header only: no body
    assert request.content == b""
    assert "Content-Type" not in request.headers
    assert (grant.status, grant.acked_by) == (GrantStatus.CLAIMED, AckedBy.CLIENT)
    assert grant.claimed_at == datetime(2026, 3, 2, 12, 5, tzinfo=UTC)

    sdk.grants.claim("p1", GRANT_ID, idempotency_key="claim-1", player_secret="sec_2")
    assert route.calls.last.request.headers["Idempotency-Key"] == "claim-1"
    assert route.calls.last.request.headers["X-Player-Secret"] == "sec_2"


@pytest.mark.parametrize(
    "call",
    [
        lambda c: c.wallet.get("p1"),
        lambda c: c.wallet.debit("p1", "coins", 1),
        lambda c: c.inventory.get("p1"),
        lambda c: c.inventory.consume("p1", "sword", 1),
        lambda c: c.grants.pending("p1"),
        lambda c: c.grants.claim("p1", "g1"),
    ],
)
def test_player_routes_need_a_secret(respx_mock: respx.MockRouter, call: Callable[[SdkClient], Any]) -> None:
    with SdkClient("ck_test", base_url=BASE) as client, pytest.raises(ValueError, match="player's secret"):
        call(client)
    assert not respx_mock.calls


def test_empty_path_parameter_refused(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    with pytest.raises(ValueError, match="grantId"):
        sdk.grants.claim("p1", "")
    assert not respx_mock.calls


# --- Server: grants -----------------------------------------------------------------------------------


def test_create_grant_request_and_response(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SRV}/p1/grants").mock(return_value=ok({"grant": GRANT_DATA}, 201))
    result = server.grants.create(
        "p1",
        ENTRIES,
        kind=GrantKind.REWARD,
        expires_at=datetime(2026, 3, 9, 12, tzinfo=UTC),
        source_kind=GrantSourceKind.ADMIN,
        source_ref_id="season-3",
        metadata={"season": 3},
        idempotency_key="season-reward:p1:3",
    )
    request = route.calls.last.request
    assert request.headers["Authorization"] == "Bearer sk_test"
    assert "X-Player-Secret" not in request.headers
    assert_body_key(route, "season-reward:p1:3")
    assert sent_json(route) == {
        "idempotencyKey": "season-reward:p1:3",
        "entries": [
            {"type": "currency", "key": "coins", "amount": 50},  # no "parameters": null on a currency
            {"type": "item", "key": "sword", "amount": 1, "parameters": {"level": 2}},
        ],
        "kind": "reward",
        "expiresAt": "2026-03-09T12:00:00.000Z",
        "sourceKind": "admin",
        "sourceRefId": "season-3",
        "metadata": {"season": 3},
    }
    assert result.grant.grant_id == GRANT_ID
    assert result.grant.entries == ENTRIES


def test_create_grant_defaults_and_generated_key(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SRV}/p1/grants").mock(return_value=ok({"grant": GRANT_DATA}, 201))
    server.grants.create("p1", tuple(ENTRIES[:1]))  # any sequence
    first = assert_body_key(route)
    assert sent_json(route) == {
        "idempotencyKey": first,
        "entries": [{"type": "currency", "key": "coins", "amount": 50}],
        "kind": "reward",
        "expiresAt": None,
        "sourceKind": "api",
        "sourceRefId": None,
        "metadata": None,
    }
    server.grants.create("p1", ENTRIES[:1])
    assert assert_body_key(route) != first  # a fresh key per call, not per client


def test_create_grant_retries_reuse_the_key_and_body(
    server: ServerClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    route = respx_mock.post(f"{SRV}/p1/grants").mock(
        side_effect=[
            refusal(503, "internal_error"),
            httpx.ConnectError("refused"),
            ok({"grant": GRANT_DATA}),  # the replay of an attempt that did apply answers 200
        ]
    )
    assert server.grants.create("p1", ENTRIES).grant.grant_id == GRANT_ID
    assert route.call_count == 3
    assert len({call.request.content for call in route.calls}) == 1
    keys = {call.request.headers["Idempotency-Key"] for call in route.calls}
    assert keys == {sent_json(route, 0)["idempotencyKey"]}
    assert sleeps == [0.25, 0.5]


def test_create_grant_empty_key_refused(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    with pytest.raises(ValueError, match="idempotency_key"):
        server.grants.create("p1", ENTRIES, idempotency_key="")
    assert not respx_mock.calls


def test_ack_grant(server: ServerClient, respx_mock: respx.MockRouter, sleeps: Sleeps) -> None:
    route = respx_mock.post(f"{SRV}/p1/grants/{GRANT_ID}/ack").mock(
        side_effect=[refusal(502, "internal_error"), ok({"grant": CLAIMED_DATA})]
    )
    grant = server.grants.ack("p1", GRANT_ID, idempotency_key="ack-1").grant
    assert [call.request.headers["Idempotency-Key"] for call in route.calls] == ["ack-1", "ack-1"]
    assert route.calls.last.request.content == b""
    assert "X-Player-Secret" not in route.calls.last.request.headers
    assert (grant.status, grant.acked_by) == (GrantStatus.CLAIMED, AckedBy.SERVER_API)

    route.side_effect = None
    route.return_value = ok({"grant": CLAIMED_DATA})
    server.grants.ack("p1", GRANT_ID)
    assert len(bytes.fromhex(sent_key(route))) == 16  # required on server writes: always sent


# --- Server: inventory and wallet ---------------------------------------------------------------------


def test_grant_item(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SRV}/p1/inventory/sword/grant").mock(return_value=ok(ITEMS_ADJUSTED))
    result = server.inventory.grant(
        "p1", "sword", 1, reason="quest", source_ref_id="quest-9", parameters={"level": 2}
    )
    key = assert_body_key(route)
    assert sent_json(route) == {
        "quantity": 1,
        "reason": "quest",
        "sourceRefId": "quest-9",
        "idempotencyKey": key,
        "parameters": {"level": 2},
    }
    assert result.parameters == {"level": 2}
    assert result.entry_id == "led_2"


def test_revoke_item(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SRV}/p1/inventory/sword/revoke").mock(
        return_value=ok({**ITEMS_ADJUSTED, "quantity": 0, "delta": -2})
    )
    result = server.inventory.revoke("p1", "sword", 2, reason="refund", idempotency_key="rv-1")
    assert_body_key(route, "rv-1")
    assert sent_json(route) == {
        "quantity": 2,
        "reason": "refund",
        "sourceRefId": None,
        "idempotencyKey": "rv-1",
    }
    assert (result.quantity, result.delta) == (0, -2)


@pytest.mark.parametrize(("action", "delta"), [("credit", 10), ("debit", -10)])
def test_wallet_credit_and_debit(
    server: ServerClient, respx_mock: respx.MockRouter, action: str, delta: int
) -> None:
    route = respx_mock.post(f"{SRV}/p1/wallet/coins/{action}").mock(
        return_value=ok({**WALLET_ADJUSTED, "delta": delta})
    )
    method = server.wallet.credit if action == "credit" else server.wallet.debit
    result = method("p1", "coins", 10, reason="season", source_ref_id="s-3", idempotency_key=f"{action}-1")
    assert route.calls.last.request.method == "POST"
    assert_body_key(route, f"{action}-1")
    assert sent_json(route) == {
        "amount": 10,
        "reason": "season",
        "sourceRefId": "s-3",
        "idempotencyKey": f"{action}-1",
    }
    assert result == WalletAdjustResponse(key="coins", balance=40, delta=delta, entry_id="led_1")


# --- Errors -------------------------------------------------------------------------------------------

ERROR_CASES = [
    # (client, method, url, call, status, code, class, status class)
    ("sdk", "POST", f"{SDK}/p1/wallet/gold/debit", lambda c: c.wallet.debit("p1", "gold", 1), 404,
     "resource_not_found", ResourceNotFoundError, NotFoundError),
    ("sdk", "POST", f"{SDK}/p1/grants/g1/claim", lambda c: c.grants.claim("p1", "g1"), 404,
     "grant_not_found", GrantNotFoundError, NotFoundError),
    ("sdk", "POST", f"{SDK}/p1/wallet/coins/debit", lambda c: c.wallet.debit("p1", "coins", 1), 409,
     "insufficient_balance", InsufficientBalanceError, ConflictError),
    ("sdk", "POST", f"{SDK}/p1/inventory/sword/consume", lambda c: c.inventory.consume("p1", "sword", 9), 409,
     "insufficient_quantity", InsufficientQuantityError, ConflictError),
    ("sdk", "POST", f"{SDK}/p1/wallet/coins/debit", lambda c: c.wallet.debit("p1", "coins", 1), 409,
     "studio_managed_economy", StudioManagedEconomyError, ConflictError),
    ("sdk", "POST", f"{SDK}/p1/grants/g1/claim", lambda c: c.grants.claim("p1", "g1"), 409,
     "grant_already_claimed", GrantAlreadyClaimedError, ConflictError),
    ("sdk", "POST", f"{SDK}/p1/grants/g1/claim", lambda c: c.grants.claim("p1", "g1"), 409,
     "grant_expired", GrantExpiredError, ConflictError),
    ("server", "POST", f"{SRV}/p1/inventory/sessions/grant",
     lambda c: c.inventory.grant("p1", "sessions", 1), 409,
     "system_resource_locked", SystemResourceLockedError, ConflictError),
    ("server", "POST", f"{SRV}/p1/grants/g1/ack", lambda c: c.grants.ack("p1", "g1"), 409,
     "grant_expired", GrantExpiredError, ConflictError),
    ("server", "POST", f"{SRV}/p1/wallet/coins/debit", lambda c: c.wallet.debit("p1", "coins", 5), 409,
     "insufficient_balance", InsufficientBalanceError, ConflictError),
    ("server", "POST", f"{SRV}/p1/inventory/sword/revoke",
     lambda c: c.inventory.revoke("p1", "sword", 5), 409,
     "insufficient_quantity", InsufficientQuantityError, ConflictError),
]  # fmt: skip


@pytest.mark.parametrize(
    ("which", "method", "url", "call", "status", "code", "cls", "family"),
    ERROR_CASES,
    ids=[f"{case[0]}-{case[5]}" for case in ERROR_CASES],
)
def test_error_codes_raise_their_class(
    sdk: SdkClient,
    server: ServerClient,
    respx_mock: respx.MockRouter,
    sleeps: Sleeps,
    which: str,
    method: str,
    url: str,
    call: Callable[[Any], Any],
    status: int,
    code: str,
    cls: type[LivecoreAPIError],
    family: type[LivecoreAPIError],
) -> None:
    route = respx_mock.request(method, url).mock(return_value=refusal(status, code))
    with pytest.raises(cls) as info:
        call(sdk if which == "sdk" else server)
    error = info.value
    assert type(error) is cls
    assert isinstance(error, family)
    assert (error.status, error.code, error.message) == (status, code, f"{code} message")
    assert route.call_count == 1  # a refusal is final: never retried
    assert sleeps == []


# --- Sync and async are one definition ----------------------------------------------------------------

SDK_METHODS = [
    "wallet.get",
    "wallet.debit",
    "inventory.get",
    "inventory.consume",
    "grants.pending",
    "grants.claim",
]
SERVER_METHODS = [
    "grants.create",
    "grants.ack",
    "inventory.grant",
    "inventory.revoke",
    "wallet.credit",
    "wallet.debit",
]


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


# --- Async twins --------------------------------------------------------------------------------------


async def test_async_wallet_and_debit(async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter) -> None:
    wallet = respx_mock.get(f"{SDK}/p1/wallet").mock(return_value=ok(WALLET_DATA))
    debit = respx_mock.post(f"{SDK}/p1/wallet/coins/debit").mock(return_value=ok(WALLET_ADJUSTED))
    assert (await async_sdk.wallet.get("p1")).currencies[0] == CurrencyBalance(key="coins", balance=40)
    assert_read(wallet)
    result = await async_sdk.wallet.debit("p1", "coins", 10, reason="shop", player_secret="sec_2")
    key = assert_body_key(debit)
    assert debit.calls.last.request.headers["X-Player-Secret"] == "sec_2"
    assert sent_json(debit) == {"amount": 10, "reason": "shop", "sourceRefId": None, "idempotencyKey": key}
    assert result.delta == -10


async def test_async_inventory_and_consume(async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter) -> None:
    inventory = respx_mock.get(f"{SDK}/p1/inventory").mock(return_value=ok(INVENTORY_DATA))
    consume = respx_mock.post(f"{SDK}/p1/inventory/sword/consume").mock(return_value=ok(ITEMS_ADJUSTED))
    assert (await async_sdk.inventory.get("p1")).items[1].system
    assert_read(inventory)
    await async_sdk.inventory.consume("p1", "sword", 1, idempotency_key="use-2")
    assert_body_key(consume, "use-2")


async def test_async_pending_and_claim(async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter) -> None:
    pending = respx_mock.get(f"{SDK}/p1/pending-grants").mock(return_value=ok({"grants": [GRANT_DATA]}))
    claim = respx_mock.post(f"{SDK}/p1/grants/{GRANT_ID}/claim").mock(
        return_value=ok({"grant": CLAIMED_DATA})
    )
    [grant] = (await async_sdk.grants.pending("p1")).grants
    assert_read(pending)
    claimed = await async_sdk.grants.claim("p1", grant.grant_id, idempotency_key="c-1")
    assert claim.calls.last.request.headers["Idempotency-Key"] == "c-1"
    assert claimed.grant.status is GrantStatus.CLAIMED


async def test_async_create_grant_retries_with_one_key(
    async_server: AsyncServerClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    route = respx_mock.post(f"{SRV}/p1/grants").mock(
        side_effect=[httpx.ReadTimeout("slow"), ok({"grant": GRANT_DATA}, 201)]
    )
    result = await async_server.grants.create("p1", ENTRIES, idempotency_key="season-reward:p1:3")
    assert [sent_key(route, i) for i in range(2)] == ["season-reward:p1:3"] * 2
    assert [sent_json(route, i)["idempotencyKey"] for i in range(2)] == ["season-reward:p1:3"] * 2
    assert result.grant.entries == ENTRIES
    assert sleeps == [0.25]


async def test_async_ack_and_adjust(async_server: AsyncServerClient, respx_mock: respx.MockRouter) -> None:
    ack = respx_mock.post(f"{SRV}/p1/grants/{GRANT_ID}/ack").mock(return_value=ok({"grant": CLAIMED_DATA}))
    grant = respx_mock.post(f"{SRV}/p1/inventory/sword/grant").mock(return_value=ok(ITEMS_ADJUSTED))
    revoke = respx_mock.post(f"{SRV}/p1/inventory/sword/revoke").mock(return_value=ok(ITEMS_ADJUSTED))
    credit = respx_mock.post(f"{SRV}/p1/wallet/coins/credit").mock(return_value=ok(WALLET_ADJUSTED))
    debit = respx_mock.post(f"{SRV}/p1/wallet/coins/debit").mock(return_value=ok(WALLET_ADJUSTED))

    assert (await async_server.grants.ack("p1", GRANT_ID)).grant.acked_by is AckedBy.SERVER_API
    assert ack.calls.last.request.content == b""
    await async_server.inventory.grant("p1", "sword", 1, parameters={"level": 3})
    assert sent_json(grant)["parameters"] == {"level": 3}
    assert_body_key(grant)
    await async_server.inventory.revoke("p1", "sword", 1)
    assert_body_key(revoke)
    await async_server.wallet.credit("p1", "coins", 10, idempotency_key="cr-1")
    assert_body_key(credit, "cr-1")
    await async_server.wallet.debit("p1", "coins", 10)
    assert sent_json(debit)["amount"] == 10


@pytest.mark.parametrize(
    ("code", "cls"),
    [
        ("grant_already_claimed", GrantAlreadyClaimedError),
        ("grant_expired", GrantExpiredError),
        ("grant_not_found", GrantNotFoundError),
    ],
)
async def test_async_claim_errors(
    async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter, code: str, cls: type[LivecoreAPIError]
) -> None:
    status = 404 if code == "grant_not_found" else 409
    respx_mock.post(f"{SDK}/p1/grants/g1/claim").mock(return_value=refusal(status, code))
    with pytest.raises(cls) as info:
        await async_sdk.grants.claim("p1", "g1")
    assert (info.value.status, info.value.code) == (status, code)


async def test_async_server_errors(async_server: AsyncServerClient, respx_mock: respx.MockRouter) -> None:
    respx_mock.post(f"{SRV}/p1/wallet/sessions/credit").mock(
        return_value=refusal(409, "system_resource_locked")
    )
    respx_mock.post(f"{SRV}/p1/grants").mock(return_value=refusal(404, "resource_not_found"))
    with pytest.raises(SystemResourceLockedError):
        await async_server.wallet.credit("p1", "sessions", 1)
    with pytest.raises(ResourceNotFoundError):
        await async_server.grants.create("p1", [RewardEntry(type=ResourceType.ITEM, key="nope", amount=1)])
