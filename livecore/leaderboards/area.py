"""The leaderboards area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from livecore.area import Area, ClientPart
from livecore.commands import Runtime
from livecore.leaderboards import api, samples, webhooks
from livecore.leaderboards import rules as leaderboards
from livecore.leaderboards.commands import feed, merge_entries, next_rollover, periods_due, rollover_step
from livecore.leaderboards.handlers import HANDLERS
from livecore.leaderboards.manifest import LEADERBOARDS
from livecore.leaderboards.memory import LeaderboardTables, MemoryLeaderboards
from livecore.leaderboards.rules import DIVISION_ID_PREFIX, PERIOD_ID_PREFIX
from livecore.leaderboards.season import SEASON
from livecore.leaderboards.store import HasLeaderboards
from livecore.limits import PAGE
from livecore.live_events import boards
from livecore.live_events.commands.attempts import FINISH
from livecore.players.rules import Player
from livecore.schedule import Job, Task, until_false
from livecore.scope import Scope

DUE_BATCH = 100  # due periods read at once; each then rolls over on its own


def rollover(rt: Runtime, game_id: str, period_id: str) -> Task:
    """A period's rollover, one step a transaction until the period is finalized (the steps decide from
    the period's state what is left, so a rollover cut short resumes where it stopped)."""
    return Task(period_id, game_id, until_false(lambda tx: not rollover_step(tx, rt, game_id, period_id)))


def _rolling(tx: HasLeaderboards, rt: Runtime) -> list[Task]:
    return [rollover(rt, p.game_id, p.id) for p in periods_due(tx, rt, DUE_BATCH)]


def _merge(tx: HasLeaderboards, rt: Runtime, scope: Scope, source: Player, target: Player) -> None:
    merge_entries(tx, source.id, target)


def _limits() -> Mapping[str, Sequence[tuple[str, str]]]:
    return {
        "leaderboards": [
            ("Shared leaderboard score", f"a whole number, {leaderboards.SCORE.describe()}"),
            (
                "Shared leaderboard page `limit`",
                f"{PAGE.describe()}, {boards.DEFAULT_LIMIT} by default",
            ),
            ("Entries in `leaderboard.period_finalized`", f"the top {boards.FINALIZED_TOP}"),
        ],
    }


AREA = Area(
    name="leaderboards",
    # An event's attempts feed the shared boards it lists. A feed changes rows other players' writes
    # change too (a period's divisions and ranks), which the store holds as the write reaches them, so a
    # progress write that feeds runs beside its game's others (docs/architecture.md, "Concurrency").
    contributes=(FINISH(feed),),
    manifest=(LEADERBOARDS,),
    summary="Shared leaderboards: periods, divisions and tiers, rollovers, promotions, rank rewards.",
    page="leaderboards",
    builds_on=("live_events",),
    routes=api.ROUTES,
    handlers=HANDLERS,
    merge=_merge,
    jobs=(
        Job(
            "leaderboard_rollover",
            _rolling,
            next_due=lambda tx, rt: next_rollover(tx),
            reads=("leaderboards.periods",),
        ),
    ),
    webhooks=webhooks.PAYLOADS,
    samples=samples.SAMPLES,
    limits=_limits,
    id_prefixes=(PERIOD_ID_PREFIX, DIVISION_ID_PREFIX),
    tables=LeaderboardTables,
    ports={"leaderboards": MemoryLeaderboards},
    season=SEASON,
    client=(
        ClientPart(
            "sdk", "leaderboards", "livecore_client.resources.leaderboards", "Leaderboards", simulated=False
        ),
        ClientPart("server", "leaderboards", "livecore_client.resources.leaderboards", "ServerLeaderboards"),
    ),
)
