"""The quests area's hooks (:mod:`livecore.hooks`). Its check on a built-in command: in a game with the
quest, a player who never checked in cannot send a gift; the refusal raises inside the send's transaction,
before it writes anything, so the send applies nothing and emits nothing."""

from __future__ import annotations

from typing import Any

from livecore.errors import LivecoreError
from livecore.hooks import hookimpl
from livecore.players.commands import load_game
from livecore.players.rules import Player
from livecore.scope import Scope
from studio_quests.commands import quests_of, settings_of
from studio_quests.rules import QUEST_CHECK_IN_FIRST


class QuestHooks:
    """The area's hooks: its check on gift sends."""

    @hookimpl
    def before_send_gift(self, tx: Any, scope: Scope, sender: Player) -> None:
        if settings_of(load_game(tx, scope)) is None:
            return
        if quests_of(tx).get(sender.id) is None:
            raise LivecoreError(
                QUEST_CHECK_IN_FIRST,
                "Check in once before sending gifts.",
                {"externalPlayerId": sender.external_id},
            )
