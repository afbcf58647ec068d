"""The fake values that several areas' sample payloads share (each area's ``samples.py``), so one sample
player, friend, grant, event and attempt run through every sample. Every value is recognisably fake."""

from __future__ import annotations

from typing import Any

from livecore.clock import parse_ts
from livecore.games import Entry, ResourceType

SAMPLE_TS = parse_ts("2026-01-01T00:00:00.000Z")
PLAYER: dict[str, Any] = {
    "player_id": "plr_sample0000000000000000000",
    "external_player_id": "sample-player",
}
FRIEND_ID, FRIEND_EXTERNAL_ID = "plr_sample0000000000000000001", "sample-friend"
ACTOR: dict[str, Any] = {"kind": "api_key", "prefix": "lc_test_sample00"}
GRANT: dict[str, Any] = {
    "grant_id": "00000000-0000-7000-8000-000000000000",
    **PLAYER,
    "kind": "reward",
    "entries": (Entry(ResourceType.CURRENCY, "coins", 100),),
    "source_kind": "api",
    "source_ref_id": "sample",
    "metadata": {},
    "created_at": SAMPLE_TS,
    "expires_at": None,
}
EVENT: dict[str, Any] = {
    "event_id": "ev_sample00000000000000000000",
    "event_key": "sample-event",
    "event_window_id": "win_sample0000000000000000000",
}
ATTEMPT_ID = "att_sample0000000000000000000"
ATTEMPT: dict[str, Any] = {
    "attempt_id": ATTEMPT_ID,
    **EVENT,
    "leaderboard_id": "lb_sample00000000000000000000",
    **PLAYER,
}
