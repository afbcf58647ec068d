"""Placeholder payloads for sample deliveries (docs/reference/webhooks.md: sent through the normal signed
pipeline with ``X-Svc-Webhook-Test: 1``). Every value is recognisably fake, and each sample is an instance of
its kind's payload class, so it has the same fields in the same order as a real delivery. Kinds without a
declared payload get an empty object."""

from __future__ import annotations

from typing import Any

from livecore.clock import parse_ts
from livecore.crates.rules import CrateEntry
from livecore.crates.webhooks import CrateOpened
from livecore.economy.webhooks import InventoryChanged, WalletChanged
from livecore.friends.webhooks import FriendRemoved, FriendRequestAccepted, FriendRequestSent
from livecore.games import Entry, ResourceType
from livecore.gifts.webhooks import GiftClaimed, GiftSent
from livecore.grants.webhooks import GrantClaimed, GrantCreated, GrantExpired
from livecore.guilds.rules import By, ByKind
from livecore.guilds.webhooks import (
    GuildCreated,
    GuildDisbanded,
    GuildHelpDonated,
    GuildHelpRequested,
    GuildJoinRequested,
    GuildMemberJoined,
    GuildMemberLeft,
    GuildRoleChanged,
    GuildUpdated,
)
from livecore.leaderboards.webhooks import PeriodEntry, PeriodFinalized
from livecore.live_events.webhooks import (
    AttemptCompleted,
    AttemptExpired,
    AttemptFlagged,
    AttemptForceCompleted,
    AttemptRestarted,
    AttemptStarted,
    Cost,
    CostLine,
    EntryCostCharged,
    FinalEntry,
    LeaderboardFinalized,
    MetricSnapshot,
    MilestoneGranted,
    ProgressUpdated,
    WindowClosed,
    WindowOpened,
)
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
from livecore.players.webhooks import (
    PlayerBanned,
    PlayerDeleted,
    PlayerMerged,
    PlayerRegistered,
    PlayerSecretRotated,
    PlayerSecretSet,
    PlayerUnbanned,
)
from livecore.purchases.webhooks import PurchaseTracked
from livecore.teams.webhooks import (
    EventTeamFinalized,
    EventTeamFormed,
    EventTeamGoalCompleted,
    EventTeamMemberJoined,
    EventTeamMemberLeft,
    EventTeamMilestoneUnlocked,
    PartnerInviteAccepted,
    PartnerInviteSent,
)
from livecore.webhooks.endpoints import WebhookEndpointFailed
from livecore.webhooks.payload import WebhookPayload

SAMPLE_TS = parse_ts("2026-01-01T00:00:00.000Z")
_PLAYER: dict[str, Any] = {
    "player_id": "plr_sample0000000000000000000",
    "external_player_id": "sample-player",
}
_FRIEND_ID, _FRIEND_EXTERNAL_ID = "plr_sample0000000000000000001", "sample-friend"
_FRIEND: dict[str, Any] = {"friend_player_id": _FRIEND_ID, "friend_external_player_id": _FRIEND_EXTERNAL_ID}
_ACTOR: dict[str, Any] = {"kind": "api_key", "prefix": "lc_test_sample00"}
_REQUEST_ID = "frq_sample000000000000000000"
_SECRET: dict[str, Any] = {**_PLAYER, "secret_prefix": "ps_sampl", "registered_at": SAMPLE_TS}
_GRANT: dict[str, Any] = {
    "grant_id": "00000000-0000-7000-8000-000000000000",
    **_PLAYER,
    "kind": "reward",
    "entries": (Entry(ResourceType.CURRENCY, "coins", 100),),
    "source_kind": "api",
    "source_ref_id": "sample",
    "metadata": {},
    "created_at": SAMPLE_TS,
    "expires_at": None,
}
_CHANGE: dict[str, Any] = {
    **_PLAYER,
    "delta": 100,
    "reason": "grant",
    "note": None,
    "source_ref_id": "sample",
    "entry_id": "led_00000000000070008000000000000000",
    "actor": _ACTOR,
    "changed_at": SAMPLE_TS,
}
_GIFT: dict[str, Any] = {
    "gift_id": "00000000-0000-7000-8000-000000000001",
    "grant_id": "00000000-0000-7000-8000-000000000002",
    "sender_player_id": _PLAYER["player_id"],
    "sender_external_player_id": _PLAYER["external_player_id"],
    "recipient_player_id": _FRIEND_ID,
    "recipient_external_player_id": _FRIEND_EXTERNAL_ID,
    "type": "currency",
    "resource_key": "coins",
    "amount": 10,
}
_EVENT: dict[str, Any] = {
    "event_id": "ev_sample00000000000000000000",
    "event_key": "sample-event",
    "event_window_id": "win_sample0000000000000000000",
}
_ATTEMPT_ID = "att_sample0000000000000000000"
_ATTEMPT: dict[str, Any] = {
    "attempt_id": _ATTEMPT_ID,
    **_EVENT,
    "leaderboard_id": "lb_sample00000000000000000000",
    **_PLAYER,
}
_ATTEMPT_STATE: dict[str, Any] = {
    **_ATTEMPT,
    "score": 100.0,
    "metrics": {"score": 100.0},
    "milestones": ("sample-milestone",),
    "flagged": False,
    "started_at": SAMPLE_TS,
    "ends_at": SAMPLE_TS,
}
_WINDOW: dict[str, Any] = {
    **_EVENT,
    "env": "live",
    "starts_at": SAMPLE_TS,
    "ends_at": SAMPLE_TS,
    "at": SAMPLE_TS,
}
_LOBBY_ID = "lob_sample0000000000000000000"
_LOBBY: dict[str, Any] = {
    "lobby_id": _LOBBY_ID,
    "event_id": _EVENT["event_id"],
    "event_key": _EVENT["event_key"],
    "window_id": _EVENT["event_window_id"],
    "leaderboard_id": _ATTEMPT["leaderboard_id"],
}
_PROMOTION: dict[str, Any] = {
    "lobby_id": _LOBBY_ID,
    "leaderboard_id": _ATTEMPT["leaderboard_id"],
    "capacity": 8,
    "participant_count": 8,
    "bot_count": 1,
    "started_at": SAMPLE_TS,
    "ends_at": SAMPLE_TS,
}
_BOT_ID = "bot_sample0000000000000000000"
_INVITE_ID = "inv_sample0000000000000000000"
_TEAM: dict[str, Any] = {
    "event_team_id": "team_sample00000000000000000000",
    "team_key": "sample-team",
    "event_key": _EVENT["event_key"],
    "window_id": _EVENT["event_window_id"],
}
_SEAT: dict[str, Any] = {**_TEAM, "seat_id": "tms_sample0000000000000000000", **_PLAYER}
_INVITE: dict[str, Any] = {
    "team_key": _INVITE_ID,
    "event_key": _EVENT["event_key"],
    "window_id": _EVENT["event_window_id"],
    "invite_id": _INVITE_ID,
    "from_player_id": _PLAYER["player_id"],
    "from_external_player_id": _PLAYER["external_player_id"],
    "to_player_id": _FRIEND_ID,
    "to_external_player_id": _FRIEND_EXTERNAL_ID,
    "sent_at": SAMPLE_TS,
    "expires_at": SAMPLE_TS,
}
_BY_PLAYER = By(ByKind.PLAYER, _PLAYER["player_id"], _PLAYER["external_player_id"]).to_wire()
_GUILD: dict[str, Any] = {"guild_id": "gld_sample0000000000000000000", "guild_name": "Sample Guild"}
_HELP_REQUEST: dict[str, Any] = {
    "request_id": "ghr_sample0000000000000000000",
    "type": "currency",
    "resource_key": "energy",
    "amount": 5,
}

SAMPLES: dict[str, WebhookPayload] = {
    sample.KIND: sample
    for sample in (
        PlayerRegistered(**_PLAYER, first_seen_at=SAMPLE_TS, context_snapshot={}),
        PlayerSecretSet(**_SECRET, secret_rotated_at=None, via="sdk_register"),
        PlayerSecretRotated(**_SECRET, secret_rotated_at=SAMPLE_TS, via="force_rotate"),
        WebhookEndpointFailed(
            endpoint_id="whe_sample000000000000000000",
            endpoint_key="sample-endpoint",
            url="https://example.invalid/hooks",
            consecutive_failures=5,
            threshold=5,
            last_status=503,
            last_error=None,
            reason="consecutive_failures",
        ),
        GrantCreated(**_GRANT, status="pending", claimed_at=None, acked_by=None),
        GrantClaimed(**_GRANT, status="claimed", claimed_at=SAMPLE_TS, acked_by="client"),
        GrantExpired(**_GRANT, status="expired", claimed_at=None, acked_by=None),
        CrateOpened(
            grant_id="00000000-0000-7000-8000-000000000003",
            contents_grant_id=_GRANT["grant_id"],
            **_PLAYER,
            crates=(CrateEntry("bronze-chest", 1),),
            contents=_GRANT["entries"],
            opened_at=SAMPLE_TS,
        ),
        WalletChanged(**_CHANGE, economy_key="coins", balance=100),
        InventoryChanged(**_CHANGE, item_key="sword", quantity=1, parameters={"level": 1}),
        FriendRequestSent(
            requester_player_id=_PLAYER["player_id"],
            requester_external_player_id=_PLAYER["external_player_id"],
            target_player_id=_FRIEND_ID,
            target_external_player_id=_FRIEND_EXTERNAL_ID,
            request_id=_REQUEST_ID,
            created_at=SAMPLE_TS,
        ),
        FriendRequestAccepted(
            request_id=_REQUEST_ID, **_PLAYER, **_FRIEND, reciprocal=False, friends_since=SAMPLE_TS
        ),
        FriendRemoved(**_PLAYER, **_FRIEND, reason="removed", removed_at=SAMPLE_TS),
        GiftSent(
            **_GIFT, deducted_from_sender=False, message="sample gift", sent_at=SAMPLE_TS, expires_at=None
        ),
        GiftClaimed(**_GIFT, claimed_at=SAMPLE_TS),
        PlayerBanned(**_PLAYER, reason="sample ban", banned_at=SAMPLE_TS, actor=_ACTOR),
        PlayerUnbanned(**_PLAYER, unbanned_at=SAMPLE_TS, actor=_ACTOR),
        PlayerMerged(
            from_player_id=_FRIEND_ID,
            from_external_player_id=_FRIEND_EXTERNAL_ID,
            to_player_id=_PLAYER["player_id"],
            to_external_player_id=_PLAYER["external_player_id"],
            anonymized_external_player_id="__merged_00000000-0000-7000-8000-000000000003__",
            merged_at=SAMPLE_TS,
            actor=_ACTOR,
        ),
        PlayerDeleted(
            **_PLAYER,
            reason="gdpr_erasure",
            anonymized_external_id="__deleted_00000000-0000-7000-8000-000000000004__",
        ),
        PurchaseTracked(
            purchase_id="pur_sample000000000000000000",
            **_PLAYER,
            transaction_id="sample-transaction",
            store="app_store",
            product_id="sample.coins.100",
            product_type="consumable",
            amount_minor=99,
            currency="USD",
            normalized_amount_minor=99,
            fx_rate=1.0,
            validation_status="unverified",
            purchased_at=SAMPLE_TS,
            lifetime_amount_minor=99,
            purchase_count=1,
            metadata={},
        ),
        AttemptStarted(**_ATTEMPT, started_at=SAMPLE_TS, ends_at=SAMPLE_TS, attempt_count=1),
        AttemptRestarted(
            **_ATTEMPT,
            prior_attempt_id="att_sample0000000000000000001",
            prior_score=50.0,
            prior_status="completed",
        ),
        ProgressUpdated(**_ATTEMPT_STATE, status="in_progress", completed_at=None),
        AttemptCompleted(**_ATTEMPT_STATE, status="completed", completed_at=SAMPLE_TS),
        AttemptExpired(**_ATTEMPT_STATE, status="expired", completed_at=None),
        AttemptForceCompleted(
            attempt_id=_ATTEMPT_ID,
            event_id=_EVENT["event_id"],
            event_window_id=_EVENT["event_window_id"],
            leaderboard_id=_ATTEMPT["leaderboard_id"],
            player_id=_PLAYER["player_id"],
            score=100.0,
            prior_score=50.0,
            completed_at=SAMPLE_TS,
            actor_member_id="mem_sample0000000000000000000",
            reason="sample",
            milestones_fired=(),
        ),
        AttemptFlagged(
            attempt_id=_ATTEMPT_ID,
            event_id=_EVENT["event_id"],
            event_key=_EVENT["event_key"],
            **_PLAYER,
            validator_key="sample-check",
            reason="sample",
            metric_snapshot=MetricSnapshot(
                metric_key="score", before=0.0, after=100.0, elapsed_sec=10.0, avg_rate=10.0, limit=5.0
            ),
            flagged_at=SAMPLE_TS,
        ),
        MilestoneGranted(
            **_ATTEMPT,
            milestone_key="sample-milestone",
            threshold=100.0,
            score=100.0,
            grant_id=_GRANT["grant_id"],
            granted_at=SAMPLE_TS,
        ),
        EntryCostCharged(
            **_EVENT, attempt_id=_ATTEMPT_ID, **_PLAYER, cost=Cost(currencies=(CostLine("gems", 5),))
        ),
        WindowOpened(**_WINDOW),
        WindowClosed(**_WINDOW),
        LeaderboardFinalized(
            leaderboard_id=_ATTEMPT["leaderboard_id"],
            **_EVENT,
            lobby_id=None,
            segment_values={},
            participant_scope="player",
            entry_count=1,
            top=(
                FinalEntry(
                    rank=1,
                    **_PLAYER,
                    score=100.0,
                    attempt_id=_ATTEMPT_ID,
                    reached_at=SAMPLE_TS,
                ),
            ),
            finalized_at=SAMPLE_TS,
        ),
        PeriodFinalized(
            leaderboard_key="sample-board",
            period_id="lbp_sample0000000000000000000",
            period_starts_at=SAMPLE_TS,
            period_ends_at=SAMPLE_TS,
            entry_count=1,
            top=(
                PeriodEntry(
                    rank=1,
                    **_PLAYER,
                    score=100.0,
                    reached_at=SAMPLE_TS,
                    division_id="div_sample0000000000000000000",
                ),
            ),
        ),
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
            event_id=_EVENT["event_id"],
            **_PLAYER,
            participant_count=1,
            capacity=8,
            joined_at=SAMPLE_TS,
        ),
        LobbyBotFilled(
            lobby_id=_LOBBY_ID,
            leaderboard_id=_ATTEMPT["leaderboard_id"],
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
            **_EVENT,
            leaderboard_id=_ATTEMPT["leaderboard_id"],
            fired_trigger="sample-trigger",
            fired_trigger_type="score_reached",
            resolution="freeze",
            frozen_count=1,
            terminated_at=SAMPLE_TS,
        ),
        SessionFrozen(
            **_ATTEMPT,
            lobby_id=_LOBBY_ID,
            score=100.0,
            fired_trigger="sample-trigger",
            frozen_at=SAMPLE_TS,
        ),
        EventTeamFormed(
            **_TEAM,
            name="Sample Team",
            formation="external",
            member_count=1,
            goal_target=1000.0,
            attributes=None,
            formed_at=SAMPLE_TS,
        ),
        EventTeamMemberJoined(**_SEAT, member_count=1, joined_at=SAMPLE_TS),
        EventTeamMemberLeft(
            **_SEAT,
            reason="left",
            contribution=100.0,
            contribution_removed=False,
            member_count=0,
            left_at=SAMPLE_TS,
        ),
        EventTeamMilestoneUnlocked(
            **_TEAM,
            milestone_key="sample-milestone",
            threshold=500.0,
            team_score=500.0,
            seat_count=1,
            paid_seat_count=1,
            pay_state="inline_done",
        ),
        EventTeamGoalCompleted(
            **_TEAM,
            score=1000.0,
            goal_target=1000.0,
            member_count=1,
            score_frozen=False,
            completed_at=SAMPLE_TS,
        ),
        EventTeamFinalized(
            **_TEAM,
            rank=1,
            board_size=1,
            segment_values={},
            score=1000.0,
            goal_target=1000.0,
            completed=True,
            member_count=1,
            finalized_at=SAMPLE_TS,
        ),
        PartnerInviteSent(event_team_id=None, **_INVITE),
        PartnerInviteAccepted(
            event_team_id="team_sample00000000000000000001",
            **_INVITE,
            accepted_at=SAMPLE_TS,
            goal_target=1000.0,
        ),
        GuildCreated(
            **_GUILD,
            by=_BY_PLAYER,
            join_type="open",
            country="FI",
            leader_player_id=_PLAYER["player_id"],
            leader_external_player_id=_PLAYER["external_player_id"],
            cost=(Entry(ResourceType.CURRENCY, "coins", 100),),
            costs_charged_by="platform",
            created_at=SAMPLE_TS,
        ),
        GuildUpdated(
            **_GUILD,
            by=By(ByKind.API_KEY, api_key_prefix=_ACTOR["prefix"]).to_wire(),
            changes={"name": {"before": "Old Sample Guild", "after": "Sample Guild"}},
        ),
        GuildDisbanded(
            **_GUILD,
            by=By(ByKind.MEMBER, member_id="mem_sample0000000000000000000").to_wire(),
            reason="admin",
            disbanded_at=SAMPLE_TS,
        ),
        GuildMemberJoined(
            **_GUILD,
            by=_BY_PLAYER,
            **_PLAYER,
            role="member",
            via="open",
            member_count=2,
            joined_at=SAMPLE_TS,
        ),
        GuildMemberLeft(
            **_GUILD,
            by=_BY_PLAYER,
            **_PLAYER,
            reason="left",
            role="member",
            member_count=1,
            left_at=SAMPLE_TS,
        ),
        GuildRoleChanged(
            **_GUILD,
            by=By(ByKind.SYSTEM).to_wire(),
            **_PLAYER,
            from_="co_leader",
            to="leader",
            reason="succession_leader_inactive",
            changed_at=SAMPLE_TS,
        ),
        GuildJoinRequested(
            **_GUILD,
            by=_BY_PLAYER,
            request_id="gjr_sample0000000000000000000",
            **_PLAYER,
            message="sample request",
            requested_at=SAMPLE_TS,
        ),
        GuildHelpRequested(
            **_GUILD,
            by=_BY_PLAYER,
            request_id=_HELP_REQUEST["request_id"],
            **_PLAYER,
            type=_HELP_REQUEST["type"],
            resource_key=_HELP_REQUEST["resource_key"],
            amount=_HELP_REQUEST["amount"],
            expires_at=SAMPLE_TS,
        ),
        GuildHelpDonated(
            **_GUILD,
            by=By(ByKind.PLAYER, _FRIEND_ID, _FRIEND_EXTERNAL_ID).to_wire(),
            request_id=_HELP_REQUEST["request_id"],
            donation_id="gdn_sample0000000000000000000",
            grant_id="00000000-0000-7000-8000-000000000005",
            reward_grant_id="00000000-0000-7000-8000-000000000006",
            donor_player_id=_FRIEND_ID,
            donor_external_player_id=_FRIEND_EXTERNAL_ID,
            recipient_player_id=_PLAYER["player_id"],
            recipient_external_player_id=_PLAYER["external_player_id"],
            type=_HELP_REQUEST["type"],
            resource_key=_HELP_REQUEST["resource_key"],
            amount=2,
            costs_donor=True,
            costs_charged_by="platform",
            amount_received=2,
            amount_requested=_HELP_REQUEST["amount"],
            filled=False,
            donated_at=SAMPLE_TS,
        ),
    )
}

DEFAULT_SAMPLE_KIND = PlayerRegistered.KIND


def sample_payload(kind: str) -> WebhookPayload | dict[str, Any]:
    """The sample of ``kind``; an empty object for a kind without a declared payload."""
    return SAMPLES.get(kind) or {}
