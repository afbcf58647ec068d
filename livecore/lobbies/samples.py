"""Placeholder payloads of the lobbies area's webhook kinds, for sample deliveries
(:attr:`livecore.area.Area.samples`)."""

from __future__ import annotations

from typing import Any

from livecore.lobbies.webhooks import (
    FilledBot,
    LobbyBotFilled,
    LobbyClosed,
    LobbyCreated,
    LobbyFillTimeout,
    LobbyPlayerJoined,
    LobbyStarted,
    SessionFrozen,
    SessionTerminated,
)
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.sample_values import ATTEMPT, EVENT, PLAYER, SAMPLE_TS

_LOBBY_ID = "lob_sample0000000000000000000"
_LOBBY: dict[str, Any] = {
    "lobby_id": _LOBBY_ID,
    "event_id": EVENT["event_id"],
    "event_key": EVENT["event_key"],
    "window_id": EVENT["event_window_id"],
    "leaderboard_id": ATTEMPT["leaderboard_id"],
}
_PROMOTION: dict[str, Any] = {
    "lobby_id": _LOBBY_ID,
    "leaderboard_id": ATTEMPT["leaderboard_id"],
    "capacity": 8,
    "participant_count": 8,
    "bot_count": 1,
    "started_at": SAMPLE_TS,
    "ends_at": SAMPLE_TS,
}
_BOT_ID = "bot_sample0000000000000000000"

SAMPLES: tuple[WebhookPayload, ...] = (
    LobbyCreated(
        **_LOBBY,
        status="forming",
        capacity=8,
        participant_count=0,
        bot_count=0,
        segment_values={},
        fill_by=SAMPLE_TS,
        ends_at=SAMPLE_TS,
        metadata=None,
        created_at=SAMPLE_TS,
    ),
    LobbyPlayerJoined(
        lobby_id=_LOBBY_ID,
        event_id=EVENT["event_id"],
        **PLAYER,
        participant_count=1,
        capacity=8,
        joined_at=SAMPLE_TS,
    ),
    LobbyBotFilled(
        lobby_id=_LOBBY_ID,
        leaderboard_id=ATTEMPT["leaderboard_id"],
        bot_count=1,
        bots=(FilledBot(id=_BOT_ID, bot_id=_BOT_ID, name="Sample Bot 00"),),
    ),
    LobbyStarted(**_PROMOTION, promotion_reason="timeout"),
    LobbyFillTimeout(**_PROMOTION, promotion_reason="timeout"),
    LobbyClosed(
        **_LOBBY,
        capacity=8,
        participant_count=8,
        bot_count=1,
        started_at=SAMPLE_TS,
        ends_at=SAMPLE_TS,
        closed_at=SAMPLE_TS,
        promotion_reason="timeout",
        fired_trigger=None,
    ),
    SessionTerminated(
        lobby_id=_LOBBY_ID,
        **EVENT,
        leaderboard_id=ATTEMPT["leaderboard_id"],
        fired_trigger="sample-trigger",
        fired_trigger_type="score_reached",
        resolution="freeze",
        frozen_count=1,
        terminated_at=SAMPLE_TS,
    ),
    SessionFrozen(
        **ATTEMPT,
        lobby_id=_LOBBY_ID,
        score=100.0,
        fired_trigger="sample-trigger",
        frozen_at=SAMPLE_TS,
    ),
)
