"""The lobby and sudden-death payloads built from their records (``livecore/lobbies/webhooks.py``): each
kind's wire JSON exactly, ``source`` left out for a client's join and ``server_push`` for a push, the
fields a moment may lack as ``null``, timestamps with milliseconds; and the records of another moment
refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import attrs
import orjson
import pytest

from livecore.live_events.attempts import Attempt, AttemptStatus
from livecore.lobbies.rules import Lobby, LobbyStatus, PromotionReason, Seat, SeatSource
from livecore.lobbies.settings import Resolution, SuddenDeath, TriggerType
from livecore.lobbies.webhooks import (
    LobbyBotFilled,
    LobbyClosed,
    LobbyCreated,
    LobbyFillTimeout,
    LobbyPlayerJoined,
    LobbyStarted,
    SessionFrozen,
    SessionTerminated,
)
from livecore.players.identity import Identity
from livecore.scope import Environment
from livecore.webhooks.payload import WebhookPayload

AT = datetime(2026, 3, 2, 12, 0, 0, 250999, tzinfo=UTC)
ENDS = datetime(2026, 3, 2, 13, 0, tzinfo=UTC)

FORMING = Lobby(
    id="lob_1",
    game_id="gam_1",
    env=Environment.LIVE,
    event_key="duel",
    event_id="ev_1",
    window_id="win_1",
    board_id="lb_1",
    status=LobbyStatus.FORMING,
    capacity=4,
    segment_values={"region": "eu"},
    segment_key='{"region":"eu"}',
    created_at=AT,
    ends_at=ENDS,
    fill_by=AT + timedelta(seconds=60),
)
ACTIVE = attrs.evolve(
    FORMING,
    status=LobbyStatus.ACTIVE,
    participant_count=4,
    bot_count=2,
    started_at=AT + timedelta(seconds=60),
    promotion_reason=PromotionReason.TIMEOUT,
)
PUSHED = attrs.evolve(
    ACTIVE,
    fill_by=None,
    participant_count=2,
    bot_count=0,
    started_at=AT,
    promotion_reason=PromotionReason.EXTERNAL_PUSH,
    metadata={"match": "m-7"},
    push_key="match-7",
)
PLAYER_SEAT = Seat(
    lobby_id="lob_1",
    window_id="win_1",
    seat_id="plr_1",
    joined_at=AT,
    source=SeatSource.MATCHMAKING,
    external_player_id="ada",
)
BOTS = tuple(
    Seat(
        lobby_id="lob_1",
        window_id="win_1",
        seat_id=f"bot_{n}",
        joined_at=AT + timedelta(seconds=60),
        source=SeatSource.BOT,
        identity=Identity(name=f"Swift Fox 0{n}", avatar=None),
        final_score=500.0,
    )
    for n in (1, 2)
)
ATTEMPT = Attempt(
    id="att_1",
    game_id="gam_1",
    env=Environment.LIVE,
    player_id="plr_1",
    external_player_id="ada",
    event_key="duel",
    event_id="ev_1",
    window_id="win_1",
    board_id="lb_1",
    status=AttemptStatus.IN_PROGRESS,
    started_at=AT,
    ends_at=ENDS,
    attempt_count=1,
    score=420.5,
    lobby_id="lob_1",
)


def wire(payload: WebhookPayload) -> bytes:
    return orjson.dumps(payload.to_wire())


def test_lobby_created_of_a_matchmade_lobby_leaves_source_out() -> None:
    assert wire(LobbyCreated.of(FORMING)) == (
        b'{"lobbyId":"lob_1","eventId":"ev_1","eventKey":"duel","windowId":"win_1","leaderboardId":"lb_1",'
        b'"status":"forming","capacity":4,"participantCount":0,"botCount":0,"segmentValues":{"region":"eu"},'
        b'"fillBy":"2026-03-02T12:01:00.250Z","endsAt":"2026-03-02T13:00:00.000Z","metadata":null,'
        b'"createdAt":"2026-03-02T12:00:00.250Z"}'
    )


def test_lobby_created_of_a_pushed_lobby_says_server_push() -> None:
    assert wire(LobbyCreated.of(PUSHED)) == (
        b'{"lobbyId":"lob_1","eventId":"ev_1","eventKey":"duel","windowId":"win_1","leaderboardId":"lb_1",'
        b'"status":"active","capacity":4,"participantCount":2,"botCount":0,"segmentValues":{"region":"eu"},'
        b'"fillBy":null,"endsAt":"2026-03-02T13:00:00.000Z","metadata":{"match":"m-7"},'
        b'"createdAt":"2026-03-02T12:00:00.250Z","source":"server_push"}'
    )


def test_lobby_player_joined_leaves_source_out_for_a_client_join() -> None:
    joined = attrs.evolve(FORMING, participant_count=1)
    assert wire(LobbyPlayerJoined.of(joined, PLAYER_SEAT)) == (
        b'{"lobbyId":"lob_1","eventId":"ev_1","playerId":"plr_1","externalPlayerId":"ada",'
        b'"participantCount":1,"capacity":4,"joinedAt":"2026-03-02T12:00:00.250Z"}'
    )


def test_lobby_player_joined_says_server_push_for_a_push() -> None:
    seat = attrs.evolve(PLAYER_SEAT, source=SeatSource.SERVER_PUSH)
    assert wire(LobbyPlayerJoined.of(PUSHED, seat)) == (
        b'{"lobbyId":"lob_1","eventId":"ev_1","playerId":"plr_1","externalPlayerId":"ada",'
        b'"participantCount":2,"capacity":4,"joinedAt":"2026-03-02T12:00:00.250Z","source":"server_push"}'
    )


def test_a_bot_seat_does_not_join_as_a_player() -> None:
    with pytest.raises(ValueError, match="bot_filled"):
        LobbyPlayerJoined.of(ACTIVE, BOTS[0])


def test_lobby_bot_filled_lists_the_bots_of_this_fill() -> None:
    assert wire(LobbyBotFilled.of(ACTIVE, BOTS)) == (
        b'{"lobbyId":"lob_1","leaderboardId":"lb_1","botCount":2,"bots":['
        b'{"id":"bot_1","botId":"bot_1","name":"Swift Fox 01"},'
        b'{"id":"bot_2","botId":"bot_2","name":"Swift Fox 02"}]}'
    )
    with pytest.raises(ValueError, match="only bot seats"):
        LobbyBotFilled.of(ACTIVE, (*BOTS, PLAYER_SEAT))


@pytest.mark.parametrize("cls", [LobbyStarted, LobbyFillTimeout])
def test_lobby_started_and_fill_timeout_share_one_shape(cls: type[LobbyStarted | LobbyFillTimeout]) -> None:
    assert wire(cls.of(ACTIVE)) == (
        b'{"lobbyId":"lob_1","leaderboardId":"lb_1","capacity":4,"participantCount":4,"botCount":2,'
        b'"startedAt":"2026-03-02T12:01:00.250Z","endsAt":"2026-03-02T13:00:00.000Z",'
        b'"promotionReason":"timeout"}'
    )


def test_a_forming_lobby_has_not_started() -> None:
    with pytest.raises(ValueError, match="no start"):
        LobbyStarted.of(FORMING)


def test_lobby_closed_after_a_trigger_names_it() -> None:
    closed = attrs.evolve(ACTIVE, status=LobbyStatus.CLOSED, closed_at=ENDS, terminated_by="first-to-1000")
    assert wire(LobbyClosed.of(closed)) == (
        b'{"lobbyId":"lob_1","eventId":"ev_1","eventKey":"duel","windowId":"win_1","leaderboardId":"lb_1",'
        b'"capacity":4,"participantCount":4,"botCount":2,"startedAt":"2026-03-02T12:01:00.250Z",'
        b'"endsAt":"2026-03-02T13:00:00.000Z","closedAt":"2026-03-02T13:00:00.000Z",'
        b'"promotionReason":"timeout","firedTrigger":"first-to-1000"}'
    )


def test_lobby_closed_while_forming_has_null_start_promotion_and_trigger() -> None:
    closed = attrs.evolve(FORMING, status=LobbyStatus.CLOSED, participant_count=1, closed_at=ENDS)
    assert wire(LobbyClosed.of(closed)) == (
        b'{"lobbyId":"lob_1","eventId":"ev_1","eventKey":"duel","windowId":"win_1","leaderboardId":"lb_1",'
        b'"capacity":4,"participantCount":1,"botCount":0,"startedAt":null,'
        b'"endsAt":"2026-03-02T13:00:00.000Z","closedAt":"2026-03-02T13:00:00.000Z",'
        b'"promotionReason":null,"firedTrigger":null}'
    )
    with pytest.raises(ValueError, match="no close"):
        LobbyClosed.of(ACTIVE)


def test_session_terminated_carries_the_trigger_and_the_frozen_count() -> None:
    terminated = attrs.evolve(ACTIVE, terminated_by="first-to-1000")
    trigger = SuddenDeath("first-to-1000", TriggerType.SCORE_REACHED, 1000, Resolution.FREEZE)
    assert wire(SessionTerminated.of(terminated, trigger, 3, AT)) == (
        b'{"lobbyId":"lob_1","eventId":"ev_1","eventKey":"duel","eventWindowId":"win_1",'
        b'"leaderboardId":"lb_1","firedTrigger":"first-to-1000","firedTriggerType":"score_reached",'
        b'"resolution":"freeze","frozenCount":3,"terminatedAt":"2026-03-02T12:00:00.250Z"}'
    )


def test_session_frozen_is_the_attempt_with_its_lobby_and_trigger() -> None:
    terminated = attrs.evolve(ACTIVE, terminated_by="first-to-1000")
    assert wire(SessionFrozen.of(ATTEMPT, terminated, AT)) == (
        b'{"attemptId":"att_1","eventId":"ev_1","eventKey":"duel","eventWindowId":"win_1",'
        b'"leaderboardId":"lb_1","playerId":"plr_1","externalPlayerId":"ada","lobbyId":"lob_1",'
        b'"score":420.5,"firedTrigger":"first-to-1000","frozenAt":"2026-03-02T12:00:00.250Z"}'
    )
    unscored = attrs.evolve(ATTEMPT, score=None)
    assert SessionFrozen.of(unscored, terminated, AT).to_wire()["score"] is None
