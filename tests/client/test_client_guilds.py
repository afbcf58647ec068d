"""The guild calls over a mocked HTTP layer, sync and async: every route's request (method, path, query,
body, an edit's fields left out versus sent as null, the player's secret, the idempotency key) and its
answer read into the typed models (a join's seat or join request by status), and each guild code's class
(docs/guilds.md)."""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import attrs
import httpx
import pytest
import respx

from livecore import registry
from livecore.api.route import Auth, Idempotency, Route, Surface
from livecore.errors import Code
from livecore.guilds import api as guilds
from livecore.guilds.errors import (
    ALREADY_IN_GUILD,
    GUILD_DISBANDED,
    GUILD_FULL,
    GUILD_MEMBER_NOT_FOUND,
    GUILD_NAME_REJECTED,
    GUILD_NAME_TAKEN,
    GUILD_NOT_FOUND,
    GUILD_PERMISSION_DENIED,
    GUILDS_DISABLED,
    HELP_COOLDOWN,
    HELP_REQUEST_CLOSED,
    HELP_REQUEST_NOT_FOUND,
    HELP_REQUEST_OPEN,
    JOIN_REQUEST_NOT_FOUND,
    JOIN_REQUEST_PENDING,
    NOT_IN_GUILD,
)
from livecore_client import (
    AlreadyInGuildError,
    APIResponseValidationError,
    AsyncSdkClient,
    AsyncServerClient,
    ConflictError,
    GuildDisbandedError,
    GuildFullError,
    GuildMemberNotFoundError,
    GuildNameRejectedError,
    GuildNameTakenError,
    GuildNotFoundError,
    GuildPermissionDeniedError,
    GuildsDisabledError,
    HelpCooldownError,
    HelpRequestClosedError,
    HelpRequestNotFoundError,
    HelpRequestOpenError,
    InvalidRequestError,
    JoinRequestNotFoundError,
    JoinRequestPendingError,
    LivecoreAPIError,
    NotFoundError,
    NotInGuildError,
    PermissionDeniedError,
    SdkClient,
    ServerClient,
)
from livecore_client.errors import error_class, error_from_response
from livecore_client.models import (
    ABSENT,
    GuildJoined,
    GuildJoinPending,
    HelpStatus,
    JoinType,
    LeftReason,
    ResourceType,
    Role,
)
from tests.client.support import BASE, builder, pick, sent_json, sent_key

SDK = f"{BASE}/sdk/v1"
SERVER = f"{BASE}/server/v1"
T0 = "2026-03-02T12:00:00.000Z"
T1 = "2026-03-03T12:00:00.000Z"
IDENTITY: dict[str, Any] = {"name": "Otter", "avatar": None, "country": "FR"}
RECORD: dict[str, Any] = {
    "guildId": "gld_1",
    "name": "Star Pilots",
    "description": "We fly.",
    "badge": "star.png",
    "country": "FR",
    "joinType": "request",
    "metadata": {"tier": 2},
    "memberCount": 2,
    "createdAt": T0,
    "disbandedAt": None,
}
GUILD: dict[str, Any] = {
    **RECORD,
    "members": [
        {"externalPlayerId": "ada", "name": "Ada", "avatar": "a.png", "role": "leader", "joinedAt": T0},
        {"externalPlayerId": "bob", "name": "Lucky Fox 12", "avatar": None, "role": "member", "joinedAt": T1},
    ],
}
REQUEST: dict[str, Any] = {
    "requestId": "gjr_1",
    "guildId": "gld_1",
    "externalPlayerId": "cy",
    "message": "let me in",
    "createdAt": T1,
}
DETAIL: dict[str, Any] = {
    **RECORD,
    "members": [
        {"externalPlayerId": "ada", "displayIdentity": IDENTITY, "role": "leader", "joinedAt": T0},
    ],
    "pendingRequests": [REQUEST],
    "history": [
        {"externalPlayerId": "ada", "joinedAt": T0, "leftAt": None, "reason": None},
        {"externalPlayerId": "bob", "joinedAt": T0, "leftAt": T1, "reason": "kicked"},
    ],
}
HELP: dict[str, Any] = {
    "requestId": "ghr_1",
    "externalPlayerId": "bob",
    "type": "item",
    "resourceKey": "energy",
    "amount": 5,
    "donated": 2,
    "expiresAt": T1,
    "status": "open",
}
DONATION: dict[str, Any] = {
    "donationId": "gdn_1",
    "requestId": "ghr_1",
    "amount": 2,
    "grantId": "grt_1",
    "rewardGrantId": None,
}
STINT: dict[str, Any] = {
    "guildId": "gld_1",
    "guildName": "Star Pilots",
    "role": "co_leader",
    "joinedAt": T0,
    "leftAt": T1,
    "reason": "removed",
}
WHEN_0 = datetime(2026, 3, 2, 12, tzinfo=UTC)
WHEN_1 = datetime(2026, 3, 3, 12, tzinfo=UTC)


def refusal(status: int, code: str, details: dict[str, Any] | None = None) -> httpx.Response:
    body: dict[str, Any] = {"code": code, "message": "no"}
    if details is not None:
        body["details"] = details
    return httpx.Response(status, json={"error": body})


def _guild_read(result: Any) -> None:
    guild = result.guild
    assert (guild.guild_id, guild.join_type, guild.metadata, guild.member_count) == (
        "gld_1",
        JoinType.REQUEST,
        {"tier": 2},
        2,
    )
    assert [(m.external_player_id, m.name, m.role, m.joined_at) for m in guild.members] == [
        ("ada", "Ada", Role.LEADER, WHEN_0),
        ("bob", "Lucky Fox 12", Role.MEMBER, WHEN_1),
    ]


def _detail_read(result: Any) -> None:
    guild = result.guild
    assert guild.members[0].display_identity.country == "FR"
    assert [r.request_id for r in guild.pending_requests] == ["gjr_1"]
    assert [(h.external_player_id, h.left_at, h.reason) for h in guild.history] == [
        ("ada", None, None),
        ("bob", WHEN_1, LeftReason.KICKED),
    ]


def _search_read(result: Any) -> None:
    assert [(g.guild_id, g.created_at) for g in result.guilds] == [("gld_1", WHEN_0)]


@attrs.frozen
class Case:
    """One route through its client method: what the call sends and what its answer reads into."""

    route: Route
    method: str  # the client method (``_`` + it is the builder)
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    path: str  # after the surface prefix
    answer: dict[str, Any]
    check: Callable[[Any], None]
    body: dict[str, Any] | None = None  # the JSON sent, the body idempotency key left out
    params: dict[str, str] = attrs.Factory(dict)
    status: int = 200

    @property
    def url(self) -> str:
        return f"{BASE}{self.route.surface.value}{self.path}"

    def clients(self, sdk: Any, server: Any) -> Any:
        """The client of the route's surface, of the two given."""
        return sdk if self.route.surface is Surface.SDK else server


def _is(expected: Any) -> Callable[[Any], None]:
    def check(result: Any) -> None:
        assert result == expected

    return check


def _joined(result: Any) -> None:
    assert isinstance(result, GuildJoined) and result.role is Role.MEMBER
    _guild_read(result)


def _requested(result: Any) -> None:
    assert isinstance(result, GuildJoinPending)
    assert (result.request.request_id, result.request.message, result.request.created_at) == (
        "gjr_1",
        "let me in",
        WHEN_1,
    )


def _own(result: Any) -> None:
    assert result.role is Role.LEADER
    _guild_read(result)


def _requests(result: Any) -> None:
    assert [(r.request_id, r.external_player_id) for r in result.requests] == [("gjr_1", "cy")]


def _help(result: Any) -> None:
    request = result.help_request
    assert (request.type, request.amount, request.donated, request.status, request.expires_at) == (
        ResourceType.ITEM,
        5,
        2,
        HelpStatus.OPEN,
        WHEN_1,
    )


def _helps(result: Any) -> None:
    assert [(r.request_id, r.resource_key) for r in result.help_requests] == [("ghr_1", "energy")]


def _donation(result: Any) -> None:
    assert (result.donation.grant_id, result.donation.reward_grant_id) == ("grt_1", None)
    assert result.help_request.donated == 2


def _list(result: Any) -> None:
    _search_read(result)
    assert result.next_offset == 20


def _player_guild(result: Any) -> None:
    assert result.guild is not None and result.guild.name == "Star Pilots"
    assert [(s.guild_name, s.role, s.reason) for s in result.stints] == [
        ("Star Pilots", Role.CO_LEADER, LeftReason.REMOVED)
    ]


P = "/players/ada"
SDK_CASES = [
    Case(
        guilds.SDK_CREATE,
        "guilds.create",
        ("ada", "Star Pilots", "request"),
        {"description": "We fly.", "country": "FR", "metadata": {"tier": 2}},
        f"{P}/guilds",
        {"guild": GUILD},
        _guild_read,
        body={
            "name": "Star Pilots",
            "joinType": "request",
            "description": "We fly.",
            "badge": None,
            "country": "FR",
            "metadata": {"tier": 2},
        },
        status=201,
    ),
    Case(
        guilds.SDK_SEARCH,
        "guilds.search",
        ("pilot",),
        {"limit": 5, "offset": 10},
        "/guilds",
        {"guilds": [RECORD]},
        _search_read,
        params={"q": "pilot", "limit": "5", "offset": "10"},
    ),
    Case(guilds.SDK_READ, "guilds.get", ("gld_1",), {}, "/guilds/gld_1", {"guild": GUILD}, _guild_read),
    Case(
        guilds.SDK_MINE, "guilds.mine", ("ada",), {}, f"{P}/guild", {"guild": GUILD, "role": "leader"}, _own
    ),
    Case(
        guilds.SDK_JOIN,
        "guilds.join",
        ("ada", "gld_1"),
        {},
        f"{P}/guilds/gld_1/join",
        {"guild": GUILD, "role": "member"},
        _joined,
    ),
    Case(
        guilds.SDK_CANCEL_JOIN_REQUEST,
        "guilds.cancel_join_request",
        ("ada", "gld_1"),
        {},
        f"{P}/guilds/gld_1/join-request",
        {"cancelled": True},
        lambda r: _is(True)(r.cancelled),
    ),
    Case(
        guilds.SDK_LEAVE,
        "guilds.leave",
        ("ada",),
        {},
        f"{P}/guild/leave",
        {"left": True},
        lambda r: _is(True)(r.left),
    ),
    Case(
        guilds.SDK_EDIT,
        "guilds.edit",
        ("ada",),
        {"name": "Sky Pilots", "badge": None, "join_type": JoinType.OPEN},
        f"{P}/guild",
        {"guild": GUILD},
        _guild_read,
        body={"name": "Sky Pilots", "badge": None, "joinType": "open"},
    ),
    Case(
        guilds.SDK_JOIN_REQUESTS,
        "guilds.join_requests",
        ("ada",),
        {},
        f"{P}/guild/requests",
        {"requests": [REQUEST]},
        _requests,
    ),
    Case(
        guilds.SDK_ACCEPT,
        "guilds.accept_join_request",
        ("ada", "gjr_1"),
        {},
        f"{P}/guild/requests/gjr_1/accept",
        {"accepted": True},
        lambda r: _is(True)(r.accepted),
    ),
    Case(
        guilds.SDK_DECLINE,
        "guilds.decline_join_request",
        ("ada", "gjr_1"),
        {},
        f"{P}/guild/requests/gjr_1/decline",
        {"declined": True},
        lambda r: _is(True)(r.declined),
    ),
    Case(
        guilds.SDK_KICK,
        "guilds.kick",
        ("ada", "bob"),
        {},
        f"{P}/guild/members/bob/kick",
        {"guild": GUILD},
        _guild_read,
    ),
    Case(
        guilds.SDK_PROMOTE,
        "guilds.promote",
        ("ada", "bob"),
        {},
        f"{P}/guild/members/bob/promote",
        {"guild": GUILD},
        _guild_read,
    ),
    Case(
        guilds.SDK_DEMOTE,
        "guilds.demote",
        ("ada", "bob"),
        {},
        f"{P}/guild/members/bob/demote",
        {"guild": GUILD},
        _guild_read,
    ),
    Case(
        guilds.SDK_TRANSFER,
        "guilds.transfer_leadership",
        ("ada", "bob"),
        {},
        f"{P}/guild/leader",
        {"guild": GUILD},
        _guild_read,
        body={"externalPlayerId": "bob"},
    ),
    Case(
        guilds.SDK_ASK_HELP,
        "guilds.ask_help",
        ("ada",),
        {"type": "item", "resource_key": "energy", "amount": 5},
        f"{P}/guild/help-requests",
        {"helpRequest": HELP},
        _help,
        body={"type": "item", "resourceKey": "energy", "amount": 5},
        status=201,
    ),
    Case(
        guilds.SDK_HELP_REQUESTS,
        "guilds.help_requests",
        ("ada",),
        {},
        f"{P}/guild/help-requests",
        {"helpRequests": [HELP]},
        _helps,
    ),
    Case(
        guilds.SDK_DONATE,
        "guilds.donate_help",
        ("ada", "ghr_1", 2),
        {},
        f"{P}/guild/help-requests/ghr_1/donate",
        {"donation": DONATION, "helpRequest": HELP},
        _donation,
        body={"amount": 2},
    ),
]
SERVER_CASES = [
    Case(
        guilds.SERVER_LIST,
        "guilds.list",
        ("pilot",),
        {"player": "ada", "include_disbanded": True},
        "/guilds",
        {"guilds": [RECORD], "nextOffset": 20},
        _list,
        params={"q": "pilot", "player": "ada", "includeDisbanded": "true", "limit": "20", "offset": "0"},
    ),
    Case(guilds.SERVER_READ, "guilds.get", ("gld_1",), {}, "/guilds/gld_1", {"guild": DETAIL}, _detail_read),
    Case(
        guilds.SERVER_EDIT,
        "guilds.edit",
        ("gld_1",),
        {"description": None, "metadata": {"tier": 3}},
        "/guilds/gld_1",
        {"guild": DETAIL},
        _detail_read,
        body={"description": None, "metadata": {"tier": 3}},
    ),
    Case(
        guilds.SERVER_PLAYER_GUILD,
        "guilds.of_player",
        ("ada",),
        {},
        "/players/ada/guild",
        {"guild": RECORD, "stints": [STINT]},
        _player_guild,
    ),
    Case(
        guilds.SERVER_REMOVE,
        "guilds.remove_member",
        ("gld_1", "bob"),
        {},
        "/guilds/gld_1/members/bob/remove",
        {"guild": DETAIL},
        _detail_read,
    ),
    Case(
        guilds.SERVER_HAND_OVER,
        "guilds.hand_over",
        ("gld_1", "bob"),
        {},
        "/guilds/gld_1/leader",
        {"guild": DETAIL},
        _detail_read,
        body={"externalPlayerId": "bob"},
    ),
    Case(
        guilds.SERVER_DISBAND,
        "guilds.disband",
        ("gld_1",),
        {},
        "/guilds/gld_1/disband",
        {"guild": DETAIL},
        _detail_read,
    ),
]
CASES = [*SDK_CASES, *SERVER_CASES]


def test_every_guild_route_has_a_client_method_of_its_surface() -> None:
    assert [case.route for case in CASES] == list(guilds.ROUTES)
    sdk, server = (
        SdkClient("ck_test", base_url=BASE, player_secret="s"),
        ServerClient("sk_test", base_url=BASE),
    )
    for case in CASES:
        assert builder(case.clients(sdk, server), case.method)(*case.args, **case.kwargs).route is case.route
        # Writes are always keyed: every guild write takes a key.
        assert (case.route.idempotency is Idempotency.NONE) == (not case.route.is_write), case.route.name
    sdk.close()
    server.close()


@pytest.mark.parametrize(
    ("sync_cls", "async_cls", "cases"),
    [(SdkClient, AsyncSdkClient, SDK_CASES), (ServerClient, AsyncServerClient, SERVER_CASES)],
)
def test_sync_and_async_methods_share_signature_and_docs(
    sync_cls: type[Any], async_cls: type[Any], cases: list[Case]
) -> None:
    for case in cases:
        sync_method, async_method = pick(sync_cls, case.method), pick(async_cls, case.method)
        assert inspect.signature(sync_method) == inspect.signature(async_method), case.method
        assert sync_method.__doc__ and sync_method.__doc__ == async_method.__doc__, case.method
        assert inspect.iscoroutinefunction(async_method) and not inspect.iscoroutinefunction(sync_method)
        if case.route.is_write:
            parameter = inspect.signature(sync_method).parameters["idempotency_key"]
            assert parameter.kind is inspect.Parameter.KEYWORD_ONLY and parameter.default is None


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.route.name)
async def test_each_call_sends_its_request_and_reads_its_answer(
    case: Case,
    sdk: SdkClient,
    async_sdk: AsyncSdkClient,
    server: ServerClient,
    async_server: AsyncServerClient,
    respx_mock: respx.MockRouter,
) -> None:
    route = respx_mock.route(method=case.route.method, url=case.url).mock(
        return_value=httpx.Response(case.status, json={"data": case.answer})
    )
    sync_client, async_client = case.clients(sdk, server), case.clients(async_sdk, async_server)
    case.check(pick(sync_client, case.method)(*case.args, **case.kwargs))
    case.check(await pick(async_client, case.method)(*case.args, **case.kwargs))
    assert route.call_count == 2
    for call in route.calls:
        request = call.request
        assert dict(request.url.params) == case.params
        assert (request.headers.get("X-Player-Secret") == "sec_1") == (case.route.auth is Auth.PLAYER)
        if case.body is None:
            assert request.content == b""
            continue
        body = json.loads(request.content)
        if case.route.body_idempotency_field:
            assert body.pop("idempotencyKey") == request.headers["Idempotency-Key"]
        assert body == case.body
    if case.route.is_write:
        # Each call makes its own key.
        assert sent_key(route, 0) != sent_key(route, 1)


def test_an_edit_sends_only_the_fields_given_and_null_for_a_cleared_one(
    sdk: SdkClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.patch(f"{SDK}/players/ada/guild").mock(
        return_value=httpx.Response(200, json={"data": {"guild": GUILD}})
    )
    sdk.guilds.edit("ada")
    assert sent_json(route) == {}  # nothing given: nothing changes
    sdk.guilds.edit("ada", description=None, country=None, metadata=None, idempotency_key="e-1")
    assert sent_json(route) == {"description": None, "country": None, "metadata": None}
    assert sent_key(route) == "e-1"
    sdk.guilds.edit("ada", name="Sky", description="Up.", badge=ABSENT, join_type="request")
    assert sent_json(route) == {"name": "Sky", "description": "Up.", "joinType": "request"}


async def test_the_studio_edit_keeps_left_out_fields_out_and_keys_body_and_header_alike(
    async_server: AsyncServerClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.patch(f"{SERVER}/guilds/gld_1").mock(
        side_effect=[httpx.Response(503), httpx.Response(200, json={"data": {"guild": DETAIL}})]
    )
    await async_server.guilds.edit("gld_1", badge=None, name="Pilots", idempotency_key="mod-1")
    assert route.call_count == 2
    assert (
        sent_json(route, 0)
        == sent_json(route, 1)
        == {"name": "Pilots", "badge": None, "idempotencyKey": "mod-1"}
    )
    assert sent_key(route, 0) == sent_key(route, 1) == "mod-1"


def test_a_bad_join_type_fails_before_any_request(
    sdk: SdkClient, server: ServerClient, respx_mock: respx.MockRouter
) -> None:
    with pytest.raises(ValueError, match="closed"):
        sdk.guilds.create("ada", "Pilots", "closed")
    with pytest.raises(ValueError, match="closed"):
        sdk.guilds.edit("ada", join_type="closed")
    with pytest.raises(ValueError, match="closed"):
        server.guilds.edit("gld_1", join_type="closed")
    with pytest.raises(ValueError, match="gems"):
        sdk.guilds.ask_help("ada", type="gems", resource_key="energy", amount=1)
    assert not respx_mock.calls


def test_joining_a_request_only_guild_answers_the_request_and_sends_the_message(
    sdk: SdkClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.post(f"{SDK}/players/cy/guilds/gld_1/join").mock(
        return_value=httpx.Response(201, json={"data": {"request": REQUEST}})
    )
    requested = sdk.guilds.join("cy", "gld_1", message="let me in", player_secret="sec_c")
    _requested(requested)
    assert sent_json(route) == {"message": "let me in"}
    assert route.calls[0].request.headers["X-Player-Secret"] == "sec_c"


async def test_async_join_reads_each_answer_by_its_status(
    async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter
) -> None:
    respx_mock.post(f"{SDK}/players/cy/guilds/gld_1/join").mock(
        side_effect=[
            httpx.Response(201, json={"data": {"request": REQUEST}}),
            httpx.Response(200, json={"data": {"guild": GUILD, "role": "member"}}),
        ]
    )
    _requested(await async_sdk.guilds.join("cy", "gld_1"))
    _joined(await async_sdk.guilds.join("cy", "gld_1"))


@pytest.mark.parametrize(
    ("status", "data"),
    [(200, {"request": REQUEST}), (201, {"guild": GUILD, "role": "member"}), (200, {"guild": GUILD})],
    ids=["seat-status-request-body", "request-status-seat-body", "seat-without-role"],
)
def test_a_join_answer_whose_body_does_not_fit_its_status_is_refused(
    sdk: SdkClient, respx_mock: respx.MockRouter, status: int, data: dict[str, Any]
) -> None:
    respx_mock.post(f"{SDK}/players/cy/guilds/gld_1/join").mock(
        return_value=httpx.Response(status, json={"data": data})
    )
    with pytest.raises(APIResponseValidationError):
        sdk.guilds.join("cy", "gld_1")


def test_my_guild_in_none(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    respx_mock.get(f"{SDK}/players/ada/guild").mock(
        return_value=httpx.Response(200, json={"data": {"guild": None}})
    )
    own = sdk.guilds.mine("ada")
    assert own.guild is None and own.role is None


async def test_a_player_in_no_guild_and_the_search_defaults(
    async_server: AsyncServerClient, async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter
) -> None:
    respx_mock.get(f"{SERVER}/players/ada/guild").mock(
        return_value=httpx.Response(200, json={"data": {"guild": None, "stints": []}})
    )
    search = respx_mock.get(f"{SDK}/guilds").mock(
        return_value=httpx.Response(200, json={"data": {"guilds": []}})
    )
    found = await async_server.guilds.of_player("ada")
    assert found.guild is None and found.stints == []
    assert (await async_sdk.guilds.search()).guilds == []
    assert dict(search.calls[0].request.url.params) == {"limit": "20", "offset": "0"}


GUILD_CODES: dict[Code, type[LivecoreAPIError]] = {
    GUILDS_DISABLED: GuildsDisabledError,
    GUILD_NOT_FOUND: GuildNotFoundError,
    GUILD_DISBANDED: GuildDisbandedError,
    ALREADY_IN_GUILD: AlreadyInGuildError,
    GUILD_FULL: GuildFullError,
    GUILD_NAME_TAKEN: GuildNameTakenError,
    GUILD_NAME_REJECTED: GuildNameRejectedError,
    GUILD_PERMISSION_DENIED: GuildPermissionDeniedError,
    GUILD_MEMBER_NOT_FOUND: GuildMemberNotFoundError,
    NOT_IN_GUILD: NotInGuildError,
    JOIN_REQUEST_PENDING: JoinRequestPendingError,
    JOIN_REQUEST_NOT_FOUND: JoinRequestNotFoundError,
    HELP_REQUEST_OPEN: HelpRequestOpenError,
    HELP_COOLDOWN: HelpCooldownError,
    HELP_REQUEST_NOT_FOUND: HelpRequestNotFoundError,
    HELP_REQUEST_CLOSED: HelpRequestClosedError,
}


def test_every_guild_code_has_its_class_under_its_status_family() -> None:
    declared = {code for route in guilds.ROUTES for code in route.errors}
    named = {
        code
        for code in registry.error_codes(registry.installed())
        if code.value.startswith(("guild", "help_"))
    }
    assert set(GUILD_CODES) == named | {
        ALREADY_IN_GUILD,
        NOT_IN_GUILD,
        JOIN_REQUEST_PENDING,
        JOIN_REQUEST_NOT_FOUND,
    }
    assert set(GUILD_CODES) <= declared
    for code, cls in GUILD_CODES.items():
        assert error_class(code.status, code.value) is cls
        assert issubclass(cls, error_class(code.status, None)) and cls is not error_class(code.status, None)
    assert issubclass(GuildNameRejectedError, InvalidRequestError)
    assert issubclass(GuildsDisabledError, PermissionDeniedError)
    assert issubclass(NotInGuildError, NotFoundError) and issubclass(GuildFullError, ConflictError)


def _raising(code: Code) -> Case:
    """A route that answers ``code``."""
    return next(case for case in CASES if code in case.route.errors)


@pytest.mark.parametrize("code", list(GUILD_CODES), ids=lambda code: code.value)
async def test_each_guild_code_raises_its_class_from_a_route_that_answers_it(
    code: Code,
    sdk: SdkClient,
    async_sdk: AsyncSdkClient,
    server: ServerClient,
    async_server: AsyncServerClient,
    respx_mock: respx.MockRouter,
) -> None:
    case = _raising(code)
    respx_mock.route(method=case.route.method, url=case.url).mock(
        return_value=refusal(code.status, code.value)
    )
    sync_client, async_client = case.clients(sdk, server), case.clients(async_sdk, async_server)
    with pytest.raises(GUILD_CODES[code]) as raised:
        pick(sync_client, case.method)(*case.args, **case.kwargs)
    assert (raised.value.status, raised.value.code) == (code.status, code.value)
    with pytest.raises(GUILD_CODES[code]):
        await pick(async_client, case.method)(*case.args, **case.kwargs)


def test_help_and_permission_refusals_carry_their_details() -> None:
    def error(code: Code, details: dict[str, Any] | None) -> Any:
        envelope: dict[str, Any] = {"code": code.value, "message": "no"}
        if details is not None:
            envelope["details"] = details
        return error_from_response(code.status, {}, {"error": envelope}, "")

    cooldown = error(HELP_COOLDOWN, {"retryAt": T1})
    assert isinstance(cooldown, HelpCooldownError) and cooldown.retry_at == WHEN_1
    assert error(HELP_COOLDOWN, None).retry_at is None
    open_ = error(HELP_REQUEST_OPEN, {"requestId": "ghr_9"})
    assert isinstance(open_, HelpRequestOpenError) and open_.request_id == "ghr_9"
    assert error(HELP_REQUEST_OPEN, {"requestId": 9}).request_id is None
    denied = error(GUILD_PERMISSION_DENIED, {"role": "member"})
    assert isinstance(denied, GuildPermissionDeniedError) and denied.role == "member"
    assert error(GUILD_PERMISSION_DENIED, None).role is None
