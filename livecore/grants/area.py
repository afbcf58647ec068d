"""The grants area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta

from livecore.area import Area, ClientPart
from livecore.commands import Runtime
from livecore.grants import admin, api, samples, webhooks
from livecore.grants import rules as grants
from livecore.grants.commands import SWEEP_BATCH, expire_grants, next_grant_expiry
from livecore.grants.errors import CODES, GRANT_NOT_FOUND
from livecore.grants.handlers import HANDLERS
from livecore.grants.hooks import GrantSpecs
from livecore.grants.memory import GrantTables, MemoryGrants
from livecore.grants.season import EXPIRY_JOB, SEASON
from livecore.grants.store import HasGrants
from livecore.players.rules import Player
from livecore.schedule import Job, Task, until_false
from livecore.scope import Scope


def _expiring(tx: object, rt: Runtime) -> list[Task]:
    return [Task("grants", None, until_false(lambda tx: expire_grants(tx, rt) == SWEEP_BATCH))]


def _move_records(tx: HasGrants, rt: Runtime, scope: Scope, player: Player, to: Player) -> None:
    """A merge or an erasure: the player's grants become ``to``'s."""
    tx.grants.reassign(player.id, to)


def _limits() -> Mapping[str, Sequence[tuple[str, str]]]:
    return {
        "grants": [
            ("Entries per grant", grants.ENTRIES.describe()),
        ],
    }


AREA = Area(
    name="grants",
    summary="Reward grants: created by the studio or the service, claimed, acknowledged, expired.",
    page="grants",
    builds_on=("economy", "purchases"),
    routes=(*api.ROUTES, *admin.ROUTES),
    handlers=HANDLERS,
    record_ids={"grantId": GRANT_NOT_FOUND},
    merge=_move_records,
    erase=_move_records,
    jobs=(
        Job(
            EXPIRY_JOB,
            _expiring,
            every=timedelta(minutes=1),
            idle_until=lambda tx, rt: next_grant_expiry(tx),
        ),
    ),
    webhooks=webhooks.PAYLOADS,
    samples=samples.SAMPLES,
    errors=CODES,
    limits=_limits,
    tables=GrantTables,
    ports={"grants": MemoryGrants},
    season=SEASON,
    hookspecs=GrantSpecs,
    client=(
        ClientPart("sdk", "grants", "livecore_client.resources.grants", "Grants"),
        ClientPart("server", "grants", "livecore_client.resources.grants", "ServerGrants"),
    ),
)
