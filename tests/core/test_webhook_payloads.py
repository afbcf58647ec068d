"""Each webhook payload class serialises to exactly the JSON the service has always sent for its kind:
the same keys in the same order (the signed body shows the order), ``null`` where a value is absent,
timestamps as ``YYYY-MM-DDTHH:MM:SS.sssZ``."""

from __future__ import annotations

from datetime import UTC, datetime

import attrs
import orjson
import pytest

from livecore import registry
from livecore.games import Entry, ResourceType
from livecore.grants.rules import Grant, GrantKind, GrantStatus
from livecore.grants.webhooks import GrantCreated
from livecore.operators.webhooks import sample_kinds
from livecore.webhooks.payload import WebhookPayload
from tests.installed import PAYLOAD_TYPES, SAMPLES

# The wire JSON of each kind's sample: the contract the classes keep, byte for byte.
WIRE: dict[str, bytes] = {
    "player.registered": (
        b'{"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player",'
        b'"firstSeenAt":"2026-01-01T00:00:00.000Z","contextSnapshot":{}}'
    ),
    "player.secret_set": (
        b'{"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player",'
        b'"secretPrefix":"ps_sampl","registeredAt":"2026-01-01T00:00:00.000Z","secretRotatedAt":null,'
        b'"via":"sdk_register"}'
    ),
    "player.secret_rotated": (
        b'{"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player",'
        b'"secretPrefix":"ps_sampl","registeredAt":"2026-01-01T00:00:00.000Z",'
        b'"secretRotatedAt":"2026-01-01T00:00:00.000Z","via":"force_rotate"}'
    ),
    "webhook.endpoint.failed": (
        b'{"endpointId":"whe_sample000000000000000000","endpointKey":"sample-endpoint",'
        b'"url":"https://example.invalid/hooks","consecutiveFailures":5,"threshold":5,'
        b'"lastStatus":503,"lastError":null,"reason":"consecutive_failures"}'
    ),
    "grant.created": (
        b'{"grantId":"00000000-0000-7000-8000-000000000000",'
        b'"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player",'
        b'"kind":"reward","status":"pending","entries":[{"type":"currency","key":"coins",'
        b'"amount":100}],"sourceKind":"api","sourceRefId":"sample","metadata":{},'
        b'"createdAt":"2026-01-01T00:00:00.000Z","claimedAt":null,"expiresAt":null,"ackedBy":null}'
    ),
    "grant.claimed": (
        b'{"grantId":"00000000-0000-7000-8000-000000000000",'
        b'"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player",'
        b'"kind":"reward","status":"claimed","entries":[{"type":"currency","key":"coins",'
        b'"amount":100}],"sourceKind":"api","sourceRefId":"sample","metadata":{},'
        b'"createdAt":"2026-01-01T00:00:00.000Z","claimedAt":"2026-01-01T00:00:00.000Z",'
        b'"expiresAt":null,"ackedBy":"client"}'
    ),
    "grant.expired": (
        b'{"grantId":"00000000-0000-7000-8000-000000000000",'
        b'"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player",'
        b'"kind":"reward","status":"expired","entries":[{"type":"currency","key":"coins",'
        b'"amount":100}],"sourceKind":"api","sourceRefId":"sample","metadata":{},'
        b'"createdAt":"2026-01-01T00:00:00.000Z","claimedAt":null,"expiresAt":null,"ackedBy":null}'
    ),
    "crate.opened": (
        b'{"grantId":"00000000-0000-7000-8000-000000000003",'
        b'"contentsGrantId":"00000000-0000-7000-8000-000000000000",'
        b'"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player",'
        b'"crates":[{"key":"bronze-chest","amount":1,"type":"crate"}],'
        b'"contents":[{"type":"currency","key":"coins","amount":100}],"openedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "wallet.changed": (
        b'{"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player","delta":100,'
        b'"reason":"grant","note":null,"sourceRefId":"sample",'
        b'"entryId":"led_00000000000070008000000000000000","actor":{"kind":"api_key",'
        b'"prefix":"lc_test_sample00"},"changedAt":"2026-01-01T00:00:00.000Z","economyKey":"coins",'
        b'"balance":100}'
    ),
    "inventory.changed": (
        b'{"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player","delta":100,'
        b'"reason":"grant","note":null,"sourceRefId":"sample",'
        b'"entryId":"led_00000000000070008000000000000000","actor":{"kind":"api_key",'
        b'"prefix":"lc_test_sample00"},"changedAt":"2026-01-01T00:00:00.000Z","itemKey":"sword",'
        b'"quantity":1,"parameters":{"level":1}}'
    ),
    "friend.request_sent": (
        b'{"requesterPlayerId":"plr_sample0000000000000000000",'
        b'"requesterExternalPlayerId":"sample-player",'
        b'"targetPlayerId":"plr_sample0000000000000000001","targetExternalPlayerId":"sample-friend",'
        b'"requestId":"frq_sample000000000000000000","createdAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "friend.request_accepted": (
        b'{"requestId":"frq_sample000000000000000000","playerId":"plr_sample0000000000000000000",'
        b'"externalPlayerId":"sample-player","friendPlayerId":"plr_sample0000000000000000001",'
        b'"friendExternalPlayerId":"sample-friend","reciprocal":false,'
        b'"friendsSince":"2026-01-01T00:00:00.000Z"}'
    ),
    "friend.removed": (
        b'{"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player",'
        b'"friendPlayerId":"plr_sample0000000000000000001","friendExternalPlayerId":"sample-friend",'
        b'"reason":"removed","removedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "gift.sent": (
        b'{"giftId":"00000000-0000-7000-8000-000000000001",'
        b'"grantId":"00000000-0000-7000-8000-000000000002",'
        b'"senderPlayerId":"plr_sample0000000000000000000","senderExternalPlayerId":"sample-player",'
        b'"recipientPlayerId":"plr_sample0000000000000000001",'
        b'"recipientExternalPlayerId":"sample-friend","type":"currency","resourceKey":"coins",'
        b'"amount":10,"deductedFromSender":false,"message":"sample gift",'
        b'"sentAt":"2026-01-01T00:00:00.000Z","expiresAt":null}'
    ),
    "gift.claimed": (
        b'{"giftId":"00000000-0000-7000-8000-000000000001",'
        b'"grantId":"00000000-0000-7000-8000-000000000002",'
        b'"senderPlayerId":"plr_sample0000000000000000000","senderExternalPlayerId":"sample-player",'
        b'"recipientPlayerId":"plr_sample0000000000000000001",'
        b'"recipientExternalPlayerId":"sample-friend","type":"currency","resourceKey":"coins",'
        b'"amount":10,"claimedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "player.banned": (
        b'{"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player",'
        b'"reason":"sample ban","bannedAt":"2026-01-01T00:00:00.000Z","actor":{"kind":"api_key",'
        b'"prefix":"lc_test_sample00"}}'
    ),
    "player.unbanned": (
        b'{"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player",'
        b'"unbannedAt":"2026-01-01T00:00:00.000Z","actor":{"kind":"api_key",'
        b'"prefix":"lc_test_sample00"}}'
    ),
    "player.merged": (
        b'{"fromPlayerId":"plr_sample0000000000000000001","fromExternalPlayerId":"sample-friend",'
        b'"toPlayerId":"plr_sample0000000000000000000","toExternalPlayerId":"sample-player",'
        b'"anonymizedExternalPlayerId":"__merged_00000000-0000-7000-8000-000000000003__",'
        b'"mergedAt":"2026-01-01T00:00:00.000Z","actor":{"kind":"api_key",'
        b'"prefix":"lc_test_sample00"}}'
    ),
    "player.deleted": (
        b'{"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player",'
        b'"reason":"gdpr_erasure",'
        b'"anonymizedExternalId":"__deleted_00000000-0000-7000-8000-000000000004__"'
        b"}"
    ),
    "purchase.tracked": (
        b'{"purchaseId":"pur_sample000000000000000000","playerId":"plr_sample0000000000000000000",'
        b'"externalPlayerId":"sample-player","transactionId":"sample-transaction","store":"app_store",'
        b'"productId":"sample.coins.100","productType":"consumable","amountMinor":99,"currency":"USD",'
        b'"normalizedAmountMinor":99,"fxRate":1,"validationStatus":"unverified",'
        b'"purchasedAt":"2026-01-01T00:00:00.000Z","lifetimeAmountMinor":99,"purchaseCount":1,'
        b'"metadata":{'
        b"}}"
    ),
    "event.attempt_started": (
        b'{"attemptId":"att_sample0000000000000000000","eventId":"ev_sample00000000000000000000",'
        b'"eventKey":"sample-event","eventWindowId":"win_sample0000000000000000000",'
        b'"leaderboardId":"lb_sample00000000000000000000","playerId":"plr_sample0000000000000000000",'
        b'"externalPlayerId":"sample-player","startedAt":"2026-01-01T00:00:00.000Z",'
        b'"endsAt":"2026-01-01T00:00:00.000Z","attemptCount":1}'
    ),
    "event.attempt_restarted": (
        b'{"attemptId":"att_sample0000000000000000000",'
        b'"priorAttemptId":"att_sample0000000000000000001","priorScore":50,'
        b'"priorStatus":"completed","eventId":"ev_sample00000000000000000000",'
        b'"eventKey":"sample-event","eventWindowId":"win_sample0000000000000000000",'
        b'"leaderboardId":"lb_sample00000000000000000000","playerId":"plr_sample0000000000000000000",'
        b'"externalPlayerId":"sample-player"}'
    ),
    "event.progress_updated": (
        b'{"attemptId":"att_sample0000000000000000000","eventId":"ev_sample00000000000000000000",'
        b'"eventKey":"sample-event","eventWindowId":"win_sample0000000000000000000",'
        b'"leaderboardId":"lb_sample00000000000000000000","playerId":"plr_sample0000000000000000000",'
        b'"externalPlayerId":"sample-player","status":"in_progress","score":100,'
        b'"metrics":{"score":100},"milestones":["sample-milestone"],"flagged":false,'
        b'"startedAt":"2026-01-01T00:00:00.000Z","endsAt":"2026-01-01T00:00:00.000Z",'
        b'"completedAt":null}'
    ),
    "event.completed": (
        b'{"attemptId":"att_sample0000000000000000000","eventId":"ev_sample00000000000000000000",'
        b'"eventKey":"sample-event","eventWindowId":"win_sample0000000000000000000",'
        b'"leaderboardId":"lb_sample00000000000000000000","playerId":"plr_sample0000000000000000000",'
        b'"externalPlayerId":"sample-player","status":"completed","score":100,'
        b'"metrics":{"score":100},"milestones":["sample-milestone"],"flagged":false,'
        b'"startedAt":"2026-01-01T00:00:00.000Z","endsAt":"2026-01-01T00:00:00.000Z",'
        b'"completedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "event.expired": (
        b'{"attemptId":"att_sample0000000000000000000","eventId":"ev_sample00000000000000000000",'
        b'"eventKey":"sample-event","eventWindowId":"win_sample0000000000000000000",'
        b'"leaderboardId":"lb_sample00000000000000000000","playerId":"plr_sample0000000000000000000",'
        b'"externalPlayerId":"sample-player","status":"expired","score":100,'
        b'"metrics":{"score":100},"milestones":["sample-milestone"],"flagged":false,'
        b'"startedAt":"2026-01-01T00:00:00.000Z","endsAt":"2026-01-01T00:00:00.000Z",'
        b'"completedAt":null}'
    ),
    "event.force_completed": (
        b'{"attemptId":"att_sample0000000000000000000","eventId":"ev_sample00000000000000000000",'
        b'"eventWindowId":"win_sample0000000000000000000",'
        b'"leaderboardId":"lb_sample00000000000000000000","playerId":"plr_sample0000000000000000000",'
        b'"score":100,"priorScore":50,"completedAt":"2026-01-01T00:00:00.000Z",'
        b'"actorMemberId":"mem_sample0000000000000000000","reason":"sample","milestonesFired":[]}'
    ),
    "event.attempt_flagged": (
        b'{"attemptId":"att_sample0000000000000000000","eventId":"ev_sample00000000000000000000",'
        b'"eventKey":"sample-event","playerId":"plr_sample0000000000000000000",'
        b'"externalPlayerId":"sample-player","validatorKey":"sample-check","reason":"sample",'
        b'"metricSnapshot":{"metricKey":"score","before":0,"after":100,"elapsedSec":10,'
        b'"avgRate":10,"limit":5},"flaggedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "event.milestone_granted": (
        b'{"attemptId":"att_sample0000000000000000000","eventId":"ev_sample00000000000000000000",'
        b'"eventKey":"sample-event","eventWindowId":"win_sample0000000000000000000",'
        b'"leaderboardId":"lb_sample00000000000000000000","playerId":"plr_sample0000000000000000000",'
        b'"externalPlayerId":"sample-player","milestoneKey":"sample-milestone","threshold":100,'
        b'"score":100,"grantId":"00000000-0000-7000-8000-000000000000",'
        b'"grantedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "entry_cost.charged": (
        b'{"eventId":"ev_sample00000000000000000000","eventKey":"sample-event",'
        b'"eventWindowId":"win_sample0000000000000000000","attemptId":"att_sample0000000000000000000",'
        b'"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player",'
        b'"cost":{"currencies":[{"key":"gems","amount":5}],"items":[]}}'
    ),
    "window.opened": (
        b'{"eventWindowId":"win_sample0000000000000000000","eventId":"ev_sample00000000000000000000",'
        b'"eventKey":"sample-event","env":"live","startsAt":"2026-01-01T00:00:00.000Z",'
        b'"endsAt":"2026-01-01T00:00:00.000Z","at":"2026-01-01T00:00:00.000Z"}'
    ),
    "window.closed": (
        b'{"eventWindowId":"win_sample0000000000000000000","eventId":"ev_sample00000000000000000000",'
        b'"eventKey":"sample-event","env":"live","startsAt":"2026-01-01T00:00:00.000Z",'
        b'"endsAt":"2026-01-01T00:00:00.000Z","at":"2026-01-01T00:00:00.000Z"}'
    ),
    "leaderboard.finalized": (
        b'{"leaderboardId":"lb_sample00000000000000000000","eventId":"ev_sample00000000000000000000",'
        b'"eventKey":"sample-event","eventWindowId":"win_sample0000000000000000000","lobbyId":null,'
        b'"segmentValues":{},"participantScope":"player","entryCount":1,"top":[{"rank":1,'
        b'"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player","score":100,'
        b'"attemptId":"att_sample0000000000000000000","reachedAt":"2026-01-01T00:00:00.000Z"}],'
        b'"finalizedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "leaderboard.period_finalized": (
        b'{"leaderboardKey":"sample-board","periodId":"lbp_sample0000000000000000000",'
        b'"periodStartsAt":"2026-01-01T00:00:00.000Z","periodEndsAt":"2026-01-01T00:00:00.000Z",'
        b'"entryCount":1,"top":[{"rank":1,"playerId":"plr_sample0000000000000000000",'
        b'"externalPlayerId":"sample-player","score":100,"reachedAt":"2026-01-01T00:00:00.000Z",'
        b'"divisionId":"div_sample0000000000000000000"}]}'
    ),
    "lobby.created": (
        b'{"lobbyId":"lob_sample0000000000000000000","eventId":"ev_sample00000000000000000000",'
        b'"eventKey":"sample-event","windowId":"win_sample0000000000000000000",'
        b'"leaderboardId":"lb_sample00000000000000000000","status":"forming","capacity":8,'
        b'"participantCount":0,"botCount":0,"segmentValues":{},"fillBy":"2026-01-01T00:00:00.000Z",'
        b'"endsAt":"2026-01-01T00:00:00.000Z","metadata":null,"createdAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "lobby.player_joined": (
        b'{"lobbyId":"lob_sample0000000000000000000","eventId":"ev_sample00000000000000000000",'
        b'"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player",'
        b'"participantCount":1,"capacity":8,"joinedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "lobby.bot_filled": (
        b'{"lobbyId":"lob_sample0000000000000000000","leaderboardId":"lb_sample00000000000000000000",'
        b'"botCount":1,"bots":[{"id":"bot_sample0000000000000000000",'
        b'"botId":"bot_sample0000000000000000000","name":"Sample Bot 00"}]}'
    ),
    "lobby.started": (
        b'{"lobbyId":"lob_sample0000000000000000000","leaderboardId":"lb_sample00000000000000000000",'
        b'"capacity":8,"participantCount":8,"botCount":1,"startedAt":"2026-01-01T00:00:00.000Z",'
        b'"endsAt":"2026-01-01T00:00:00.000Z","promotionReason":"timeout"}'
    ),
    "lobby.fill_timeout": (
        b'{"lobbyId":"lob_sample0000000000000000000","leaderboardId":"lb_sample00000000000000000000",'
        b'"capacity":8,"participantCount":8,"botCount":1,"startedAt":"2026-01-01T00:00:00.000Z",'
        b'"endsAt":"2026-01-01T00:00:00.000Z","promotionReason":"timeout"}'
    ),
    "lobby.closed": (
        b'{"lobbyId":"lob_sample0000000000000000000","eventId":"ev_sample00000000000000000000",'
        b'"eventKey":"sample-event","windowId":"win_sample0000000000000000000",'
        b'"leaderboardId":"lb_sample00000000000000000000","capacity":8,"participantCount":8,'
        b'"botCount":1,"startedAt":"2026-01-01T00:00:00.000Z","endsAt":"2026-01-01T00:00:00.000Z",'
        b'"closedAt":"2026-01-01T00:00:00.000Z","promotionReason":"timeout","firedTrigger":null}'
    ),
    "session.terminated": (
        b'{"lobbyId":"lob_sample0000000000000000000","eventId":"ev_sample00000000000000000000",'
        b'"eventKey":"sample-event","eventWindowId":"win_sample0000000000000000000",'
        b'"leaderboardId":"lb_sample00000000000000000000","firedTrigger":"sample-trigger",'
        b'"firedTriggerType":"score_reached","resolution":"freeze","frozenCount":1,'
        b'"terminatedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "session.frozen": (
        b'{"attemptId":"att_sample0000000000000000000","eventId":"ev_sample00000000000000000000",'
        b'"eventKey":"sample-event","eventWindowId":"win_sample0000000000000000000",'
        b'"leaderboardId":"lb_sample00000000000000000000","playerId":"plr_sample0000000000000000000",'
        b'"externalPlayerId":"sample-player","lobbyId":"lob_sample0000000000000000000","score":100,'
        b'"firedTrigger":"sample-trigger","frozenAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "event_team.formed": (
        b'{"eventTeamId":"team_sample00000000000000000000","teamKey":"sample-team","eventKey":"sample-event",'
        b'"windowId":"win_sample0000000000000000000",'
        b'"name":"Sample Team","formation":"external","memberCount":1,"goalTarget":1000,"attributes":null,'
        b'"formedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "event_team.member_joined": (
        b'{"eventTeamId":"team_sample00000000000000000000","teamKey":"sample-team","eventKey":"sample-event",'
        b'"windowId":"win_sample0000000000000000000",'
        b'"seatId":"tms_sample0000000000000000000","playerId":"plr_sample0000000000000000000",'
        b'"externalPlayerId":"sample-player","memberCount":1,"joinedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "event_team.member_left": (
        b'{"eventTeamId":"team_sample00000000000000000000","teamKey":"sample-team","eventKey":"sample-event",'
        b'"windowId":"win_sample0000000000000000000",'
        b'"seatId":"tms_sample0000000000000000000","playerId":"plr_sample0000000000000000000",'
        b'"externalPlayerId":"sample-player","reason":"left","contribution":100,'
        b'"contributionRemoved":false,"memberCount":0,"leftAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "event_team.milestone_unlocked": (
        b'{"eventTeamId":"team_sample00000000000000000000","teamKey":"sample-team","eventKey":"sample-event",'
        b'"windowId":"win_sample0000000000000000000",'
        b'"milestoneKey":"sample-milestone","threshold":500,"teamScore":500,"seatCount":1,'
        b'"paidSeatCount":1,"payState":"inline_done"}'
    ),
    "event_team.goal_completed": (
        b'{"eventTeamId":"team_sample00000000000000000000","teamKey":"sample-team","eventKey":"sample-event",'
        b'"windowId":"win_sample0000000000000000000",'
        b'"score":1000,"goalTarget":1000,"memberCount":1,"scoreFrozen":false,'
        b'"completedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "event_team.finalized": (
        b'{"eventTeamId":"team_sample00000000000000000000","teamKey":"sample-team","eventKey":"sample-event",'
        b'"windowId":"win_sample0000000000000000000",'
        b'"rank":1,"boardSize":1,"segmentValues":{},"score":1000,"goalTarget":1000,"completed":true,'
        b'"memberCount":1,"finalizedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "partner.invite_sent": (
        b'{"eventTeamId":null,"teamKey":"inv_sample0000000000000000000",'
        b'"eventKey":"sample-event","windowId":"win_sample0000000000000000000",'
        b'"inviteId":"inv_sample0000000000000000000","fromPlayerId":"plr_sample0000000000000000000",'
        b'"fromExternalPlayerId":"sample-player","toPlayerId":"plr_sample0000000000000000001",'
        b'"toExternalPlayerId":"sample-friend","sentAt":"2026-01-01T00:00:00.000Z",'
        b'"expiresAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "partner.invite_accepted": (
        b'{"eventTeamId":"team_sample00000000000000000001","teamKey":"inv_sample0000000000000000000",'
        b'"eventKey":"sample-event","windowId":"win_sample0000000000000000000",'
        b'"inviteId":"inv_sample0000000000000000000","fromPlayerId":"plr_sample0000000000000000000",'
        b'"fromExternalPlayerId":"sample-player","toPlayerId":"plr_sample0000000000000000001",'
        b'"toExternalPlayerId":"sample-friend","sentAt":"2026-01-01T00:00:00.000Z",'
        b'"expiresAt":"2026-01-01T00:00:00.000Z","acceptedAt":"2026-01-01T00:00:00.000Z",'
        b'"goalTarget":1000}'
    ),
    "guild.created": (
        b'{"guildId":"gld_sample0000000000000000000","guildName":"Sample Guild","by":{"kind":"player",'
        b'"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player"},'
        b'"joinType":"open","country":"FI","leaderPlayerId":"plr_sample0000000000000000000",'
        b'"leaderExternalPlayerId":"sample-player","cost":[{"type":"currency","key":"coins",'
        b'"amount":100}],"costsChargedBy":"platform","createdAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "guild.updated": (
        b'{"guildId":"gld_sample0000000000000000000","guildName":"Sample Guild","by":{"kind":"api_key",'
        b'"apiKeyPrefix":"lc_test_sample00"},"changes":{"name":{"before":"Old Sample Guild",'
        b'"after":"Sample Guild"}}}'
    ),
    "guild.disbanded": (
        b'{"guildId":"gld_sample0000000000000000000","guildName":"Sample Guild","by":{"kind":"member",'
        b'"memberId":"mem_sample0000000000000000000"},"reason":"admin",'
        b'"disbandedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "guild.member_joined": (
        b'{"guildId":"gld_sample0000000000000000000","guildName":"Sample Guild","by":{"kind":"player",'
        b'"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player"},'
        b'"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player","role":"member",'
        b'"via":"open","memberCount":2,"joinedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "guild.member_left": (
        b'{"guildId":"gld_sample0000000000000000000","guildName":"Sample Guild","by":{"kind":"player",'
        b'"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player"},'
        b'"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player","reason":"left",'
        b'"role":"member","memberCount":1,"leftAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "guild.role_changed": (
        b'{"guildId":"gld_sample0000000000000000000","guildName":"Sample Guild","by":{"kind":"system"},'
        b'"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player",'
        b'"from":"co_leader","to":"leader","reason":"succession_leader_inactive",'
        b'"changedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "guild.join_requested": (
        b'{"guildId":"gld_sample0000000000000000000","guildName":"Sample Guild","by":{"kind":"player",'
        b'"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player"},'
        b'"requestId":"gjr_sample0000000000000000000","playerId":"plr_sample0000000000000000000",'
        b'"externalPlayerId":"sample-player","message":"sample request",'
        b'"requestedAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "guild.help_requested": (
        b'{"guildId":"gld_sample0000000000000000000","guildName":"Sample Guild","by":{"kind":"player",'
        b'"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player"},'
        b'"requestId":"ghr_sample0000000000000000000","playerId":"plr_sample0000000000000000000",'
        b'"externalPlayerId":"sample-player","type":"currency","resourceKey":"energy","amount":5,'
        b'"expiresAt":"2026-01-01T00:00:00.000Z"}'
    ),
    "guild.help_donated": (
        b'{"guildId":"gld_sample0000000000000000000","guildName":"Sample Guild","by":{"kind":"player",'
        b'"playerId":"plr_sample0000000000000000001","externalPlayerId":"sample-friend"},'
        b'"requestId":"ghr_sample0000000000000000000","donationId":"gdn_sample0000000000000000000",'
        b'"grantId":"00000000-0000-7000-8000-000000000005",'
        b'"rewardGrantId":"00000000-0000-7000-8000-000000000006",'
        b'"donorPlayerId":"plr_sample0000000000000000001","donorExternalPlayerId":"sample-friend",'
        b'"recipientPlayerId":"plr_sample0000000000000000000","recipientExternalPlayerId":"sample-player",'
        b'"type":"currency","resourceKey":"energy","amount":2,"costsDonor":true,'
        b'"costsChargedBy":"platform","amountReceived":2,"amountRequested":5,"filled":false,'
        b'"donatedAt":"2026-01-01T00:00:00.000Z"}'
    ),
}


@pytest.mark.parametrize("kind", sorted(WIRE))
def test_each_kind_serialises_to_its_wire_json(kind: str) -> None:
    payload = SAMPLES[kind]
    assert type(payload) is PAYLOAD_TYPES[kind] and kind == payload.KIND
    assert orjson.dumps(payload.to_wire()) == WIRE[kind]


def test_every_declared_kind_has_a_sample_and_its_wire_json() -> None:
    assert set(PAYLOAD_TYPES) == set(SAMPLES) == set(WIRE)
    assert all(issubclass(cls, WebhookPayload) for cls in PAYLOAD_TYPES.values())


def test_a_sample_delivery_sends_the_declared_sample_of_its_kind() -> None:
    assert sample_kinds(registry.installed())["player.registered"] is SAMPLES["player.registered"]


def test_grant_entries_carry_parameters_only_for_items_and_times_keep_milliseconds() -> None:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    grant = Grant(
        id="00000000-0000-7000-8000-000000000000",
        player_id="plr_sample0000000000000000000",
        external_player_id="sample-player",
        game_id="gam_1",
        kind=GrantKind.REWARD,
        status=GrantStatus.PENDING,
        entries=(
            Entry(ResourceType.ITEM, "sword", 1, {"level": 2}),
            Entry(ResourceType.CURRENCY, "coins", 5),
        ),
        source_kind="api",
        source_ref_id="sample",
        metadata={},
        created_at=at,
        expires_at=at,
    )
    assert orjson.dumps(GrantCreated.of(grant).to_wire()) == (
        b'{"grantId":"00000000-0000-7000-8000-000000000000",'
        b'"playerId":"plr_sample0000000000000000000","externalPlayerId":"sample-player",'
        b'"kind":"reward","status":"pending","entries":[{"type":"item","key":"sword","amount":1,'
        b'"parameters":{"level":2}},{"type":"currency","key":"coins","amount":5}],"sourceKind":"api",'
        b'"sourceRefId":"sample","metadata":{},"createdAt":"2026-01-01T00:00:00.000Z",'
        b'"claimedAt":null,"expiresAt":"2026-01-01T00:00:00.000Z","ackedBy":null}'
    )
    later = GrantCreated.of(attrs.evolve(grant, created_at=datetime(2026, 1, 1, 0, 0, 0, 123999, tzinfo=UTC)))
    assert later.to_wire()["createdAt"] == "2026-01-01T00:00:00.123Z"
