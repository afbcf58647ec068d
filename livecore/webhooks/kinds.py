"""Every webhook kind with a declared payload, by kind. A new kind is one class in its domain's
module of this package plus one entry here."""

from __future__ import annotations

from livecore.webhooks.economy import InventoryChanged, WalletChanged
from livecore.webhooks.endpoints import WebhookEndpointFailed
from livecore.webhooks.friends import FriendRemoved, FriendRequestAccepted, FriendRequestSent
from livecore.webhooks.gifts import GiftClaimed, GiftSent
from livecore.webhooks.grants import CrateOpened, GrantClaimed, GrantCreated, GrantExpired
from livecore.webhooks.guilds import (
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
from livecore.webhooks.leaderboards import PeriodFinalized
from livecore.webhooks.live_events import (
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
from livecore.webhooks.lobbies import (
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
from livecore.webhooks.players import (
    PlayerBanned,
    PlayerDeleted,
    PlayerMerged,
    PlayerRegistered,
    PlayerSecretRotated,
    PlayerSecretSet,
    PlayerUnbanned,
)
from livecore.webhooks.purchases import PurchaseTracked
from livecore.webhooks.teams import (
    EventTeamFinalized,
    EventTeamFormed,
    EventTeamGoalCompleted,
    EventTeamMemberJoined,
    EventTeamMemberLeft,
    EventTeamMilestoneUnlocked,
    PartnerInviteAccepted,
    PartnerInviteSent,
)

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
