"""The quests area's handlers, one per route: what the server runs for an HTTP request and an embedded
simulation for a typed call (docs/extending.md#handlers)."""

from __future__ import annotations

from livecore.api.request import Handler, Request
from livecore.api.route import Route
from livecore.players.actor import player_of
from studio_quests import api, commands
from studio_quests.commands import QuestsTx


def check_in(request: Request[None, None], tx: QuestsTx) -> api.CheckInResponse:
    done = commands.check_in(tx, request.rt, request.scope, player_of(request))
    return api.CheckInResponse.of(done, request.rt.clock.now())


def read_own(request: Request[None, None], tx: QuestsTx) -> api.QuestResponse:
    state = commands.own_quest(tx, player_of(request))
    return api.QuestResponse(quest=api.QuestView.of(state, request.rt.clock.now()))


def read(request: Request[None, None], tx: QuestsTx) -> api.QuestResponse:
    state = commands.quest_of(tx, request.scope, request.external_id)
    return api.QuestResponse(quest=api.QuestView.of(state, request.rt.clock.now()))


HANDLERS: dict[Route, Handler] = {
    api.SDK_CHECK_IN: check_in,
    api.SDK_READ: read_own,
    api.SERVER_READ: read,
}
