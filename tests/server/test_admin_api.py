"""The admin API through the real app on both stores (docs/operators.md, docs/reference/admin.md): admission
(the credential first, the rate-limit bucket, CSRF, the studio, the action), every route's success and its
refusals (which change nothing), personal keys, and what each operator action does to players, grants,
attempts, webhooks, API keys and the audit log.

Games: ``space-race`` of the test manifest (studio-managed) and ``arcade`` of
tests/server/event_support.py (platform-managed, live events); players of the test environment, so
routes naming a player, a grant or an attempt send ``?env=test``. Members: olga (OWNER), gina
(GAME_ADMIN), dev (GAME_DEVELOPER), debby (GAME_DEBUGGER), vic (VIEWER)."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import timedelta
from typing import Any

import attrs
import orjson
import pytest
import pytest_asyncio

from livecore.api.route import Auth, Route
from livecore.clock import format_ts
from livecore_server.operators.access import CSRF_HEADER, SESSION_COOKIE
from tests.conftest import BACKENDS, Receiver, World, start_world
from tests.installed import ALL
from tests.secrets_scan import secrets_in_clear
from tests.server.admin_support import (
    GAME,
    MEMBERS,
    STUDIO,
    Operator,
    admin,
    change_role,
    ok,
    personal_key,
    refused,
    remove_member,
    second_studio,
    sign_in,
    snapshot,
)
from tests.server.event_support import SPRINT_OPENS, Arcade, start_event_world

ARCADE = f"{STUDIO}/games/arcade"
GEMS = {"type": "currency", "key": "gems", "amount": 7}
COINS = {"type": "currency", "key": "coins", "amount": 5}
# Every built-in area's admin route: the operators' own and those each other area declares.
ROUTES = [r for r in ALL if r.auth is Auth.MEMBER]
WRITES = [r for r in ROUTES if r.is_write]
# An item whose catalog declares an attribute, for the edit of its values.
TROPHY = """
[games.arcade.resources.trophy]
type = "item"
parameters = { level = 1 }
"""
BY_NAME = {r.name: r for r in ROUTES}


@pytest.fixture(scope="module", params=BACKENDS)
def shared_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A database for the module's tests that change nothing (each checks that it did not)."""
    if request.param == "sqlite":
        yield str(tmp_path_factory.mktemp("admin") / "shared.db")
        return
    from tests.postgres_support import reused_schema

    with reused_schema() as url:
        yield url


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(shared_db: str) -> AsyncIterator[World]:
    """One world for the refusals of every route (a world per route would cost a second each). Its
    refusals of made-up credentials, hundreds from one address, are what they test: the limit on failed
    authentications (tests/security/test_failed_auth.py) is lifted so that none of them is a 429."""
    w = await start_world(shared_db, auth_failures_per_minute=1_000_000)
    try:
        yield w
        assert secrets_in_clear(w) == {}, "a secret is stored in clear (tests/secrets_scan.py)"
    finally:
        await w.client.close()


@pytest.fixture
async def arcade(db_url: str, every_event: bool) -> AsyncIterator[Arcade]:
    """The test manifest with the ``arcade`` game, its members signed in as needed."""
    a = await start_event_world(db_url, events=TROPHY, every_event=every_event)
    try:
        yield a
        assert secrets_in_clear(a.world) == {}, "a secret is stored in clear (tests/secrets_scan.py)"
    finally:
        await a.world.client.close()


def member_id(world: World, member: str) -> str:
    return str(world.applied["members"][member]["id"])


def route_path(route: Route, **values: str) -> str:
    """The route's path with its parameters filled in (``x`` for those not given)."""
    given = {"studio": "acme", "game": "space-race", **values}
    return route.surface.value + re.sub(r"{(\w+)}", lambda m: given.get(m.group(1), "x"), route.path)


def _json(value: Any) -> Any:
    """A JSON column as read back: text (SQLite) or bytes (PostgreSQL)."""
    return None if value is None else orjson.loads(bytes(value) if isinstance(value, memoryview) else value)


# Registrations are audited too (test_a_registration_is_audited_with_the_callers_address); the tests of
# operator actions read the operators' entries.
REGISTER = "player.register"


def audit_rows(world: World) -> list[dict[str, Any]]:
    """The operators' entries of the audit log from the store, oldest first."""
    rows = world.rows(
        "SELECT action, actor, target, metadata, before, after, ip FROM audit_log WHERE action != ?"
        " ORDER BY seq",
        (REGISTER,),
    )
    return [
        {
            "action": action,
            "actor": _json(actor),
            "target": target,
            "metadata": _json(metadata),
            "before": _json(before),
            "after": _json(after),
            "ip": ip,
        }
        for action, actor, target, metadata, before, after, ip in rows
    ]


async def audit_of(world: World, op: Operator, query: str = "") -> list[dict[str, Any]]:
    """The operators' entries of one page of the audit log, as the API answers it."""
    data = ok(await admin(world, "GET", f"{STUDIO}/audit{query}", op))
    return [e for e in data["entries"] if e["action"] != REGISTER]


def kinds_of(world: World, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in world.events() if e.kind == kind]


async def test_a_registration_is_audited_with_the_callers_address(world: World) -> None:
    """Register and rotate log the originating IP in the audit log."""
    await world.register("ann")
    status, _, _ = await world.call(
        "POST",
        "/sdk/v1/players/ann/register?force=true",
        key="test-client",
        headers={"Idempotency-Key": "r2"},
    )
    assert status == 201
    entries = await audit_of_all(world, await sign_in(world, "vic"), f"?action={REGISTER}")
    assert [(e["target"], e["metadata"]["rotated"], e["ip"]) for e in entries] == [
        ("player:ann", True, "127.0.0.1"),
        ("player:ann", False, "127.0.0.1"),
    ]
    assert {e["actor"]["kind"] for e in entries} == {"api_key"}
    assert all(e["actor"]["prefix"].startswith("lc_test_") for e in entries)


async def audit_of_all(world: World, op: Operator, query: str) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = ok(await admin(world, "GET", f"{STUDIO}/audit{query}", op))["entries"]
    return entries


# --- admission: the credential first -------------------------------------------------------------------


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.name)
async def test_every_route_answers_401_without_a_valid_credential_before_csrf_body_or_lookup(
    shared: World, route: Route
) -> None:
    world = shared
    before = await snapshot(world)
    credentials: list[dict[str, str]] = [
        {},
        {"Cookie": f"{SESSION_COOKIE}=lcs_forged"},
        {"Authorization": "Bearer svc_pk_" + "A" * 43},
        {"Authorization": "Bearer svc_pk_short"},
        {"Authorization": f"Bearer {world.keys['test-server']}"},  # an API key is no member credential
    ]
    paths = [route_path(route), route_path(route, studio="nope", game="nope") + "?env=nope&limit=0"]
    # Each with a body that is not JSON, and no CSRF token or a wrong one. (The address's bucket is not
    # refilled under the manual clock: 10 requests a route leave it far from empty.)
    for n, (headers, path) in enumerate(itertools.product(credentials, paths)):
        csrf = {CSRF_HEADER: "wrong"} if n % 2 else {}
        answer = await world.call(
            route.method,
            path,
            key=None,
            headers={**headers, **csrf, "Content-Type": "application/json"},
            data=b"{not json" if route.is_write else None,
        )
        refused(answer, 401, "invalid_api_key")
        assert answer[2]["RateLimit-Limit"] == "600"  # counted against the caller's address
    assert await snapshot(world) == before


async def test_the_health_probe_needs_no_credential(world: World) -> None:
    status, _, _ = await world.call("GET", "/admin/v1/health", key=None)
    assert status == 200


# --- admission: CSRF ---------------------------------------------------------------------------------------


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("route", WRITES, ids=lambda r: r.name)
async def test_a_session_write_without_or_with_a_wrong_csrf_token_is_403_and_changes_nothing(
    shared: World, route: Route
) -> None:
    world = shared
    olga = await sign_in(world, "olga")
    other = await sign_in(world, "olga")  # another session of the same member: its token is not hers
    before = await snapshot(world)
    path = route_path(route)
    for token in (None, "", "x" * 64, other.csrf):
        headers = olga.headers(csrf=False)
        if token is not None:
            headers[CSRF_HEADER] = token
        answer = await world.call(route.method, path, key=None, json={}, headers=headers)
        refused(answer, 403, "csrf_invalid")
    # CSRF is checked before the studio of the path.
    refused(
        await admin(world, route.method, route_path(route, studio="nope"), olga, csrf=False),
        403,
        "csrf_invalid",
    )
    assert await snapshot(world) == before


async def test_a_personal_key_writes_without_a_csrf_token(world: World) -> None:
    await world.register("ann", key="test-client")
    key = await personal_key(world, "gina")
    answer = await admin(world, "POST", f"{GAME}/players/ann/ban?env=test", key, json={"reason": "cheating"})
    assert ok(answer)["applied"] is True


# --- admission: the studio of the path ---------------------------------------------------------------------


async def test_another_studios_paths_answer_403_permission_denied_and_change_nothing(world: World) -> None:
    beta = await second_studio(world)
    beta_id, rocket_id = beta["studio"]["id"], beta["games"]["rocket"]["id"]
    olga = await sign_in(world, "olga")
    olga_key = await personal_key(world, "olga")
    bob = await sign_in(world, "bob", "beta")
    acme_id = world.applied["studio"]["id"]
    before = await snapshot(world)
    attempts = [
        (olga, "beta", "rocket"),
        (olga, beta_id, rocket_id),
        (olga, "nope", "space-race"),
        (olga, "std_0000", "space-race"),
        (olga_key, "beta", "rocket"),
        (bob, "acme", "space-race"),
        (bob, acme_id, "space-race"),
    ]
    for route in ROUTES:
        if "{studio}" not in route.path:
            continue
        for op, studio, game in attempts:
            answer = await admin(
                world, route.method, route_path(route, studio=studio, game=game), op, json={}
            )
            refused(answer, 403, "permission_denied")
    # The studio's own paths: a game it does not have is 404, by key or by id.
    for game in ("rocket", rocket_id, "nope"):
        refused(await admin(world, "GET", f"{STUDIO}/games/{game}/webhooks", olga), 404, "not_found")
    assert await snapshot(world) == before
    # Each owner sees its own studio.
    assert ok(await admin(world, "GET", "/admin/v1/me", bob))["studioKey"] == "beta"
    assert [
        m["key"] for m in ok(await admin(world, "GET", "/admin/v1/studios/beta/members", bob))["members"]
    ] == ["bob"]


async def test_me_and_members_name_the_member_its_studio_and_games(world: World) -> None:
    gina = await sign_in(world, "gina")
    me = ok(await admin(world, "GET", "/admin/v1/me", gina))
    assert me["member"] == {
        "memberId": member_id(world, "gina"),
        "key": "gina",
        "email": "gina@acme.test",
        "role": "GAME_ADMIN",
    }
    assert (me["studioKey"], me["via"], me["keyId"], me["readOnly"]) == ("acme", "portal", None, False)
    assert me["csrfToken"] == gina.csrf
    assert sorted(g["key"] for g in me["games"]) == ["other-game", "space-race"]
    key = await personal_key(world, "gina", readOnly=True)
    me = ok(await admin(world, "GET", "/admin/v1/me", key))
    assert (me["via"], me["readOnly"], me["csrfToken"]) == ("api", True, None)
    assert me["keyId"]
    members = ok(await admin(world, "GET", f"{STUDIO}/members", gina))["members"]
    assert {m["key"]: m["role"] for m in members} == MEMBERS


# --- permissions by role, for each write -----------------------------------------------------------------


@attrs.define
class Bench:
    """The arcade world with every member signed in, a test webhook endpoint of the arcade game sending to
    a receiver, and one delivered delivery of it."""

    arcade: Arcade
    receiver: Receiver
    ops: dict[str, Operator]
    endpoint_id: str = ""
    delivered_id: str = ""
    counter: Any = attrs.Factory(lambda: itertools.count(1))

    @property
    def world(self) -> World:
        return self.arcade.world

    @property
    def olga(self) -> Operator:
        return self.ops["olga"]

    async def player(self) -> str:
        name = f"p{next(self.counter)}"
        await self.arcade.register(name)
        return name

    async def call(self, method: str, path: str, json: Any = None, status: int = 200) -> Any:
        return ok(await admin(self.world, method, path, self.olga, json=json), status)


@pytest.fixture
async def bench(arcade: Arcade, receiver: Receiver) -> Bench:
    b = Bench(arcade, receiver, {m: await sign_in(arcade.world, m) for m in MEMBERS})
    hook = {"name": "bench", "env": "test", "url": receiver.url, "events": ["player.banned"]}
    b.endpoint_id = (await b.call("POST", f"{ARCADE}/webhooks", hook, 201))["endpoint"]["endpointId"]
    await b.call("POST", f"{ARCADE}/webhooks/{b.endpoint_id}/send-sample", None, 202)
    await b.world.dispatcher.drain_due()
    (delivery,) = (await b.call("GET", f"{ARCADE}/webhooks/{b.endpoint_id}/deliveries"))["deliveries"]
    assert delivery["status"] == "delivered"
    b.delivered_id = delivery["deliveryId"]
    return b


Prepared = tuple[str, str, Any]  # method, path, body


async def _ban(b: Bench, member: str) -> Prepared:
    return "POST", f"{ARCADE}/players/{await b.player()}/ban?env=test", {"reason": "cheating"}


async def _unban(b: Bench, member: str) -> Prepared:
    p = await b.player()
    await b.call("POST", f"{ARCADE}/players/{p}/ban?env=test", {"reason": "cheating"})
    return "POST", f"{ARCADE}/players/{p}/unban?env=test", None


async def _set_country(b: Bench, member: str) -> Prepared:
    return "PUT", f"{ARCADE}/players/{await b.player()}/country?env=test", {"country": "FR"}


async def _edit_attributes(b: Bench, member: str) -> Prepared:
    p = await b.player()
    grant = {"quantity": 1}
    status, body, _ = await b.arcade.server("POST", f"/players/{p}/inventory/trophy/grant", grant, idem=p)
    assert status == 200, body  # an edit needs the player to hold the item
    return "PATCH", f"{ARCADE}/players/{p}/inventory/trophy/attributes?env=test", {"attributes": {"level": 2}}


async def _rotate(b: Bench, member: str) -> Prepared:
    return "POST", f"{ARCADE}/players/{await b.player()}/rotate-secret?env=test", None


async def _grant(b: Bench, member: str) -> Prepared:
    return "POST", f"{ARCADE}/grants?env=test", {"externalPlayerId": await b.player(), "entries": [GEMS]}


async def _force_claim(b: Bench, member: str) -> Prepared:
    method, path, body = await _grant(b, member)
    grant = (await b.call(method, path, body, 201))["grant"]
    return "POST", f"{ARCADE}/grants/{grant['grantId']}/force-claim?env=test", {"reason": "stuck"}


async def _force_complete(b: Bench, member: str) -> Prepared:
    attempt = await b.arcade.started(await b.player(), "golf")
    return "POST", f"{ARCADE}/attempts/{attempt['attemptId']}/force-complete?env=test", {"reason": "crash"}


async def _retry(b: Bench, member: str) -> Prepared:
    method, path, body = await _force_complete(b, member)
    await b.call(method, path, body)
    return "POST", path.replace("force-complete", "retry-reward-roll"), None


async def _webhook_create(b: Bench, member: str) -> Prepared:
    hook = {"name": f"hook-{member}", "env": "test", "url": b.receiver.url, "events": ["*"]}
    return "POST", f"{ARCADE}/webhooks", hook


async def _unpause(b: Bench, member: str) -> Prepared:
    return "POST", f"{ARCADE}/webhooks/{b.endpoint_id}/unpause", None


async def _send_sample(b: Bench, member: str) -> Prepared:
    return "POST", f"{ARCADE}/webhooks/{b.endpoint_id}/send-sample", {"kind": "player.banned"}


async def _webhook_rotate_secret(b: Bench, member: str) -> Prepared:
    return "POST", f"{ARCADE}/webhooks/{b.endpoint_id}/rotate-secret", {"overlapSeconds": 60}


async def _replay(b: Bench, member: str) -> Prepared:
    return "POST", f"{ARCADE}/deliveries/{b.delivered_id}/replay", None


async def _api_key_create(b: Bench, member: str) -> Prepared:
    return "POST", f"{ARCADE}/api-keys", {"name": f"k-{member}", "env": "test", "permission": "client_sdk"}


async def _api_key(b: Bench, member: str, action: str) -> Prepared:
    method, path, body = await _api_key_create(b, f"{member}-{action}")
    key = (await b.call(method, path, body, 201))["key"]
    return "POST", f"{ARCADE}/api-keys/{key['keyId']}/{action}", None


async def _api_key_rotate(b: Bench, member: str) -> Prepared:
    return await _api_key(b, member, "rotate")


async def _api_key_revoke(b: Bench, member: str) -> Prepared:
    return await _api_key(b, member, "revoke")


async def _personal_key_create(b: Bench, member: str) -> Prepared:
    return "POST", f"{STUDIO}/personal-keys", {"expiresInDays": 30}


async def _personal_key_revoke(b: Bench, member: str) -> Prepared:
    made = ok(
        await admin(b.world, "POST", f"{STUDIO}/personal-keys", b.ops[member], json={"expiresInDays": 30}),
        201,
    )
    return "POST", f"{STUDIO}/personal-keys/{made['key']['keyId']}/revoke", None


_EVERYONE = set(MEMBERS)
# route -> (how to make a fresh target, the members who may take its action:
# docs/operators.md#roles-and-actions)
MATRIX: dict[str, tuple[Callable[[Bench, str], Awaitable[Prepared]], set[str]]] = {
    "admin.players.ban": (_ban, {"olga", "gina", "debby"}),
    "admin.players.unban": (_unban, {"olga", "gina", "debby"}),
    "admin.players.set_country": (_set_country, {"olga", "gina", "debby"}),
    "admin.players.edit_item_attributes": (_edit_attributes, {"olga", "gina", "debby"}),
    "admin.players.rotate_secret": (_rotate, {"olga", "gina", "dev"}),
    "admin.grants.create": (_grant, {"olga", "gina"}),
    "admin.grants.force_claim": (_force_claim, {"olga", "gina", "debby"}),
    "admin.attempts.force_complete": (_force_complete, {"olga", "gina", "debby"}),
    "admin.attempts.retry_reward_roll": (_retry, {"olga", "gina", "debby"}),
    "admin.webhooks.create": (_webhook_create, {"olga", "gina", "dev"}),
    "admin.webhooks.unpause": (_unpause, {"olga", "gina", "dev"}),
    "admin.webhooks.send_sample": (_send_sample, {"olga", "gina", "dev"}),
    "admin.webhooks.rotate_secret": (_webhook_rotate_secret, {"olga", "gina", "dev"}),
    "admin.deliveries.replay": (_replay, {"olga", "gina", "dev"}),
    "admin.api_keys.create": (_api_key_create, {"olga", "gina"}),
    "admin.api_keys.rotate": (_api_key_rotate, {"olga", "gina"}),
    "admin.api_keys.revoke": (_api_key_revoke, {"olga", "gina"}),
    "admin.personal_keys.create": (_personal_key_create, _EVERYONE),
    "admin.personal_keys.revoke": (_personal_key_revoke, _EVERYONE),
}


def test_the_matrix_covers_every_write_route() -> None:
    assert set(MATRIX) == {r.name for r in WRITES}


@pytest.mark.parametrize("name", sorted(MATRIX))
async def test_each_role_may_take_exactly_its_actions_each_success_audited_once(
    bench: Bench, name: str
) -> None:
    """Allowed: the route's success status and exactly one audit entry, of the route's action, by the
    member. Refused: 403 ``permission_denied`` and nothing changed."""
    route = BY_NAME[name]
    prepare, allowed = MATRIX[name]
    world = bench.world
    for member in MEMBERS:
        method, path, body = await prepare(bench, member)
        before = await snapshot(world)
        entries_before = len(audit_rows(world))
        answer = await admin(world, method, path, bench.ops[member], json=body)
        if member in allowed:
            ok(answer, route.status)
            new = audit_rows(world)[entries_before:]
            assert [(e["action"], e["actor"]) for e in new] == [
                (route.action.value, {"kind": "member", "memberId": member_id(world, member)})
            ], (member, new)
        else:
            error = refused(answer, 403, "permission_denied")
            assert error["details"] == {"action": route.action.value}, member
            assert await snapshot(world) == before, member


# --- personal keys -----------------------------------------------------------------------------------------


async def test_a_personal_key_is_shown_once_and_never_listed_with_its_secret(world: World) -> None:
    gina = await sign_in(world, "gina")
    made = ok(await admin(world, "POST", f"{STUDIO}/personal-keys", gina, json={"expiresInDays": 30}), 201)
    secret = made["secret"]
    assert re.fullmatch(r"svc_pk_[A-Za-z0-9_-]{43}", secret)
    key = made["key"]
    assert secret.startswith(key["prefix"]) and len(key["prefix"]) < len(secret)
    assert (key["memberKey"], key["role"], key["readOnly"], key["revokedAt"]) == ("gina", None, False, None)
    assert key["expiresAt"] == format_ts(world.clock.now() + timedelta(days=30))
    status, listed, _ = await admin(world, "GET", f"{STUDIO}/personal-keys", gina)
    assert status == 200
    assert [k["keyId"] for k in listed["data"]["keys"]] == [key["keyId"]]
    assert secret not in orjson.dumps(listed).decode()
    assert "secret" not in listed["data"]["keys"][0]
    me = ok(await admin(world, "GET", "/admin/v1/me", Operator(key=secret)))
    assert (me["member"]["key"], me["via"], me["keyId"]) == ("gina", "api", key["keyId"])
    (entry,) = [e for e in audit_rows(world) if e["action"] == "personal_key.create"]
    assert secret not in orjson.dumps(entry).decode()


async def test_regenerating_a_personal_key_revokes_the_one_before(world: World) -> None:
    first = await personal_key(world, "dev")
    world.clock.advance(1)
    second = await personal_key(world, "dev")
    refused(await admin(world, "GET", "/admin/v1/me", first), 401, "invalid_api_key")
    ok(await admin(world, "GET", "/admin/v1/me", second))
    listed = ok(await admin(world, "GET", f"{STUDIO}/personal-keys", second))["keys"]
    assert [k["revokedAt"] is None for k in listed] == [True, False]  # newest first


async def test_a_read_only_key_reads_and_is_refused_every_write(world: World) -> None:
    await world.register("ann", key="test-client")
    key = await personal_key(world, "olga", readOnly=True)
    ok(await admin(world, "GET", f"{GAME}/players/ann?env=test", key))
    ok(await admin(world, "GET", f"{STUDIO}/audit", key))
    before = await snapshot(world)
    for method, path, body in [
        ("POST", f"{GAME}/players/ann/ban?env=test", {"reason": "cheating"}),
        ("POST", f"{GAME}/players/ann/rotate-secret?env=test", None),
        ("POST", f"{GAME}/grants?env=test", {"externalPlayerId": "ann", "entries": [COINS]}),
        (
            "POST",
            f"{GAME}/webhooks",
            {"name": "h", "env": "test", "url": "https://example.com/h", "events": ["*"]},
        ),
    ]:
        error = refused(await admin(world, method, path, key, json=body), 403, "permission_denied")
        assert "read-only" in error["message"]
    assert await snapshot(world) == before


async def test_a_key_with_a_lower_role_may_do_only_what_that_role_allows(world: World) -> None:
    await world.register("ann", key="test-client")
    key = await personal_key(world, "gina", role="GAME_DEVELOPER")
    listed = ok(await admin(world, "GET", f"{STUDIO}/personal-keys", key))["keys"]
    assert listed[0]["role"] == "GAME_DEVELOPER"
    before = await snapshot(world)
    refused(
        await admin(world, "POST", f"{GAME}/players/ann/ban?env=test", key, json={"reason": "x"}),
        403,
        "permission_denied",
    )
    grant = {"externalPlayerId": "ann", "entries": [COINS]}
    refused(await admin(world, "POST", f"{GAME}/grants?env=test", key, json=grant), 403, "permission_denied")
    assert await snapshot(world) == before
    ok(await admin(world, "POST", f"{GAME}/players/ann/rotate-secret?env=test", key))  # a developer may


async def test_a_key_follows_its_members_current_role(world: World) -> None:
    await world.register("ann", key="test-client")
    key = await personal_key(world, "gina")
    await change_role(world, "gina", "VIEWER")
    refused(
        await admin(world, "POST", f"{GAME}/players/ann/ban?env=test", key, json={"reason": "x"}),
        403,
        "permission_denied",
    )
    ok(await admin(world, "GET", f"{GAME}/players/ann?env=test", key))


async def test_a_key_role_above_the_members_is_refused_400(world: World) -> None:
    cases = [("vic", "GAME_ADMIN"), ("dev", "GAME_DEBUGGER"), ("debby", "GAME_DEVELOPER"), ("debby", "OWNER")]
    cases.append(("gina", "OWNER"))  # a game admin's key may not see and revoke every key
    ops = {member: await sign_in(world, member) for member, _ in cases}
    before = await snapshot(world)
    for member, role in cases:
        body = {"expiresInDays": 30, "role": role}
        error = refused(
            await admin(world, "POST", f"{STUDIO}/personal-keys", ops[member], json=body),
            400,
            "invalid_request",
        )
        assert "role" in error["details"]["fields"], (member, role)
    assert await snapshot(world) == before


async def test_a_key_lifetime_outside_7_to_365_days_is_refused_400(world: World) -> None:
    op = await sign_in(world, "olga")
    before = await snapshot(world)
    for days in (6, 366, 0, -7):
        answer = await admin(world, "POST", f"{STUDIO}/personal-keys", op, json={"expiresInDays": days})
        error = refused(answer, 400, "invalid_request")
        assert "expiresInDays" in error["details"]["fields"], days
    assert await snapshot(world) == before


@pytest.mark.parametrize("days", [7, 365])
async def test_a_key_lives_its_days_to_the_second(world: World, days: int) -> None:
    key = await personal_key(world, "olga", expiresInDays=days)
    world.clock.advance(days * 86400 - 1)
    ok(await admin(world, "GET", "/admin/v1/me", key))
    world.clock.advance(1)
    refused(await admin(world, "GET", "/admin/v1/me", key), 401, "invalid_api_key")


async def test_a_removed_members_key_and_session_stop_working(world: World) -> None:
    key = await personal_key(world, "vic")
    session = await sign_in(world, "vic")
    await remove_member(world, "vic")
    refused(await admin(world, "GET", "/admin/v1/me", key), 401, "invalid_api_key")
    refused(await admin(world, "GET", "/admin/v1/me", session), 401, "invalid_api_key")
    olga = await sign_in(world, "olga")
    assert "vic" not in [
        m["key"] for m in ok(await admin(world, "GET", f"{STUDIO}/members", olga))["members"]
    ]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", f"{GAME}/api-keys", {"name": "ci", "env": "test", "permission": "client_sdk"}),
        ("POST", f"{GAME}/api-keys/{{keyId}}/rotate", None),
        ("POST", f"{GAME}/api-keys/{{keyId}}/revoke", None),
        ("POST", f"{STUDIO}/personal-keys", {"expiresInDays": 30}),
        ("POST", f"{STUDIO}/personal-keys/{{personalKeyId}}/revoke", None),
        (
            "POST",
            f"{GAME}/webhooks",
            {"name": "prod", "env": "live", "url": "https://example.com/h", "events": ["*"]},
        ),
    ],
    ids=["api-key-create", "api-key-rotate", "api-key-revoke", "pk-create", "pk-revoke", "live-webhook"],
)
async def test_dashboard_only_actions_answer_403_dashboard_only_to_a_personal_key(
    world: World, method: str, path: str, body: Any
) -> None:
    olga = await sign_in(world, "olga")
    listed = ok(await admin(world, "GET", f"{GAME}/api-keys", olga))["keys"]
    made = ok(await admin(world, "POST", f"{STUDIO}/personal-keys", olga, json={"expiresInDays": 30}), 201)
    path = path.format(keyId=listed[0]["keyId"], personalKeyId=made["key"]["keyId"])
    keys = [Operator(key=made["secret"])]
    if "live" not in str(body):
        # Dashboard-only wins over the role and read-only. (Not for a live webhook endpoint: that it is
        # live is known from the body, after admission refused the viewer's read-only key.)
        keys.append(await personal_key(world, "vic", readOnly=True))
    before = await snapshot(world)
    for key in keys:
        refused(await admin(world, method, path, key, json=body), 403, "dashboard_only")
    assert await snapshot(world) == before
    # The same action from the portal is not refused for being dashboard-only.
    status, answer, _ = await admin(world, method, path, olga, json=body)
    assert status in (200, 201), answer


async def test_a_read_only_key_asking_for_a_live_webhook_endpoint_is_refused_as_read_only(
    world: World,
) -> None:
    """Whether an endpoint is live is read from the body, after the key was admitted to the route: a key
    that may not write at all is refused for that first (docs/operators.md#personal-keys)."""
    key = await personal_key(world, "gina", readOnly=True)
    hook = {"name": "prod", "env": "live", "url": "https://example.com/h", "events": ["*"]}
    refused(await admin(world, "POST", f"{GAME}/webhooks", key, json=hook), 403, "permission_denied")


async def test_a_personal_key_creates_a_test_webhook_endpoint(world: World) -> None:
    key = await personal_key(world, "dev")
    hook = {"name": "staging", "env": "test", "url": "https://example.com/h", "events": ["*"]}
    ok(await admin(world, "POST", f"{GAME}/webhooks", key, json=hook), 201)


async def test_owners_see_and_revoke_every_key_others_only_their_own(world: World) -> None:
    keys = {m: await personal_key(world, m) for m in ("olga", "gina", "dev")}
    olga, gina, dev = [await sign_in(world, m) for m in ("olga", "gina", "dev")]
    everyone = ok(await admin(world, "GET", f"{STUDIO}/personal-keys", olga))["keys"]
    assert sorted(k["memberKey"] for k in everyone) == ["dev", "gina", "olga"]
    ids = {k["memberKey"]: k["keyId"] for k in everyone}
    assert [
        k["memberKey"] for k in ok(await admin(world, "GET", f"{STUDIO}/personal-keys", gina))["keys"]
    ] == ["gina"]
    assert [
        k["memberKey"] for k in ok(await admin(world, "GET", f"{STUDIO}/personal-keys", keys["dev"]))["keys"]
    ] == ["dev"]
    before = await snapshot(world)
    for op, other in ((dev, "gina"), (gina, "olga"), (gina, "dev")):
        answer = await admin(world, "POST", f"{STUDIO}/personal-keys/{ids[other]}/revoke", op)
        refused(answer, 404, "personal_key_not_found")
    refused(
        await admin(world, "POST", f"{STUDIO}/personal-keys/pk_nope/revoke", olga),
        404,
        "personal_key_not_found",
    )
    assert await snapshot(world) == before
    revoked = ok(await admin(world, "POST", f"{STUDIO}/personal-keys/{ids['dev']}/revoke", olga))["key"]
    assert revoked["revokedAt"] == format_ts(world.clock.now())
    refused(await admin(world, "GET", "/admin/v1/me", keys["dev"]), 401, "invalid_api_key")
    ok(await admin(world, "POST", f"{STUDIO}/personal-keys/{ids['gina']}/revoke", gina))  # its own
    refused(await admin(world, "GET", "/admin/v1/me", keys["gina"]), 401, "invalid_api_key")
    ok(await admin(world, "GET", "/admin/v1/me", keys["olga"]))


async def test_an_owners_key_of_a_lower_role_lists_only_its_members_keys(world: World) -> None:
    await personal_key(world, "gina")
    key = await personal_key(world, "olga", role="VIEWER")
    assert [
        k["memberKey"] for k in ok(await admin(world, "GET", f"{STUDIO}/personal-keys", key))["keys"]
    ] == ["olga"]


# --- manual grant ------------------------------------------------------------------------------------------


async def test_a_manual_grant_fires_grant_created_and_the_player_sees_it(world: World) -> None:
    secret = await world.register("ann", key="test-client")
    gina = await sign_in(world, "gina")
    body = {"externalPlayerId": "ann", "entries": [COINS], "reason": "support ticket 12"}
    grant = ok(await admin(world, "POST", f"{GAME}/grants?env=test", gina, json=body), 201)["grant"]
    assert (grant["externalPlayerId"], grant["status"], grant["kind"]) == ("ann", "pending", "reward")
    assert (grant["sourceKind"], grant["sourceRefId"]) == ("admin", member_id(world, "gina"))
    assert grant["entries"] == [COINS]
    (created,) = kinds_of(world, "grant.created")
    assert created["grantId"] == grant["grantId"]
    status, pending, _ = await world.call(
        "GET", "/sdk/v1/players/ann/pending-grants", key="test-client", secret=secret
    )
    assert status == 200
    assert [g["grantId"] for g in pending["data"]["grants"]] == [grant["grantId"]]
    (entry,) = [e for e in audit_rows(world) if e["action"] == "grant.manual_create"]
    assert entry["target"] == "player:ann"
    assert entry["metadata"]["grantId"] == grant["grantId"]
    assert entry["metadata"]["reason"] == "support ticket 12"
    assert entry["after"]["status"] == "pending"


async def test_a_manual_grant_to_a_new_player_creates_it(world: World) -> None:
    olga = await sign_in(world, "olga")
    body = {"externalPlayerId": "newcomer", "entries": [COINS]}
    ok(await admin(world, "POST", f"{GAME}/grants?env=test", olga, json=body), 201)
    assert world.event_kinds() == ["player.registered", "grant.created"]


async def test_a_manual_grant_refused_changes_nothing(world: World) -> None:
    await world.register("ann", key="test-client")
    olga = await sign_in(world, "olga")
    before = await snapshot(world)
    unknown = {"type": "currency", "key": "nope", "amount": 1}
    for body, status, code in [
        ({"externalPlayerId": "ann", "entries": [unknown]}, 404, "resource_not_found"),
        (
            {"externalPlayerId": "bob", "entries": [unknown]},
            404,
            "resource_not_found",
        ),  # no player made either
        ({"externalPlayerId": "ann", "entries": []}, 400, "invalid_request"),
        ({"externalPlayerId": "ann", "entries": [COINS], "extra": 1}, 400, "invalid_request"),
        ({"entries": [COINS]}, 400, "invalid_request"),
        ({"externalPlayerId": "ann", "entries": [{**COINS, "amount": 0}]}, 400, "invalid_request"),
    ]:
        refused(await admin(world, "POST", f"{GAME}/grants?env=test", olga, json=body), status, code)
    assert await snapshot(world) == before


# --- force-claim -------------------------------------------------------------------------------------------


async def test_force_claim_credits_once_and_audits_before_and_after(arcade: Arcade) -> None:
    world = arcade.world
    await arcade.register("ann")
    olga, debby = await sign_in(world, "olga"), await sign_in(world, "debby")
    body = {"externalPlayerId": "ann", "entries": [GEMS]}
    grant = ok(await admin(world, "POST", f"{ARCADE}/grants?env=test", olga, json=body), 201)["grant"]
    path = f"{ARCADE}/grants/{grant['grantId']}/force-claim?env=test"
    claimed = ok(await admin(world, "POST", path, debby, json={"reason": "stuck in the client"}))["grant"]
    assert claimed["status"] == "claimed"
    assert await arcade.balance("ann", "gems") == 7
    again = ok(await admin(world, "POST", path, debby))["grant"]  # no body: the reason is optional
    assert again["status"] == "claimed"
    assert await arcade.balance("ann", "gems") == 7  # credited once
    assert [e["grantId"] for e in kinds_of(world, "grant.claimed")] == [grant["grantId"]]
    first = next(e for e in audit_rows(world) if e["action"] == "grant.manual_force_claim")
    assert first["target"] == f"grant:{grant['grantId']}"
    assert first["before"]["status"] == "pending"
    assert first["after"]["status"] == "claimed" and first["after"]["claimedAt"]
    assert first["metadata"]["reason"] == "stuck in the client"
    assert first["metadata"]["externalPlayerId"] == "ann"


async def test_force_claim_refusals_change_nothing(arcade: Arcade) -> None:
    world = arcade.world
    await arcade.register("ann")
    olga = await sign_in(world, "olga")
    crate = {
        "externalPlayerId": "ann",
        "kind": "crate",
        "entries": [{"type": "crate", "key": "chest", "amount": 1}],
    }
    crate_id = ok(await admin(world, "POST", f"{ARCADE}/grants?env=test", olga, json=crate), 201)["grant"][
        "grantId"
    ]
    plain = {"externalPlayerId": "ann", "entries": [GEMS]}
    grant_id = ok(await admin(world, "POST", f"{ARCADE}/grants?env=test", olga, json=plain), 201)["grant"][
        "grantId"
    ]
    before = await snapshot(world)
    for path, status, code in [
        (f"{ARCADE}/grants/{crate_id}/force-claim?env=test", 409, "crate_must_be_opened"),
        (f"{ARCADE}/grants/grt_nope/force-claim?env=test", 404, "grant_not_found"),
        (f"{ARCADE}/grants/{grant_id}/force-claim?env=live", 404, "grant_not_found"),  # another environment's
        (f"{GAME}/grants/{grant_id}/force-claim?env=test", 404, "grant_not_found"),  # another game's
    ]:
        refused(await admin(world, "POST", path, olga), status, code)
    assert await snapshot(world) == before


# --- force-complete and the retry of the reward roll ------------------------------------------------------


async def test_force_complete_then_retry_reward_roll_grants_once(arcade: Arcade) -> None:
    world = arcade.world
    await arcade.register("ann")
    await arcade.credit("ann", "gems", 10)
    await arcade.advance_to(SPRINT_OPENS)
    attempt = await arcade.started("ann")
    await arcade.progressed("ann", attempt["attemptId"], {"score": 50})  # below every milestone
    gina, debby = await sign_in(world, "gina"), await sign_in(world, "debby")
    path = f"{ARCADE}/attempts/{attempt['attemptId']}"
    refused(
        await admin(world, "POST", f"{path}/retry-reward-roll?env=test", gina), 409, "attempt_in_progress"
    )
    grants_before = world.rows("SELECT count(*) FROM grants")

    body = {"reason": "client crashed at the finish", "score": 600}
    done = ok(await admin(world, "POST", f"{path}/force-complete?env=test", debby, json=body))["attempt"]
    assert (done["status"], done["score"]) == ("completed", 600)
    (forced,) = kinds_of(world, "event.force_completed")
    assert forced["actorMemberId"] == member_id(world, "debby")
    assert forced["reason"] == "client crashed at the finish"
    assert (forced["score"], forced["priorScore"]) == (600, 50)
    assert sorted(forced["milestonesFired"]) == ["bronze", "silver"]
    assert await arcade.entries(attempt["leaderboardId"]) == [(1, "ann", 600)]  # the board follows
    assert world.rows("SELECT count(*) FROM grants") == grants_before  # no reward rolled
    entry = next(e for e in audit_rows(world) if e["action"] == "attempt.force_complete")
    assert entry["before"] == {"status": "in_progress", "score": 50}
    assert entry["after"] == {"status": "completed", "score": 600}

    refused(
        await admin(world, "POST", f"{path}/force-complete?env=test", debby, json=body),
        409,
        "attempt_not_in_progress",
    )
    created_before = len(kinds_of(world, "grant.created"))
    rolled = ok(await admin(world, "POST", f"{path}/retry-reward-roll?env=test", gina))["grants"]
    assert sorted(g["sourceKind"] for g in rolled) == [
        "event_completion",
        "event_milestone",
        "event_milestone",
    ]
    assert len(kinds_of(world, "grant.created")) == created_before + 3
    entry = next(e for e in audit_rows(world) if e["action"] == "grant.retry_reward_roll")
    assert entry["metadata"]["grantCount"] == 3
    assert sorted(entry["metadata"]["grantIds"]) == sorted(g["grantId"] for g in rolled)

    before = await snapshot(world)
    error = refused(
        await admin(world, "POST", f"{path}/retry-reward-roll?env=test", gina), 409, "rewards_already_granted"
    )
    assert error["details"]["grantCount"] == 3
    for url, status, code in [
        (f"{ARCADE}/attempts/att_nope/retry-reward-roll?env=test", 404, "attempt_not_found"),
        (f"{path}/retry-reward-roll?env=live", 404, "attempt_not_found"),
        (f"{ARCADE}/attempts/att_nope/force-complete?env=test", 404, "attempt_not_found"),
    ]:
        refused(
            await admin(world, "POST", url, gina, json={"reason": "x"} if "force" in url else None),
            status,
            code,
        )
    assert await snapshot(world) == before


# --- the player's secret, ban and unban ------------------------------------------------------------------


async def test_rotate_secret_replaces_the_players_secret_and_audits_the_address_not_the_secret(
    world: World,
) -> None:
    old = await world.register("ann", key="test-client")
    dev = await sign_in(world, "dev")
    data = ok(await admin(world, "POST", f"{GAME}/players/ann/rotate-secret?env=test", dev))
    new = data["playerSecret"]
    assert data["externalPlayerId"] == "ann" and new != old
    (rotated,) = kinds_of(world, "player.secret_rotated")
    assert rotated["via"] == "admin_rotate"
    refused(
        await world.call("GET", "/sdk/v1/players/ann/pending-grants", key="test-client", secret=old),
        401,
        "player_secret_invalid",
    )
    status, _, _ = await world.call(
        "GET", "/sdk/v1/players/ann/pending-grants", key="test-client", secret=new
    )
    assert status == 200
    (entry,) = [e for e in audit_rows(world) if e["action"] == "player.secret_rotate"]
    assert entry["ip"] == "127.0.0.1"
    assert entry["target"] == "player:ann"
    assert new not in orjson.dumps(entry).decode() and new[8:] not in orjson.dumps(entry).decode()
    before = await snapshot(world)
    refused(
        await admin(world, "POST", f"{GAME}/players/nobody/rotate-secret?env=test", dev),
        404,
        "player_not_found",
    )
    refused(
        await admin(world, "POST", f"{GAME}/players/ann/rotate-secret?env=live", dev), 404, "player_not_found"
    )
    assert await snapshot(world) == before


async def test_ban_and_unban_from_the_admin_api_act_as_the_member(world: World) -> None:
    secret = await world.register("ann", key="test-client")
    debby = await sign_in(world, "debby")
    actor = {"kind": "member", "memberId": member_id(world, "debby")}
    ban = ok(
        await admin(world, "POST", f"{GAME}/players/ann/ban?env=test", debby, json={"reason": "cheating"})
    )
    assert ban["applied"] is True
    assert (ban["ban"]["banned"], ban["ban"]["reason"]) == (True, "cheating")
    (banned,) = kinds_of(world, "player.banned")
    assert banned["actor"] == actor and banned["reason"] == "cheating"
    refused(
        await world.call("POST", "/sdk/v1/players/ann/grants/grt_x/claim", key="test-client", secret=secret),
        403,
        "player_banned",
    )
    again = ok(
        await admin(world, "POST", f"{GAME}/players/ann/ban?env=test", debby, json={"reason": "again"})
    )
    assert again["applied"] is False and again["ban"]["reason"] == "again"
    assert len(kinds_of(world, "player.banned")) == 1
    unban = ok(await admin(world, "POST", f"{GAME}/players/ann/unban?env=test", debby))
    assert unban["applied"] is True and unban["ban"]["banned"] is False
    (unbanned,) = kinds_of(world, "player.unbanned")
    assert unbanned["actor"] == actor
    assert ok(await admin(world, "POST", f"{GAME}/players/ann/unban?env=test", debby))["applied"] is False
    assert len(kinds_of(world, "player.unbanned")) == 1
    entries = [e for e in audit_rows(world) if e["target"] == "player:ann"]
    assert [(e["action"], e["before"], e["after"]) for e in entries] == [
        ("player.ban", {"banned": False}, {"banned": True}),
        ("player.ban", {"banned": True}, {"banned": True}),
        ("player.unban", {"banned": True}, {"banned": False}),
        ("player.unban", {"banned": False}, {"banned": False}),
    ]
    before = await snapshot(world)
    refused(
        await admin(world, "POST", f"{GAME}/players/ann/ban?env=test", debby, json={"reason": ""}),
        400,
        "invalid_request",
    )
    refused(
        await admin(world, "POST", f"{GAME}/players/nobody/ban?env=test", debby, json={"reason": "x"}),
        404,
        "player_not_found",
    )
    assert await snapshot(world) == before


# --- webhooks ------------------------------------------------------------------------------------------


def signature_ok(secret: str, header: str, body: bytes) -> bool:
    parts = dict(p.split("=", 1) for p in header.split(","))
    expected = hmac.new(secret.encode(), parts["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts["v1"])


# The game's endpoints are listed: the ones that keep every event are left out (tests/kept.py).
@pytest.mark.parametrize("every_event", [False])
async def test_webhook_endpoints_are_created_with_their_secret_once_and_listed(
    world: World, receiver: Receiver
) -> None:
    dev = await sign_in(world, "dev")
    hook = {"name": "backend", "env": "test", "url": receiver.url, "events": ["player.registered"]}
    made = ok(await admin(world, "POST", f"{GAME}/webhooks", dev, json=hook), 201)
    secret = made["secret"]
    assert secret.startswith("whsec_")
    endpoint = made["endpoint"]
    assert {k: endpoint[k] for k in ("name", "env", "url", "events", "status", "consecutiveFailures")} == {
        **hook,
        "status": "active",
        "consecutiveFailures": 0,
    }
    status, listed, _ = await admin(world, "GET", f"{GAME}/webhooks", dev)
    assert status == 200 and listed["data"]["endpoints"] == [endpoint]
    assert secret not in orjson.dumps(listed).decode()
    # It works: a test player's registration is sent to it, signed with that secret.
    await world.register("ann", key="test-client")
    await world.dispatcher.drain_due()
    (got,) = await receiver.wait_for(1)
    assert got.envelope["eventName"] == "player.registered"
    assert signature_ok(secret, got.headers["X-Signature"], got.body)
    deliveries = ok(await admin(world, "GET", f"{GAME}/webhooks/{endpoint['endpointId']}/deliveries", dev))
    assert [(d["eventName"], d["status"]) for d in deliveries["deliveries"]] == [
        ("player.registered", "delivered")
    ]

    before = await snapshot(world)
    for body, field in [
        ({**hook, "name": "b2", "url": "ftp://example.com/h"}, "url"),
        ({**hook, "name": "b2", "url": "http://10.0.0.1/h"}, "url"),
        ({**hook, "name": "b2", "url": "not a url"}, "url"),
        ({**hook, "name": "b2", "events": []}, "events"),
        ({**hook, "name": "b2", "events": ["*", "player.registered"]}, "events"),
    ]:
        error = refused(
            await admin(world, "POST", f"{GAME}/webhooks", dev, json=body), 400, "invalid_request"
        )
        assert field in error["details"]["fields"], body
    refused(await admin(world, "POST", f"{GAME}/webhooks", dev, json=hook), 409, "conflict")
    refused(
        await admin(world, "GET", f"{GAME}/webhooks/whe_nope/deliveries", dev),
        404,
        "webhook_endpoint_not_found",
    )
    for action in ("unpause", "send-sample"):
        url = f"{GAME}/webhooks/whe_nope/{action}"
        refused(await admin(world, "POST", url, dev), 404, "webhook_endpoint_not_found")
    refused(await admin(world, "POST", f"{GAME}/deliveries/dlv_nope/replay", dev), 404, "delivery_not_found")
    # Another game's endpoint is not found through this game's paths.
    other = f"/admin/v1/studios/acme/games/other-game/webhooks/{endpoint['endpointId']}"
    refused(await admin(world, "GET", f"{other}/deliveries", dev), 404, "webhook_endpoint_not_found")
    assert await snapshot(world) == before
    # A live endpoint, from the portal.
    live = {**hook, "name": "prod", "env": "live"}
    assert (
        ok(await admin(world, "POST", f"{GAME}/webhooks", dev, json=live), 201)["endpoint"]["env"] == "live"
    )


async def test_send_sample_arrives_marked_as_a_test(world: World, receiver: Receiver) -> None:
    gina = await sign_in(world, "gina")
    hook = {"name": "backend", "env": "test", "url": receiver.url, "events": ["player.registered"]}
    made = ok(await admin(world, "POST", f"{GAME}/webhooks", gina, json=hook), 201)
    endpoint_id = made["endpoint"]["endpointId"]
    sent = ok(
        await admin(
            world, "POST", f"{GAME}/webhooks/{endpoint_id}/send-sample", gina, json={"kind": "grant.created"}
        ),
        202,
    )
    assert sent["eventName"] == "grant.created"
    await world.dispatcher.drain_due()
    (got,) = await receiver.wait_for(1)
    assert got.headers["X-Svc-Webhook-Test"] == "1"
    assert (got.envelope["id"], got.envelope["eventName"]) == (sent["eventId"], "grant.created")
    assert signature_ok(made["secret"], got.headers["X-Signature"], got.body)
    before = await snapshot(world)
    url = f"{GAME}/webhooks/{endpoint_id}/send-sample"
    refused(await admin(world, "POST", url, gina, json={"kind": "no.such_kind"}), 400, "invalid_request")
    assert await snapshot(world) == before


@pytest.mark.parametrize("every_event", [False])  # the game's endpoints are listed (tests/kept.py)
async def test_a_paused_endpoint_is_unpaused_and_a_failed_delivery_replayed(
    world: World, receiver: Receiver
) -> None:
    world.only_hourly_jobs()  # about 31 hours of service time
    dev = await personal_key(world, "dev")  # a session would end after 12 hours
    hook = {"name": "flaky", "env": "test", "url": receiver.url, "events": ["player.registered"]}
    endpoint_id = ok(await admin(world, "POST", f"{GAME}/webhooks", dev, json=hook), 201)["endpoint"][
        "endpointId"
    ]
    base = f"{GAME}/webhooks/{endpoint_id}"

    async def advance(seconds: float) -> None:
        ok(await world.call("POST", "/server/v1/dev/clock/advance", json={"seconds": seconds}))

    receiver.default_status = 500
    ok(await admin(world, "POST", f"{base}/send-sample", dev, json={"kind": "player.registered"}), 202)
    await world.dispatcher.drain_due()
    for wait in (30, 120, 600, 3600):  # the retry schedule; the fifth failure pauses the endpoint
        await advance(wait)
    assert len(receiver.received) == 5
    (endpoint,) = ok(await admin(world, "GET", f"{GAME}/webhooks", dev))["endpoints"]
    assert (endpoint["status"], endpoint["consecutiveFailures"]) == ("paused", 5)
    (held,) = ok(await admin(world, "GET", f"{base}/deliveries", dev))["deliveries"]
    assert (held["status"], held["attempts"]) == ("pending", 5)
    refused(
        await admin(world, "POST", f"{GAME}/deliveries/{held['deliveryId']}/replay", dev), 409, "conflict"
    )

    resumed = ok(await admin(world, "POST", f"{base}/unpause", dev))
    assert resumed["applied"] is True and resumed["endpoint"]["status"] == "active"
    entry = next(e for e in audit_rows(world) if e["action"] == "webhook.unpause")
    assert (entry["before"]["status"], entry["after"]["status"]) == ("paused", "active")
    assert ok(await admin(world, "POST", f"{base}/unpause", dev))["applied"] is False  # already active
    await advance(6 * 3600)
    await advance(24 * 3600)
    assert len(receiver.received) == 7
    (failed,) = ok(await admin(world, "GET", f"{base}/deliveries?status=failed", dev))["deliveries"]
    assert failed["deliveryId"] == held["deliveryId"] and failed["lastStatus"] == 500

    receiver.default_status = 200
    replayed = ok(await admin(world, "POST", f"{GAME}/deliveries/{failed['deliveryId']}/replay", dev), 202)[
        "delivery"
    ]
    assert replayed["deliveryId"] != failed["deliveryId"] and replayed["status"] == "pending"
    await world.dispatcher.drain_due()
    await receiver.wait_for(8)
    assert receiver.received[7].envelope["id"] == receiver.received[0].envelope["id"]  # the same event again
    delivered = ok(await admin(world, "GET", f"{base}/deliveries?status=delivered", dev))["deliveries"]
    assert [d["deliveryId"] for d in delivered] == [replayed["deliveryId"]]


# --- API keys ----------------------------------------------------------------------------------------------


async def test_api_keys_are_created_rotated_with_60_days_grace_and_revoked_at_once(world: World) -> None:
    olga = await sign_in(world, "olga")

    async def pings(secret: str) -> int:
        status, _, _ = await world.call("GET", "/server/v1/ping", key=secret)
        return status

    body = {"name": "ci", "env": "test", "permission": "server_integration"}
    made = ok(await admin(world, "POST", f"{GAME}/api-keys", olga, json=body), 201)
    old = made["secret"]
    assert old.startswith("lc_test_") and old.startswith(made["key"]["prefix"])
    assert (made["key"]["status"], made["retiring"]) == ("active", None)
    listed = ok(await admin(world, "GET", f"{GAME}/api-keys", olga))
    assert old not in orjson.dumps(listed).decode()
    assert made["key"] in listed["keys"]
    assert await pings(old) == 200
    refused(await admin(world, "POST", f"{GAME}/api-keys", olga, json=body), 409, "conflict")

    rotated = ok(await admin(world, "POST", f"{GAME}/api-keys/{made['key']['keyId']}/rotate", olga), 201)
    new = rotated["secret"]
    assert (
        rotated["retiring"]["keyId"] == made["key"]["keyId"] and rotated["retiring"]["status"] == "retiring"
    )
    assert rotated["retiring"]["retiresAt"] == format_ts(world.clock.now() + timedelta(days=60))
    assert (rotated["key"]["name"], rotated["key"]["status"]) == ("ci", "active")
    assert await pings(old) == 200 and await pings(new) == 200
    refused(
        await admin(world, "POST", f"{GAME}/api-keys/{made['key']['keyId']}/rotate", olga), 409, "conflict"
    )
    entry = next(e for e in audit_rows(world) if e["action"] == "api_key.rotate")
    assert new not in orjson.dumps(entry).decode() and old not in orjson.dumps(entry).decode()

    world.clock.advance(60 * 86400 - 1)
    assert await pings(old) == 200
    world.clock.advance(1)
    assert await pings(old) == 401
    assert await pings(new) == 200

    olga = await sign_in(world, "olga")  # the session of 60 days ago has ended
    revoked = ok(await admin(world, "POST", f"{GAME}/api-keys/{rotated['key']['keyId']}/revoke", olga))["key"]
    assert revoked["status"] == "revoked"
    assert await pings(new) == 401  # at once, though the key was in the cache

    before = await snapshot(world)
    for action in ("rotate", "revoke"):
        url = f"{GAME}/api-keys/key_nope/{action}"
        refused(await admin(world, "POST", url, olga), 404, "api_key_not_found")
    other = ok(await admin(world, "GET", "/admin/v1/studios/acme/games/other-game/api-keys", olga))["keys"][0]
    url = f"{GAME}/api-keys/{other['keyId']}/revoke"  # another game's key, through this game's path
    refused(await admin(world, "POST", url, olga), 404, "api_key_not_found")
    assert await snapshot(world) == before


async def test_an_api_key_made_in_the_portal_serves_its_game(world: World) -> None:
    gina = await sign_in(world, "gina")
    body = {"name": "web", "env": "test", "permission": "client_sdk"}
    client = ok(await admin(world, "POST", f"{GAME}/api-keys", gina, json=body), 201)["secret"]
    status, answer, _ = await world.call("POST", "/sdk/v1/players/ann/register", key=client)
    assert status == 201, answer
    status, _, _ = await world.call("GET", "/server/v1/ping", key=client)
    assert status == 403  # a client key on a server route


# --- the audit log -----------------------------------------------------------------------------------------


async def test_the_audit_log_filters_by_game_action_target_and_member_and_pages_by_keyset(
    arcade: Arcade,
) -> None:
    world = arcade.world
    await arcade.register("ann", "bob")
    await world.register("ann", key="test-client")
    olga, gina, dev = [await sign_in(world, m) for m in ("olga", "gina", "dev")]
    ok(await admin(world, "POST", f"{ARCADE}/players/ann/ban?env=test", gina, json={"reason": "x"}))
    ok(await admin(world, "POST", f"{ARCADE}/players/bob/ban?env=test", gina, json={"reason": "x"}))
    ok(
        await admin(
            world,
            "POST",
            f"{GAME}/grants?env=test",
            olga,
            json={"externalPlayerId": "ann", "entries": [COINS]},
        ),
        201,
    )
    ok(await admin(world, "POST", f"{ARCADE}/players/ann/rotate-secret?env=test", dev))

    everything = await audit_of(world, olga)
    assert [e["action"] for e in everything[:4]] == [
        "player.secret_rotate",
        "grant.manual_create",
        "player.ban",
        "player.ban",
    ]
    assert [e["action"] for e in everything[4:]] == ["member.sign_in"] * 3
    arcade_id = world.applied["games"]["arcade"]["id"]
    by_game = await audit_of(world, olga, "?game=arcade")
    assert [e["action"] for e in by_game] == ["player.secret_rotate", "player.ban", "player.ban"]
    assert {e["gameId"] for e in by_game} == {arcade_id}
    assert await audit_of(world, olga, f"?game={arcade_id}") == by_game
    assert [e["target"] for e in await audit_of(world, olga, "?action=player.ban")] == [
        "player:bob",
        "player:ann",
    ]
    by_target = await audit_of(world, olga, "?target=player:ann&game=arcade")
    assert [e["action"] for e in by_target] == ["player.secret_rotate", "player.ban"]
    by_member = await audit_of(world, olga, f"?member={member_id(world, 'gina')}")
    assert [e["action"] for e in by_member] == ["player.ban", "player.ban", "member.sign_in"]
    assert all(e["actor"]["memberId"] == member_id(world, "gina") for e in by_member)

    paged: list[dict[str, Any]] = []
    query = "?limit=2"
    while True:
        data = ok(await admin(world, "GET", f"{STUDIO}/audit{query}", olga))
        assert len(data["entries"]) <= 2
        paged += data["entries"]
        if data["nextBefore"] is None:
            break
        query = f"?limit=2&before={data['nextBefore']}"
    assert [e for e in paged if e["action"] != REGISTER] == everything
    refused(await admin(world, "GET", f"{STUDIO}/audit?game=nope", olga), 404, "not_found")
    refused(await admin(world, "GET", f"{STUDIO}/audit?limit=0", olga), 400, "invalid_request")


async def test_the_games_audit_route_answers_the_studio_routes_game_filter_and_only_that_game(
    arcade: Arcade,
) -> None:
    """``GET /audit`` under the game's path, the same filters, paging and shape as the
    studio's route with ``?game=``; the studio's route still lists every game's entries and its own."""
    world = arcade.world
    await arcade.register("ann", "bob")
    await world.register("ann", key="test-client")
    olga, gina, vic = [await sign_in(world, m) for m in ("olga", "gina", "vic")]
    ok(await admin(world, "POST", f"{ARCADE}/players/ann/ban?env=test", gina, json={"reason": "x"}))
    ok(await admin(world, "POST", f"{ARCADE}/players/bob/ban?env=test", olga, json={"reason": "x"}))
    ok(await admin(world, "POST", f"{GAME}/players/ann/ban?env=test", gina, json={"reason": "x"}))

    def game_audit(game_path: str, query: str = "") -> Awaitable[tuple[int, Any, Any]]:
        return admin(world, "GET", f"{game_path}/audit{query}", vic)

    for game, path in (("arcade", ARCADE), ("space-race", GAME)):
        for query in ("", "?action=player.ban", "?target=player:ann", f"?member={member_id(world, 'gina')}"):
            studio_wide = ok(await admin(world, "GET", f"{STUDIO}/audit?game={game}&{query[1:]}", vic))
            assert ok(await game_audit(path, query)) == studio_wide, (game, query)
    arcade_bans = [e for e in ok(await game_audit(ARCADE))["entries"] if e["action"] != REGISTER]
    assert [e["target"] for e in arcade_bans] == ["player:bob", "player:ann"]
    assert {e["gameId"] for e in arcade_bans} == {world.applied["games"]["arcade"]["id"]}
    # The studio's route: every game's entries, and the studio's own (sign-ins carry no game).
    everything = await audit_of(world, olga)
    assert [e["action"] for e in everything[:3]] == ["player.ban"] * 3
    assert {e["gameId"] for e in everything[:3]} == {
        world.applied["games"]["arcade"]["id"],
        world.applied["games"]["space-race"]["id"],
    }
    assert {e["gameId"] for e in everything[3:]} == {None}

    paged: list[dict[str, Any]] = []
    query = "?limit=1"
    while True:
        data = ok(await game_audit(ARCADE, query))
        assert len(data["entries"]) <= 1
        paged += data["entries"]
        if data["nextBefore"] is None:
            break
        query = f"?limit=1&before={data['nextBefore']}"
    assert paged == ok(await game_audit(ARCADE))["entries"]
    refused(await admin(world, "GET", f"{STUDIO}/games/nope/audit", olga), 404, "not_found")
    refused(await game_audit(ARCADE, "?limit=0"), 400, "invalid_request")
    refused(await game_audit(ARCADE, "?game=arcade"), 400, "invalid_request")


async def test_the_portals_audit_page_of_a_game_shows_only_that_games_entries(arcade: Arcade) -> None:
    world = arcade.world
    await arcade.register("ann")
    await world.register("bob", key="test-client")
    olga = await sign_in(world, "olga")
    ok(await admin(world, "POST", f"{ARCADE}/players/ann/ban?env=test", olga, json={"reason": "x"}))
    ok(await admin(world, "POST", f"{GAME}/players/bob/ban?env=test", olga, json={"reason": "x"}))
    resp = await world.client.get("/portal/audit", params={"game": "arcade"}, headers=olga.headers())
    html = await resp.text()
    assert resp.status == 200, html
    assert "player:ann" in html and "player:bob" not in html and "member.sign_in" not in html
    resp = await world.client.get("/portal/audit", headers=olga.headers())
    html = await resp.text()
    assert "player:ann" in html and "player:bob" in html and "member.sign_in" in html
    resp = await world.client.get("/portal/audit", params={"game": "nope"}, headers=olga.headers())
    assert resp.status == 404 and "not_found" in await resp.text()


async def test_a_personal_keys_actions_are_audited_with_the_key_and_via(world: World) -> None:
    await world.register("ann", key="test-client")
    key = await personal_key(world, "gina")
    me = ok(await admin(world, "GET", "/admin/v1/me", key))
    ok(await admin(world, "POST", f"{GAME}/players/ann/ban?env=test", key, json={"reason": "x"}))
    (entry,) = await audit_of(world, key, "?action=player.ban")
    assert entry["actor"] == {
        "kind": "personal_key",
        "memberId": member_id(world, "gina"),
        "keyId": me["keyId"],
        "via": "api",
    }


# --- the admin rate-limit bucket ----------------------------------------------------------------------------


async def test_the_admin_bucket_is_600_a_minute_per_session_and_per_key(world: World) -> None:
    first, second = await sign_in(world, "olga"), await sign_in(world, "olga")
    key = await personal_key(world, "olga")

    async def remaining(op: Operator) -> int:
        status, _, headers = await admin(world, "GET", f"{STUDIO}/members", op)
        assert status == 200 and headers["RateLimit-Limit"] == "600"
        return int(headers["RateLimit-Remaining"])

    start = await remaining(first)
    for n in range(1, 4):
        assert await remaining(first) == start - n
    # The other session and the key count apart: sign-in's GET /me was the other session's first.
    assert await remaining(second) == 598
    assert await remaining(key) == 599
    assert await remaining(first) == start - 4


@pytest.mark.parametrize("world_config", [{"admin_requests_per_minute": 3}])
async def test_serve_admin_requests_per_minute_sets_the_admin_bucket(world: World) -> None:
    """``serve --admin-requests-per-minute``: each personal key (and session) gets that many a minute."""
    key = await personal_key(world, "olga")
    other = await personal_key(world, "gina")
    answers = [await admin(world, "GET", f"{STUDIO}/members", key) for _ in range(4)]
    assert [status for status, _, _ in answers] == [200, 200, 200, 429]
    assert answers[0][2]["RateLimit-Limit"] == "3"
    assert answers[3][1]["error"]["code"] == "rate_limited"
    status, _, _ = await admin(world, "GET", f"{STUDIO}/members", other)
    assert status == 200


# --- the player look-up ------------------------------------------------------------------------------------


# The game's deliveries are counted, and its endpoint subscribes to every kind: the endpoints that keep
# every event (tests/kept.py) would add theirs.
@pytest.mark.parametrize("every_event", [False])
async def test_the_player_look_up_shows_everything_about_the_player(
    arcade: Arcade, receiver: Receiver
) -> None:
    world = arcade.world
    olga = await sign_in(world, "olga")
    hook = {"name": "all", "env": "test", "url": receiver.url, "events": ["*"]}
    ok(await admin(world, "POST", f"{ARCADE}/webhooks", olga, json=hook), 201)
    await arcade.register("ann", "bob")
    await arcade.befriend("ann", "bob")
    await arcade.credit("ann", "gems", 12)
    status, answer, _ = await arcade.server(
        "POST", "/players/ann/inventory/badge/grant", {"quantity": 2}, idem="badge-1"
    )
    assert status == 200, answer
    grant = {"externalPlayerId": "ann", "entries": [GEMS], "reason": "apology"}
    grant_id = ok(await admin(world, "POST", f"{ARCADE}/grants?env=test", olga, json=grant), 201)["grant"][
        "grantId"
    ]
    ok(await admin(world, "POST", f"{ARCADE}/players/ann/ban?env=test", olga, json={"reason": "spam"}))
    ok(await admin(world, "POST", f"{ARCADE}/players/bob/ban?env=test", olga, json={"reason": "spam"}))
    await world.dispatcher.drain_due()

    data = ok(await admin(world, "GET", f"{ARCADE}/players/ann?env=test", olga))
    assert data["profile"]["player"]["externalPlayerId"] == "ann"
    assert [g["grantId"] for g in data["profile"]["grants"]] == [grant_id]
    assert (data["ban"]["banned"], data["ban"]["reason"]) == (True, "spam")
    assert [f["externalPlayerId"] for f in data["friends"]] == ["bob"]
    assert {c["key"]: c["balance"] for c in data["wallet"]}["gems"] == 12
    assert {i["key"]: i["quantity"] for i in data["inventory"] if not i["system"]} == {
        "badge": 2,
        "trophy": 0,
    }
    assert data["country"] == {"country": None, "resolvedCountry": None, "countryOverride": None}
    assert [(e["action"], e["target"]) for e in data["audit"]] == [
        ("player.ban", "player:ann"),
        ("grant.manual_create", "player:ann"),
        ("player.register", "player:ann"),
    ]
    kinds = sorted({d["eventName"] for d in data["deliveries"]})
    assert {"player.registered", "player.banned", "grant.created"} <= set(kinds)
    ann_id = data["profile"]["player"]["id"]
    about_ann = [e.id for e in world.events() if ann_id in orjson.dumps(e.data).decode()]
    assert {d["eventId"] for d in data["deliveries"]} <= set(about_ann)
    assert len(data["deliveries"]) == len([e for e in about_ann])  # every event about her was delivered
    assert (await world_delivery_count(world)) > len(data["deliveries"])  # bob's are left out

    limited = ok(await admin(world, "GET", f"{ARCADE}/players/ann?env=test&limit=1", olga))
    assert len(limited["audit"]) == 1 and len(limited["deliveries"]) == 1
    refused(await admin(world, "GET", f"{ARCADE}/players/nobody?env=test", olga), 404, "player_not_found")
    refused(await admin(world, "GET", f"{ARCADE}/players/ann?env=live", olga), 404, "player_not_found")
    refused(await admin(world, "GET", f"{ARCADE}/players/ann?env=prod", olga), 400, "invalid_request")


async def world_delivery_count(world: World) -> int:
    return int(world.rows("SELECT count(*) FROM webhook_deliveries")[0][0])


# --- the declared limits ----------------------------------------------------------------------------------


async def test_the_declared_limits_are_refused_400_naming_the_field_and_change_nothing(
    world: World, receiver: Receiver
) -> None:
    await world.register("ann", key="test-client")
    olga = await sign_in(world, "olga")
    hook = {"name": "h", "env": "test", "url": receiver.url, "events": ["*"]}
    endpoint_id = ok(await admin(world, "POST", f"{GAME}/webhooks", olga, json=hook), 201)["endpoint"][
        "endpointId"
    ]
    grant = ok(
        await admin(
            world,
            "POST",
            f"{GAME}/grants?env=test",
            olga,
            json={"externalPlayerId": "ann", "entries": [COINS]},
        ),
        201,
    )["grant"]
    key = {"env": "test", "permission": "client_sdk"}
    before = await snapshot(world)
    cases: list[tuple[str, str, Any, str]] = [
        *(("GET", f"{STUDIO}/audit?limit={n}", None, "limit") for n in (0, -1, 201)),
        *(("GET", f"{GAME}/players/ann?env=test&limit={n}", None, "limit") for n in (0, -1, 201)),
        *(
            ("GET", f"{GAME}/webhooks/{endpoint_id}/deliveries?limit={n}", None, "limit")
            for n in (0, -1, 201)
        ),
        ("GET", f"{STUDIO}/audit?limit=ten", None, "limit"),
        ("GET", f"{STUDIO}/audit?colour=red", None, "colour"),
        ("POST", f"{GAME}/webhooks", {**hook, "name": ""}, "name"),
        ("POST", f"{GAME}/webhooks", {**hook, "name": "n" * 201}, "name"),
        ("POST", f"{GAME}/webhooks", {**hook, "name": "u", "url": receiver.url + "?" + "a" * 200}, "url"),
        ("POST", f"{GAME}/webhooks", {**hook, "name": "x", "env": "staging"}, "env"),
        ("POST", f"{GAME}/api-keys", {**key, "name": ""}, "name"),
        ("POST", f"{GAME}/api-keys", {**key, "name": "k" * 201}, "name"),
        ("POST", f"{GAME}/api-keys", {**key, "name": "k", "permission": "root"}, "permission"),
        (
            "POST",
            f"{GAME}/grants?env=test",
            {"externalPlayerId": "ann", "entries": [COINS], "reason": "r" * 201},
            "reason",
        ),
        ("POST", f"{GAME}/grants/{grant['grantId']}/force-claim?env=test", {"reason": "r" * 201}, "reason"),
        ("POST", f"{GAME}/players/ann/ban?env=test", {"reason": "r" * 201}, "reason"),
        ("POST", f"{STUDIO}/personal-keys", {"expiresInDays": 30, "role": "KING"}, "role"),
    ]
    for method, path, body, field in cases:
        error = refused(await admin(world, method, path, olga, json=body), 400, "invalid_request")
        assert field in error["details"]["fields"], (path, body, error)
    assert await snapshot(world) == before


# --- idempotency of operator writes ------------------------------------------------------------------------


async def test_a_replayed_write_answers_the_same_without_storing_a_secret_in_clear(world: World) -> None:
    olga = await sign_in(world, "olga")
    body = {"name": "ci", "env": "test", "permission": "server_integration"}
    headers = {"Idempotency-Key": "create-ci-1"}
    first = await admin(world, "POST", f"{GAME}/api-keys", olga, json=body, headers=headers)
    made = ok(first, 201)
    assert len([e for e in audit_rows(world) if e["action"] == "api_key.create"]) == 1
    again = await admin(world, "POST", f"{GAME}/api-keys", olga, json=body, headers=headers)
    assert again[0] in (200, 201), again[1]
    assert len([e for e in audit_rows(world) if e["action"] == "api_key.create"]) == 1
    assert again[1]["data"]["key"]["keyId"] == made["key"]["keyId"]
