"""The players area, as it declares itself (:class:`livecore.area.Area`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta

from livecore.area import Area
from livecore.commands import Runtime
from livecore.errors import Code, ErrorCode
from livecore.limits import duration
from livecore.players import api, identity, platforms, samples
from livecore.players import rules as players
from livecore.players.commands import sweep_streaks
from livecore.players.hooks import PlayerSpecs
from livecore.players.memory import MemoryPlayers, PlayerTables
from livecore.players.rules import PLAYER_ID_PREFIX
from livecore.players.webhooks import (
    PlayerBanned,
    PlayerDeleted,
    PlayerMerged,
    PlayerRegistered,
    PlayerSecretRotated,
    PlayerSecretSet,
    PlayerUnbanned,
)
from livecore.schedule import Job, Task, once
from livecore.store import Transaction


def _streaks(tx: Transaction, rt: Runtime) -> list[Task]:
    return [Task("streaks", None, once(lambda tx: sweep_streaks(tx, rt)))]


_MEANINGS: Mapping[ErrorCode | Code, str] = {
    ErrorCode.PLAYER_NOT_FOUND: "No such player in the key's game and environment.",
    ErrorCode.PLAYER_SECRET_INVALID: "Wrong, missing or malformed `X-Player-Secret` on a player-scoped "
    "route (also for a player that does not exist).",
    ErrorCode.PLAYER_ALREADY_REGISTERED: "Register on a player that already has a secret.",
    ErrorCode.PLAYER_BANNED: "A banned player's register or player-scoped write.",
}


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
    routes=api.ROUTES,
    jobs=(Job("login_streak_sweep", _streaks, every=timedelta(hours=1)),),
    webhooks=(
        PlayerRegistered,
        PlayerSecretSet,
        PlayerSecretRotated,
        PlayerBanned,
        PlayerUnbanned,
        PlayerMerged,
        PlayerDeleted,
    ),
    samples=samples.SAMPLES,
    error_meanings=_MEANINGS,
    limits=_limits,
    hookspecs=PlayerSpecs,
    id_prefixes=(PLAYER_ID_PREFIX,),
    tables=PlayerTables,
    ports={"players": MemoryPlayers},
)
