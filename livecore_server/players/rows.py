"""The players area's rows: each record's columns declared once (read by name) and the
values it writes, in the order of its declaration's ``names`` (:mod:`livecore_server.storage.rows`)."""

from __future__ import annotations

from datetime import date
from typing import Any

import orjson

from livecore.clock import from_millis, to_millis
from livecore.names import fold
from livecore.platforms import ClientBuild
from livecore.players.identity import Identity
from livecore.players.presence import Presence
from livecore.players.rules import Activity, Ban, DebugFlag, Lifecycle, Player, PlayerCard
from livecore.scope import Environment
from livecore_server.storage.columns import Columns
from livecore_server.storage.rows import dt, ms

#: The country a player is shown with (``Player.country``), of the players row aliased ``p``: an
#: operator's override, else the resolved country.
SHOWN_COUNTRY = "COALESCE(p.country_override, p.country)"


def player_row(p: Player) -> tuple[Any, ...]:
    a = p.activity
    return (
        p.id,
        p.game_id,
        p.env.value,
        p.external_id,
        to_millis(p.first_seen_at),
        to_millis(p.last_seen_at),
        p.anonymized.name,
        p.anonymized.avatar,
        p.display.name if p.display else None,
        p.display.avatar if p.display else None,
        p.resolved_country,
        p.secret_hash,
        p.secret_prefix,
        ms(p.registered_at),
        ms(p.secret_rotated_at),
        p.ban.reason if p.ban else None,
        ms(p.ban.banned_at) if p.ban else None,
        a.sessions,
        ms(a.last_active_at),
        a.streak,
        a.best_streak,
        a.streak_day.isoformat() if a.streak_day else None,
        orjson.dumps(p.context).decode(),
        p.friend_code,
        ms(p.presence.last_active_at),
        p.presence.status,
        # Retired rows are not searchable.
        fold((p.display or p.anonymized).name) if p.lifecycle is Lifecycle.ACTIVE else None,
        p.debug.reason if p.debug else None,
        ms(p.debug.flagged_at) if p.debug else None,
        p.lifecycle.value,
        p.merged_into,
        p.build.platform,
        p.build.app_version,
        p.country_override,
        a.first_day.isoformat() if a.first_day else None,
        a.days,
    )


def _player(
    id: Any,
    game_id: Any,
    env: Any,
    external_id: Any,
    first_seen_at: Any,
    last_seen_at: Any,
    anon_name: Any,
    anon_avatar: Any,
    display_name: Any,
    display_avatar: Any,
    country: Any,
    secret_hash: Any,
    secret_prefix: Any,
    registered_at: Any,
    secret_rotated_at: Any,
    ban_reason: Any,
    banned_at: Any,
    sessions: Any,
    last_active_at: Any,
    streak: Any,
    best_streak: Any,
    streak_day: Any,
    context: Any,
    friend_code: Any,
    presence_at: Any,
    presence_status: Any,
    search_name: Any,
    debug_reason: Any,
    debug_at: Any,
    lifecycle: Any,
    merged_into: Any,
    platform: Any,
    app_version: Any,
    country_override: Any,
    first_day: Any,
    days: Any,
) -> Player:
    return Player(
        id=id,
        game_id=game_id,
        env=Environment(env),
        external_id=external_id,
        first_seen_at=from_millis(first_seen_at),
        last_seen_at=from_millis(last_seen_at),
        anonymized=Identity(name=anon_name, avatar=anon_avatar),
        display=Identity(name=display_name, avatar=display_avatar) if display_name is not None else None,
        resolved_country=country,
        secret_hash=secret_hash,
        secret_prefix=secret_prefix,
        registered_at=dt(registered_at),
        secret_rotated_at=dt(secret_rotated_at),
        ban=Ban(reason=ban_reason, banned_at=from_millis(banned_at)) if banned_at is not None else None,
        activity=_activity(sessions, last_active_at, streak, best_streak, streak_day, first_day, days),
        context=orjson.loads(context),
        friend_code=friend_code,
        presence=Presence(last_active_at=dt(presence_at), status=presence_status),
        # search_name is derived from the identity: nothing to read back
        debug=DebugFlag(reason=debug_reason, flagged_at=from_millis(debug_at))
        if debug_at is not None
        else None,
        lifecycle=Lifecycle(lifecycle),
        merged_into=merged_into,
        build=ClientBuild(platform=platform, app_version=app_version),
        country_override=country_override,
    )


PLAYER_COLUMNS = Columns(_player)


def _activity(
    sessions: Any,
    last_active_at: Any,
    streak: Any,
    best_streak: Any,
    streak_day: Any,
    first_day: Any,
    days: Any,
) -> Activity:
    return Activity(
        sessions=sessions,
        last_active_at=dt(last_active_at),
        streak=streak,
        best_streak=best_streak,
        streak_day=date.fromisoformat(streak_day) if streak_day else None,
        first_day=date.fromisoformat(first_day) if first_day else None,
        days=int(days),
    )


ACTIVITY_COLUMNS = Columns(_activity)


# What a list row shows of a player (``PlayerCard``), of the players row aliased ``p``: the display
# identity when set, else the anonymized one, as ``PlayerCard.of`` picks it.
def _card(
    id: Any, external_id: Any, name: Any, avatar: Any, country: Any, presence_at: Any, presence_status: Any
) -> PlayerCard:
    return PlayerCard(
        id, external_id, Identity(name, avatar), country, Presence(dt(presence_at), presence_status)
    )


CARD_COLUMNS = Columns(
    _card,
    "p",
    name="COALESCE(p.display_name, p.anon_name)",
    avatar="CASE WHEN p.display_name IS NULL THEN p.anon_avatar ELSE p.display_avatar END",
    country=SHOWN_COUNTRY,
)
