"""The admin clients over a mocked HTTP layer: every method of :class:`AdminClient` and
:class:`AsyncAdminClient` builds its route's request (method, path with the studio and game, query with
``env``, camelCase body, the personal key as the bearer, an idempotency key on every write and never a
player secret, cookie or CSRF token), reads its answer into the route's model, maps the admin error codes
to their classes, and ``iter_audit`` walks the keyset pages."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from typing import Any

import attrs
import httpx
import pytest
import respx

import livecore_client
from livecore.api.admin import CSRF_INVALID
from livecore.api.route import Auth
from livecore.errors import INVALID_API_KEY, PERMISSION_DENIED, Code
from livecore.live_events.errors import REWARDS_ALREADY_GRANTED
from livecore.operators.errors import (
    API_KEY_NOT_FOUND,
    DASHBOARD_ONLY,
    DELIVERY_NOT_FOUND,
    PERSONAL_KEY_NOT_FOUND,
    WEBHOOK_ENDPOINT_NOT_FOUND,
)
from livecore_client import (
    AdminClient,
    ApiKeyNotFoundError,
    AsyncAdminClient,
    AuthenticationError,
    ConflictError,
    CsrfInvalidError,
    DashboardOnlyError,
    DeliveryNotFoundError,
    LivecoreAPIError,
    NotFoundError,
    PermissionDeniedError,
    PersonalKeyNotFoundError,
    RetryPolicy,
    RewardsAlreadyGrantedError,
    WebhookEndpointNotFoundError,
)
from livecore_client import models as m
from livecore_client.models import (
    DeliveryStatus,
    Environment,
    GrantKind,
    MemberRole,
    OperatorAction,
    Permission,
    ResourceType,
    RewardEntry,
)
from tests.client.support import BASE, Sleeps, builder, pick, sent_json, sent_key
from tests.installed import ALL

KEY = "svc_pk_" + "k" * 43
STUDIO = f"{BASE}/admin/v1/studios/acme"
GAME = f"{STUDIO}/games/space-race"
TS = "2026-03-02T12:00:00.000Z"
WHEN = datetime(2026, 3, 2, 12, tzinfo=UTC)

MEMBER = {"memberId": "mem_1", "key": "gina", "email": "gina@acme.test", "role": "GAME_ADMIN"}
ME = {
    "member": MEMBER,
    "studioId": "std_1",
    "studioKey": "acme",
    "via": "api",
    "keyId": "pk_1",
    "readOnly": False,
    "csrfToken": None,
    "games": [{"gameId": "gam_1", "key": "space-race", "name": "Space Race"}],
}
GRANT: dict[str, Any] = {
    "grantId": "0b6c5c8e-6a7e-4a3e-9d59-1f1d2a3b4c5d",
    "externalPlayerId": "p1",
    "kind": "reward",
    "status": "pending",
    "entries": [{"type": "currency", "key": "coins", "amount": 5}],
    "sourceKind": "admin",
    "sourceRefId": "mem_1",
    "metadata": {},
    "createdAt": TS,
    "claimedAt": None,
    "expiresAt": None,
    "ackedBy": None,
}
ATTEMPT: dict[str, Any] = {
    "attemptId": "att_1",
    "eventKey": "sprint",
    "eventId": "evt_1",
    "windowId": "win_1",
    "leaderboardId": "lb_1",
    "lobbyId": None,
    "status": "completed",
    "score": 42.0,
    "metrics": {"score": 42.0},
    "startedAt": TS,
    "endsAt": TS,
    "completedAt": TS,
    "attemptCount": 1,
    "milestones": [],
    "flagged": False,
}
ENTRY = {
    "id": "aud_1",
    "at": TS,
    "gameId": "gam_1",
    "actor": {"kind": "personal_key", "memberId": "mem_1", "keyId": "pk_1", "via": "api"},
    "action": "player.ban",
    "target": "player:p1",
    "metadata": {"reason": "cheat"},
    "before": {"banned": False},
    "after": {"banned": True},
    "ip": "127.0.0.1",
}
ENDPOINT = {
    "endpointId": "whe_1",
    "name": "backend",
    "env": "test",
    "url": "https://hooks.acme.test/livecore",
    "events": ["player.banned"],
    "status": "paused",
    "consecutiveFailures": 0,
}
DELIVERY = {
    "deliveryId": "dlv_1",
    "eventId": "evt_1",
    "eventName": "player.banned",
    "endpointId": "whe_1",
    "status": "failed",
    "attempts": 3,
    "nextAttemptAt": None,
    "lastStatus": 500,
    "lastError": "HTTP 500",
    "createdAt": TS,
    "deliveredAt": None,
}
API_KEY = {
    "keyId": "key_1",
    "name": "backend",
    "env": "live",
    "permission": "server_integration",
    "prefix": "sk_live_ab",
    "status": "active",
    "createdAt": TS,
    "retiresAt": None,
    "revokedAt": None,
    "lastUsedAt": None,
    "lastOperation": None,
}
PERSONAL_KEY = {
    "keyId": "pk_1",
    "memberId": "mem_1",
    "memberKey": "gina",
    "prefix": "svc_pk_ab",
    "role": None,
    "readOnly": False,
    "createdAt": TS,
    "expiresAt": TS,
    "revokedAt": None,
    "lastUsedAt": TS,
}
BAN = {"applied": True, "ban": {"externalPlayerId": "p1", "banned": True, "reason": "cheat", "bannedAt": TS}}
LOOKUP = {
    "profile": {
        "player": {
            "id": "plr_1",
            "externalPlayerId": "p1",
            "firstSeenAt": TS,
            "lastSeenAt": TS,
            "lastContextSnapshot": {},
            "displayIdentity": {"name": "Ada", "avatar": None, "country": None},
            "banned": False,
            "debug": False,
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
            "grantsClaimed": 0,
            "lobbiesActive": 0,
        },
    },
    "ban": {"externalPlayerId": "p1", "banned": False, "reason": None, "bannedAt": None},
    "country": {"country": "FR", "resolvedCountry": "DE", "countryOverride": "FR"},
    "friends": [],
    "wallet": [{"key": "coins", "balance": 5}],
    "inventory": [],
    "audit": [ENTRY],
    "deliveries": [DELIVERY],
}
COINS = RewardEntry(type=ResourceType.CURRENCY, key="coins", amount=5)


@attrs.frozen
class Case:
    """One method: how it is called, the request it must send, and an answer of its route."""

    name: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    method: str
    url: str
    query: dict[str, str]
    body: Any  # None: no body at all
    data: Any
    model: type[Any]


CASES = [
    Case("members.me", (), {}, "GET", f"{BASE}/admin/v1/me", {}, None, ME, m.MeResponse),
    Case(
        "members.list", (), {}, "GET", f"{STUDIO}/members", {}, None, {"members": [MEMBER]}, m.MembersResponse
    ),
    Case(
        "players.lookup",
        ("space-race", "p1"),
        {"env": "test", "limit": 5},
        "GET",
        f"{GAME}/players/p1",
        {"env": "test", "limit": "5"},
        None,
        LOOKUP,
        m.PlayerLookupResponse,
    ),
    Case(
        "players.ban",
        ("space-race", "p1"),
        {"reason": "cheat"},
        "POST",
        f"{GAME}/players/p1/ban",
        {},  # no environment named: the server acts in the one the game has keys in
        {"reason": "cheat"},
        BAN,
        m.BanPlayerResponse,
    ),
    Case(
        "players.set_country",
        ("space-race", "p1", "FR"),
        {"reason": "vpn", "env": "test"},
        "PUT",
        f"{GAME}/players/p1/country",
        {"env": "test"},
        {"country": "FR", "reason": "vpn"},
        {
            "externalPlayerId": "p1",
            "applied": True,
            "country": {"country": "FR", "resolvedCountry": "DE", "countryOverride": "FR"},
        },
        m.SetCountryResponse,
    ),
    Case(
        "players.edit_item_attributes",
        ("space-race", "p1", "sword", {"level": 3}),
        {},
        "PATCH",
        f"{GAME}/players/p1/inventory/sword/attributes",
        {},
        {"attributes": {"level": 3}, "reason": None},
        {"key": "sword", "quantity": 1, "delta": 0, "parameters": {"level": 3}, "entryId": "led_1"},
        m.ItemAdjustResponse,
    ),
    Case(
        "players.unban",
        ("space-race", "p1"),
        {"env": Environment.TEST},
        "POST",
        f"{GAME}/players/p1/unban",
        {"env": "test"},
        None,
        BAN,
        m.BanPlayerResponse,
    ),
    Case(
        "players.rotate_secret",
        ("space-race", "p1"),
        {"env": "test"},
        "POST",
        f"{GAME}/players/p1/rotate-secret",
        {"env": "test"},
        None,
        {"externalPlayerId": "p1", "playerSecret": "ps_new"},
        m.RotateSecretResponse,
    ),
    Case(
        "grants.create",
        ("space-race", "p1", [COINS]),
        {"env": "test", "reason": "support ticket 12", "metadata": {"ticket": 12}, "expires_at": WHEN},
        "POST",
        f"{GAME}/grants",
        {"env": "test"},
        {
            "externalPlayerId": "p1",
            "entries": [{"type": "currency", "key": "coins", "amount": 5}],
            "kind": "reward",
            "expiresAt": TS,
            "reason": "support ticket 12",
            "metadata": {"ticket": 12},
        },
        {"grant": GRANT},
        m.AdminGrantResponse,
    ),
    Case(
        "grants.force_claim",
        ("space-race", "grt_1"),
        {"reason": "stuck"},
        "POST",
        f"{GAME}/grants/grt_1/force-claim",
        {},
        {"reason": "stuck"},
        {"grant": {**GRANT, "status": "claimed", "claimedAt": TS, "ackedBy": "operator"}},
        m.AdminGrantResponse,
    ),
    Case(
        "live_events.force_complete_attempt",
        ("space-race", "att_1"),
        {"reason": "client crashed", "score": 42.0, "env": "test"},
        "POST",
        f"{GAME}/attempts/att_1/force-complete",
        {"env": "test"},
        {"reason": "client crashed", "score": 42.0},
        {"attempt": ATTEMPT},
        m.AdminAttemptResponse,
    ),
    Case(
        "live_events.retry_reward_roll",
        ("space-race", "att_1"),
        {"env": "test"},
        "POST",
        f"{GAME}/attempts/att_1/retry-reward-roll",
        {"env": "test"},
        None,
        {"grants": [GRANT]},
        m.RetryRewardRollResponse,
    ),
    Case(
        "webhooks.endpoints",
        ("space-race",),
        {},
        "GET",
        f"{GAME}/webhooks",
        {},
        None,
        {"endpoints": [ENDPOINT]},
        m.EndpointsResponse,
    ),
    Case(
        "webhooks.create_endpoint",
        ("space-race",),
        {"name": "backend", "env": "test", "url": ENDPOINT["url"], "events": "player.banned"},
        "POST",
        f"{GAME}/webhooks",
        {},
        {"name": "backend", "env": "test", "url": ENDPOINT["url"], "events": ["player.banned"]},
        {"endpoint": ENDPOINT, "secret": "whsec_1"},
        m.CreateEndpointResponse,
    ),
    Case(
        "webhooks.deliveries",
        ("space-race", "whe_1"),
        {"status": "failed", "limit": 10},
        "GET",
        f"{GAME}/webhooks/whe_1/deliveries",
        {"status": "failed", "limit": "10"},
        None,
        {"deliveries": [DELIVERY]},
        m.DeliveriesResponse,
    ),
    Case(
        "webhooks.unpause_endpoint",
        ("space-race", "whe_1"),
        {},
        "POST",
        f"{GAME}/webhooks/whe_1/unpause",
        {},
        None,
        {"applied": True, "endpoint": {**ENDPOINT, "status": "active"}},
        m.EndpointResponse,
    ),
    Case(
        "webhooks.send_sample",
        ("space-race", "whe_1"),
        {"kind": "player.banned"},
        "POST",
        f"{GAME}/webhooks/whe_1/send-sample",
        {},
        {"kind": "player.banned"},
        {"eventId": "evt_2", "eventName": "player.banned"},
        m.SendSampleResponse,
    ),
    Case(
        "webhooks.rotate_secret",
        ("space-race", "whe_1"),
        {"overlap_seconds": 3600},
        "POST",
        f"{GAME}/webhooks/whe_1/rotate-secret",
        {},
        {"overlapSeconds": 3600},
        {
            "endpoint": {**ENDPOINT, "previousSecretExpiresAt": "2026-03-02T13:00:00.000Z"},
            "secret": "whsec_2",
        },
        m.CreateEndpointResponse,
    ),
    Case(
        "webhooks.replay_delivery",
        ("space-race", "dlv_1"),
        {},
        "POST",
        f"{GAME}/deliveries/dlv_1/replay",
        {},
        None,
        {"delivery": {**DELIVERY, "deliveryId": "dlv_2", "status": "pending", "attempts": 0}},
        m.ReplayResponse,
    ),
    Case(
        "api_keys.list",
        ("space-race",),
        {},
        "GET",
        f"{GAME}/api-keys",
        {},
        None,
        {"keys": [API_KEY]},
        m.ApiKeysResponse,
    ),
    Case(
        "api_keys.create",
        ("space-race",),
        {"name": "backend", "env": "live", "permission": Permission.SERVER_INTEGRATION},
        "POST",
        f"{GAME}/api-keys",
        {},
        {"name": "backend", "env": "live", "permission": "server_integration"},
        {"key": API_KEY, "secret": "sk_live_secret"},
        m.ApiKeySecretResponse,
    ),
    Case(
        "api_keys.rotate",
        ("space-race", "key_1"),
        {},
        "POST",
        f"{GAME}/api-keys/key_1/rotate",
        {},
        None,
        {
            "key": {**API_KEY, "keyId": "key_2"},
            "secret": "sk_live_new",
            "retiring": {**API_KEY, "status": "retiring"},
        },
        m.ApiKeySecretResponse,
    ),
    Case(
        "api_keys.revoke",
        ("space-race", "key_1"),
        {},
        "POST",
        f"{GAME}/api-keys/key_1/revoke",
        {},
        None,
        {"key": {**API_KEY, "status": "revoked", "revokedAt": TS}},
        m.ApiKeyResponse,
    ),
    Case(
        "personal_keys.list",
        (),
        {},
        "GET",
        f"{STUDIO}/personal-keys",
        {},
        None,
        {"keys": [PERSONAL_KEY]},
        m.PersonalKeysResponse,
    ),
    Case(
        "personal_keys.create",
        (),
        {"expires_in_days": 30, "read_only": True, "role": "VIEWER"},
        "POST",
        f"{STUDIO}/personal-keys",
        {},
        {"expiresInDays": 30, "readOnly": True, "role": "VIEWER"},
        {"key": PERSONAL_KEY, "secret": KEY},
        m.PersonalKeySecretResponse,
    ),
    Case(
        "personal_keys.revoke",
        ("pk_1",),
        {},
        "POST",
        f"{STUDIO}/personal-keys/pk_1/revoke",
        {},
        None,
        {"key": {**PERSONAL_KEY, "revokedAt": TS}},
        m.PersonalKeyResponse,
    ),
    Case(
        "audit.list",
        (),
        {
            "game": "space-race",
            "action": OperatorAction.BAN,
            "target": "player:p1",
            "member": "mem_1",
            "before": 9,
        },
        "GET",
        f"{STUDIO}/audit",
        {
            "game": "space-race",
            "action": "player.ban",
            "target": "player:p1",
            "member": "mem_1",
            "before": "9",
            "limit": "50",
        },
        None,
        {"entries": [ENTRY], "nextBefore": 3},
        m.AuditResponse,
    ),
    Case(
        "audit.game",
        ("space-race",),
        {"action": OperatorAction.BAN, "target": "player:p1", "member": "mem_1", "before": 9, "limit": 5},
        "GET",
        f"{GAME}/audit",
        {"action": "player.ban", "target": "player:p1", "member": "mem_1", "before": "9", "limit": "5"},
        None,
        {"entries": [ENTRY], "nextBefore": None},
        m.AuditResponse,
    ),
]
BY_NAME = {case.name: case for case in CASES}


@pytest.fixture
def admin(policy: RetryPolicy) -> Iterator[AdminClient]:
    with AdminClient(KEY, studio="acme", base_url=BASE, retry_policy=policy) as client:
        yield client


@pytest.fixture
async def async_admin(policy: RetryPolicy) -> AsyncIterator[AsyncAdminClient]:
    async with AsyncAdminClient(KEY, studio="acme", base_url=BASE, retry_policy=policy) as client:
        yield client


def ok(data: Any, status: int = 200) -> httpx.Response:
    return httpx.Response(status, json={"data": data})


def refusal(status: int, code: str) -> httpx.Response:
    return httpx.Response(status, json={"error": {"code": code, "message": f"{code} message"}})


def _call(case: Case) -> Any:
    client = AdminClient(KEY, studio="acme", base_url=BASE)
    try:
        return builder(client, case.name)(*case.args, **case.kwargs)
    finally:
        client.close()


def _mock(respx_mock: respx.MockRouter, case: Case) -> respx.Route:
    status = _call(case).route.status
    return respx_mock.request(case.method, case.url).mock(return_value=ok(case.data, status))


def _check_request(route: respx.Route, case: Case) -> None:
    request = route.calls.last.request
    assert request.method == case.method
    assert dict(request.url.params) == case.query
    assert request.headers["Authorization"] == f"Bearer {KEY}"
    assert request.headers["X-Svc-SDK"].startswith("livecore-python/")
    for absent in ("X-Player-Secret", "X-CSRF-Token", "Cookie"):
        assert absent not in request.headers
    if case.method == "GET":
        assert "Idempotency-Key" not in request.headers
    else:
        assert len(bytes.fromhex(sent_key(route))) == 16  # every write is keyed
    if case.body is None:
        assert request.content == b""
        assert "Content-Type" not in request.headers
    else:
        assert request.headers["Content-Type"] == "application/json"
        assert sent_json(route) == case.body


# --- Every method builds its request and reads its answer ------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_method_builds_its_request(admin: AdminClient, respx_mock: respx.MockRouter, case: Case) -> None:
    route = _mock(respx_mock, case)
    answer = pick(admin, case.name)(*case.args, **case.kwargs)
    _check_request(route, case)
    assert type(answer) is case.model
    assert route.call_count == 1


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_async_method_builds_its_request(
    async_admin: AsyncAdminClient, respx_mock: respx.MockRouter, case: Case
) -> None:
    route = _mock(respx_mock, case)
    answer = await pick(async_admin, case.name)(*case.args, **case.kwargs)
    _check_request(route, case)
    assert type(answer) is case.model


def test_every_admin_route_has_a_client_method() -> None:
    routes = [_call(case).route for case in CASES]
    assert len(routes) == len(set(routes))
    assert set(routes) == {r for r in ALL if r.auth is Auth.MEMBER}
    for case in CASES:
        call = _call(case)
        assert case.url.removeprefix(BASE) == call.route.surface.value + _filled(call)
        assert (case.method == "GET") == (not call.route.is_write)


def _filled(call: Any) -> str:
    path: str = call.route.path
    for name, value in call.path.items():
        path = path.replace(f"{{{name}}}", value)
    return path


def test_answers_read_into_the_models(admin: AdminClient, respx_mock: respx.MockRouter) -> None:
    for name in (
        "members.me",
        "players.lookup",
        "grants.create",
        "audit.list",
        "api_keys.list",
        "personal_keys.list",
    ):
        _mock(respx_mock, BY_NAME[name])
    me = admin.members.me()
    assert (me.member.key, me.member.role, me.studio_key, me.key_id, me.csrf_token) == (
        "gina",
        MemberRole.GAME_ADMIN,
        "acme",
        "pk_1",
        None,
    )
    assert [g.key for g in me.games] == ["space-race"]
    found = admin.players.lookup("space-race", "p1", env="test", limit=5)
    assert found.profile.player.external_player_id == "p1"
    assert [g.grant_id for g in found.profile.grants] == [GRANT["grantId"]]
    assert (found.ban.banned, found.wallet[0].balance) == (False, 5)
    assert (found.country.country, found.country.resolved_country, found.country.country_override) == (
        "FR",
        "DE",
        "FR",
    )
    assert (found.audit[0].action, found.audit[0].at) == ("player.ban", WHEN)
    assert found.deliveries[0].status is DeliveryStatus.FAILED
    grant = admin.grants.create("space-race", "p1", [COINS], env="test").grant
    assert (grant.status, grant.source_kind, grant.entries[0].key) == ("pending", "admin", "coins")
    page = admin.audit.list()
    assert (page.next_before, page.entries[0].actor["kind"]) == (3, "personal_key")
    assert admin.api_keys.list("space-race").keys[0].permission is Permission.SERVER_INTEGRATION
    assert admin.personal_keys.list().keys[0].last_used_at == WHEN


def test_defaults_send_the_service_defaults(admin: AdminClient, respx_mock: respx.MockRouter) -> None:
    lookup = respx_mock.get(f"{GAME}/players/p1").mock(return_value=ok(LOOKUP))
    admin.players.lookup("space-race", "p1")
    # No environment named: the server chooses the one the game has API keys in.
    assert dict(lookup.calls.last.request.url.params) == {"limit": "20"}
    claim = respx_mock.post(f"{GAME}/grants/grt_1/force-claim").mock(return_value=ok({"grant": GRANT}))
    admin.grants.force_claim("space-race", "grt_1")
    assert claim.calls.last.request.content == b""  # the reason is optional, and so is the body
    sample = respx_mock.post(f"{GAME}/webhooks/whe_1/send-sample").mock(
        return_value=ok({"eventId": "e", "eventName": "x"}, 202)
    )
    admin.webhooks.send_sample("space-race", "whe_1")
    assert sample.calls.last.request.content == b""
    rotated = respx_mock.post(f"{GAME}/webhooks/whe_1/rotate-secret").mock(
        return_value=ok({"endpoint": ENDPOINT, "secret": "whsec_2"})
    )
    answer = admin.webhooks.rotate_secret("space-race", "whe_1")
    assert rotated.calls.last.request.content == b""  # the server's 24 hours
    assert (answer.secret, answer.endpoint.previous_secret_expires_at) == ("whsec_2", None)
    deliveries = respx_mock.get(f"{GAME}/webhooks/whe_1/deliveries").mock(return_value=ok({"deliveries": []}))
    admin.webhooks.deliveries("space-race", "whe_1")
    assert dict(deliveries.calls.last.request.url.params) == {"limit": "50"}
    grant = respx_mock.post(f"{GAME}/grants").mock(return_value=ok({"grant": GRANT}, 201))
    admin.grants.create("space-race", "p1", [COINS], kind=GrantKind("crate"))
    assert dict(grant.calls.last.request.url.params) == {}
    assert sent_json(grant)["kind"] == "crate"
    keys = respx_mock.post(f"{STUDIO}/personal-keys").mock(
        return_value=ok({"key": PERSONAL_KEY, "secret": KEY})
    )
    admin.personal_keys.create(expires_in_days=7)
    assert sent_json(keys) == {"expiresInDays": 7, "readOnly": False, "role": None}


def test_ids_and_refs_are_escaped(respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{BASE}/admin/v1/studios/std_1/games/gam_1/players/a%2Fb").mock(
        return_value=ok(LOOKUP)
    )
    with AdminClient(KEY, studio="std_1", base_url=BASE) as client:
        client.players.lookup("gam_1", "a/b")
    assert route.called


def test_a_given_idempotency_key_is_sent_and_retries_resend_it(
    admin: AdminClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    route = respx_mock.post(f"{GAME}/players/p1/ban").mock(
        side_effect=[httpx.Response(503, json={"error": {"code": "internal", "message": "x"}}), ok(BAN)]
    )
    admin.players.ban("space-race", "p1", reason="cheat", idempotency_key="ban-p1")
    assert [call.request.headers["Idempotency-Key"] for call in route.calls] == ["ban-p1", "ban-p1"]
    assert sleeps == [0.25]

    unban = respx_mock.post(f"{GAME}/players/p1/unban").mock(side_effect=[httpx.Response(503), ok(BAN)])
    admin.players.unban("space-race", "p1")
    first, second = (call.request.headers["Idempotency-Key"] for call in unban.calls)
    assert first == second  # made once per call, before the retry loop


def test_bad_options_are_refused_before_the_network(admin: AdminClient, respx_mock: respx.MockRouter) -> None:
    with pytest.raises(ValueError):
        admin.players.lookup("space-race", "p1", env="staging")
    with pytest.raises(ValueError):
        admin.api_keys.create("space-race", name="k", env="test", permission="admin")
    with pytest.raises(ValueError):
        admin.personal_keys.create(expires_in_days=30, role="SUPERUSER")
    with pytest.raises(ValueError):
        admin.webhooks.deliveries("space-race", "whe_1", status="lost")
    with pytest.raises(ValueError):
        admin.players.ban("", "p1", reason="r")  # an empty game would address another route
    assert not respx_mock.calls


def test_the_constructor_wants_a_personal_key_and_a_studio() -> None:
    with pytest.raises(ValueError, match="personal key"):
        AdminClient("sk_test_abc", studio="acme")
    with pytest.raises(ValueError, match="personal key"):
        AsyncAdminClient("", studio="acme")
    with pytest.raises(ValueError, match="studio"):
        AdminClient(KEY, studio="")
    with AdminClient(KEY, studio="acme", base_url=BASE + "/") as client:
        assert (client.studio, client.base_url) == ("acme", BASE)


# --- Errors ----------------------------------------------------------------------------------------------

ERROR_CASES = [
    ("api_keys.create", DASHBOARD_ONLY, DashboardOnlyError, PermissionDeniedError),
    ("personal_keys.create", DASHBOARD_ONLY, DashboardOnlyError, PermissionDeniedError),
    ("players.ban", CSRF_INVALID, CsrfInvalidError, PermissionDeniedError),
    (
        "live_events.retry_reward_roll",
        REWARDS_ALREADY_GRANTED,
        RewardsAlreadyGrantedError,
        ConflictError,
    ),
    ("api_keys.revoke", API_KEY_NOT_FOUND, ApiKeyNotFoundError, NotFoundError),
    ("personal_keys.revoke", PERSONAL_KEY_NOT_FOUND, PersonalKeyNotFoundError, NotFoundError),
    (
        "webhooks.deliveries",
        WEBHOOK_ENDPOINT_NOT_FOUND,
        WebhookEndpointNotFoundError,
        NotFoundError,
    ),
    ("webhooks.replay_delivery", DELIVERY_NOT_FOUND, DeliveryNotFoundError, NotFoundError),
    ("members.me", INVALID_API_KEY, AuthenticationError, AuthenticationError),
    ("members.list", PERMISSION_DENIED, PermissionDeniedError, PermissionDeniedError),
]


@pytest.mark.parametrize(
    ("name", "code", "cls", "family"), ERROR_CASES, ids=[f"{c[0]}-{c[1]}" for c in ERROR_CASES]
)
def test_error_codes_raise_their_class(
    admin: AdminClient,
    respx_mock: respx.MockRouter,
    name: str,
    code: Code,
    cls: type[LivecoreAPIError],
    family: type[LivecoreAPIError],
) -> None:
    case = BY_NAME[name]
    assert code in _call(case).route.errors  # the route declares what it may answer
    route = respx_mock.request(case.method, case.url).mock(return_value=refusal(code.status, code.value))
    with pytest.raises(family) as info:  # catchable by the status class
        pick(admin, name)(*case.args, **case.kwargs)
    error = info.value
    assert type(error) is cls
    assert getattr(livecore_client, cls.__name__) is cls  # exported from the package
    assert (error.status, error.code, error.message) == (code.status, code.value, f"{code.value} message")
    assert route.call_count == 1  # a refusal is final: never retried


async def test_async_errors_raise_their_class(
    async_admin: AsyncAdminClient, respx_mock: respx.MockRouter
) -> None:
    respx_mock.post(f"{GAME}/api-keys").mock(return_value=refusal(403, "dashboard_only"))
    with pytest.raises(DashboardOnlyError):
        await async_admin.api_keys.create("space-race", name="k", env="test", permission="client_sdk")


def test_new_codes_have_their_class_under_their_status_family() -> None:
    from livecore_client.errors import _BY_CODE, error_class

    for code, cls in {c[1]: c[2] for c in ERROR_CASES[:-2]}.items():
        assert _BY_CODE[code.value] is cls
        assert error_class(code.status, code.value) is cls
        assert issubclass(cls, error_class(code.status, None)), code
        assert cls.__name__ in livecore_client.errors.__all__


# --- The audit pages -------------------------------------------------------------------------------------


def _entry(n: int) -> dict[str, Any]:
    return {**ENTRY, "id": f"aud_{n}"}


AUDIT_PAGES = [
    {"entries": [_entry(1), _entry(2)], "nextBefore": 20},
    {"entries": [_entry(3), _entry(4)], "nextBefore": 10},
    {"entries": [_entry(5)], "nextBefore": None},
]
AUDIT_QUERIES = [
    {"game": "space-race", "action": "player.ban", "limit": "2"},
    {"game": "space-race", "action": "player.ban", "limit": "2", "before": "20"},
    {"game": "space-race", "action": "player.ban", "limit": "2", "before": "10"},
]


def test_iter_audit_follows_next_before(admin: AdminClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{STUDIO}/audit").mock(side_effect=[ok(page) for page in AUDIT_PAGES])
    walked = admin.audit.iter(game="space-race", action="player.ban", page_size=2)
    assert not route.called  # lazy: nothing is fetched before iteration
    assert [e.id for e in walked] == ["aud_1", "aud_2", "aud_3", "aud_4", "aud_5"]
    assert [dict(call.request.url.params) for call in route.calls] == AUDIT_QUERIES


async def test_async_iter_audit_follows_next_before(
    async_admin: AsyncAdminClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.get(f"{STUDIO}/audit").mock(side_effect=[ok(page) for page in AUDIT_PAGES])
    walked = [
        e.id async for e in async_admin.audit.iter(game="space-race", action=OperatorAction.BAN, page_size=2)
    ]
    assert walked == ["aud_1", "aud_2", "aud_3", "aud_4", "aud_5"]
    assert [dict(call.request.url.params) for call in route.calls] == AUDIT_QUERIES


def test_iter_audit_stops_on_a_repeated_keyset(admin: AdminClient, respx_mock: respx.MockRouter) -> None:
    # A server that hands back the keyset it was given would otherwise loop for ever.
    route = respx_mock.get(f"{STUDIO}/audit").mock(return_value=ok({"entries": [ENTRY], "nextBefore": 7}))
    assert len(list(admin.audit.iter())) == 2
    assert route.call_count == 2


# --- One definition for both clients ---------------------------------------------------------------------


def test_sync_and_async_methods_share_signature_and_docs() -> None:
    for case in CASES:
        sync_method, async_method = pick(AdminClient, case.name), pick(AsyncAdminClient, case.name)
        assert inspect.signature(sync_method) == inspect.signature(async_method), case.name
        assert sync_method.__doc__ and sync_method.__doc__ == async_method.__doc__, case.name
        assert sync_method.__name__ == case.name.split(".")[-1]
        assert inspect.iscoroutinefunction(async_method)
        assert not inspect.iscoroutinefunction(sync_method)
    sync_iter, async_iter = AdminClient.audit.iter, AsyncAdminClient.audit.iter
    assert inspect.signature(sync_iter).parameters == inspect.signature(async_iter).parameters
    assert inspect.isgeneratorfunction(sync_iter)
    assert inspect.isasyncgenfunction(async_iter)
    for cls in (AdminClient, AsyncAdminClient):
        assert inspect.signature(cls).parameters["studio"].kind is inspect.Parameter.KEYWORD_ONLY


def test_options_are_keyword_only_and_writes_take_an_idempotency_key() -> None:
    for case in CASES:
        params = inspect.signature(pick(AdminClient, case.name)).parameters
        kinds = [p.kind for name, p in params.items() if name != "self"]
        # What the call names (game, player, grant, ...) is positional; every option is keyword-only.
        assert kinds == [inspect.Parameter.POSITIONAL_OR_KEYWORD] * len(case.args) + [
            inspect.Parameter.KEYWORD_ONLY
        ] * (len(kinds) - len(case.args)), case.name
        if case.method != "GET":
            key = params["idempotency_key"]
            assert (key.kind, key.default) == (inspect.Parameter.KEYWORD_ONLY, None), case.name
        if "env" in params and case.name not in ("webhooks.create_endpoint", "api_keys.create"):
            assert params["env"].default is None, case.name  # the server's default
