"""The guilds area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from livecore.area import Area
from livecore.commands import Runtime
from livecore.errors import Code, ErrorCode
from livecore.guilds import api, samples
from livecore.guilds.commands import erase_guilds, hand_on_inactive, merge_guilds
from livecore.guilds.hooks import GuildSpecs
from livecore.guilds.manifest import GUILDS
from livecore.guilds.memory import GuildTables, MemoryGuilds
from livecore.guilds.rules import (
    DONATION_ID_PREFIX,
    GUILD_ID_PREFIX,
    HELP_REQUEST_ID_PREFIX,
    JOIN_REQUEST_ID_PREFIX,
    STINT_ID_PREFIX,
)
from livecore.guilds.settings import GUILD_SETTINGS
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
from livecore.schedule import Job, Step, Task
from livecore.store import Transaction


def _succession(tx: Transaction, rt: Runtime) -> list[Task]:
    """Each game with guilds: its inactive leaders hand on, a batch a step (the step's cursor is the last
    stint it looked at)."""
    return [
        Task(g.id, g.id, _hand_on(rt, g.id))
        for g in tx.games.every()
        if g.settings.of(GUILD_SETTINGS).enabled
    ]


def _hand_on(rt: Runtime, game_id: str) -> Step:
    def step(tx: Transaction, after: str | None) -> str | None:
        return hand_on_inactive(tx, rt, game_id, after)

    return step


_MEANINGS: Mapping[ErrorCode | Code, str] = {
    ErrorCode.GUILDS_DISABLED: "The game's guilds are off (`guilds.enabled = false`).",
    ErrorCode.GUILD_NOT_FOUND: "No such guild in the key's game and environment.",
    ErrorCode.GUILD_DISBANDED: "The guild is disbanded: readable, but nobody joins it and nothing "
    "changes it.",
    ErrorCode.ALREADY_IN_GUILD: "The player is already a member of a guild.",
    ErrorCode.GUILD_FULL: "The guild has `max_members` members.",
    ErrorCode.GUILD_NAME_TAKEN: "Another guild of the game and environment that is not disbanded has "
    "that name, compared by fold (NFKC, case folding, white space runs as one space, trimmed).",
    ErrorCode.GUILD_NAME_REJECTED: "A player-chosen guild name contains an entry of the game's "
    "`name_filter`, compared by fold.",
    ErrorCode.GUILD_PERMISSION_DENIED: "The caller's guild role is too low for the operation.",
    ErrorCode.GUILD_MEMBER_NOT_FOUND: "The named player is not a member of the guild.",
    ErrorCode.NOT_IN_GUILD: "A route of the caller's own guild (`{G}`) for a player in no guild.",
    ErrorCode.JOIN_REQUEST_PENDING: "The player has a pending join request to that guild already.",
    ErrorCode.JOIN_REQUEST_NOT_FOUND: "No pending join request of that id (or of the caller to that guild).",
    ErrorCode.HELP_REQUEST_OPEN: "The player has an open help request already.",
    ErrorCode.HELP_COOLDOWN: "The player asked this guild for help less than `cooldown_seconds` ago "
    "(`details.retryAt`).",
    ErrorCode.HELP_REQUEST_NOT_FOUND: "No help request of that id in the caller's guild.",
    ErrorCode.HELP_REQUEST_CLOSED: "The help request is filled, expired or closed.",
}


AREA = Area(
    name="guilds",
    manifest=(GUILDS,),
    summary="Guilds: membership and roles, join requests, help requests and donations, succession.",
    page="guilds",
    builds_on=("grants",),
    routes=api.ROUTES,
    record_ids={"guildId": ErrorCode.GUILD_NOT_FOUND},
    merge=merge_guilds,
    erase=erase_guilds,
    jobs=(Job("guild_succession_sweep", _succession, every=timedelta(hours=1)),),
    webhooks=(
        GuildCreated,
        GuildUpdated,
        GuildDisbanded,
        GuildMemberJoined,
        GuildMemberLeft,
        GuildRoleChanged,
        GuildJoinRequested,
        GuildHelpRequested,
        GuildHelpDonated,
    ),
    samples=samples.SAMPLES,
    error_meanings=_MEANINGS,
    hookspecs=GuildSpecs,
    id_prefixes=(
        GUILD_ID_PREFIX,
        STINT_ID_PREFIX,
        JOIN_REQUEST_ID_PREFIX,
        HELP_REQUEST_ID_PREFIX,
        DONATION_ID_PREFIX,
    ),
    tables=GuildTables,
    ports={"guilds": MemoryGuilds},
)
