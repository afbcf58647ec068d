"""Shared-leaderboard methods over a mocked HTTP layer (docs/leaderboards.md): the read's query (``limit``,
``cursor``, ``around``, ``division``, ``period``, ``previous``) and its parsing, the score submission's body
and idempotency key, rollover-now, the refusals' classes, and ``leaderboard.period_finalized`` read back
by ``construct_event`` from the payload the core's rollover builds."""

from __future__ import annotations

import inspect
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import respx

import livecore_client
from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.games import Entry, Game, GameSettings, RankBand, Resource, ResourceType, Studio
from livecore.hashing import KeyedHasher
from livecore.leaderboards import commands as lb
from livecore.leaderboards.settings import (
    LEADERBOARD_SETTINGS,
    Aggregation,
    Divisions,
    LeaderboardSettings,
    Period,
)
from livecore.memory import MemoryStore
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore.webhooks.envelope import build_envelope
from livecore.webhooks.signing import signature_header
from livecore_client import (
    AsyncSdkClient,
    AsyncServerClient,
    IdempotencyConflictError,
    InvalidRequestError,
    LeaderboardNotFoundError,
    PermissionDeniedError,
    PlayerNotFoundError,
    SdkClient,
    ServerClient,
)
from livecore_client.models import DivisionView, EntryView, LeaderboardView, Order
from livecore_client.webhooks import PAYLOAD_TYPES, PeriodFinalized, construct_event
from tests.client.support import BASE, Sleeps, pick, sent_json, sent_key

SDK = f"{BASE}/sdk/v1"
TS = "2026-11-30T09:00:00.000Z"
WHEN = datetime(2026, 11, 30, 9, tzinfo=UTC)
PERIOD_ID = "lbp_0195c0de000070008000000000000001"
DIVISION_ID = "div_0195c0de000070008000000000000002"

ENTRY = {
    "rank": 1,
    "externalPlayerId": "ada",
    "name": "Ada",
    "avatar": None,
    "anonymizedName": "Swift Otter",
    "anonymizedAvatar": "avatar_03",
    "country": "FR",
    "score": 640,
    "updatedAt": TS,
    "isBot": False,
}
BOARD = {
    "key": "league",
    "name": "League",
    "order": "desc",
    "period": "weekly",
    "periodId": PERIOD_ID,
    "periodStartsAt": "2026-11-30T00:00:00.000Z",
    "periodEndsAt": "2026-12-07T00:00:00.000Z",
    "division": {"id": DIVISION_ID, "tier": "silver"},
}


def ok(data: Any, status: int = 200) -> httpx.Response:
    return httpx.Response(status, json={"data": data})


def refusal(status: int, code: str) -> httpx.Response:
    return httpx.Response(status, json={"error": {"code": code, "message": f"{code} message"}})


def params(route: respx.Route) -> dict[str, str]:
    return dict(route.calls.last.request.url.params)


# --- Reading --------------------------------------------------------------------------------------------


def test_leaderboard_reads_the_period_the_division_and_the_entries(
    sdk: SdkClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.get(f"{SDK}/leaderboards/league").mock(
        return_value=ok({"leaderboard": {**BOARD, "newField": 1}, "entries": [ENTRY], "nextCursor": "c1"})
    )
    page = sdk.leaderboards.get("league")
    request = route.calls.last.request
    assert params(route) == {"limit": "50", "previous": "false"}  # the model's defaults
    assert request.headers["Authorization"] == "Bearer ck_test"
    assert "X-Player-Secret" not in request.headers  # the client key alone, whatever the client holds
    assert "Idempotency-Key" not in request.headers
    assert page.leaderboard == LeaderboardView(
        key="league",
        name="League",
        order=Order.DESC,
        period=Period.WEEKLY,
        period_id=PERIOD_ID,
        period_starts_at=datetime(2026, 11, 30, tzinfo=UTC),
        period_ends_at=datetime(2026, 12, 7, tzinfo=UTC),
        division=DivisionView(id=DIVISION_ID, tier="silver"),
    )
    assert page.entries == [
        EntryView(
            rank=1,
            external_player_id="ada",
            name="Ada",
            avatar=None,
            anonymized_name="Swift Otter",
            anonymized_avatar="avatar_03",
            country="FR",
            score=640,
            updated_at=WHEN,
            is_bot=False,
        )
    ]
    assert page.next_cursor == "c1"


def test_leaderboard_sends_each_choice_of_page_division_and_period(
    sdk: SdkClient, respx_mock: respx.MockRouter
) -> None:
    all_time = {
        **BOARD,
        "period": "all_time",
        "periodStartsAt": None,
        "periodEndsAt": None,
        "division": None,
    }
    route = respx_mock.get(f"{SDK}/leaderboards/league").mock(
        return_value=ok({"leaderboard": all_time, "entries": [], "nextCursor": None})
    )
    page = sdk.leaderboards.get("league", limit=10, cursor="c1")
    assert params(route) == {"limit": "10", "cursor": "c1", "previous": "false"}
    assert (page.leaderboard.period, page.leaderboard.period_starts_at, page.leaderboard.division) == (
        Period.ALL_TIME,
        None,
        None,
    )
    assert (page.entries, page.next_cursor) == ([], None)
    sdk.leaderboards.get("league", limit=5, around="ada", previous=True)
    assert params(route) == {"limit": "5", "around": "ada", "previous": "true"}
    sdk.leaderboards.get("league", division=DIVISION_ID, period=PERIOD_ID)
    assert params(route) == {"limit": "50", "division": DIVISION_ID, "period": PERIOD_ID, "previous": "false"}


def test_leaderboard_key_is_escaped_in_the_path(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SDK}/leaderboards/a%2Fb").mock(
        return_value=ok({"leaderboard": BOARD, "entries": [], "nextCursor": None})
    )
    sdk.leaderboards.get("a/b")
    assert route.call_count == 1


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"cursor": "c1", "around": "ada"}, "cursor or around"),
        ({"period": PERIOD_ID, "previous": True}, "period or previous"),
    ],
)
def test_leaderboard_refuses_exclusive_choices_before_any_request(
    sdk: SdkClient, respx_mock: respx.MockRouter, kwargs: dict[str, Any], match: str
) -> None:
    with pytest.raises(ValueError, match=match):
        sdk.leaderboards.get("league", **kwargs)
    assert not respx_mock.calls


@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [
        (404, "leaderboard_not_found", LeaderboardNotFoundError),
        (404, "player_not_found", PlayerNotFoundError),
        (400, "invalid_request", InvalidRequestError),
    ],
)
def test_leaderboard_refusals_raise_their_class(
    sdk: SdkClient, respx_mock: respx.MockRouter, status: int, code: str, cls: type[Exception]
) -> None:
    respx_mock.get(f"{SDK}/leaderboards/league").mock(return_value=refusal(status, code))
    with pytest.raises(cls) as exc:
        sdk.leaderboards.get("league", around="ghost")
    assert isinstance(exc.value, livecore_client.LivecoreAPIError) and exc.value.code == code


def test_leaderboard_not_found_is_a_not_found_error() -> None:
    assert issubclass(LeaderboardNotFoundError, livecore_client.NotFoundError)


# --- Score submission -----------------------------------------------------------------------------------


def test_submit_score_sends_the_key_in_the_body_and_the_header(
    server: ServerClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.post(f"{BASE}/server/v1/leaderboards/league/scores").mock(
        return_value=ok({"entry": ENTRY})
    )
    entry = server.leaderboards.submit_score("league", "ada", 640).entry
    request = route.calls.last.request
    assert request.headers["Authorization"] == "Bearer sk_test"
    key = sent_key(route)
    assert len(bytes.fromhex(key)) == 16
    assert sent_json(route) == {"externalPlayerId": "ada", "score": 640, "idempotencyKey": key}
    assert (entry.rank, entry.external_player_id, entry.score) == (1, "ada", 640)

    server.leaderboards.submit_score("league", "ada", -(2**53 - 1), idempotency_key="match-77:ada")
    assert sent_json(route) == {
        "externalPlayerId": "ada",
        "score": -(2**53 - 1),
        "idempotencyKey": "match-77:ada",
    }
    assert sent_key(route) == "match-77:ada"


def test_submit_score_retry_resends_the_same_key(
    server: ServerClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    # A lost answer is retried with the same key in the header and the body: the service counts it once.
    route = respx_mock.post(f"{BASE}/server/v1/leaderboards/league/scores").mock(
        side_effect=[httpx.Response(503), ok({"entry": ENTRY})]
    )
    assert server.leaderboards.submit_score("league", "ada", 640).entry.score == 640
    assert sleeps == [0.25]
    assert sent_key(route, 0) == sent_key(route, 1) == sent_json(route, 0)["idempotencyKey"]
    assert sent_json(route, 0) == sent_json(route, 1)


@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [
        (404, "leaderboard_not_found", LeaderboardNotFoundError),
        (400, "invalid_request", InvalidRequestError),
        (409, "idempotency_conflict", IdempotencyConflictError),
    ],
)
def test_submit_score_refusals_raise_their_class(
    server: ServerClient, respx_mock: respx.MockRouter, status: int, code: str, cls: type[Exception]
) -> None:
    respx_mock.post(f"{BASE}/server/v1/leaderboards/league/scores").mock(return_value=refusal(status, code))
    with pytest.raises(cls):
        server.leaderboards.submit_score("league", "ada", 1)


# --- Rollover-now ---------------------------------------------------------------------------------------


def test_rollover_now_answers_the_finalized_period(
    server: ServerClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.post(f"{BASE}/server/v1/dev/leaderboards/league/rollover-now").mock(
        return_value=ok({"rolledOver": True, "periodId": PERIOD_ID})
    )
    done = server.leaderboards.rollover_now("league")
    assert (done.rolled_over, done.period_id) == (True, PERIOD_ID)
    request = route.calls.last.request
    assert request.headers["Authorization"] == "Bearer sk_test"
    assert "Idempotency-Key" not in request.headers  # the route takes none
    assert request.content == b""

    route.return_value = ok({"rolledOver": False})
    nothing = server.leaderboards.rollover_now("league")
    assert (nothing.rolled_over, nothing.period_id) == (False, None)
    route.return_value = refusal(403, "permission_denied")
    with pytest.raises(PermissionDeniedError):
        server.leaderboards.rollover_now("league")
    route.return_value = refusal(404, "leaderboard_not_found")
    with pytest.raises(LeaderboardNotFoundError):
        server.leaderboards.rollover_now("league")


def test_rollover_now_is_not_resent_after_a_lost_answer(
    server: ServerClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    route = respx_mock.post(f"{BASE}/server/v1/dev/leaderboards/league/rollover-now").mock(
        return_value=httpx.Response(503)
    )
    with pytest.raises(livecore_client.InternalServerError):
        server.leaderboards.rollover_now("league")
    assert (route.call_count, sleeps) == (1, [])


# --- Async and sync are one definition ------------------------------------------------------------------


async def test_async_leaderboard_flow(
    async_sdk: AsyncSdkClient, async_server: AsyncServerClient, respx_mock: respx.MockRouter
) -> None:
    scores = respx_mock.post(f"{BASE}/server/v1/leaderboards/league/scores").mock(
        return_value=ok({"entry": ENTRY})
    )
    read = respx_mock.get(f"{SDK}/leaderboards/league").mock(
        return_value=ok({"leaderboard": BOARD, "entries": [ENTRY], "nextCursor": None})
    )
    roll = respx_mock.post(f"{BASE}/server/v1/dev/leaderboards/league/rollover-now").mock(
        return_value=ok({"rolledOver": True, "periodId": PERIOD_ID})
    )
    assert (
        await async_server.leaderboards.submit_score("league", "ada", 640, idempotency_key="k1")
    ).entry.rank == 1
    assert sent_json(scores)["idempotencyKey"] == sent_key(scores) == "k1"
    page = await async_sdk.leaderboards.get("league", around="ada")
    assert params(read) == {"limit": "50", "around": "ada", "previous": "false"}
    assert page.leaderboard.division == DivisionView(id=DIVISION_ID, tier="silver")
    assert (await async_server.leaderboards.rollover_now("league")).period_id == PERIOD_ID
    assert roll.call_count == 1
    with pytest.raises(ValueError, match="period or previous"):
        await async_sdk.leaderboards.get("league", period=PERIOD_ID, previous=True)


@pytest.mark.parametrize(
    ("sync_cls", "async_cls", "names"),
    [
        (SdkClient, AsyncSdkClient, ["leaderboards.get"]),
        (ServerClient, AsyncServerClient, ["leaderboards.submit_score", "leaderboards.rollover_now"]),
    ],
)
def test_sync_and_async_methods_share_signature_and_docs(
    sync_cls: type[Any], async_cls: type[Any], names: list[str]
) -> None:
    for name in names:
        sync_method, async_method = pick(sync_cls, name), pick(async_cls, name)
        assert list(inspect.signature(sync_method).parameters.values()) == list(
            inspect.signature(async_method).parameters.values()
        ), name
        assert sync_method.__doc__, name
        assert sync_method.__name__ == name.split(".")[-1]


def test_leaderboard_models_are_exported() -> None:
    for name in (
        "LeaderboardResponse",
        "LeaderboardView",
        "DivisionView",
        "ScoreResponse",
        "RolloverResponse",
        "Period",
    ):
        assert name in livecore_client.models.__all__, name
    assert livecore_client.webhooks.PeriodFinalized is PAYLOAD_TYPES["leaderboard.period_finalized"]
    assert "PeriodFinalized" in livecore_client.webhooks.__all__
    assert "PeriodEntry" in livecore_client.webhooks.__all__


# --- leaderboard.period_finalized (docs/leaderboards.md#webhooks) ---------------------------------------

WEBHOOK_SECRET = "whsec_boards"
MONDAY = datetime(2026, 11, 30, 9, tzinfo=UTC)
COINS = (Entry(ResourceType.CURRENCY, "coins", 10),)
LEAGUE = LeaderboardSettings(
    key="league",
    name="League",
    period=Period.WEEKLY,
    aggregation=Aggregation.BEST,
    divisions=Divisions(size=2, tiers=("bronze", "silver"), promote=1, relegate=1),
    rank_rewards=(RankBand(1, 1, COINS),),
)


def _one_week_played() -> MemoryStore:
    """Three players through a week of a league on the memory store, rolled over by the scheduler's
    steps: the outbox holds the period's ``leaderboard.period_finalized`` and its rank grants."""
    store = MemoryStore()
    settings = GameSettings(
        resources={"coins": Resource("coins", ResourceType.CURRENCY)},
        sections={LEADERBOARD_SETTINGS: {"league": LEAGUE}},
    )
    store.add_game(Studio("std_1", "s"), Game("gam_1", "std_1", "g", "G", settings=settings))
    clock = ManualClock(MONDAY)
    rt = Runtime(clock, SeededRandomSource(3), KeyedHasher(b"k" * 32))
    scope = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
    for who, score in (("ada", 30), ("bo", 75), ("cy", 12)):
        with store.transaction() as tx:
            lb.submit(tx, rt, scope, "league", who, score)
        clock.advance(60)
    clock.set(MONDAY + timedelta(days=7))
    with store.transaction() as tx:
        due = lb.periods_due(tx, rt, 10)
    for period in due:
        done = False
        while not done:
            with store.transaction() as tx:
                done = lb.rollover_step(tx, rt, period.game_id, period.id, 1)
    return store


def test_period_finalized_round_trips_through_construct_event() -> None:
    store = _one_week_played()
    [fired] = [e for e in store.outbox if e.kind == "leaderboard.period_finalized"]
    now = int(MONDAY.timestamp())
    body = build_envelope(fired, delivery_attempt=1)
    received = construct_event(body, signature_header(WEBHOOK_SECRET, now, body), WEBHOOK_SECRET, now=now)
    assert received.event_name == "leaderboard.period_finalized"
    assert type(received.data) is PeriodFinalized
    assert received.data == fired.payload  # every field, the nested entries included
    data = received.data
    assert (data.leaderboard_key, data.entry_count) == ("league", 3)
    assert (data.period_starts_at, data.period_ends_at) == (
        datetime(2026, 11, 30, tzinfo=UTC),
        datetime(2026, 12, 7, tzinfo=UTC),
    )
    assert data.period_id.startswith("lbp_")
    # The top of the whole period, every division together, in board order.
    assert [(e.rank, e.external_player_id, e.score) for e in data.top] == [
        (1, "bo", 75),
        (2, "ada", 30),
        (3, "cy", 12),
    ]
    # ada and bo share the first division (size 2), cy opened the second.
    assert data.top[0].division_id == data.top[1].division_id != data.top[2].division_id
    assert all(e.division_id is not None and e.division_id.startswith("div_") for e in data.top)
