"""Placeholder payloads for sample deliveries (SPEC 6.1: sent through the normal signed pipeline with
``X-Svc-Webhook-Test: 1``). Every value is recognisably fake; kinds without a payload yet get an
empty object."""

from __future__ import annotations

from typing import Any

SAMPLE_TS = "2026-01-01T00:00:00.000Z"
SAMPLE_PLAYER = {"playerId": "plr_sample0000000000000000000", "externalPlayerId": "sample-player"}

SAMPLES: dict[str, dict[str, Any]] = {
    "player.registered": {**SAMPLE_PLAYER, "firstSeenAt": SAMPLE_TS, "contextSnapshot": {}},
    "player.secret_set": {
        **SAMPLE_PLAYER,
        "secretPrefix": "ps_sampl",
        "registeredAt": SAMPLE_TS,
        "secretRotatedAt": None,
        "via": "sdk_register",
    },
    "player.secret_rotated": {
        **SAMPLE_PLAYER,
        "secretPrefix": "ps_sampl",
        "registeredAt": SAMPLE_TS,
        "secretRotatedAt": SAMPLE_TS,
        "via": "force_rotate",
    },
    "webhook.endpoint.failed": {
        "endpointId": "whe_sample000000000000000000",
        "endpointKey": "sample-endpoint",
        "url": "https://example.invalid/hooks",
        "consecutiveFailures": 5,
        "threshold": 5,
        "lastStatus": 503,
        "lastError": None,
        "reason": "consecutive_failures",
    },
}

_SAMPLE_GRANT: dict[str, Any] = {
    "grantId": "00000000-0000-7000-8000-000000000000",
    **SAMPLE_PLAYER,
    "kind": "reward",
    "entries": [{"type": "currency", "key": "coins", "amount": 100}],
    "sourceKind": "api",
    "sourceRefId": "sample",
    "metadata": {},
    "createdAt": SAMPLE_TS,
    "expiresAt": None,
}
SAMPLES["grant.created"] = {**_SAMPLE_GRANT, "status": "pending", "claimedAt": None, "ackedBy": None}
SAMPLES["grant.claimed"] = {**_SAMPLE_GRANT, "status": "claimed", "claimedAt": SAMPLE_TS, "ackedBy": "client"}
SAMPLES["grant.expired"] = {**_SAMPLE_GRANT, "status": "expired", "claimedAt": None, "ackedBy": None}
_SAMPLE_CHANGE: dict[str, Any] = {
    **SAMPLE_PLAYER,
    "delta": 100,
    "reason": "grant",
    "note": None,
    "sourceRefId": "sample",
    "entryId": "led_00000000000070008000000000000000",
    "actor": {"kind": "api_key", "prefix": "lc_test_sample00"},
    "changedAt": SAMPLE_TS,
}
SAMPLES["wallet.changed"] = {**_SAMPLE_CHANGE, "economyKey": "coins", "balance": 100}
SAMPLES["inventory.changed"] = {
    **_SAMPLE_CHANGE,
    "itemKey": "sword",
    "quantity": 1,
    "parameters": {"level": 1},
}

_SAMPLE_FRIEND = {
    "friendPlayerId": "plr_sample0000000000000000001",
    "friendExternalPlayerId": "sample-friend",
}
SAMPLES["friend.request_sent"] = {
    "requesterPlayerId": SAMPLE_PLAYER["playerId"],
    "requesterExternalPlayerId": SAMPLE_PLAYER["externalPlayerId"],
    "targetPlayerId": _SAMPLE_FRIEND["friendPlayerId"],
    "targetExternalPlayerId": _SAMPLE_FRIEND["friendExternalPlayerId"],
    "requestId": "frq_sample000000000000000000",
    "createdAt": SAMPLE_TS,
}
SAMPLES["friend.request_accepted"] = {
    "requestId": "frq_sample000000000000000000",
    **SAMPLE_PLAYER,
    **_SAMPLE_FRIEND,
    "reciprocal": False,
    "friendsSince": SAMPLE_TS,
}
SAMPLES["friend.removed"] = {**SAMPLE_PLAYER, **_SAMPLE_FRIEND, "reason": "removed", "removedAt": SAMPLE_TS}

_SAMPLE_GIFT: dict[str, Any] = {
    "giftId": "00000000-0000-7000-8000-000000000001",
    "grantId": "00000000-0000-7000-8000-000000000002",
    "senderPlayerId": SAMPLE_PLAYER["playerId"],
    "senderExternalPlayerId": SAMPLE_PLAYER["externalPlayerId"],
    "recipientPlayerId": _SAMPLE_FRIEND["friendPlayerId"],
    "recipientExternalPlayerId": _SAMPLE_FRIEND["friendExternalPlayerId"],
    "type": "currency",
    "resourceKey": "coins",
    "amount": 10,
}
SAMPLES["gift.sent"] = {
    **_SAMPLE_GIFT,
    "deductedFromSender": False,
    "message": "sample gift",
    "sentAt": SAMPLE_TS,
    "expiresAt": None,
}
SAMPLES["gift.claimed"] = {**_SAMPLE_GIFT, "claimedAt": SAMPLE_TS}

_SAMPLE_ACTOR = {"kind": "api_key", "prefix": "lc_test_sample00"}
SAMPLES["player.banned"] = {
    **SAMPLE_PLAYER,
    "reason": "sample ban",
    "bannedAt": SAMPLE_TS,
    "actor": _SAMPLE_ACTOR,
}
SAMPLES["player.unbanned"] = {**SAMPLE_PLAYER, "unbannedAt": SAMPLE_TS, "actor": _SAMPLE_ACTOR}
SAMPLES["player.merged"] = {
    "fromPlayerId": _SAMPLE_FRIEND["friendPlayerId"],
    "fromExternalPlayerId": _SAMPLE_FRIEND["friendExternalPlayerId"],
    "toPlayerId": SAMPLE_PLAYER["playerId"],
    "toExternalPlayerId": SAMPLE_PLAYER["externalPlayerId"],
    "anonymizedExternalPlayerId": "__merged_00000000-0000-7000-8000-000000000003__",
    "mergedAt": SAMPLE_TS,
    "actor": _SAMPLE_ACTOR,
}
SAMPLES["player.deleted"] = {
    **SAMPLE_PLAYER,
    "reason": "gdpr_erasure",
    "anonymizedExternalId": "__deleted_00000000-0000-7000-8000-000000000004__",
}
SAMPLES["purchase.tracked"] = {
    "purchaseId": "pur_sample000000000000000000",
    **SAMPLE_PLAYER,
    "transactionId": "sample-transaction",
    "store": "app_store",
    "productId": "sample.coins.100",
    "productType": "consumable",
    "amountMinor": 99,
    "currency": "USD",
    "normalizedAmountMinor": 99,
    "fxRate": 1.0,
    "validationStatus": "unverified",
    "purchasedAt": SAMPLE_TS,
    "lifetimeAmountMinor": 99,
    "purchaseCount": 1,
    "metadata": {},
}

DEFAULT_SAMPLE_KIND = "player.registered"


def sample_data(kind: str) -> dict[str, Any]:
    return dict(SAMPLES.get(kind, {}))
