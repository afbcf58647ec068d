"""The guilds area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from datetime import timedelta

from livecore.area import Area, ClientPart
from livecore.commands import Runtime
from livecore.enums import VALUES
from livecore.guilds import api, samples, webhooks
from livecore.guilds.commands import (
    GUILD_CREATE_COST,
    GUILD_HELP_DONATION,
    GuildsTx,
    erase_guilds,
    hand_on_inactive,
    merge_guilds,
)
from livecore.guilds.errors import CODES, GUILD_NOT_FOUND
from livecore.guilds.handlers import HANDLERS
from livecore.guilds.hooks import GuildSpecs
from livecore.guilds.manifest import GUILDS
from livecore.guilds.memory import GuildTables, MemoryGuildHelp, MemoryGuilds
from livecore.guilds.rules import (
    DONATION_ID_PREFIX,
    GUILD_ID_PREFIX,
    HELP_REQUEST_ID_PREFIX,
    JOIN_REQUEST_ID_PREFIX,
    STINT_ID_PREFIX,
)
from livecore.guilds.season import SEASON
from livecore.guilds.settings import GUILD_SETTINGS
from livecore.schedule import Job, Step, Task
from livecore.store.games import HasGames


def _succession(tx: HasGames, rt: Runtime) -> list[Task]:
    """Each game with guilds: its inactive leaders hand on, a batch a step (the step's cursor is the last
    stint it looked at)."""
    return [
        Task(g.id, g.id, _hand_on(rt, g.id))
        for g in tx.games.every()
        if g.settings.of(GUILD_SETTINGS).enabled
    ]


def _hand_on(rt: Runtime, game_id: str) -> Step:
    def step(tx: GuildsTx, after: str | None) -> str | None:
        return hand_on_inactive(tx, rt, game_id, after)

    return step


AREA = Area(
    name="guilds",
    # The ledger reasons of its own: a guild's creation cost and a donation to a help request.
    contributes=(VALUES(GUILD_CREATE_COST), VALUES(GUILD_HELP_DONATION)),
    manifest=(GUILDS,),
    summary="Guilds: membership and roles, join requests, help requests and donations, succession.",
    page="guilds",
    builds_on=("grants",),
    routes=api.ROUTES,
    handlers=HANDLERS,
    record_ids={"guildId": GUILD_NOT_FOUND},
    merge=merge_guilds,
    erase=erase_guilds,
    jobs=(Job("guild_succession_sweep", _succession, every=timedelta(hours=1)),),
    webhooks=webhooks.PAYLOADS,
    samples=samples.SAMPLES,
    errors=CODES,
    hookspecs=GuildSpecs,
    id_prefixes=(
        GUILD_ID_PREFIX,
        STINT_ID_PREFIX,
        JOIN_REQUEST_ID_PREFIX,
        HELP_REQUEST_ID_PREFIX,
        DONATION_ID_PREFIX,
    ),
    tables=GuildTables,
    ports={"guilds": MemoryGuilds, "guild_help": MemoryGuildHelp},
    season=SEASON,
    client=(
        ClientPart("sdk", "guilds", "livecore_client.resources.guilds", "Guilds"),
        ClientPart("server", "guilds", "livecore_client.resources.guilds", "ServerGuilds"),
    ),
)
