"""A studio's area for tests (docs/extending.md): a webhook kind, a typed manifest section, a check after
a built-in command (a registration) and an admin route of its own action, audited."""

from __future__ import annotations

from typing import Any

import attrs

from livecore.api.admin import AreaAction, game_admin_route
from livecore.api.request import Request
from livecore.area import Area
from livecore.commands import emit
from livecore.errors import Code, LivecoreError
from livecore.games import SettingsKey
from livecore.hooks import hookimpl
from livecore.players.commands import load_game
from livecore.roles import Role
from livecore.scope import Scope
from livecore.section import Rules, Section, at_least
from livecore.webhooks.payload import WebhookPayload
from livecore_server.area import ServerArea

BOUNTY_REFUSED = Code("bounty_refused", 409, "The bounty area refuses this player's registration.")


@attrs.frozen
class BountySettings:
    enabled: bool = False
    reward: int = 1


BOUNTIES = SettingsKey("bounties", BountySettings, BountySettings())
SECTION = Section(
    "bounties",
    BountySettings,
    default=BountySettings,
    holds=BOUNTIES,
    rules=Rules(fields={(BountySettings, "reward"): at_least(1)}),
)


@attrs.frozen
class BountyPosted(WebhookPayload):
    KIND = "bounty.posted"

    external_player_id: str
    reward: int


class Checks:
    @hookimpl
    def after_register(self, tx: Any, rt: Any, scope: Scope, player: Any, created: bool) -> None:
        settings = load_game(tx, scope).settings.of(BOUNTIES)
        if not settings.enabled or not created:
            return
        if player.external_id == "unlucky":  # refused after the registration wrote: it all rolls back
            raise LivecoreError(BOUNTY_REFUSED, "No bounty for this one.")
        emit(tx, rt, scope, BountyPosted(external_player_id=player.external_id, reward=settings.reward))


@attrs.frozen
class NoteRequest:
    text: str


@attrs.frozen
class NoteResponse:
    player: str
    text: str


NOTE = AreaAction("bounties.note", roles=frozenset({Role.GAME_DEBUGGER}), target="externalId")
ADMIN_NOTE = game_admin_route(
    "admin.bounties.note",
    "POST",
    "/bounties/{externalId}/notes",
    "Note a bounty on a player (a test's admin route).",
    NoteResponse,
    NOTE,
    request=NoteRequest,
)


def note(request: Request[NoteRequest, None], tx: Any) -> NoteResponse:
    return NoteResponse(player=request.params["externalId"], text=request.body.text)


AREA = Area(
    name="bounties",
    summary="Bounties (a test's area).",
    page="bounties",
    routes=(ADMIN_NOTE,),
    handlers={ADMIN_NOTE: note},
    webhooks=(BountyPosted,),
    errors=(BOUNTY_REFUSED,),
    hooks=Checks(),
    manifest=(SECTION,),
)
SERVER_AREA = ServerArea(AREA)
