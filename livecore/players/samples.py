"""Placeholder payloads of the players area's webhook kinds, for sample deliveries
(:attr:`livecore.area.Area.samples`)."""

from __future__ import annotations

from typing import Any

from livecore.players.webhooks import (
    PlayerBanned,
    PlayerDeleted,
    PlayerMerged,
    PlayerRegistered,
    PlayerSecretRotated,
    PlayerSecretSet,
    PlayerUnbanned,
)
from livecore.webhooks.payload import WebhookPayload
from livecore.webhooks.sample_values import ACTOR, FRIEND_EXTERNAL_ID, FRIEND_ID, PLAYER, SAMPLE_TS

_SECRET: dict[str, Any] = {**PLAYER, "secret_prefix": "ps_sampl", "registered_at": SAMPLE_TS}

SAMPLES: tuple[WebhookPayload, ...] = (
    PlayerRegistered(**PLAYER, first_seen_at=SAMPLE_TS, context_snapshot={}),
    PlayerSecretSet(**_SECRET, secret_rotated_at=None, via="sdk_register"),
    PlayerSecretRotated(**_SECRET, secret_rotated_at=SAMPLE_TS, via="force_rotate"),
    PlayerBanned(**PLAYER, reason="sample ban", banned_at=SAMPLE_TS, actor=ACTOR),
    PlayerUnbanned(**PLAYER, unbanned_at=SAMPLE_TS, actor=ACTOR),
    PlayerMerged(
        from_player_id=FRIEND_ID,
        from_external_player_id=FRIEND_EXTERNAL_ID,
        to_player_id=PLAYER["player_id"],
        to_external_player_id=PLAYER["external_player_id"],
        anonymized_external_player_id="__merged_00000000-0000-7000-8000-000000000003__",
        merged_at=SAMPLE_TS,
        actor=ACTOR,
    ),
    PlayerDeleted(
        **PLAYER,
        reason="gdpr_erasure",
        anonymized_external_id="__deleted_00000000-0000-7000-8000-000000000004__",
    ),
)
