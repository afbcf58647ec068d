"""The players area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta

from livecore import platforms
from livecore.api.auth import AUTHENTICATION, Authentication
from livecore.api.route import Auth
from livecore.area import Area, ClientPart
from livecore.commands import Runtime
from livecore.limits import duration
from livecore.players import admin, api, identity, samples, webhooks
from livecore.players import rules as players
from livecore.players.actor import admit
from livecore.players.commands import authenticate, sweep_streaks
from livecore.players.errors import CODES, PLAYER_SECRET_INVALID
from livecore.players.handlers import HANDLERS
from livecore.players.hooks import PlayerSpecs
from livecore.players.memory import MemoryPlayers, PlayerTables
from livecore.players.rules import PLAYER_ID_PREFIX
from livecore.players.season import SEASON
from livecore.schedule import Job, Task, once


def _streaks(tx: object, rt: Runtime) -> list[Task]:
    return [Task("streaks", None, once(lambda tx: sweep_streaks(tx, rt)))]


def _limits() -> Mapping[str, Sequence[tuple[str, str]]]:
    return {
        "players-and-identity": [
            ("Session gap (a new session opens after this much silence)", duration(players.SESSION_GAP)),
            ("Display name", identity.NAME.describe()),
            ("Avatar", identity.AVATAR.describe()),
            (
                f"Platform key (`{platforms.PLATFORM_HEADER}`, manifest `platforms`)",
                platforms.PLATFORM.describe(),
            ),
            (f"App version (`{platforms.APP_VERSION_HEADER}`)", platforms.APP_VERSION.describe()),
        ],
    }


AREA = Area(
    name="players",
    summary="Players and identity: register, secrets, display identity, sessions, streaks, bans, builds.",
    page="players-and-identity",
    routes=(*api.ROUTES, *admin.ROUTES),
    handlers=HANDLERS,
    jobs=(Job("login_streak_sweep", _streaks, every=timedelta(hours=1)),),
    webhooks=webhooks.PAYLOADS,
    samples=samples.SAMPLES,
    errors=CODES,
    limits=_limits,
    hookspecs=PlayerSpecs,
    id_prefixes=(PLAYER_ID_PREFIX,),
    tables=PlayerTables,
    ports={"players": MemoryPlayers},
    season=SEASON,
    # The player of a player route, and of a key-or-player route sent with its secret: its secret checked,
    # its own writes refused while it is banned.
    contributes=(
        AUTHENTICATION(
            Authentication(
                kinds=frozenset({Auth.PLAYER, Auth.KEY_OR_PLAYER}),
                refusals=(PLAYER_SECRET_INVALID,),
                authenticate=authenticate,
                admit=admit,
            )
        ),
    ),
    client=(
        ClientPart("sdk", "players", "livecore_client.resources.players", "Players"),
        ClientPart("server", "players", "livecore_client.resources.players", "ServerPlayers"),
    ),
)
