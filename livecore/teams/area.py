"""The teams area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from livecore.area import Area, ClientPart
from livecore.commands import Runtime
from livecore.live_events.commands.steps import CLOSE, SCORE, SHARED_ROWS
from livecore.live_events.settings import EventSettings
from livecore.players.rules import Player
from livecore.scope import Scope
from livecore.teams import api, samples, webhooks
from livecore.teams.commands import contribute, finalize_teams
from livecore.teams.errors import CODES, INVITE_NOT_FOUND
from livecore.teams.handlers import HANDLERS
from livecore.teams.manifest import TEAMS
from livecore.teams.memory import MemoryTeams, TeamTables
from livecore.teams.rules import INVITE_ID_PREFIX, TEAM_ID_PREFIX, TEAM_SEAT_ID_PREFIX
from livecore.teams.season import SEASON
from livecore.teams.settings import TEAM_SETTINGS
from livecore.teams.store import HasTeams


def _move_records(tx: HasTeams, rt: Runtime, scope: Scope, player: Player, to: Player) -> None:
    """A merge or an erasure: the player's team seats and partner invites become ``to``'s (one seat per
    window: where both sit on a team, the target keeps its own)."""
    tx.teams.reassign(player.id, to)


def _teamed(event: EventSettings) -> bool:
    """A team event's progress moves its team's score, which its members' writes share."""
    return event.of(TEAM_SETTINGS) is not None


AREA = Area(
    name="teams",
    # On live events: a member's score moving moves its team's, and the window's close finalizes its teams.
    contributes=(SCORE(contribute), CLOSE(finalize_teams), SHARED_ROWS(_teamed)),
    manifest=(TEAMS,),
    summary="Event teams: rosters, partner invites, team scores, milestones and goals.",
    page="events",
    builds_on=("friends", "live_events"),
    routes=api.ROUTES,
    handlers=HANDLERS,
    record_ids={"inviteId": INVITE_NOT_FOUND},
    merge=_move_records,
    erase=_move_records,
    webhooks=webhooks.PAYLOADS,
    samples=samples.SAMPLES,
    errors=CODES,
    id_prefixes=(TEAM_ID_PREFIX, TEAM_SEAT_ID_PREFIX, INVITE_ID_PREFIX),
    tables=TeamTables,
    ports={"teams": MemoryTeams},
    season=SEASON,
    client=(
        ClientPart("sdk", "teams", "livecore_client.resources.teams", "Teams"),
        ClientPart("server", "teams", "livecore_client.resources.teams", "ServerTeams"),
    ),
)
