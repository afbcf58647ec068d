"""The player tools' admin routes (docs/operators.md#player-look-up): an operator bans a player, lifts the
ban, and sets the country the player is shown and played in."""

from __future__ import annotations

import attrs

from livecore.api.admin import AreaAction, EnvQuery, game_admin_route
from livecore.limits import FREE_TEXT, limited
from livecore.player_tools.api import BanPlayerResponse, BanRequest
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.identity import COUNTRY
from livecore.players.rules import Player
from livecore.roles import Role

# Support's corrections of a player: the game's admins and debuggers.
_SUPPORT = frozenset({Role.GAME_ADMIN, Role.GAME_DEBUGGER})
BAN_ACTION = AreaAction("player.ban", _SUPPORT)
UNBAN_ACTION = AreaAction("player.unban", _SUPPORT)
SET_COUNTRY_ACTION = AreaAction("player.country_override", _SUPPORT)


@attrs.frozen
class PlayerCountryView:
    """A player's country (docs/operators.md#country-override): ``country`` is the one the service shows
    and plays the player in: ``countryOverride``, an operator's, when set, else ``resolvedCountry``, where
    the player's requests resolve to (``playerContext.country``, else geo)."""

    country: str | None
    resolved_country: str | None
    country_override: str | None

    @classmethod
    def of(cls, player: Player) -> PlayerCountryView:
        return cls(player.country, player.resolved_country, player.country_override)


@attrs.frozen
class SetCountryRequest:
    """An ISO 3166-1 alpha-2 code to show the player with whatever its requests resolve to, or null to
    clear the override (the resolved country shows again)."""

    country: str | None = attrs.field(metadata=limited(COUNTRY))
    reason: str | None = attrs.field(default=None, metadata=limited(FREE_TEXT))


@attrs.frozen
class SetCountryResponse:
    """``applied``: whether the override changed."""

    external_player_id: str
    applied: bool
    country: PlayerCountryView


PLAYER_BAN = game_admin_route(
    "admin.players.ban",
    "POST",
    "/players/{externalId}/ban",
    "Ban the player (player.banned on the transition, actor the member).",
    BanPlayerResponse,
    BAN_ACTION,
    request=BanRequest,
    query=EnvQuery,
    errors=(PLAYER_NOT_FOUND,),
)
PLAYER_UNBAN = game_admin_route(
    "admin.players.unban",
    "POST",
    "/players/{externalId}/unban",
    "Lift the player's ban (player.unbanned on a real unban).",
    BanPlayerResponse,
    UNBAN_ACTION,
    query=EnvQuery,
    errors=(PLAYER_NOT_FOUND,),
)
SET_COUNTRY = game_admin_route(
    "admin.players.set_country",
    "PUT",
    "/players/{externalId}/country",
    "Set the country the player is shown and played in, over the resolved one, or clear it (null).",
    SetCountryResponse,
    SET_COUNTRY_ACTION,
    request=SetCountryRequest,
    query=EnvQuery,
    errors=(PLAYER_NOT_FOUND,),
)

ROUTES = (PLAYER_BAN, PLAYER_UNBAN, SET_COUNTRY)
