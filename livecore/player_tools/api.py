"""Player tools for the studio backend: profile, moderation (ban, debug flag), merge, erasure and export,
and bulk migration."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import TYPE_CHECKING, Any

import attrs

from livecore.api.convert import OMIT_IF_NONE
from livecore.api.route import server_route
from livecore.api.views import IdentityView
from livecore.errors import INVALID_REQUEST
from livecore.grants.api import GrantView
from livecore.limits import FREE_TEXT, PAGE, limited
from livecore.live_events.api import AttemptView
from livecore.lobbies.api import LobbyView
from livecore.player_tools.errors import INVALID_MERGE
from livecore.player_tools.migration import ROWS, InventoryRow, PlayerRow, WalletRow
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.routes import PLAYER_PATH
from livecore.players.rules import BAN_REASON, Player
from livecore.purchases.api import PurchaseView

if TYPE_CHECKING:
    from livecore.player_tools.commands.moderation import Moderated


@attrs.frozen
class ProfileQuery:
    limit: int = attrs.field(default=50, metadata=limited(PAGE))


@attrs.frozen
class ProfilePlayer:
    id: str
    external_player_id: str
    first_seen_at: datetime
    last_seen_at: datetime
    last_context_snapshot: dict[str, Any]
    display_identity: IdentityView
    banned: bool
    debug: bool
    lifecycle: str
    # The platform key and app version the SDK last reported (null until one does); whether the key is
    # one the game knows (docs/reference/players-and-identity.md#platform-and-app-version). Defaults, so
    # that a client reads the answers of a server from before them.
    platform: str | None = None
    platform_registered: bool = False
    app_version: str | None = None


@attrs.frozen
class ProfileSummary:
    attempt_count: int
    attempts_completed: int
    attempts_expired: int
    grants_pending: int
    grants_claimed: int
    lobbies_active: int


@attrs.frozen
class PlayerProfileResponse:
    """The player profile (docs/reference/player-tools.md#profile): attempts, grants and the lobbies the
    player sits in, newest first (lobbies: by when the seat was taken); ``summary.lobbiesActive`` counts
    the forming and active ones."""

    player: ProfilePlayer
    attempts: list[AttemptView]
    grants: list[GrantView]
    lobbies: list[LobbyView]
    summary: ProfileSummary


@attrs.frozen
class BanRequest:
    reason: str = attrs.field(metadata=limited(BAN_REASON))


@attrs.frozen
class BanState:
    external_player_id: str
    banned: bool
    reason: str | None
    banned_at: datetime | None

    @classmethod
    def of(cls, p: Player) -> BanState:
        return cls(
            external_player_id=p.external_id,
            banned=p.ban is not None,
            reason=p.ban.reason if p.ban else None,
            banned_at=p.ban.banned_at if p.ban else None,
        )


@attrs.frozen
class BanPlayerResponse:
    applied: bool
    ban: BanState

    @classmethod
    def of(cls, done: Moderated) -> BanPlayerResponse:
        """A ban's or an unban's answer: whether it changed anything, and the state after."""
        return cls(applied=done.applied, ban=BanState.of(done.player))


@attrs.frozen
class DebugRequest:
    reason: str | None = attrs.field(default=None, metadata=limited(FREE_TEXT))


@attrs.frozen
class DebugPlayerResponse:
    applied: bool
    external_player_id: str
    debug: bool
    reason: str | None
    flagged_at: datetime | None


@attrs.frozen
class MergePlayerResponse:
    status: str  # "merged" or "no_op_already_merged"
    from_external_player_id: str
    to_external_player_id: str
    anonymized_external_player_id: str
    merged_at: datetime


class ErasureReasonView(enum.StrEnum):
    GDPR_ERASURE = "gdpr_erasure"
    STUDIO_REQUEST = "studio_request"
    TEST = "test"


@attrs.frozen
class DeletePlayerRequest:
    reason: ErasureReasonView = ErasureReasonView.GDPR_ERASURE


@attrs.frozen
class DeletePlayerResponse:
    status: str  # "deleted", "no_op_already_deleted", "no_op_not_found"
    anonymized_external_id: str | None


@attrs.frozen
class HoldingView:
    key: str
    amount: int
    parameters: dict[str, Any] | None = attrs.field(default=None, metadata=OMIT_IF_NONE)


@attrs.frozen
class ExportPlayer:
    id: str
    external_player_id: str
    first_seen_at: datetime
    last_seen_at: datetime
    display_identity: IdentityView
    anonymized_identity: IdentityView
    country: str | None
    context: dict[str, Any]
    registered_at: datetime | None
    banned: bool
    ban_reason: str | None
    debug: bool
    lifecycle: str
    sessions: int
    login_streak: int
    best_login_streak: int
    friend_code: str | None
    platform: str | None = None  # as ProfilePlayer's
    platform_registered: bool = False
    app_version: str | None = None


@attrs.frozen
class ExportPlayerResponse:
    """The export bundle (docs/reference/player-tools.md#export), each list capped at 1,000 rows (plus
    purchases, additive)."""

    player: ExportPlayer
    attempts: list[AttemptView]
    grants: list[GrantView]
    inventory: list[HoldingView]
    wallet: list[HoldingView]
    lobby_memberships: list[LobbyView]
    purchases: list[PurchaseView]


# The rows are the core's records (docs/reference/player-tools.md#migration names their fields): one
# definition for both.
MigratePlayerRow = PlayerRow


MigrateWalletRow = WalletRow


MigrateInventoryRow = InventoryRow

_ROWS = limited(count=ROWS)


@attrs.frozen
class MigratePlayersRequest:
    rows: list[MigratePlayerRow] = attrs.field(metadata=_ROWS)
    emit_webhooks: bool = False


@attrs.frozen
class MigrateWalletRequest:
    rows: list[MigrateWalletRow] = attrs.field(metadata=_ROWS)
    emit_webhooks: bool = False


@attrs.frozen
class MigrateInventoryRequest:
    rows: list[MigrateInventoryRow] = attrs.field(metadata=_ROWS)
    emit_webhooks: bool = False


@attrs.frozen
class MigrateFailure:
    index: int
    idempotency_key: str
    code: str
    message: str


@attrs.frozen
class MigrateOutcome:
    """The outcome of a migration call (docs/reference/player-tools.md#migration)."""

    applied: int
    replayed: int
    failed: int
    failures: list[MigrateFailure]


PLAYER_PROFILE = server_route(
    "server.players.profile",
    "GET",
    PLAYER_PATH,
    "A player's profile: the record, recent attempts, grants and lobbies, and summary counters.",
    PlayerProfileResponse,
    query=ProfileQuery,
    errors=(PLAYER_NOT_FOUND,),
)


PLAYER_BAN = server_route(
    "server.players.ban",
    "POST",
    f"{PLAYER_PATH}/ban",
    "Ban a player (soft): every player-scoped client write is refused; reads still work.",
    BanPlayerResponse,
    request=BanRequest,
    errors=(PLAYER_NOT_FOUND,),
)


PLAYER_UNBAN = server_route(
    "server.players.unban",
    "POST",
    f"{PLAYER_PATH}/unban",
    "Lift a ban.",
    BanPlayerResponse,
    errors=(PLAYER_NOT_FOUND,),
)


PLAYER_MERGE = server_route(
    "server.players.merge",
    "POST",
    "/players/{fromExternalId}/merge-into/{toExternalId}",
    "Fold one player into another: grants, gifts, friends, ledgers (summed), purchases, attempts, "
    "event-board entries (the better one kept).",
    MergePlayerResponse,
    errors=(PLAYER_NOT_FOUND, INVALID_MERGE),
)


PLAYER_DEBUG_SET = server_route(
    "server.players.debug_set",
    "POST",
    f"{PLAYER_PATH}/debug",
    "Flag a debug account: left out of revenue reporting, retroactively.",
    DebugPlayerResponse,
    request=DebugRequest,
    request_optional=True,
    errors=(PLAYER_NOT_FOUND,),
)


PLAYER_DEBUG_CLEAR = server_route(
    "server.players.debug_clear",
    "DELETE",
    f"{PLAYER_PATH}/debug",
    "Unflag a debug account, retroactively.",
    DebugPlayerResponse,
    errors=(PLAYER_NOT_FOUND,),
)


PLAYER_DELETE = server_route(
    "server.players.delete",
    "POST",
    f"{PLAYER_PATH}/delete",
    "Erase a player: anonymized in place; financial records kept; idempotent (no_op_ statuses).",
    DeletePlayerResponse,
    request=DeletePlayerRequest,
    request_optional=True,
)


PLAYER_EXPORT = server_route(
    "server.players.export",
    "GET",
    f"{PLAYER_PATH}/export",
    "Everything held about a player, each list capped at 1,000 rows.",
    ExportPlayerResponse,
    errors=(PLAYER_NOT_FOUND,),
)


_MIGRATE_ERRORS = (INVALID_REQUEST,)


MIGRATE_PLAYERS = server_route(
    "server.migrate.players",
    "POST",
    "/migrate/players",
    "Import up to 1,000 players; each row has its own idempotency key; bad rows are reported.",
    MigrateOutcome,
    request=MigratePlayersRequest,
    errors=_MIGRATE_ERRORS,
)


MIGRATE_WALLET = server_route(
    "server.migrate.wallet",
    "POST",
    "/migrate/wallet",
    "Import up to 1,000 wallet balances (credits; players created as needed).",
    MigrateOutcome,
    request=MigrateWalletRequest,
    errors=_MIGRATE_ERRORS,
)


MIGRATE_INVENTORY = server_route(
    "server.migrate.inventory",
    "POST",
    "/migrate/inventory",
    "Import up to 1,000 inventory rows, with optional per-player item parameters.",
    MigrateOutcome,
    request=MigrateInventoryRequest,
    errors=_MIGRATE_ERRORS,
)

ROUTES = (
    PLAYER_PROFILE,
    PLAYER_BAN,
    PLAYER_UNBAN,
    PLAYER_MERGE,
    PLAYER_DEBUG_SET,
    PLAYER_DEBUG_CLEAR,
    PLAYER_DELETE,
    PLAYER_EXPORT,
    MIGRATE_PLAYERS,
    MIGRATE_WALLET,
    MIGRATE_INVENTORY,
)
