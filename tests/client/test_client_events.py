"""Live-event methods over a mocked HTTP layer (docs/events.md): request shape (paths, the optional
player secret of the events list, the start and progress bodies, the board's ``limit``/``cursor``/``around``
query), response parsing, one error class per live-event code, the board stream read from
``text/event-stream`` (the format's parsing rules, heartbeats, ids, chunk boundaries, refusals, retries, the
end), the server's end-now, and the typed live-event webhooks built from the service's own payloads."""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import httpx
import orjson
import pytest
import respx

import livecore_client
from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.economy.commands import server_adjust
from livecore.games import (
    Economy,
    Entry,
    Game,
    GameSettings,
    Milestone,
    RankBand,
    Resource,
    ResourceType,
    Studio,
)
from livecore.hashing import KeyedHasher
from livecore.live_events.commands import live_events as event_commands
from livecore.live_events.errors import (
    ANTI_CHEAT_REJECTED,
    ATTEMPT_IN_PROGRESS,
    ATTEMPT_NOT_FOUND,
    ATTEMPT_NOT_IN_PROGRESS,
    EVENT_NOT_FOUND,
    EVENT_NOT_OPEN,
    INSUFFICIENT_ENTRY_COST,
    LEADERBOARD_NOT_FOUND,
    MAX_ATTEMPTS_REACHED,
)
from livecore.live_events.settings import EVENT_SETTINGS, AntiCheat, CheckKind, EventSettings, Verdict
from livecore.live_events.webhooks import AttemptStarted, LeaderboardFinalized, MilestoneGranted
from livecore.memory import MemoryStore
from livecore.players.commands import register
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore.webhooks.envelope import build_envelope
from livecore.webhooks.signing import signature_header
from livecore_client import (
    AntiCheatRejectedError,
    APIConnectionError,
    APIResponseValidationError,
    AsyncSdkClient,
    AsyncServerClient,
    AttemptInProgressError,
    AttemptNotFoundError,
    AttemptNotInProgressError,
    EventNotFoundError,
    EventNotOpenError,
    InsufficientEntryCostError,
    LeaderboardNotFoundError,
    MaxAttemptsReachedError,
    PermissionDeniedError,
    PlayerSecretInvalidError,
    RetryPolicy,
    SdkClient,
    ServerClient,
)
from livecore_client.models import (
    AttemptStatus,
    AttemptView,
    BoardStatus,
    EntryView,
    EventState,
    Order,
    StreamClosed,
    StreamReady,
    StreamScoreUpdate,
)
from livecore_client.resources.live_events.stream import (
    STREAM_READ_TIMEOUT,
    ServerSentEvent,
    SseDecoder,
    stream_event,
)
from livecore_client.webhooks import PAYLOAD_TYPES, construct_event
from tests.client.support import BASE, Sleeps, pick, sent_json, sent_key

SDK = f"{BASE}/sdk/v1"
TS = "2026-03-02T12:00:00.000Z"
WHEN = datetime(2026, 3, 2, 12, tzinfo=UTC)
LATER = "2026-03-02T12:10:00.000Z"
BOARD_ID = "lb_0195c0de000070008000000000000001"
ATTEMPT_ID = "att_0195c0de000070008000000000000002"

ATTEMPT = {
    "attemptId": ATTEMPT_ID,
    "eventKey": "time-trial",
    "eventId": "ev_1",
    "windowId": "win_1",
    "leaderboardId": BOARD_ID,
    "lobbyId": None,
    "status": "in_progress",
    "score": None,
    "metrics": {},
    "startedAt": TS,
    "endsAt": LATER,
    "completedAt": None,
    "attemptCount": 1,
    "milestones": [],
    "flagged": False,
}
EVENT = {
    "key": "time-trial",
    "id": "ev_1",
    "name": "Time Trial",
    "order": "desc",
    "state": "open",
    "window": {"id": "win_1", "startsAt": TS, "endsAt": "2026-03-02T13:00:00.000Z"},
    "nextWindowStartsAt": "2026-03-03T12:00:00.000Z",
    "entryCost": [{"type": "currency", "key": "gems", "amount": 5}],
    "maxAttempts": 3,
    "target": 1000,
    "lobby": False,
}
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
ADA = EntryView(
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
BOARD = {
    "id": BOARD_ID,
    "eventKey": "time-trial",
    "windowId": "win_1",
    "lobbyId": None,
    "segmentValues": {"country": "FR"},
    "status": "open",
    "closesAt": "2026-03-02T13:00:00.000Z",
}
GRANT = {
    "grantId": "01956f2a-0000-7000-8000-000000000009",
    "externalPlayerId": "p1",
    "kind": "reward",
    "status": "pending",
    "entries": [{"type": "currency", "key": "coins", "amount": 10}],
    "sourceKind": "event_milestone",
    "sourceRefId": ATTEMPT_ID,
    "metadata": {"eventKey": "time-trial", "milestoneKey": "bronze"},
    "createdAt": TS,
    "expiresAt": None,
    "claimedAt": None,
    "ackedBy": None,
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


# --- The events list ------------------------------------------------------------------------------------


def test_events_list_sends_the_secret_and_reads_the_attempts(
    sdk: SdkClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.get(f"{SDK}/players/p1/events").mock(
        return_value=ok({"events": [{**EVENT, "attempts": [ATTEMPT], "newField": 1}]})
    )
    [event] = sdk.live_events.list("p1").events
    request = route.calls.last.request
    assert request.headers["Authorization"] == "Bearer ck_test"
    assert request.headers["X-Player-Secret"] == "sec_1"
    assert "Idempotency-Key" not in request.headers
    assert (event.key, event.state, event.order, event.max_attempts, event.target) == (
        "time-trial",
        EventState.OPEN,
        Order.DESC,
        3,
        1000,
    )
    assert event.window is not None and event.window.starts_at == WHEN
    assert [(e.key, e.amount) for e in event.entry_cost] == [("gems", 5)]
    assert event.attempts is not None
    [attempt] = event.attempts
    assert (attempt.attempt_id, attempt.status, attempt.ends_at) == (
        ATTEMPT_ID,
        AttemptStatus.IN_PROGRESS,
        WHEN + timedelta(minutes=10),
    )

    sdk.live_events.list("p1", player_secret="sec_2")
    assert route.calls.last.request.headers["X-Player-Secret"] == "sec_2"


def test_events_list_without_the_secret_is_the_key_alone(
    sdk: SdkClient, policy: RetryPolicy, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.get(f"{SDK}/players/p1/events").mock(
        return_value=ok({"events": [{**EVENT, "state": "scheduled", "window": None, "maxAttempts": None}]})
    )
    [event] = sdk.live_events.list("p1", with_attempts=False).events
    assert "X-Player-Secret" not in route.calls.last.request.headers
    assert (event.state, event.window, event.max_attempts, event.attempts) == (
        EventState.SCHEDULED,
        None,
        None,
        None,
    )

    # A client that holds no secret asks with its key alone rather than failing before the network.
    with SdkClient("ck_test", base_url=BASE, retry_policy=policy) as keyless:
        keyless.live_events.list("p1")
    assert "X-Player-Secret" not in route.calls.last.request.headers
    assert route.call_count == 2

    route.return_value = refusal(401, "player_secret_invalid")
    with pytest.raises(PlayerSecretInvalidError):
        sdk.live_events.list("p1")


# --- Start and progress ---------------------------------------------------------------------------------


def test_start_attempt_sends_no_body_unless_a_player_context(
    sdk: SdkClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.post(f"{SDK}/players/p1/events/time-trial/start").mock(
        return_value=ok({"attempt": ATTEMPT}, 201)
    )
    attempt = sdk.live_events.start_attempt("p1", "time-trial").attempt
    request = route.calls.last.request
    assert request.content == b""
    assert request.headers["X-Player-Secret"] == "sec_1"
    assert len(bytes.fromhex(sent_key(route))) == 16
    assert attempt == AttemptView(
        attempt_id=ATTEMPT_ID,
        event_key="time-trial",
        event_id="ev_1",
        window_id="win_1",
        leaderboard_id=BOARD_ID,
        lobby_id=None,
        status=AttemptStatus.IN_PROGRESS,
        score=None,
        metrics={},
        started_at=WHEN,
        ends_at=WHEN + timedelta(minutes=10),
        completed_at=None,
        attempt_count=1,
        milestones=[],
        flagged=False,
    )

    sdk.live_events.start_attempt(
        "p1", "time-trial", player_context={"country": "SE", "tier": "gold"}, idempotency_key="s-1"
    )
    assert sent_json(route) == {"playerContext": {"country": "SE", "tier": "gold"}}
    assert sent_key(route) == "s-1"


def test_start_attempt_retry_resends_the_same_key(
    sdk: SdkClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    # A lost answer is retried with the same key: the service answers the attempt it started, and the
    # entry cost is paid once.
    route = respx_mock.post(f"{SDK}/players/p1/events/time-trial/start").mock(
        side_effect=[httpx.Response(502), ok({"attempt": ATTEMPT}, 200)]
    )
    assert sdk.live_events.start_attempt("p1", "time-trial").attempt.attempt_id == ATTEMPT_ID
    assert sleeps == [0.25]
    assert sent_key(route, 0) == sent_key(route, 1)


def test_report_progress_sends_totals_and_reads_the_milestone_grants(
    sdk: SdkClient, respx_mock: respx.MockRouter
) -> None:
    route = respx_mock.post(f"{SDK}/players/p1/events/time-trial/attempts/{ATTEMPT_ID}/progress").mock(
        return_value=ok(
            {
                "attempt": {
                    **ATTEMPT,
                    "score": 120,
                    "metrics": {"score": 120, "laps": 2.5},
                    "milestones": ["bronze"],
                },
                "milestonesGranted": [GRANT],
            }
        )
    )
    done = sdk.live_events.report_progress("p1", "time-trial", ATTEMPT_ID, {"score": 120, "laps": 2.5})
    assert sent_json(route) == {"metrics": {"score": 120, "laps": 2.5}, "complete": False}
    assert route.calls.last.request.headers["X-Player-Secret"] == "sec_1"
    assert (done.attempt.score, done.attempt.metrics, done.attempt.milestones) == (
        120,
        {"score": 120, "laps": 2.5},
        ["bronze"],
    )
    [grant] = done.milestones_granted
    assert (grant.source_kind, grant.source_ref_id, grant.metadata) == (
        "event_milestone",
        ATTEMPT_ID,
        {"eventKey": "time-trial", "milestoneKey": "bronze"},
    )

    route.return_value = ok(
        {
            "attempt": {**ATTEMPT, "status": "completed", "score": 130, "completedAt": LATER},
            "milestonesGranted": [],
        }
    )
    finished = sdk.live_events.report_progress(
        "p1", "time-trial", ATTEMPT_ID, {"score": 130}, complete=True, idempotency_key="p-2"
    )
    assert sent_json(route) == {"metrics": {"score": 130}, "complete": True}
    assert sent_key(route) == "p-2"
    assert finished.attempt.status is AttemptStatus.COMPLETED


def test_attempt_id_is_escaped_and_an_empty_one_refused(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{SDK}/players/p1/events/time-trial/attempts/a%2Fb/progress").mock(
        return_value=refusal(404, "attempt_not_found")
    )
    with pytest.raises(AttemptNotFoundError):
        sdk.live_events.report_progress("p1", "time-trial", "a/b", {"score": 1})
    assert route.called
    with pytest.raises(ValueError, match="attemptId"):
        sdk.live_events.report_progress("p1", "time-trial", "", {"score": 1})


# --- Refusals: one class per code -------------------------------------------------------------------------

EVENT_CODES = [
    EVENT_NOT_FOUND,
    EVENT_NOT_OPEN,
    ATTEMPT_IN_PROGRESS,
    MAX_ATTEMPTS_REACHED,
    INSUFFICIENT_ENTRY_COST,
    ATTEMPT_NOT_FOUND,
    ATTEMPT_NOT_IN_PROGRESS,
    ANTI_CHEAT_REJECTED,
    LEADERBOARD_NOT_FOUND,
]


def test_every_live_event_code_has_its_class() -> None:
    from livecore_client.errors import _BY_CODE, error_class

    for code in EVENT_CODES:
        cls = _BY_CODE[code.value]
        assert error_class(code.status, code.value) is cls
        assert issubclass(cls, error_class(code.status, None)), code  # under its status family


@pytest.mark.parametrize(
    ("status", "code", "details", "cls"),
    [
        (404, "event_not_found", {"eventKey": "nope"}, EventNotFoundError),
        (409, "event_not_open", None, EventNotOpenError),
        (409, "attempt_in_progress", {"attemptId": ATTEMPT_ID}, AttemptInProgressError),
        (409, "max_attempts_reached", {"maxAttempts": 3}, MaxAttemptsReachedError),
        (
            409,
            "insufficient_entry_cost",
            {"resource": "gems", "needed": 5, "have": 2},
            InsufficientEntryCostError,
        ),
    ],
)
def test_start_refusals_raise_their_class(
    sdk: SdkClient,
    respx_mock: respx.MockRouter,
    status: int,
    code: str,
    details: dict[str, Any] | None,
    cls: type[Exception],
) -> None:
    route = respx_mock.post(f"{SDK}/players/p1/events/time-trial/start").mock(
        return_value=refusal(status, code, details)
    )
    with pytest.raises(cls) as info:
        sdk.live_events.start_attempt("p1", "time-trial")
    assert route.call_count == 1  # a refusal is final: never retried
    assert info.value.details == details  # type: ignore[attr-defined]


def test_refusal_details_are_read_into_attributes(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    start = respx_mock.post(f"{SDK}/players/p1/events/time-trial/start")
    start.return_value = refusal(409, "attempt_in_progress", {"attemptId": ATTEMPT_ID})
    with pytest.raises(AttemptInProgressError) as busy:
        sdk.live_events.start_attempt("p1", "time-trial")
    assert busy.value.attempt_id == ATTEMPT_ID
    start.return_value = refusal(409, "attempt_in_progress", {"attemptId": 7})
    with pytest.raises(AttemptInProgressError) as odd:
        sdk.live_events.start_attempt("p1", "time-trial")
    assert odd.value.attempt_id is None  # advisory: never breaks the refusal itself

    progress = respx_mock.post(f"{SDK}/players/p1/events/time-trial/attempts/{ATTEMPT_ID}/progress")
    progress.return_value = refusal(422, "anti_cheat_rejected", {"validator": "score-rate"})
    with pytest.raises(AntiCheatRejectedError) as cheat:
        sdk.live_events.report_progress("p1", "time-trial", ATTEMPT_ID, {"score": 99999})
    assert cheat.value.validator == "score-rate"
    progress.return_value = refusal(409, "attempt_not_in_progress", {"attemptId": ATTEMPT_ID})
    with pytest.raises(AttemptNotInProgressError):
        sdk.live_events.report_progress("p1", "time-trial", ATTEMPT_ID, {"score": 1})


# --- The board ------------------------------------------------------------------------------------------


def test_event_leaderboard_pages(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SDK}/event-leaderboards/{BOARD_ID}").mock(
        return_value=ok({"leaderboard": BOARD, "entries": [ENTRY], "nextCursor": "c1"})
    )
    page = sdk.live_events.leaderboard(BOARD_ID)
    request = route.calls.last.request
    assert params(route) == {"limit": "50"}  # the model's default
    assert request.headers["Authorization"] == "Bearer ck_test"
    assert "X-Player-Secret" not in request.headers  # the client key alone, whatever the client holds
    assert (page.leaderboard.status, page.leaderboard.segment_values, page.next_cursor) == (
        BoardStatus.OPEN,
        {"country": "FR"},
        "c1",
    )
    assert page.entries == [ADA]

    route.return_value = ok(
        {"leaderboard": {**BOARD, "status": "finalized"}, "entries": [], "nextCursor": None}
    )
    last = sdk.live_events.leaderboard(BOARD_ID, limit=10, cursor="c1")
    assert params(route) == {"limit": "10", "cursor": "c1"}
    assert (last.leaderboard.status, last.next_cursor) == (BoardStatus.FINALIZED, None)
    sdk.live_events.leaderboard(BOARD_ID, limit=5, around="ada")
    assert params(route) == {"limit": "5", "around": "ada"}


def test_event_leaderboard_refuses_cursor_with_around_locally(
    sdk: SdkClient, respx_mock: respx.MockRouter
) -> None:
    with pytest.raises(ValueError, match="cursor or around"):
        sdk.live_events.leaderboard(BOARD_ID, cursor="c1", around="ada")
    assert not respx_mock.calls
    respx_mock.get(f"{SDK}/event-leaderboards/nope").mock(return_value=refusal(404, "leaderboard_not_found"))
    with pytest.raises(LeaderboardNotFoundError):
        sdk.live_events.leaderboard("nope")


# --- End-now (server) -----------------------------------------------------------------------------------


def test_end_event_now(server: ServerClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.post(f"{BASE}/server/v1/dev/events/time-trial/end-now").mock(
        return_value=ok({"closedWindows": ["win_1"]})
    )
    assert server.live_events.end_now("time-trial").closed_windows == ["win_1"]
    request = route.calls.last.request
    assert request.headers["Authorization"] == "Bearer sk_test"
    assert "Idempotency-Key" not in request.headers  # the route takes none
    assert request.content == b""

    route.return_value = ok({"closedWindows": []})
    assert server.live_events.end_now("time-trial").closed_windows == []
    route.return_value = refusal(403, "permission_denied")
    with pytest.raises(PermissionDeniedError):
        server.live_events.end_now("time-trial")
    route.return_value = refusal(404, "event_not_found")
    with pytest.raises(EventNotFoundError):
        server.live_events.end_now("time-trial")


def test_end_event_now_is_not_resent_after_a_lost_answer(
    server: ServerClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    route = respx_mock.post(f"{BASE}/server/v1/dev/events/time-trial/end-now").mock(
        return_value=httpx.Response(503)
    )
    with pytest.raises(livecore_client.InternalServerError):
        server.live_events.end_now("time-trial")
    assert (route.call_count, sleeps) == (1, [])


# --- The stream's format --------------------------------------------------------------------------------


def decode(text: str) -> tuple[list[ServerSentEvent], SseDecoder]:
    decoder = SseDecoder()
    events = [e for line in text.split("\n") if (e := decoder.feed(line)) is not None]
    return events, decoder


def test_multi_line_data_is_joined_with_newlines() -> None:
    events, _ = decode('event: ready\ndata: {"a":\ndata:  1,\ndata:"b": 2}\n\n')
    # One space after the colon is dropped, no more, and none when there is none.
    assert events == [ServerSentEvent("ready", '{"a":\n 1,\n"b": 2}', None)]
    assert orjson.loads(events[0].data) == {"a": 1, "b": 2}


def test_comments_are_skipped_and_dispatch_nothing() -> None:
    events, _ = decode(": ping\n\n:\n\n: ping\nevent: closed\n: ping in the middle\ndata: {}\n\n")
    assert events == [ServerSentEvent("closed", "{}", None)]


def test_the_last_id_is_kept_until_a_new_one() -> None:
    events, decoder = decode(
        "id: 3\nevent: ready\ndata: 1\n\n"
        "event: score_update\ndata: 2\n\n"  # no id of its own: the stream's last one
        "id: 5\ndata: 3\n\n"  # no name: "message"
        "id: bad\0id\ndata: 4\n\n"  # an id holding NUL is ignored
        "id\ndata: 5\n\n"  # a field name alone sets an empty value
    )
    assert [(e.event, e.id, e.data) for e in events] == [
        ("ready", "3", "1"),
        ("score_update", "3", "2"),
        ("message", "5", "3"),
        ("message", "5", "4"),
        ("message", "", "5"),
    ]
    assert decoder.last_event_id == ""


def test_unknown_fields_retry_and_a_blank_line_without_data() -> None:
    events, decoder = decode("\ufeffretry: 2500\nfoo: bar\nevent: ready\n\nretry: soon\ndata\n\n")
    # The name of an event without data does not leak into the next one; "data" alone is an empty line.
    assert events == [ServerSentEvent("message", "", None)]
    assert decoder.retry == 2500


def test_stream_events_are_the_contract_models() -> None:
    ready = stream_event(
        ServerSentEvent(
            "ready", orjson.dumps({"leaderboardId": BOARD_ID, "version": 4, "entries": [ENTRY]}).decode()
        )
    )
    assert ready == StreamReady(leaderboard_id=BOARD_ID, version=4, entries=[ADA])
    update = stream_event(
        ServerSentEvent(
            "score_update",
            orjson.dumps({"leaderboardId": BOARD_ID, "version": 5, "entry": ENTRY, "x": 1}).decode(),
        )
    )
    assert update == StreamScoreUpdate(leaderboard_id=BOARD_ID, version=5, entry=ADA)
    closed = stream_event(
        ServerSentEvent("closed", f'{{"leaderboardId": "{BOARD_ID}", "reason": "finalized"}}')
    )
    assert closed == StreamClosed(leaderboard_id=BOARD_ID, reason="finalized")
    assert stream_event(ServerSentEvent("lobby_update", "{}")) is None  # a newer service's event: skipped
    for broken in ("not json", '{"leaderboardId": 1}', "[]"):
        with pytest.raises(APIResponseValidationError):
            stream_event(ServerSentEvent("ready", broken))


# --- Reading the stream ---------------------------------------------------------------------------------


def sse(name: str, data: dict[str, Any], event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {name}\ndata: {orjson.dumps(data).decode()}\n\n"


READY = {"leaderboardId": BOARD_ID, "version": 4, "entries": [ENTRY]}
UPDATE = {"leaderboardId": BOARD_ID, "version": 5, "entry": {**ENTRY, "score": 700}}
CLOSED = {"leaderboardId": BOARD_ID, "reason": "finalized"}
STREAM = (
    ": ping\n\n"
    + sse("ready", READY, 4)
    + ": ping\n\n"
    + sse("score_update", UPDATE, 5)
    + sse("lobby_update", {"anything": True}, 6)
    + sse("closed", CLOSED)
    + sse("score_update", UPDATE, 9)  # after closed: never read
)
EXPECTED = [
    StreamReady(leaderboard_id=BOARD_ID, version=4, entries=[ADA]),
    StreamScoreUpdate(leaderboard_id=BOARD_ID, version=5, entry=attrs.evolve(ADA, score=700)),
    StreamClosed(leaderboard_id=BOARD_ID, reason="finalized"),
]


def stream_response(
    body: str | bytes, status: int = 200, content_type: str = "text/event-stream"
) -> httpx.Response:
    content = body.encode() if isinstance(body, str) else body
    return httpx.Response(status, content=content, headers={"Content-Type": content_type})


def test_stream_yields_typed_events_until_closed(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SDK}/event-leaderboards/{BOARD_ID}/stream").mock(
        return_value=stream_response(STREAM, content_type="text/event-stream; charset=utf-8")
    )
    assert list(sdk.live_events.stream_leaderboard(BOARD_ID)) == EXPECTED
    request = route.calls.last.request
    assert request.headers["Accept"] == "text/event-stream"
    assert request.headers["Authorization"] == "Bearer ck_test"
    assert "X-Player-Secret" not in request.headers
    # The client's 10 s read timeout is for answers; the stream waits out the 15 s between heartbeats.
    assert request.extensions["timeout"]["read"] == STREAM_READ_TIMEOUT


def test_stream_crlf_lines_are_read_alike(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    respx_mock.get(f"{SDK}/event-leaderboards/{BOARD_ID}/stream").mock(
        return_value=stream_response(STREAM.replace("\n", "\r\n"))
    )
    assert list(sdk.live_events.stream_leaderboard(BOARD_ID)) == EXPECTED


class Chunks(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A body that arrives in the given chunks and records whether the client closed it."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.closed = False

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk

    def close(self) -> None:
        self.closed = True

    async def aclose(self) -> None:
        self.closed = True


def split_everywhere(body: bytes) -> list[bytes]:
    """The body cut into 3-byte chunks: lines, the CRLF pairs and UTF-8 characters all split across reads."""
    return [body[i : i + 3] for i in range(0, len(body), 3)]


def test_stream_reads_events_split_across_chunks(policy: RetryPolicy) -> None:
    named = {**READY, "entries": [{**ENTRY, "name": "Zoë Å"}]}
    body = (": ping\r\n\r\n" + sse("ready", named, 4) + sse("closed", CLOSED)).replace("\n", "\r\n").encode()
    stream = Chunks(split_everywhere(body))
    transport = httpx.MockTransport(
        lambda _: httpx.Response(200, headers={"Content-Type": "text/event-stream"}, stream=stream)
    )
    with (
        httpx.Client(transport=transport) as http,
        SdkClient("ck_test", base_url=BASE, http_client=http, retry_policy=policy) as sdk,
    ):
        events = list(sdk.live_events.stream_leaderboard(BOARD_ID))
    assert isinstance(events[0], StreamReady)
    assert events[0].entries[0].name == "Zoë Å"
    assert isinstance(events[1], StreamClosed)
    assert stream.closed


def test_leaving_the_stream_early_closes_the_connection(policy: RetryPolicy) -> None:
    stream = Chunks([(sse("ready", READY, 4) + ": ping\n\n" * 3).encode()])
    transport = httpx.MockTransport(
        lambda _: httpx.Response(200, headers={"Content-Type": "text/event-stream"}, stream=stream)
    )
    with (
        httpx.Client(transport=transport) as http,
        SdkClient("ck_test", base_url=BASE, http_client=http, retry_policy=policy) as sdk,
    ):
        with contextlib.closing(sdk.live_events.stream_leaderboard(BOARD_ID)) as events:
            first = next(events)
            assert not stream.closed
        assert isinstance(first, StreamReady)
        assert stream.closed


def test_a_stream_that_ends_before_closed_is_a_connection_error(
    sdk: SdkClient, respx_mock: respx.MockRouter
) -> None:
    respx_mock.get(f"{SDK}/event-leaderboards/{BOARD_ID}/stream").mock(
        return_value=stream_response(
            sse("ready", READY, 4) + sse("score_update", UPDATE, 5) + "event: closed\ndata: {"
        )
    )
    events = sdk.live_events.stream_leaderboard(BOARD_ID)
    assert isinstance(next(events), StreamReady)
    assert isinstance(next(events), StreamScoreUpdate)
    # The unterminated last event is not dispatched; the stream ended without closed.
    with pytest.raises(APIConnectionError, match="before its closed event"):
        next(events)


def test_stream_opening_refused_raises_its_class(sdk: SdkClient, respx_mock: respx.MockRouter) -> None:
    route = respx_mock.get(f"{SDK}/event-leaderboards/nope/stream").mock(
        return_value=refusal(404, "leaderboard_not_found", {"leaderboardId": "nope"})
    )
    events = sdk.live_events.stream_leaderboard("nope")
    assert not route.called  # nothing is sent before the first event is asked for
    with pytest.raises(LeaderboardNotFoundError) as info:
        next(events)
    assert (route.call_count, info.value.details) == (1, {"leaderboardId": "nope"})
    with pytest.raises(ValueError, match="leaderboardId"):
        sdk.live_events.stream_leaderboard("")  # refused at once, before any iteration


def test_a_key_at_its_open_streams_cap_waits_out_retry_after_then_raises_rate_limit_error(
    sdk: SdkClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    """DECISIONS 4: a key holds at most its cap of open streams; one more is 429 ``rate_limited``."""
    refused = refusal(429, "rate_limited", {"openStreams": 5000})
    refused.headers["Retry-After"] = "15"
    route = respx_mock.get(f"{SDK}/event-leaderboards/{BOARD_ID}/stream").mock(return_value=refused)
    with pytest.raises(livecore_client.RateLimitError) as info:
        next(sdk.live_events.stream_leaderboard(BOARD_ID))
    assert (info.value.retry_after, info.value.details) == (15.0, {"openStreams": 5000})
    assert sleeps == [15.0] * (route.call_count - 1) and route.call_count > 1


def test_stream_opening_is_retried_like_a_read(
    sdk: SdkClient, respx_mock: respx.MockRouter, sleeps: Sleeps
) -> None:
    route = respx_mock.get(f"{SDK}/event-leaderboards/{BOARD_ID}/stream").mock(
        side_effect=[httpx.ConnectError("refused"), httpx.Response(503), stream_response(STREAM)]
    )
    assert list(sdk.live_events.stream_leaderboard(BOARD_ID)) == EXPECTED
    assert (route.call_count, sleeps) == (3, [0.25, 0.5])


@pytest.mark.parametrize(
    "answer",
    [
        ok({"leaderboard": BOARD}),  # a JSON answer where a stream was asked for: a proxy in the way
        stream_response(sse("ready", {"leaderboardId": BOARD_ID}, 1)),  # data that is not the model
    ],
)
def test_a_stream_that_is_not_the_contract_is_refused(
    sdk: SdkClient, respx_mock: respx.MockRouter, answer: httpx.Response
) -> None:
    respx_mock.get(f"{SDK}/event-leaderboards/{BOARD_ID}/stream").mock(return_value=answer)
    with pytest.raises(APIResponseValidationError):
        list(sdk.live_events.stream_leaderboard(BOARD_ID))


# --- Async twins ----------------------------------------------------------------------------------------


async def test_async_event_flow(async_sdk: AsyncSdkClient, respx_mock: respx.MockRouter) -> None:
    listing = respx_mock.get(f"{SDK}/players/p1/events").mock(return_value=ok({"events": [EVENT]}))
    start = respx_mock.post(f"{SDK}/players/p1/events/time-trial/start").mock(
        return_value=ok({"attempt": ATTEMPT}, 201)
    )
    progress = respx_mock.post(f"{SDK}/players/p1/events/time-trial/attempts/{ATTEMPT_ID}/progress").mock(
        return_value=ok({"attempt": {**ATTEMPT, "score": 640}, "milestonesGranted": []})
    )
    board = respx_mock.get(f"{SDK}/event-leaderboards/{BOARD_ID}").mock(
        return_value=ok({"leaderboard": BOARD, "entries": [ENTRY], "nextCursor": None})
    )
    stream = respx_mock.get(f"{SDK}/event-leaderboards/{BOARD_ID}/stream").mock(
        side_effect=[httpx.Response(503), stream_response(STREAM)]
    )

    [event] = (await async_sdk.live_events.list("p1", with_attempts=False)).events
    assert "X-Player-Secret" not in listing.calls.last.request.headers
    attempt = (
        await async_sdk.live_events.start_attempt("p1", event.key, player_context={"country": "FR"})
    ).attempt
    assert sent_json(start) == {"playerContext": {"country": "FR"}}
    done = await async_sdk.live_events.report_progress(
        "p1", event.key, attempt.attempt_id, {"score": 640}, idempotency_key="k"
    )
    assert (sent_key(progress), done.attempt.score) == ("k", 640)
    page = await async_sdk.live_events.leaderboard(attempt.leaderboard_id, around="p1")
    assert params(board) == {"limit": "50", "around": "p1"}
    assert page.entries == [ADA]

    seen = [e async for e in async_sdk.live_events.stream_leaderboard(attempt.leaderboard_id)]
    assert seen == EXPECTED
    assert stream.call_count == 2
    assert stream.calls.last.request.headers["Accept"] == "text/event-stream"

    progress.return_value = refusal(422, "anti_cheat_rejected", {"validator": "cap"})
    with pytest.raises(AntiCheatRejectedError):
        await async_sdk.live_events.report_progress("p1", event.key, attempt.attempt_id, {"score": 1e9})


async def test_async_stream_closes_early_and_reports_a_cut(policy: RetryPolicy) -> None:
    stream = Chunks(split_everywhere((sse("ready", READY, 4) + sse("score_update", UPDATE, 5)).encode()))
    transport = httpx.MockTransport(
        lambda _: httpx.Response(200, headers={"Content-Type": "text/event-stream"}, stream=stream)
    )
    async with (
        httpx.AsyncClient(transport=transport) as http,
        AsyncSdkClient("ck_test", base_url=BASE, http_client=http, retry_policy=policy) as sdk,
    ):
        async with contextlib.aclosing(sdk.live_events.stream_leaderboard(BOARD_ID)) as events:
            assert isinstance(await anext(events), StreamReady)
        assert stream.closed

        stream.closed = False
        with pytest.raises(APIConnectionError):
            _ = [e async for e in sdk.live_events.stream_leaderboard(BOARD_ID)]
        assert stream.closed


async def test_async_end_event_now(async_server: AsyncServerClient, respx_mock: respx.MockRouter) -> None:
    respx_mock.post(f"{BASE}/server/v1/dev/events/time-trial/end-now").mock(
        return_value=ok({"closedWindows": ["w"]})
    )
    assert (await async_server.live_events.end_now("time-trial")).closed_windows == ["w"]


# --- Sync and async are one definition ------------------------------------------------------------------

SDK_METHODS = [
    "live_events.list",
    "live_events.start_attempt",
    "live_events.report_progress",
    "live_events.leaderboard",
    "live_events.stream_leaderboard",
]


@pytest.mark.parametrize(
    ("sync_cls", "async_cls", "names"),
    [(SdkClient, AsyncSdkClient, SDK_METHODS), (ServerClient, AsyncServerClient, ["live_events.end_now"])],
)
def test_sync_and_async_methods_share_signature_and_docs(
    sync_cls: type[Any], async_cls: type[Any], names: list[str]
) -> None:
    for name in names:
        sync_method, async_method = pick(sync_cls, name), pick(async_cls, name)
        sync_sig, async_sig = inspect.signature(sync_method), inspect.signature(async_method)
        assert list(sync_sig.parameters.values()) == list(async_sig.parameters.values()), name
        assert sync_method.__doc__, name
        assert sync_method.__name__ == name.split(".")[-1]


def test_stream_methods_say_the_same_but_for_the_loop() -> None:
    sync_doc = SdkClient.live_events.stream_leaderboard.__doc__ or ""
    async_doc = AsyncSdkClient.live_events.stream_leaderboard.__doc__ or ""
    assert sync_doc.split("(``contextlib")[0] == async_doc.split("(``contextlib")[0]


# --- Typed live-event webhooks (docs/events.md#webhooks) ------------------------------------------------

WEBHOOK_SECRET = "whsec_events"
T0 = datetime(2026, 12, 1, tzinfo=UTC)
COINS = (Entry(ResourceType.CURRENCY, "coins", 10),)
TRIAL = EventSettings(
    key="trial",
    name="Trial",
    starts_at=T0,
    window_seconds=3600,
    attempt_seconds=600,
    score_metric="score",
    entry_cost=(Entry(ResourceType.CURRENCY, "coins", 5),),
    completion_rewards=COINS,
    target=500,
    milestones=(Milestone("bronze", 100, COINS),),
    rank_rewards=(RankBand(1, 1, COINS),),
    anti_cheat=(AntiCheat("rate", CheckKind.MAX_RATE, "score", 1, Verdict.FLAG),),
)


def _one_event_played() -> MemoryStore:
    """Two players through a whole window on the memory store, with the commands the server runs: every
    live-event kind a test window fires lands in the outbox."""
    store = MemoryStore()
    settings = GameSettings(
        economy=Economy.PLATFORM,
        resources={"coins": Resource("coins", ResourceType.CURRENCY)},
        sections={EVENT_SETTINGS: {"trial": TRIAL}},
    )
    game = Game("gam_1", "std_1", "g", "G", settings=settings)
    store.add_game(Studio("std_1", "s"), game)
    clock = ManualClock(T0)
    rt = Runtime(clock, SeededRandomSource(3), KeyedHasher(b"k" * 32))
    scope = Scope(studio_id="std_1", game_id="gam_1", env=Environment.TEST)
    with store.transaction() as tx:
        players = [register(tx, rt, scope, name).player for name in ("ada", "bo")]
        for player in players:
            server_adjust(
                tx,
                rt,
                scope,
                game,
                player,
                ResourceType.CURRENCY,
                "coins",
                50,
                credit=True,
                note=None,
                source_ref_id=None,
            )
    clock.advance(60)
    with store.transaction() as tx:
        attempts = [event_commands.start(tx, rt, scope, p, "trial", {"country": "FR"}) for p in players]
    clock.advance(60)
    with store.transaction() as tx:
        event_commands.record_progress(tx, rt, scope, players[0], "trial", attempts[0].id, {"score": 600})
        event_commands.record_progress(tx, rt, scope, players[1], "trial", attempts[1].id, {"score": 40.5})
    with store.transaction() as tx:
        event_commands.end_now(tx, rt, scope, "trial")
    return store


def test_live_event_kinds_round_trip_to_their_classes() -> None:
    store = _one_event_played()
    fired = [e for e in store.outbox if PAYLOAD_TYPES[e.kind].__module__ == "livecore.live_events.webhooks"]
    kinds = {e.kind for e in fired}
    assert {
        "event.attempt_started",
        "entry_cost.charged",
        "event.attempt_flagged",
        "event.milestone_granted",
        "event.completed",
        "event.expired",
        "event.progress_updated",
        "leaderboard.finalized",
    } <= kinds
    now = int(T0.timestamp())
    for event in fired:
        body = build_envelope(event, delivery_attempt=1)
        received = construct_event(body, signature_header(WEBHOOK_SECRET, now, body), WEBHOOK_SECRET, now=now)
        assert received.event_name == event.kind
        assert type(received.data) is PAYLOAD_TYPES[event.kind]
        assert received.data == event.payload, event.kind  # every field, nested ones included

    started = next(e.payload for e in fired if e.kind == "event.attempt_started")
    assert isinstance(started, AttemptStarted)
    assert started.attempt_count == 1
    milestone = next(e.payload for e in fired if e.kind == "event.milestone_granted")
    assert isinstance(milestone, MilestoneGranted) and milestone.milestone_key == "bronze"
    finalized = next(e.payload for e in fired if e.kind == "leaderboard.finalized")
    assert isinstance(finalized, LeaderboardFinalized)
    assert [(e.rank, e.external_player_id, e.score) for e in finalized.top] == [
        (1, "ada", 600),
        (2, "bo", 40.5),
    ]


def test_live_event_payload_classes_are_exported() -> None:
    exported = set(livecore_client.webhooks.__all__)
    for cls in PAYLOAD_TYPES.values():
        if cls.__module__ == "livecore.live_events.webhooks":
            assert cls.__name__ in exported
            assert getattr(livecore_client.webhooks, cls.__name__) is cls
