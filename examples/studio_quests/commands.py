"""The quests commands: a player checks in (its day's reward granted as a pending grant), a player's
quest is read, and the sweep ends the streaks of players who missed a day. They run in the caller's
transaction, on the server's SQL store and on an embedded memory store alike."""

from __future__ import annotations

from datetime import timedelta
from typing import Protocol

import attrs

from livecore.area import HasPorts
from livecore.commands import Runtime, emit
from livecore.economy.rules import resource
from livecore.errors import LivecoreError
from livecore.games import Entry, Game
from livecore.grants.commands import GrantsTx, issue_grant
from livecore.grants.rules import Grant, GrantKind
from livecore.players.commands import get_player, load_game
from livecore.players.rules import Player
from livecore.scope import Scope
from studio_quests import rules
from studio_quests.rules import QUESTS_NOT_CONFIGURED, QuestSettings, QuestState
from studio_quests.store import QUESTS, QuestStore
from studio_quests.webhooks import QuestCheckedIn

NAME = "quests"
#: The ``sourceKind`` of a check-in's grant; its ``sourceRefId`` is the day checked in (``YYYY-MM-DD``).
SOURCE_KIND = "quest_check_in"
SWEEP_BATCH = 500


class QuestsTx(GrantsTx, HasPorts, Protocol):
    """The ports these commands use: the built-in grants' and the area's own."""


def quests_of(tx: HasPorts) -> QuestStore:
    return tx.ports.of(QUESTS)


def settings_of(game: Game) -> QuestSettings | None:
    """The game's quest settings, None when its manifest has no ``[games.<key>.areas.quests]``."""
    section = game.settings.areas.get(NAME)
    return None if section is None else QuestSettings.of(section)


@attrs.frozen
class CheckedIn:
    state: QuestState
    grant: Grant


def check_in(tx: QuestsTx, rt: Runtime, scope: Scope, player: Player) -> CheckedIn:
    """The player checks in for today (UTC): the streak moves on, the day's reward is granted (pending,
    ``grant.created``), and ``quest.checked_in`` fires. Refused 409 ``quest_already_checked_in`` for a
    second check-in the same day, 404 ``quests_not_configured`` in a game without the section, 404
    ``resource_not_found`` when the reward's resource left the manifest."""
    game = load_game(tx, scope)
    settings = settings_of(game)
    if settings is None:
        raise LivecoreError(QUESTS_NOT_CONFIGURED, "The game has no daily check-in quest.")
    reward = resource(game, settings.reward_resource)
    quests = quests_of(tx)
    state = rules.check_in(quests.get(player.id), player.id, scope.game_id, rt.clock.now())
    quests.put(state)
    grant = issue_grant(
        tx,
        rt,
        scope,
        player,
        kind=GrantKind.REWARD,
        entries=(Entry(reward.type, settings.reward_resource, rules.reward(settings, state.streak)),),
        expires_at=None,
        source_kind=SOURCE_KIND,
        source_ref_id=state.last_day.isoformat(),
    )
    emit(tx, rt, scope, QuestCheckedIn.of(state, grant))
    return CheckedIn(state, grant)


def own_quest(tx: QuestsTx, player: Player) -> QuestState | None:
    """The player's check-ins, None before its first."""
    return quests_of(tx).get(player.id)


def quest_of(tx: QuestsTx, scope: Scope, external_id: str) -> QuestState | None:
    """A player's check-ins, by external id (404 ``player_not_found``), None before its first."""
    return quests_of(tx).get(get_player(tx, scope, external_id).id)


def end_lapsed_streaks(tx: HasPorts, rt: Runtime) -> bool:
    """End one batch of the streaks whose player missed a whole day (UTC); True when there may be more."""
    quests = quests_of(tx)
    yesterday = rules.day_of(rt.clock.now()) - timedelta(days=1)
    found = quests.streaks_before(yesterday, SWEEP_BATCH)
    for state in found:
        quests.put(rules.ended(state))
    return len(found) == SWEEP_BATCH


def merge_player(tx: QuestsTx, rt: Runtime, scope: Scope, source: Player, target: Player) -> None:
    """A merge (``Area.merge``): the target keeps its check-ins, or takes the source's when it has none."""
    port = quests_of(tx)
    moved = rules.merged(port.get(source.id), port.get(target.id), target.id)
    port.delete(source.id)
    if moved is not None:
        port.put(moved)


def erase_player(tx: QuestsTx, rt: Runtime, scope: Scope, player: Player, kept: Player) -> None:
    """An erasure (``Area.erase``): the player's check-ins go, as they tell nothing once it is anonymous."""
    quests_of(tx).delete(player.id)
