"""studio_daily: the smallest studio area, in one module (docs/extending.md starts from it).

A player claims a daily bonus once per UTC day, granted as a pending grant of the game's
``[games.<key>.areas.daily]`` section; and the bonus's resource may not be gifted. That is one route and
its handler, a check on a built-in command (the gift send) and the section's check, declared as one
:class:`Area`: no table of its own (the grants it issued are its record), no migration, no port, so no
server part; the server serves the declaration as it is. The module imports only the core, so the area
imports and plays in a ``livecore.Simulation`` on the plain install (``pip install livecore``).

``studio_daily.client`` is its resource in the typed clients, and ``studio_daily.typed`` the typed facades
generated from the declaration (``python -m livecore.assembly --area studio_daily --out
studio_daily/typed.py``): ``sdk.daily.claim("ada")`` and ``ada.daily.claim()``, typed.

What every player route needs (a registered player, its secret, no ban on a write) is applied by the
runtime before the handler runs, served and embedded: the area declares none of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from livecore.api.call import Call, SdkCalls
from livecore.api.request import Request
from livecore.area import Area, ClientPart
from livecore.commands import Runtime
from livecore.economy.rules import resource
from livecore.errors import Code, LivecoreError
from livecore.games import Entry, Game
from livecore.grants.api import GrantView
from livecore.grants.commands import GrantsTx, issue_grant
from livecore.grants.rules import Grant, GrantKind
from livecore.hooks import hookimpl
from livecore.players.actor import player_of
from livecore.players.commands import load_game
from livecore.players.routes import PLAYER_WRITE_ERRORS, player_route
from livecore.players.rules import Player
from livecore.scope import Scope
from livecore.section import resource_refusal
from livecore.simulation.calls import Actions, player_method

NAME = "daily"
#: The ``sourceKind`` of a bonus's grant; its ``sourceRefId`` is the day claimed (``daily:YYYY-MM-DD``).
SOURCE_KIND = "daily_bonus"

DAILY_ALREADY_CLAIMED = Code("daily_already_claimed", 409, "The player claimed today's (UTC) bonus already.")
DAILY_NOT_CONFIGURED = Code("daily_not_configured", 404, "The game has no `[games.<key>.areas.daily]`.")
DAILY_NOT_GIFTABLE = Code("daily_not_giftable", 409, "The daily bonus's resource may not be gifted.")


@attrs.frozen
class ClaimResponse:
    """The pending grant of today's bonus (claimed as every grant is)."""

    grant: GrantView


CLAIM = player_route(
    "daily.claim",
    "POST",
    "/daily/claim",
    "Claim today's (UTC) bonus, once a day: granted, pending.",
    ClaimResponse,
    errors=(*PLAYER_WRITE_ERRORS, DAILY_ALREADY_CLAIMED, DAILY_NOT_CONFIGURED),
)


def settings_of(game: Game) -> Mapping[str, Any]:
    """The game's section, as :func:`problems` let it through; 404 ``daily_not_configured`` without one."""
    section = game.settings.areas.get(NAME)
    if section is None:
        raise LivecoreError(DAILY_NOT_CONFIGURED, "The game has no daily bonus.")
    return section


def claim(tx: GrantsTx, rt: Runtime, scope: Scope, player: Player) -> Grant:
    """The command: today's bonus, granted pending, or 409 ``daily_already_claimed``."""
    game = load_game(tx, scope)
    section = settings_of(game)
    day = f"daily:{rt.clock.now().date().isoformat()}"
    if any(g.source_kind == SOURCE_KIND for g in tx.grants.of_source(player.id, day)):
        raise LivecoreError(DAILY_ALREADY_CLAIMED, "Today's bonus was claimed already.")
    bonus = resource(game, section["resource"])
    return issue_grant(
        tx,
        rt,
        scope,
        player,
        kind=GrantKind.REWARD,
        entries=(Entry(bonus.type, bonus.key, section["amount"]),),
        expires_at=None,
        source_kind=SOURCE_KIND,
        source_ref_id=day,
    )


def problems(section: Mapping[str, Any], game: Mapping[str, Any]) -> dict[str, str]:
    """``[games.<key>.areas.daily]``: ``resource``, one the game declares; ``amount``, 1 to 1,000,000."""
    found = {name: "is not a field of this section" for name in section if name not in ("resource", "amount")}
    key = section.get("resource")
    if not isinstance(key, str) or not key:
        found["resource"] = "must be a resource key"
    elif (refusal := resource_refusal(key, game)) is not None:
        found["resource"] = refusal  # a bonus nobody could ever claim
    amount = section.get("amount")
    if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= 1_000_000:
        found["amount"] = "must be an integer from 1 to 1,000,000"
    return found


class Checks:
    """The area's check on a built-in command: the bonus's resource may not be gifted."""

    @hookimpl
    def before_send_gift(self, tx: Any, scope: Scope, request: Any) -> None:
        section = load_game(tx, scope).settings.areas.get(NAME)
        if section is not None and request.resource_key == section["resource"]:
            raise LivecoreError(DAILY_NOT_GIFTABLE, "The daily bonus may not be gifted.")


def claim_route(request: Request[None, None], tx: GrantsTx) -> ClaimResponse:
    """The route's handler: the server runs it for ``POST /sdk/v1/players/{externalId}/daily/claim``, a
    simulation for ``ada.send(Call(CLAIM, ClaimResponse, path={"externalId": ada}))``."""
    granted = claim(tx, request.rt, request.scope, player_of(request))
    return ClaimResponse(GrantView.of(granted, request.rt.clock.now()))


class DailyCalls(SdkCalls):
    """The route's call, written once: the typed client sends it (``studio_daily.client``) and a
    simulated player makes it (:class:`Daily`)."""

    def _claim(
        self, external_id: str, *, idempotency_key: str | None = None, player_secret: str | None = None
    ) -> Call[ClaimResponse]:
        """Claim today's (UTC) bonus, granted pending; 409 ``daily_already_claimed`` once claimed."""
        return Call(
            CLAIM,
            ClaimResponse,
            path={"externalId": external_id},
            idempotency_key=idempotency_key,
            player_secret=self._secret(player_secret),
        )


class Daily(Actions, DailyCalls):
    """A simulated player's claim, ``ada.daily.claim()``, run in memory through the route's handler."""

    claim = player_method(DailyCalls._claim)


AREA = Area(
    name=NAME,
    summary="Daily bonus: claimed once a day, granted pending (a studio's own area, in one module).",
    page="daily",
    builds_on=("gifts",),  # it grants (gifts build on grants) and checks the gift send
    routes=(CLAIM,),
    handlers={CLAIM: claim_route},
    errors=(DAILY_ALREADY_CLAIMED, DAILY_NOT_CONFIGURED, DAILY_NOT_GIFTABLE),
    hooks=Checks(),
    settings=problems,
    player_actions=Daily,  # ada.daily.claim() in a simulation
    client=(ClientPart("sdk", "daily", "studio_daily.client", "Daily"),),  # sdk.daily.claim("ada")
)
