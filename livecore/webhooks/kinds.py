"""Every webhook kind with a declared payload, by kind. A new kind is one class in its domain's
module of this package plus one entry here."""

from __future__ import annotations

from livecore.economy.webhooks import InventoryChanged, WalletChanged
from livecore.friends.webhooks import FriendRemoved, FriendRequestAccepted, FriendRequestSent
from livecore.gifts.webhooks import GiftClaimed, GiftSent
from livecore.grants.webhooks import CrateOpened, GrantClaimed, GrantCreated, GrantExpired
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
from livecore.leaderboards.webhooks import PeriodFinalized
from livecore.live_events.webhooks import (
    AttemptCompleted,
    AttemptExpired,
    AttemptFlagged,
    AttemptForceCompleted,
    AttemptRestarted,
    AttemptStarted,
    EntryCostCharged,
    LeaderboardFinalized,
    MilestoneGranted,
    ProgressUpdated,
    WindowClosed,
    WindowOpened,
)
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

PAYLOAD_TYPES: dict[str, type[WebhookPayload]] = {
    cls.KIND: cls
    for cls in (
        PlayerRegistered,
        PlayerSecretSet,
        PlayerSecretRotated,
        WebhookEndpointFailed,
        GrantCreated,
        GrantClaimed,
        GrantExpired,
        CrateOpened,
        WalletChanged,
        InventoryChanged,
        FriendRequestSent,
        FriendRequestAccepted,
        FriendRemoved,
        GiftSent,
        GiftClaimed,
        PlayerBanned,
        PlayerUnbanned,
        PlayerMerged,
        PlayerDeleted,
        PurchaseTracked,
        AttemptStarted,
        AttemptRestarted,
        ProgressUpdated,
        AttemptCompleted,
        AttemptForceCompleted,
        AttemptExpired,
        AttemptFlagged,
        MilestoneGranted,
        EntryCostCharged,
        WindowOpened,
        WindowClosed,
        LeaderboardFinalized,
        PeriodFinalized,
        LobbyCreated,
        LobbyPlayerJoined,
        LobbyBotFilled,
        LobbyStarted,
        LobbyFillTimeout,
        LobbyClosed,
        SessionTerminated,
        SessionFrozen,
        EventTeamFormed,
        EventTeamMemberJoined,
        EventTeamMemberLeft,
        EventTeamMilestoneUnlocked,
        EventTeamGoalCompleted,
        EventTeamFinalized,
        PartnerInviteSent,
        PartnerInviteAccepted,
        GuildCreated,
        GuildUpdated,
        GuildDisbanded,
        GuildMemberJoined,
        GuildMemberLeft,
        GuildRoleChanged,
        GuildJoinRequested,
        GuildHelpRequested,
        GuildHelpDonated,
    )
}
