"""Player tools, purchases, spend and migration over a mocked HTTP layer: request shape
(method, path, query, camelCase body, the idempotency key every write stamps in its header, no player
secret on server routes), response parsing, one error class per code (``invalid_merge`` 422,
``unknown_currency`` 400 and the rest), the purchase-page iterator, and the typed ``player.banned``,
``player.unbanned``, ``player.merged``, ``player.deleted`` and ``purchase.tracked`` webhooks built from
the service's own payload functions and commands."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

import attrs
import httpx
import pytest
import respx

import livecore_client
from livecore.api.route import Idempotency, Route
from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.events import DomainEvent
from livecore.games import Game, GameSettings, Studio
from livecore.hashing import KeyedHasher
from livecore.memory import MemoryStore
from livecore.player_tools import api as player_tools
from livecore.player_tools.api import (
    MIGRATE_INVENTORY,
    MIGRATE_PLAYERS,
    MIGRATE_WALLET,
    PLAYER_BAN,
    PLAYER_DEBUG_CLEAR,
    PLAYER_DEBUG_SET,
    PLAYER_DELETE,
    PLAYER_EXPORT,
    PLAYER_MERGE,
    PLAYER_PROFILE,
    PLAYER_UNBAN,
)
from livecore.player_tools.commands import erasure as erasure_commands
from livecore.player_tools.commands import merge as merge_commands
from livecore.player_tools.commands import moderation
from livecore.player_tools.erasure import ErasureReason
from livecore.player_tools.errors import INVALID_MERGE
from livecore.player_tools.merge import MergeRecord
from livecore.players.commands import register
from livecore.players.rules import Player
from livecore.purchases import api as purchases
from livecore.purchases import commands as purchase_commands
from livecore.purchases.api import (
    PLAYER_SPEND,
    SDK_TRACK_PURCHASE,
    SERVER_PURCHASES,
    SERVER_TRACK_PURCHASE,
    SPEND_PLAYERS,
    SPEND_SUMMARY,
)
from livecore.purchases.errors import UNKNOWN_CURRENCY
from livecore.purchases.rules import PlayerSpend as CorePlayerSpend
from livecore.purchases.rules import Purchase, PurchaseRequest, ValidationStatus
from livecore.rand import SeededRandomSource
from livecore.scope import Actor, Environment, Scope
from livecore.webhooks.envelope import build_envelope
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.signing import signature_header
from livecore_client import (
    AsyncSdkClient,
    AsyncServerClient,
    ConflictError,
    IdempotencyConflictError,
    InvalidMergeError,
    InvalidRequestError,
    LivecoreAPIError,
    NotFoundError,
    PermissionDeniedError,
    PlayerBannedError,
    PlayerNotFoundError,
    SdkClient,
    ServerClient,
    UnknownCurrencyError,
    UnprocessableEntityError,
)
from livecore_client.models import (
    BanPlayerResponse,
    BanState,
    DayRevenue,
    DebugPlayerResponse,
    ErasureReasonView,
    HoldingView,
    MergePlayerResponse,
    MigrateFailure,
    MigrateInventoryRow,
    MigrateOutcome,
    MigratePlayerRow,
    MigrateWalletRow,
    ProductRevenue,
    PurchaseView,
    SpendWindow,
    ValidationStatusView,
)
from livecore_client.webhooks import (
    PAYLOAD_TYPES,
    PlayerBanned,
    PlayerDeleted,
    PlayerMerged,
    PlayerUnbanned,
    PurchaseTracked,
    construct_event,
)
from tests.client.support import BASE, Sleeps, pick, sent_json, sent_key
from tests.installed import SAMPLES

SRV = f"{BASE}/server/v1"
SDK = f"{BASE}/sdk/v1/players"
TS = "2026-03-02T12:00:00.000Z"
WHEN = datetime(2026, 3, 2, 12, tzinfo=UTC)
IDENT = {"name": "Ada", "avatar": "avatar_01", "country": "SE"}

GRANT = {
    "grantId": "0b6c5c8e-6a7e-4a3e-9d59-1f1d2a3b4c5d",
    "externalPlayerId": "p1",
    "kind": "reward",
    "status": "pending",
    "entries": [{"type": "currency", "key": "coins", "amount": 5}],
    "sourceKind": "api",
    "sourceRefId": None,
    "metadata": {},
    "createdAt": TS,
    "claimedAt": None,
    "expiresAt": None,
    "ackedBy": None,
}
PROFILE = {
    "player": {
        "id": "plr_1",
        "externalPlayerId": "p1",
        "firstSeenAt": TS,
        "lastSeenAt": TS,
        "lastContextSnapshot": {"platform": "ios"},
        "displayIdentity": IDENT,
        "banned": False,
        "debug": True,
        "lifecycle": "active",
    },
    "attempts": [],
    "grants": [GRANT],
    "lobbies": [],
    "summary": {
        "attemptCount": 0,
        "attemptsCompleted": 0,
        "attemptsExpired": 0,
        "grantsPending": 1,
        "grantsClaimed": 2,
        "lobbiesActive": 0,
    },
}
BANNED = {
    "applied": True,
    "ban": {"externalPlayerId": "p1", "banned": True, "reason": "cheat", "bannedAt": TS},
}
UNBANNED = {
    "applied": False,
    "ban": {"externalPlayerId": "p1", "banned": False, "reason": None, "bannedAt": None},
}
DEBUG = {"applied": True, "externalPlayerId": "p1", "debug": True, "reason": "qa", "flaggedAt": TS}
UNDEBUG = {"applied": True, "externalPlayerId": "p1", "debug": False, "reason": None, "flaggedAt": None}
PLACEHOLDER = "__merged_01956f2a-0000-7000-8000-000000000009__"
MERGED = {
    "status": "merged",
    "fromExternalPlayerId": "p2",
    "toExternalPlayerId": "p1",
    "anonymizedExternalPlayerId": PLACEHOLDER,
    "mergedAt": TS,
}
DELETED = {"status": "deleted", "anonymizedExternalId": "__deleted_01956f2a-0000-7000-8000-00000000000a__"}
PURCHASE = {
    "purchaseId": "pur_1",
    "externalPlayerId": "p1",
    "transactionId": "tx-1",
    "store": "app_store",
    "productId": "coins.100",
    "productType": "consumable",
    "amountMinor": 999,
    "currency": "EUR",
    "normalizedAmountMinor": 1079,
    "fxRate": 1.08,
    "validationStatus": "verified",
    "purchasedAt": TS,
    "trackedAt": TS,
    "metadata": {"campaign": "spring"},
}
PURCHASE_VIEW = PurchaseView(
    purchase_id="pur_1",
    external_player_id="p1",
    transaction_id="tx-1",
    store="app_store",
    product_id="coins.100",
    product_type="consumable",
    amount_minor=999,
    currency="EUR",
    normalized_amount_minor=1079,
    fx_rate=1.08,
    validation_status=ValidationStatusView.VERIFIED,
    purchased_at=WHEN,
    tracked_at=WHEN,
    metadata={"campaign": "spring"},
)
TRACKED = {"purchase": PURCHASE, "lifetimeAmountMinor": 1079, "purchaseCount": 1}
EXPORT = {
    "player": {
        "id": "plr_1",
        "externalPlayerId": "p1",
        "firstSeenAt": TS,
        "lastSeenAt": TS,
        "displayIdentity": IDENT,
        "anonymizedIdentity": {"name": "Sly Gecko 21", "avatar": "avatar_05", "country": None},
        "country": "SE",
        "context": {},
        "registeredAt": TS,
        "banned": False,
        "banReason": None,
        "debug": False,
        "lifecycle": "active",
        "sessions": 3,
        "loginStreak": 1,
        "bestLoginStreak": 2,
        "friendCode": "ABC234",
    },
    "attempts": [],
    "grants": [GRANT],
    "inventory": [{"key": "sword", "amount": 1, "parameters": {"level": 2}}],
    "wallet": [{"key": "coins", "amount": 40}],
    "lobbyMemberships": [],
    "purchases": [PURCHASE],
}
SPEND = {
    "externalPlayerId": "p1",
    "lifetimeAmountMinor": 1079,
    "purchaseCount": 1,
    "firstPurchaseAt": TS,
    "lastPurchaseAt": TS,
    "windows": [
        {"days": 7, "amountMinor": 1079, "purchaseCount": 1},
        {"days": 30, "amountMinor": 1079, "purchaseCount": 1},
    ],
    "debug": False,
}
SPENDERS = {
    "players": [{"externalPlayerId": "p1", "amountMinor": 1079, "purchaseCount": 1, "lastPurchaseAt": TS}],
    "minAmountMinor": 1000,
    "windowDays": 30,
    "limit": 10,
    "offset": 5,
}
SUMMARY = {
    "from": "2026-01-31T12:00:00.000Z",
    "to": TS,
    "grossAmountMinor": 2158,
    "purchaseCount": 2,
    "payingPlayers": 1,
    "arppuMinor": 2158,
    "perProduct": [{"productId": "coins.100", "amountMinor": 2158, "purchaseCount": 2}],
    "perDay": [{"date": "2026-03-02", "amountMinor": 2158, "purchaseCount": 2}],
}
OUTCOME = {
    "applied": 1,
    "replayed": 1,
    "failed": 1,
    "failures": [{"index": 2, "idempotencyKey": "k3", "code": "resource_not_found", "message": "No item"}],
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


def assert_read(route: respx.Route, query: dict[str, str] | None = None) -> None:
    """A server GET: the server key, no player secret, no idempotency key, no body."""
    request = route.calls.last.request
    assert request.method == "GET"
    assert request.headers["Authorization"] == "Bearer sk_test"
    assert "X-Player-Secret" not in request.headers
    assert "Idempotency-Key" not in request.headers
    assert request.content == b""
    assert params(route) == (query or {})


def assert_write(route: respx.Route, method: str = "POST", key: str | None = None, body: Any = None) -> str:
    """A server write: the server key, no secret, an idempotency key in the header (16 random bytes unless
    given; the contract (docs/reference/player-tools.md) makes it mandatory), and ``body`` (``None``: no body
    at all)."""
    request = route.calls.last.request
    assert request.method == method
    assert request.headers["Authorization"] == "Bearer sk_test"
    assert "X-Player-Secret" not in request.headers
    sent = sent_key(route)
    if key is None:
        assert len(bytes.fromhex(sent)) == 16
    else:
        assert sent == key
    if body is None:
        assert request.content == b""
        assert "Content-Type" not in request.headers
    else:
        assert request.headers["Content-Type"] == "application/json"
        assert sent_json(route) == body
    return sent


# --- Profile, ban, debug ------------------------------------------------------------------------------


def test_player_profile(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SRV}/players/p1").mock(return_value=ok({**PROFILE, "addedLater": True}))
    profile = server.players.profile("p1")
    assert_read(route, {"limit": "50"})  # the model's default, sent
    assert (profile.player.id, profile.player.external_player_id, profile.player.lifecycle) == (
        "plr_1",
        "p1",
        "active",
    )
    assert (profile.player.banned, profile.player.debug) == (False, True)
    assert profile.player.first_seen_at == WHEN
    assert profile.player.last_context_snapshot == {"platform": "ios"}
    assert profile.player.display_identity.name == "Ada"
    [grant] = profile.grants
    assert (grant.grant_id, grant.entries[0].amount) == (GRANT["grantId"], 5)
    assert (
        profile.summary.grants_pending,
        profile.summary.grants_claimed,
        profile.summary.attempt_count,
    ) == (
        1,
        2,
        0,
    )
    assert (profile.attempts, profile.lobbies) == ([], [])

    server.players.profile("p1", limit=200)
    assert_read(route, {"limit": "200"})


def test_player_profile_escapes_the_id(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SRV}/players/a%2Fb").mock(return_value=ok(PROFILE))
    server.players.profile("a/b")
    assert route.called
    with pytest.raises(ValueError, match="externalId"):
        server.players.profile("")


def test_ban_player(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SRV}/players/p1/ban").mock(return_value=ok(BANNED))
    result = server.players.ban("p1", reason="cheat")
    # The ban body has no idempotencyKey field: the key rides in the header only.
    assert_write(route, body={"reason": "cheat"})
    assert result == BanPlayerResponse(
        applied=True, ban=BanState(external_player_id="p1", banned=True, reason="cheat", banned_at=WHEN)
    )
    server.players.ban("p1", reason="cheat", idempotency_key="ban-p1-ticket-7")
    assert_write(route, key="ban-p1-ticket-7", body={"reason": "cheat"})


def test_ban_retry_resends_the_same_key(
    server: ServerClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    route = respx_mock.post(f"{SRV}/players/p1/ban").mock(side_effect=[httpx.Response(502), ok(BANNED)])
    assert server.players.ban("p1", reason="cheat").applied is True
    assert route.call_count == 2
    assert sleeps == [0.25]
    assert sent_key(route, 0) == sent_key(route, 1)
    assert route.calls[0].request.content == route.calls[1].request.content


def test_unban_player(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SRV}/players/p1/unban").mock(return_value=ok(UNBANNED))
    result = server.players.unban("p1")
    assert_write(route)
    assert result.applied is False
    assert result.ban == BanState(external_player_id="p1", banned=False, reason=None, banned_at=None)
    server.players.unban("p1", idempotency_key="unban-1")
    assert_write(route, key="unban-1")


def test_flag_and_unflag_debug(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    flag = respx_mock.post(f"{SRV}/players/p1/debug").mock(return_value=ok(DEBUG))
    unflag = respx_mock.delete(f"{SRV}/players/p1/debug").mock(return_value=ok(UNDEBUG))

    result = server.players.flag_debug("p1", reason="qa")
    assert_write(flag, body={"reason": "qa"})
    assert result == DebugPlayerResponse(
        applied=True, external_player_id="p1", debug=True, reason="qa", flagged_at=WHEN
    )
    server.players.flag_debug("p1")
    assert_write(flag)  # no reason: no body (the body is optional)

    cleared = server.players.unflag_debug("p1", idempotency_key="undebug-1")
    assert_write(unflag, method="DELETE", key="undebug-1")
    assert (cleared.debug, cleared.reason, cleared.flagged_at) == (False, None, None)


# --- Merge, delete, export ----------------------------------------------------------------------------


def test_merge_players(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SRV}/players/p2/merge-into/p1").mock(return_value=ok(MERGED))
    result = server.players.merge("p2", "p1")
    assert_write(route)
    assert result == MergePlayerResponse(
        status="merged",
        from_external_player_id="p2",
        to_external_player_id="p1",
        anonymized_external_player_id=PLACEHOLDER,
        merged_at=WHEN,
    )
    route.return_value = ok({**MERGED, "status": "no_op_already_merged"})
    assert server.players.merge("p2", "p1", idempotency_key="merge-1").status == "no_op_already_merged"
    assert_write(route, key="merge-1")


def test_merge_players_escapes_both_ids(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SRV}/players/a%2Fb/merge-into/c%20d").mock(return_value=ok(MERGED))
    server.players.merge("a/b", "c d")
    assert route.called
    with pytest.raises(ValueError, match="toExternalId"):
        server.players.merge("p2", "")
    assert route.call_count == 1


def test_delete_player(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SRV}/players/p1/delete").mock(return_value=ok(DELETED))
    result = server.players.delete("p1")
    assert_write(route)  # no reason: the service's default (gdpr_erasure)
    assert (result.status, result.anonymized_external_id) == ("deleted", DELETED["anonymizedExternalId"])

    server.players.delete("p1", reason="test")
    assert_write(route, body={"reason": "test"})
    server.players.delete("p1", reason=ErasureReasonView.STUDIO_REQUEST, idempotency_key="erase-1")
    assert_write(route, key="erase-1", body={"reason": "studio_request"})

    route.return_value = ok({"status": "no_op_not_found", "anonymizedExternalId": None})
    assert server.players.delete("p1").anonymized_external_id is None


def test_delete_player_refuses_an_unknown_reason_locally(
    server: ServerClient, respx_mock: respx.MockRouter
) -> None:
    with pytest.raises(ValueError, match="ErasureReasonView"):
        server.players.delete("p1", reason="because")
    assert not respx_mock.calls


def test_export_player(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SRV}/players/p1/export").mock(return_value=ok(EXPORT))
    bundle = server.players.export("p1")
    assert_read(route)
    player = bundle.player
    assert (player.external_player_id, player.friend_code, player.sessions, player.best_login_streak) == (
        "p1",
        "ABC234",
        3,
        2,
    )
    assert player.anonymized_identity.name == "Sly Gecko 21"
    assert bundle.inventory == [HoldingView(key="sword", amount=1, parameters={"level": 2})]
    assert bundle.wallet == [HoldingView(key="coins", amount=40)]
    assert bundle.purchases == [PURCHASE_VIEW]
    assert [g.grant_id for g in bundle.grants] == [GRANT["grantId"]]


# --- Migration ----------------------------------------------------------------------------------------


def test_migrate_players_with_rows_and_mappings(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SRV}/migrate/players").mock(return_value=ok(OUTCOME))
    outcome = server.migration.players(
        [
            MigratePlayerRow(
                external_player_id="p1",
                idempotency_key="k1",
                name="Ada",
                country="SE",
                first_seen_at=datetime(2020, 5, 1, 8, 30, tzinfo=UTC),
            ),
            {"external_player_id": "p2", "idempotency_key": "k2", "avatar": "avatar_02"},
        ]
    )
    assert_write(
        route,
        body={
            "rows": [
                {
                    "externalPlayerId": "p1",
                    "idempotencyKey": "k1",
                    "name": "Ada",
                    "avatar": None,
                    "country": "SE",
                    "firstSeenAt": "2020-05-01T08:30:00.000Z",
                },
                {
                    "externalPlayerId": "p2",
                    "idempotencyKey": "k2",
                    "name": None,
                    "avatar": "avatar_02",
                    "country": None,
                    "firstSeenAt": None,
                },
            ],
            "emitWebhooks": False,
        },
    )
    # The call's own key is the header's; each row keeps its own in the body.
    assert sent_key(route) not in ("k1", "k2")
    assert outcome == MigrateOutcome(
        applied=1,
        replayed=1,
        failed=1,
        failures=[
            MigrateFailure(index=2, idempotency_key="k3", code="resource_not_found", message="No item")
        ],
    )

    server.migration.players([], emit_webhooks=True, idempotency_key="batch-1")
    assert_write(route, key="batch-1", body={"rows": [], "emitWebhooks": True})


def test_migrate_wallet_and_inventory(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    wallet = respx_mock.post(f"{SRV}/migrate/wallet").mock(return_value=ok(OUTCOME))
    inventory = respx_mock.post(f"{SRV}/migrate/inventory").mock(return_value=ok(OUTCOME))

    server.migration.wallet(
        [
            MigrateWalletRow(external_player_id="p1", idempotency_key="w1", economy_key="coins", amount=40),
            {"external_player_id": "p2", "idempotency_key": "w2", "economy_key": "gems", "amount": 0},
        ],
        emit_webhooks=True,
    )
    assert_write(
        wallet,
        body={
            "rows": [
                {"externalPlayerId": "p1", "idempotencyKey": "w1", "economyKey": "coins", "amount": 40},
                {"externalPlayerId": "p2", "idempotencyKey": "w2", "economyKey": "gems", "amount": 0},
            ],
            "emitWebhooks": True,
        },
    )
    server.migration.inventory(
        (
            MigrateInventoryRow(
                external_player_id="p1",
                idempotency_key="i1",
                item_key="sword",
                quantity=1,
                parameters={"level": 3},
            ),
            {"external_player_id": "p1", "idempotency_key": "i2", "item_key": "shield", "quantity": 2},
        )
    )
    assert_write(
        inventory,
        body={
            "rows": [
                {"externalPlayerId": "p1", "idempotencyKey": "i1", "itemKey": "sword", "quantity": 1,
                 "parameters": {"level": 3}},
                {"externalPlayerId": "p1", "idempotencyKey": "i2", "itemKey": "shield", "quantity": 2,
                 "parameters": None},
            ],
            "emitWebhooks": False,
        },
    )  # fmt: skip


def test_migrate_mapping_with_an_unknown_name_is_refused_locally(
    server: ServerClient, respx_mock: respx.MockRouter
) -> None:
    with pytest.raises(TypeError, match="externalPlayerId"):
        server.migration.players([{"externalPlayerId": "p1", "idempotencyKey": "k1"}])
    with pytest.raises(TypeError):
        server.migration.wallet([{"external_player_id": "p1", "idempotency_key": "w1"}])  # amount missing
    assert not respx_mock.calls


# --- Purchases ----------------------------------------------------------------------------------------

PURCHASE_BODY = {
    "transactionId": "tx-1",
    "store": "app_store",
    "productId": "coins.100",
    "productType": "consumable",
    "amountMinor": 999,
    "currency": "EUR",
}


def _server_track(c: ServerClient, **kw: Any) -> Any:
    return c.purchases.track(
        "p1",
        transaction_id="tx-1",
        store="app_store",
        product_id="coins.100",
        product_type="consumable",
        amount_minor=999,
        currency="EUR",
        **kw,
    )


def _sdk_track(c: SdkClient, **kw: Any) -> Any:
    return c.purchases.track(
        "p1",
        transaction_id="tx-1",
        store="app_store",
        product_id="coins.100",
        product_type="consumable",
        amount_minor=999,
        currency="EUR",
        **kw,
    )


def test_server_track_purchase(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SRV}/players/p1/purchases").mock(return_value=ok(TRACKED))
    result = _server_track(server)
    assert_write(
        route,
        body={**PURCHASE_BODY, "purchasedAt": None, "metadata": None, "validationStatus": "unverified"},
    )
    assert result.purchase == PURCHASE_VIEW
    assert (result.lifetime_amount_minor, result.purchase_count) == (1079, 1)

    _server_track(
        server,
        purchased_at=datetime(2026, 3, 2, 13, 30, tzinfo=timezone(timedelta(hours=1))),
        metadata={"campaign": "spring"},
        validation_status="verified",
        idempotency_key="order-77",
    )
    assert_write(
        route,
        key="order-77",
        body={
            **PURCHASE_BODY,
            "purchasedAt": "2026-03-02T12:30:00.000Z",
            "metadata": {"campaign": "spring"},
            "validationStatus": "verified",
        },
    )
    _server_track(server, validation_status=ValidationStatusView.UNVERIFIED)
    assert sent_json(route)["validationStatus"] == "unverified"


def test_server_track_purchase_refuses_an_unknown_status_locally(
    server: ServerClient, respx_mock: respx.MockRouter
) -> None:
    with pytest.raises(ValueError, match="ValidationStatus"):
        _server_track(server, validation_status="pending")
    assert not respx_mock.calls


def test_sdk_track_purchase(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SDK}/p1/purchases").mock(return_value=ok(TRACKED))
    result = _sdk_track(sdk, metadata={"campaign": "spring"})
    request = route.calls.last.request
    assert request.headers["Authorization"] == "Bearer ck_test"
    assert request.headers["X-Player-Secret"] == "sec_1"
    assert len(bytes.fromhex(sent_key(route))) == 16
    # The client body: no validationStatus (only the server route may say verified).
    assert sent_json(route) == {**PURCHASE_BODY, "purchasedAt": None, "metadata": {"campaign": "spring"}}
    assert result.purchase.purchase_id == "pur_1"

    _sdk_track(sdk, purchased_at=WHEN, player_secret="sec_2", idempotency_key="tx-1")
    assert route.calls.last.request.headers["X-Player-Secret"] == "sec_2"
    assert sent_key(route) == "tx-1"
    assert sent_json(route)["purchasedAt"] == TS


def test_sdk_track_purchase_needs_a_secret(respx_mock: respx.MockRouter) -> None:
    with SdkClient("ck_test", base_url=BASE) as client, pytest.raises(ValueError, match="player's secret"):
        _sdk_track(client)
    assert not respx_mock.calls


def test_purchases_page(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SRV}/players/p1/purchases").mock(
        return_value=ok({"purchases": [PURCHASE], "nextCursor": "c1"})
    )
    page = server.purchases.list("p1")
    assert_read(route, {"limit": "50"})
    assert (page.purchases, page.next_cursor) == ([PURCHASE_VIEW], "c1")
    route.return_value = ok({"purchases": [], "nextCursor": None})
    assert server.purchases.list("p1", limit=1, cursor="c1").next_cursor is None
    assert_read(route, {"limit": "1", "cursor": "c1"})


def test_iter_purchases_follows_the_cursor(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    pages = [
        ok({"purchases": [PURCHASE, {**PURCHASE, "purchaseId": "pur_2"}], "nextCursor": "c1"}),
        ok({"purchases": [{**PURCHASE, "purchaseId": "pur_3"}], "nextCursor": None}),
    ]
    route = respx_mock.get(f"{SRV}/players/p1/purchases").mock(side_effect=pages)
    walked = server.purchases.iter("p1", page_size=2)
    assert not route.called  # lazy: nothing is fetched before iteration
    assert [p.purchase_id for p in walked] == ["pur_1", "pur_2", "pur_3"]
    assert [dict(call.request.url.params) for call in route.calls] == [
        {"limit": "2"},
        {"limit": "2", "cursor": "c1"},
    ]


def test_iter_purchases_stops_on_a_repeated_cursor(
    server: ServerClient, respx_mock: respx.MockRouter
) -> None:
    # A server that hands back the cursor it was given would otherwise loop for ever.
    route = respx_mock.get(f"{SRV}/players/p1/purchases").mock(
        return_value=ok({"purchases": [PURCHASE], "nextCursor": "same"})
    )
    assert len(list(server.purchases.iter("p1"))) == 2
    assert route.call_count == 2


def test_player_spend(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SRV}/players/p1/spend").mock(return_value=ok(SPEND))
    spend = server.purchases.player_spend("p1", windows=[7, 30])
    assert_read(route, {"windows": "7,30"})
    assert route.calls.last.request.url.query == b"windows=7%2C30"
    assert (spend.lifetime_amount_minor, spend.purchase_count, spend.debug) == (1079, 1, False)
    assert (spend.first_purchase_at, spend.last_purchase_at) == (WHEN, WHEN)
    assert spend.windows == [SpendWindow(7, 1079, 1), SpendWindow(30, 1079, 1)]

    route.return_value = ok({**SPEND, "windows": [], "firstPurchaseAt": None, "lastPurchaseAt": None})
    assert server.purchases.player_spend("p1").first_purchase_at is None
    assert_read(route)
    server.purchases.player_spend("p1", windows=())
    assert_read(route)  # no windows: nothing sent
    server.purchases.player_spend("p1", windows=(1,))
    assert_read(route, {"windows": "1"})


def test_spend_players(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SRV}/spend/players").mock(return_value=ok(SPENDERS))
    found = server.purchases.spend_players()
    assert_read(route, {"minAmountMinor": "0", "limit": "50", "offset": "0"})
    [top] = found.players
    assert (top.external_player_id, top.amount_minor, top.purchase_count, top.last_purchase_at) == (
        "p1",
        1079,
        1,
        WHEN,
    )
    assert (found.min_amount_minor, found.window_days, found.limit, found.offset) == (1000, 30, 10, 5)

    server.purchases.spend_players(min_amount_minor=1000, window_days=30, limit=10, offset=5)
    assert_read(route, {"minAmountMinor": "1000", "windowDays": "30", "limit": "10", "offset": "5"})


def test_revenue_summary(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SRV}/spend/summary").mock(return_value=ok(SUMMARY))
    summary = server.purchases.revenue_summary()
    assert_read(route)  # no bounds: the service's last 30 days
    assert (summary.from_, summary.to) == (WHEN - timedelta(days=30), WHEN)
    assert (
        summary.gross_amount_minor,
        summary.purchase_count,
        summary.paying_players,
        summary.arppu_minor,
    ) == (
        2158,
        2,
        1,
        2158,
    )
    assert summary.per_product == [ProductRevenue("coins.100", 2158, 2)]
    assert summary.per_day == [DayRevenue("2026-03-02", 2158, 2)]

    server.purchases.revenue_summary(from_=date(2026, 3, 1), to=date(2026, 3, 2))
    assert_read(route, {"from": "2026-03-01", "to": "2026-03-02"})
    server.purchases.revenue_summary(from_=datetime(2026, 3, 1, 14, 0, tzinfo=timezone(timedelta(hours=2))))
    assert_read(route, {"from": "2026-03-01T12:00:00.000Z"})
    server.purchases.revenue_summary(to="2026-03-02T00:00:00Z")
    assert_read(route, {"to": "2026-03-02T00:00:00Z"})

    route.return_value = ok(
        {**SUMMARY, "arppuMinor": None, "payingPlayers": 0, "perProduct": [], "perDay": []}
    )
    assert server.purchases.revenue_summary().arppu_minor is None


def test_revenue_summary_refuses_a_naive_datetime_locally(
    server: ServerClient, respx_mock: respx.MockRouter
) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        server.purchases.revenue_summary(to=datetime(2026, 3, 2, 12))
    assert not respx_mock.calls


# --- Errors -------------------------------------------------------------------------------------------

_ErrorCase = tuple[
    str, str, Callable[[ServerClient], Any], int, str, type[LivecoreAPIError], type[LivecoreAPIError]
]
ERROR_CASES: list[_ErrorCase] = [
    # (method, url, call, status, code, class, status class)
    ("POST", f"{SRV}/players/p2/merge-into/p1", lambda c: c.players.merge("p2", "p1"),
     422, "invalid_merge", InvalidMergeError, UnprocessableEntityError),
    ("POST", f"{SRV}/players/p2/merge-into/p1", lambda c: c.players.merge("p2", "p1"),
     404, "player_not_found", PlayerNotFoundError, NotFoundError),
    ("POST", f"{SRV}/players/p1/purchases", _server_track,
     400, "unknown_currency", UnknownCurrencyError, InvalidRequestError),
    ("POST", f"{SRV}/players/p1/purchases", _server_track,
     409, "idempotency_conflict", IdempotencyConflictError, ConflictError),
    ("POST", f"{SRV}/players/p1/purchases", _server_track,
     404, "player_not_found", PlayerNotFoundError, NotFoundError),
    ("GET", f"{SRV}/players/p1", lambda c: c.players.profile("p1", limit=0),
     400, "invalid_request", InvalidRequestError, InvalidRequestError),
    ("GET", f"{SRV}/players/p1", lambda c: c.players.profile("p1"),
     404, "player_not_found", PlayerNotFoundError, NotFoundError),
    ("POST", f"{SRV}/players/p1/ban", lambda c: c.players.ban("p1", reason="x"),
     404, "player_not_found", PlayerNotFoundError, NotFoundError),
    ("POST", f"{SRV}/players/p1/ban", lambda c: c.players.ban("p1", reason="x"),
     409, "idempotency_conflict", IdempotencyConflictError, ConflictError),
    ("POST", f"{SRV}/players/p1/unban", lambda c: c.players.unban("p1"),
     404, "player_not_found", PlayerNotFoundError, NotFoundError),
    ("POST", f"{SRV}/players/p1/debug", lambda c: c.players.flag_debug("p1"),
     404, "player_not_found", PlayerNotFoundError, NotFoundError),
    ("DELETE", f"{SRV}/players/p1/debug", lambda c: c.players.unflag_debug("p1"),
     404, "player_not_found", PlayerNotFoundError, NotFoundError),
    ("GET", f"{SRV}/players/p1/export", lambda c: c.players.export("p1"),
     404, "player_not_found", PlayerNotFoundError, NotFoundError),
    ("GET", f"{SRV}/players/p1/purchases", lambda c: c.purchases.list("p1", cursor="junk"),
     400, "invalid_request", InvalidRequestError, InvalidRequestError),
    ("GET", f"{SRV}/players/p1/spend", lambda c: c.purchases.player_spend("p1", windows=[0]),
     400, "invalid_request", InvalidRequestError, InvalidRequestError),
    ("POST", f"{SRV}/migrate/wallet", lambda c: c.migration.wallet([]),
     400, "invalid_request", InvalidRequestError, InvalidRequestError),
    ("GET", f"{SRV}/spend/summary", lambda c: c.purchases.revenue_summary(from_="yesterday"),
     400, "invalid_request", InvalidRequestError, InvalidRequestError),
    ("GET", f"{SRV}/spend/players", lambda c: c.purchases.spend_players(),
     403, "permission_denied", PermissionDeniedError, PermissionDeniedError),
]  # fmt: skip


@pytest.mark.parametrize(
    ("method", "url", "call", "status", "code", "cls", "family"),
    ERROR_CASES,
    ids=[f"{case[0]}-{case[1].removeprefix(SRV)}-{case[4]}" for case in ERROR_CASES],
)
def test_error_codes_raise_their_class(
    server: ServerClient,
    respx_mock: respx.MockRouter,
    method: str,
    url: str,
    call: Callable[[ServerClient], Any],
    status: int,
    code: str,
    cls: type[LivecoreAPIError],
    family: type[LivecoreAPIError],
) -> None:
    route = respx_mock.request(method, url).mock(return_value=refusal(status, code))
    with pytest.raises(family) as info:  # catchable by the status class
        call(server)
    error = info.value
    assert type(error) is cls
    assert getattr(livecore_client, cls.__name__) is cls  # exported from the package
    assert (error.status, error.code, error.message) == (status, code, f"{code} message")
    assert route.call_count == 1  # a refusal is final: never retried


@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [
        (403, "player_banned", PlayerBannedError),
        (400, "unknown_currency", UnknownCurrencyError),
        (409, "idempotency_conflict", IdempotencyConflictError),
    ],
)
def test_sdk_track_purchase_errors(
    sdk: SdkClient, respx_mock: respx.MockRouter, status: int, code: str, cls: type[LivecoreAPIError]
) -> None:
    respx_mock.post(f"{SDK}/p1/purchases").mock(return_value=refusal(status, code, {"currency": "GBP"}))
    with pytest.raises(cls) as info:
        _sdk_track(sdk)
    assert (info.value.status, info.value.details) == (status, {"currency": "GBP"})


def test_new_codes_have_their_class_under_their_status_family() -> None:
    from livecore_client.errors import _BY_CODE, error_class

    for code, cls in (
        (INVALID_MERGE, InvalidMergeError),
        (UNKNOWN_CURRENCY, UnknownCurrencyError),
    ):
        assert _BY_CODE[code.value] is cls
        assert error_class(code.status, code.value) is cls
        assert issubclass(cls, error_class(code.status, None)), code
    assert INVALID_MERGE.status == 422
    assert UNKNOWN_CURRENCY.status == 400


# --- Every player-tools route has its method; sync and async are one definition ---------------------------

SERVER_METHODS = [
    "players.profile",
    "players.ban",
    "players.unban",
    "players.flag_debug",
    "players.unflag_debug",
    "players.merge",
    "players.delete",
    "players.export",
    "migration.players",
    "migration.wallet",
    "migration.inventory",
    "purchases.track",
    "purchases.list",
    "purchases.player_spend",
    "purchases.spend_players",
    "purchases.revenue_summary",
]


def test_every_player_tool_route_has_a_client_method() -> None:
    srv = ServerClient("sk_test", base_url=BASE)
    sdk = SdkClient("ck_test", base_url=BASE)
    builders: dict[Route, Any] = {
        PLAYER_PROFILE: srv.players._profile("p"),
        PLAYER_BAN: srv.players._ban("p", reason="r"),
        PLAYER_UNBAN: srv.players._unban("p"),
        PLAYER_MERGE: srv.players._merge("a", "b"),
        PLAYER_DEBUG_SET: srv.players._flag_debug("p"),
        PLAYER_DEBUG_CLEAR: srv.players._unflag_debug("p"),
        PLAYER_DELETE: srv.players._delete("p"),
        PLAYER_EXPORT: srv.players._export("p"),
        MIGRATE_PLAYERS: srv.migration._players([]),
        MIGRATE_WALLET: srv.migration._wallet([]),
        MIGRATE_INVENTORY: srv.migration._inventory([]),
        SDK_TRACK_PURCHASE: _sdk_track_call(sdk),
        SERVER_TRACK_PURCHASE: srv.purchases._track(
            "p",
            transaction_id="t",
            store="s",
            product_id="p",
            product_type="t",
            amount_minor=1,
            currency="USD",
        ),
        SERVER_PURCHASES: srv.purchases._list("p"),
        PLAYER_SPEND: srv.purchases._player_spend("p"),
        SPEND_PLAYERS: srv.purchases._spend_players(),
        SPEND_SUMMARY: srv.purchases._revenue_summary(),
    }
    assert set(builders) == {*player_tools.ROUTES, *purchases.ROUTES}
    for route, call in builders.items():
        assert call.route is route
        # Writes are always keyed: every one of these routes requires or accepts a key.
        assert (route.idempotency is Idempotency.NONE) == (not route.is_write), route.name
    srv.close()
    sdk.close()


def _sdk_track_call(sdk: SdkClient) -> Any:
    return sdk.purchases._track(
        "p", transaction_id="t", store="s", product_id="p", product_type="t", amount_minor=1, currency="USD"
    )


@pytest.mark.parametrize(
    ("sync_cls", "async_cls", "names"),
    [(ServerClient, AsyncServerClient, SERVER_METHODS), (SdkClient, AsyncSdkClient, ["purchases.track"])],
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
    if sync_cls is ServerClient:
        sync_iter, async_iter = ServerClient.purchases.iter, AsyncServerClient.purchases.iter
        assert inspect.signature(sync_iter).parameters == inspect.signature(async_iter).parameters
        assert inspect.isgeneratorfunction(sync_iter)
        assert inspect.isasyncgenfunction(async_iter)


def test_writes_take_a_keyword_idempotency_key() -> None:
    writes = [
        "players.ban",
        "players.unban",
        "players.flag_debug",
        "players.unflag_debug",
        "players.merge",
        "players.delete",
    ]
    writes += ["migration.players", "migration.wallet", "migration.inventory", "purchases.track"]
    for cls, names in ((ServerClient, writes), (SdkClient, ["purchases.track"])):
        for name in names:
            key = inspect.signature(pick(cls, name)).parameters["idempotency_key"]
            assert (key.kind, key.default) == (inspect.Parameter.KEYWORD_ONLY, None), name
    sdk_track = inspect.signature(SdkClient.purchases.track).parameters
    assert [n for n, p in sdk_track.items() if p.kind is inspect.Parameter.KEYWORD_ONLY] == [
        "transaction_id",
        "store",
        "product_id",
        "product_type",
        "amount_minor",
        "currency",
        "purchased_at",
        "metadata",
        "player_secret",
        "idempotency_key",
    ]


# --- Async twins --------------------------------------------------------------------------------------


async def test_async_player_tools(async_server: AsyncServerClient, respx_mock: respx.MockRouter) -> None:
    profile = respx_mock.get(f"{SRV}/players/p1").mock(return_value=ok(PROFILE))
    ban = respx_mock.post(f"{SRV}/players/p1/ban").mock(return_value=ok(BANNED))
    unban = respx_mock.post(f"{SRV}/players/p1/unban").mock(return_value=ok(UNBANNED))
    flag = respx_mock.post(f"{SRV}/players/p1/debug").mock(return_value=ok(DEBUG))
    unflag = respx_mock.delete(f"{SRV}/players/p1/debug").mock(return_value=ok(UNDEBUG))
    merge = respx_mock.post(f"{SRV}/players/p2/merge-into/p1").mock(
        return_value=refusal(422, "invalid_merge")
    )
    delete = respx_mock.post(f"{SRV}/players/p1/delete").mock(return_value=ok(DELETED))
    export = respx_mock.get(f"{SRV}/players/p1/export").mock(return_value=ok(EXPORT))
    migrate = respx_mock.post(f"{SRV}/migrate/players").mock(return_value=ok(OUTCOME))

    assert (await async_server.players.profile("p1", limit=3)).summary.grants_pending == 1
    assert params(profile) == {"limit": "3"}
    assert (await async_server.players.ban("p1", reason="cheat", idempotency_key="b1")).ban.reason == "cheat"
    assert_write(ban, key="b1", body={"reason": "cheat"})
    assert (await async_server.players.unban("p1")).applied is False
    assert_write(unban)
    assert (await async_server.players.flag_debug("p1", reason="qa")).debug is True
    assert_write(flag, body={"reason": "qa"})
    assert (await async_server.players.unflag_debug("p1")).debug is False
    assert_write(unflag, method="DELETE")
    with pytest.raises(InvalidMergeError) as invalid:
        await async_server.players.merge("p2", "p1")
    assert (invalid.value.status, merge.call_count) == (422, 1)
    assert (await async_server.players.delete("p1", reason="gdpr_erasure")).status == "deleted"
    assert_write(delete, body={"reason": "gdpr_erasure"})
    assert (await async_server.players.export("p1")).purchases == [PURCHASE_VIEW]
    assert export.called
    outcome = await async_server.migration.players([{"external_player_id": "p1", "idempotency_key": "k1"}])
    assert outcome.failed == 1
    assert sent_json(migrate)["rows"][0]["idempotencyKey"] == "k1"


async def test_async_purchases_and_spend(
    async_server: AsyncServerClient, async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter
) -> None:
    server_track = respx_mock.post(f"{SRV}/players/p1/purchases").mock(return_value=ok(TRACKED))
    sdk_track = respx_mock.post(f"{SDK}/p1/purchases").mock(return_value=refusal(400, "unknown_currency"))
    listing = respx_mock.get(f"{SRV}/players/p1/purchases").mock(
        side_effect=[
            ok({"purchases": [PURCHASE], "nextCursor": "c1"}),
            ok({"purchases": [{**PURCHASE, "purchaseId": "pur_2"}], "nextCursor": None}),
        ]
    )
    spend = respx_mock.get(f"{SRV}/players/p1/spend").mock(return_value=ok(SPEND))
    spenders = respx_mock.get(f"{SRV}/spend/players").mock(return_value=ok(SPENDERS))
    summary = respx_mock.get(f"{SRV}/spend/summary").mock(return_value=ok(SUMMARY))

    tracked = await async_server.purchases.track(
        "p1",
        transaction_id="tx-1",
        store="app_store",
        product_id="coins.100",
        product_type="consumable",
        amount_minor=999,
        currency="EUR",
        validation_status="verified",
    )
    assert tracked.purchase == PURCHASE_VIEW
    assert sent_json(server_track)["validationStatus"] == "verified"
    with pytest.raises(UnknownCurrencyError):
        await async_sdk.purchases.track(
            "p1",
            transaction_id="tx-2",
            store="play",
            product_id="gems",
            product_type="consumable",
            amount_minor=100,
            currency="GBP",
        )
    assert sdk_track.calls.last.request.headers["X-Player-Secret"] == "sec_1"

    assert [p.purchase_id async for p in async_server.purchases.iter("p1", page_size=1)] == ["pur_1", "pur_2"]
    assert [dict(c.request.url.params) for c in listing.calls] == [
        {"limit": "1"},
        {"limit": "1", "cursor": "c1"},
    ]

    assert (await async_server.purchases.player_spend("p1", windows=[7])).lifetime_amount_minor == 1079
    assert params(spend) == {"windows": "7"}
    assert (await async_server.purchases.spend_players(min_amount_minor=1000)).players[
        0
    ].external_player_id == "p1"
    assert params(spenders) == {"minAmountMinor": "1000", "limit": "50", "offset": "0"}
    assert (await async_server.purchases.revenue_summary(from_=date(2026, 3, 1))).gross_amount_minor == 2158
    assert params(summary) == {"from": "2026-03-01"}


# --- Typed webhooks (docs/reference/webhooks.md#kinds) ------------------------------------------------------

WEBHOOK_SECRET = "whsec_tools"
WEBHOOK_NOW = 1_772_452_800  # 2026-03-02T12:00:00Z
KINDS: dict[str, type[Any]] = {
    "player.banned": PlayerBanned,
    "player.unbanned": PlayerUnbanned,
    "player.merged": PlayerMerged,
    "player.deleted": PlayerDeleted,
    "purchase.tracked": PurchaseTracked,
}


def receive(kind: str, payload: WebhookPayload | dict[str, Any]) -> Any:
    event = DomainEvent(
        id="evt_tools",
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


def test_player_tool_kinds_are_typed_exported_and_sampled() -> None:
    for kind, cls in KINDS.items():
        assert PAYLOAD_TYPES[kind] is cls
        assert cls.__name__ in livecore_client.webhooks.__all__
        assert receive(kind, SAMPLES[kind]) == SAMPLES[kind]


def _player(pid: str, external_id: str) -> Player:
    store = MemoryStore()
    store.add_game(Studio(id="std_1", key="acme"), Game(id="gam_1", studio_id="std_1", key="g", name="G"))
    rt = Runtime(clock=ManualClock(WHEN), rng=SeededRandomSource(7), hasher=KeyedHasher(b"k" * 32))
    with store.transaction() as tx:
        player = register(tx, rt, Scope("std_1", "gam_1", Environment.TEST), external_id).player
    return attrs.evolve(player, id=pid)


def test_payloads_built_from_the_records_reach_the_studio_unchanged() -> None:
    ada, bob = _player("plr_1", "ada"), _player("plr_2", "bob")
    record = MergeRecord(
        game_id="gam_1",
        env=Environment.TEST,
        from_external_id="bob",
        from_player_id="plr_2",
        to_player_id="plr_1",
        placeholder=PLACEHOLDER,
        merged_at=WHEN,
    )
    actor = {"kind": "api_key", "prefix": "lc_test_abcd"}
    assert receive("player.merged", PlayerMerged.of(record, bob, ada, actor)) == PlayerMerged(
        from_player_id="plr_2",
        from_external_player_id="bob",
        to_player_id="plr_1",
        to_external_player_id="ada",
        anonymized_external_player_id=PLACEHOLDER,
        merged_at=WHEN,
        actor=actor,
    )
    deleted = PlayerDeleted.of(ada, ErasureReason.STUDIO_REQUEST, "__deleted_x__")
    assert receive("player.deleted", deleted) == PlayerDeleted(
        player_id="plr_1",
        external_player_id="ada",
        reason="studio_request",
        anonymized_external_id="__deleted_x__",
    )
    purchase = Purchase(
        id="pur_1",
        game_id="gam_1",
        env=Environment.TEST,
        player_id="plr_1",
        external_player_id="ada",
        transaction_id="tx-1",
        store="app_store",
        product_id="coins.100",
        product_type="consumable",
        amount_minor=500,
        currency="JPY",
        normalized_amount_minor=335,
        fx_rate=0.0067,
        validation_status=ValidationStatus.VERIFIED,
        purchased_at=WHEN - timedelta(days=1),
        tracked_at=WHEN,
        metadata={"campaign": "spring"},
    )
    tracked = PurchaseTracked.of(purchase, CorePlayerSpend(835, 2, WHEN - timedelta(days=9), WHEN))
    assert receive("purchase.tracked", tracked) == PurchaseTracked(
        purchase_id="pur_1",
        player_id="plr_1",
        external_player_id="ada",
        transaction_id="tx-1",
        store="app_store",
        product_id="coins.100",
        product_type="consumable",
        amount_minor=500,
        currency="JPY",
        normalized_amount_minor=335,
        fx_rate=0.0067,
        validation_status="verified",
        purchased_at=WHEN - timedelta(days=1),
        lifetime_amount_minor=835,
        purchase_count=2,
        metadata={"campaign": "spring"},
    )


def test_events_emitted_by_the_player_tool_commands_structure() -> None:
    # The very events the service emits: ban, unban, a purchase, a merge and an erasure.
    store = MemoryStore()
    game = Game(
        id="gam_1", studio_id="std_1", key="g", name="G", settings=GameSettings(exchange_rates={"EUR": 1.08})
    )
    store.add_game(Studio(id="std_1", key="acme"), game)
    clock = ManualClock(WHEN)
    rt = Runtime(clock=clock, rng=SeededRandomSource(7), hasher=KeyedHasher(b"k" * 32))
    scope = Scope("std_1", "gam_1", Environment.TEST, actor=Actor(kind="api_key", prefix="lc_test_abcd"))
    with store.transaction() as tx:
        ada, bob = (register(tx, rt, scope, name).player for name in ("ada", "bob"))
        banned = moderation.ban_player(tx, rt, scope, ada, "chargeback").player
        moderation.ban_player(tx, rt, scope, banned, "again")  # no transition: no event
        moderation.unban_player(tx, rt, scope, banned)
        request = PurchaseRequest("tx-1", "play", "gems", "consumable", 999, "EUR", metadata={"k": "v"})
        purchase_commands.track(tx, rt, scope, bob, request)
        purchase_commands.track(tx, rt, scope, bob, request)  # a replay: no event
    clock.advance(60)
    with store.transaction() as tx:
        merge_commands.merge(tx, rt, scope, "bob", "ada")
        erasure_commands.erase(tx, rt, scope, "ada", ErasureReason.TEST)

    typed = [receive(e.kind, e.data) for e in store.outbox if e.kind in KINDS]
    assert [type(t) for t in typed] == [
        PlayerBanned,
        PlayerUnbanned,
        PurchaseTracked,
        PlayerMerged,
        PlayerDeleted,
    ]
    ban, unban, tracked, merged, deleted = typed
    actor = {"kind": "api_key", "prefix": "lc_test_abcd"}
    assert ban == PlayerBanned(
        player_id=ada.id, external_player_id="ada", reason="chargeback", banned_at=WHEN, actor=actor
    )
    assert unban == PlayerUnbanned(player_id=ada.id, external_player_id="ada", unbanned_at=WHEN, actor=actor)
    assert isinstance(tracked, PurchaseTracked)
    assert (tracked.player_id, tracked.external_player_id, tracked.transaction_id) == (bob.id, "bob", "tx-1")
    assert (tracked.amount_minor, tracked.currency, tracked.normalized_amount_minor, tracked.fx_rate) == (
        999,
        "EUR",
        1079,
        1.08,
    )
    assert (tracked.validation_status, tracked.lifetime_amount_minor, tracked.purchase_count) == (
        "unverified",
        1079,
        1,
    )
    assert (tracked.purchased_at, tracked.metadata) == (WHEN, {"k": "v"})
    assert isinstance(merged, PlayerMerged)
    assert (merged.from_player_id, merged.from_external_player_id) == (bob.id, "bob")
    assert (merged.to_player_id, merged.to_external_player_id) == (ada.id, "ada")
    assert merged.anonymized_external_player_id.startswith("__merged_")
    assert (merged.merged_at, merged.actor) == (WHEN + timedelta(minutes=1), actor)
    assert isinstance(deleted, PlayerDeleted)
    # Sent before anonymization: the original id, and the placeholder the row now carries.
    assert (deleted.player_id, deleted.external_player_id, deleted.reason) == (ada.id, "ada", "test")
    assert deleted.anonymized_external_id.startswith("__deleted_")
