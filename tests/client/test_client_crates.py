"""Crate methods over a mocked HTTP layer: ``open_crate`` (request shape, both grants parsed, one error class
per code), ``create_grant(kind="crate")`` with crate entries, and sync and async from one definition."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import respx

from livecore.api.convert import response_converter
from livecore.crates.rules import CrateEntry
from livecore.grants.api import RewardEntry
from livecore.grants.rules import AckedBy, EntryType, GrantKind, GrantStatus
from livecore_client import (
    AsyncSdkClient,
    ConflictError,
    CrateMustBeOpenedError,
    GrantAlreadyClaimedError,
    GrantExpiredError,
    GrantNotFoundError,
    InvalidRequestError,
    LivecoreAPIError,
    NotACrateError,
    NotFoundError,
    PlayerBannedError,
    ResourceNotFoundError,
    SdkClient,
    ServerClient,
)
from livecore_client.webhooks import CrateOpened
from tests.client.support import BASE, sent_json

SDK = f"{BASE}/sdk/v1/players"
SRV = f"{BASE}/server/v1/players"
CRATE_ID = "0b6c5c8e-6a7e-4a3e-9d59-000000000001"
CONTENTS_ID = "0b6c5c8e-6a7e-4a3e-9d59-000000000002"


def grant(grant_id: str, kind: str, entries: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "grantId": grant_id,
        "externalPlayerId": "p1",
        "kind": kind,
        "status": "claimed",
        "entries": entries,
        "sourceKind": "api",
        "sourceRefId": None,
        "metadata": {},
        "createdAt": "2026-03-02T12:00:00.000Z",
        "claimedAt": "2026-03-02T12:05:00.000Z",
        "expiresAt": None,
        "ackedBy": "client",
        **extra,
    }


CRATE = grant(CRATE_ID, "crate", [{"type": "crate", "key": "chest", "amount": 2}])
CONTENTS = grant(
    CONTENTS_ID,
    "reward",
    [{"type": "currency", "key": "coins", "amount": 100}, {"type": "item", "key": "sword", "amount": 2}],
    sourceKind="crate",
    sourceRefId=CRATE_ID,
)
OPENED = {"data": {"crate": CRATE, "contents": CONTENTS}}
OPEN_URL = f"{SDK}/p1/crates/{CRATE_ID}/open"


def refusal(status: int, code: str) -> httpx.Response:
    return httpx.Response(status, json={"error": {"code": code, "message": f"{code} message"}})


def test_open_crate_request_and_both_grants(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SDK}/p1/crates/{CRATE_ID}/open").mock(
        return_value=httpx.Response(200, json=OPENED)
    )
    opened = sdk.grants.open_crate("p1", CRATE_ID, idempotency_key="open-1")
    request = route.calls.last.request
    assert request.headers["X-Player-Secret"] == "sec_1"
    assert request.headers["Idempotency-Key"] == "open-1"
    assert request.content == b""
    assert (opened.crate.kind, opened.crate.status, opened.crate.acked_by) == (
        GrantKind("crate"),
        GrantStatus.CLAIMED,
        AckedBy.CLIENT,
    )
    assert [(e.type, e.key, e.amount) for e in opened.crate.entries] == [(EntryType("crate"), "chest", 2)]
    assert (opened.contents.source_kind, opened.contents.source_ref_id) == ("crate", CRATE_ID)
    assert [(e.type, e.key, e.amount) for e in opened.contents.entries] == [
        (EntryType.CURRENCY, "coins", 100),
        (EntryType.ITEM, "sword", 2),
    ]


def test_open_crate_without_a_key_sends_one_made_per_call(
    sdk: SdkClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.post(f"{SDK}/p1/crates/{CRATE_ID}/open").mock(
        return_value=httpx.Response(200, json=OPENED)
    )
    sdk.grants.open_crate("p1", CRATE_ID, player_secret="sec_2")
    assert len(bytes.fromhex(route.calls.last.request.headers["Idempotency-Key"])) == 16
    assert route.calls.last.request.headers["X-Player-Secret"] == "sec_2"


def test_open_crate_needs_a_secret(respx_mock: respx.MockRouter) -> None:
    with SdkClient("ck_test", base_url=BASE) as client, pytest.raises(ValueError, match="player's secret"):
        client.grants.open_crate("p1", CRATE_ID)
    assert not respx_mock.calls


def test_create_grant_sends_a_crate(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SRV}/p1/grants").mock(
        return_value=httpx.Response(201, json={"data": {"grant": {**CRATE, "status": "pending"}}})
    )
    result = server.grants.create(
        "p1", [RewardEntry(type="crate", key="chest", amount=2)], kind="crate", idempotency_key="weekly-1"
    )
    body = sent_json(route)
    assert body["kind"] == "crate"
    assert body["entries"] == [{"type": "crate", "key": "chest", "amount": 2}]
    assert result.grant.kind is GrantKind("crate") and result.grant.status is GrantStatus.PENDING


CASES = [
    (404, "grant_not_found", GrantNotFoundError, NotFoundError),
    (409, "not_a_crate", NotACrateError, ConflictError),
    (409, "grant_already_claimed", GrantAlreadyClaimedError, ConflictError),
    (409, "grant_expired", GrantExpiredError, ConflictError),
    (404, "resource_not_found", ResourceNotFoundError, NotFoundError),
    (403, "player_banned", PlayerBannedError, LivecoreAPIError),
]


@pytest.mark.parametrize(("status", "code", "cls", "family"), CASES, ids=[c[1] for c in CASES])
def test_open_crate_refusals_raise_their_class(
    sdk: SdkClient,
    respx_mock: respx.MockRouter,
    status: int,
    code: str,
    cls: type[LivecoreAPIError],
    family: type[LivecoreAPIError],
) -> None:
    route = respx_mock.post(f"{SDK}/p1/crates/g1/open").mock(return_value=refusal(status, code))
    with pytest.raises(cls) as info:
        sdk.grants.open_crate("p1", "g1")
    assert type(info.value) is cls and isinstance(info.value, family)
    assert route.call_count == 1


@pytest.mark.parametrize(
    ("call", "url"),
    [
        (lambda c: c.grants.claim("p1", "g1"), f"{SDK}/p1/grants/g1/claim"),
    ],
)
def test_claiming_a_crate_raises_crate_must_be_opened(
    sdk: SdkClient, respx_mock: respx.MockRouter, call: Callable[[SdkClient], Any], url: str
) -> None:
    respx_mock.post(url).mock(return_value=refusal(409, "crate_must_be_opened"))
    with pytest.raises(CrateMustBeOpenedError):
        call(sdk)


def test_acking_a_crate_raises_crate_must_be_opened(
    server: ServerClient, respx_mock: respx.MockRouter
) -> None:
    respx_mock.post(f"{SRV}/p1/grants/g1/ack").mock(return_value=refusal(409, "crate_must_be_opened"))
    with pytest.raises(CrateMustBeOpenedError):
        server.grants.ack("p1", "g1")


def test_a_mixed_grant_raises_invalid_request(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    respx_mock.post(f"{SRV}/p1/grants").mock(return_value=refusal(400, "invalid_request"))
    with pytest.raises(InvalidRequestError):
        server.grants.create("p1", [RewardEntry(type="crate", key="chest", amount=1)])


async def test_async_open_crate(async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter) -> None:
    respx_mock.post(OPEN_URL).mock(return_value=httpx.Response(200, json=OPENED))
    opened = await async_sdk.grants.open_crate("p1", CRATE_ID)
    assert opened.contents.grant_id == CONTENTS_ID
    respx_mock.post(f"{SDK}/p1/crates/g2/open").mock(return_value=refusal(409, "not_a_crate"))
    with pytest.raises(NotACrateError):
        await async_sdk.grants.open_crate("p1", "g2")


def test_sync_and_async_open_crate_share_signature_and_docs() -> None:
    sync, async_ = SdkClient.grants.open_crate, AsyncSdkClient.grants.open_crate
    assert inspect.signature(sync) == inspect.signature(async_)
    assert sync.__doc__ == async_.__doc__ and "NotACrateError" in (sync.__doc__ or "")


def test_a_crate_opened_webhook_reads_into_typed_entries() -> None:
    data = {
        "grantId": CRATE_ID,
        "contentsGrantId": CONTENTS_ID,
        "playerId": "plr_1",
        "externalPlayerId": "p1",
        "crates": [{"key": "chest", "amount": 2, "type": "crate"}],
        "contents": CONTENTS["entries"],
        "openedAt": "2026-03-02T12:05:00.000Z",
    }
    payload = response_converter.structure(data, CrateOpened)
    assert payload.crates == (CrateEntry("chest", 2),)
    assert [e.key for e in payload.contents] == ["coins", "sword"]
