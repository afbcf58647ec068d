"""The quests area's hooks (:mod:`livecore.hooks`). Its check on a built-in command: in a game with the
quest, a player who never checked in cannot send a gift; the refusal raises inside the send's transaction,
before it writes anything, so the send applies nothing and emits nothing. And what a merge and an erasure
do to its rows, in their transaction: the built-in areas move their own records, a studio's area its own."""

from __future__ import annotations

from typing import Any

from livecore.errors import LivecoreError
from livecore.hooks import hookimpl
from livecore.players.commands import load_game
from livecore.players.rules import Player
from livecore.scope import Scope
from studio_quests.commands import quests_of, settings_of
from studio_quests.rules import QUEST_CHECK_IN_FIRST, merged


class QuestHooks:
    """The area's hooks: its check on gift sends, and what a merge and an erasure do to its rows."""

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

    @hookimpl
    def on_merge(self, tx: Any, source: Player, target: Player) -> None:
        """The target keeps its check-ins, or takes the source's when it has none."""
        port = quests_of(tx)
        moved = merged(port.get(source.id), port.get(target.id), target.id)
        port.delete(source.id)
        if moved is not None:
            port.put(moved)

    @hookimpl
    def on_erase(self, tx: Any, player: Player) -> None:
        """An erased player's check-ins go: they tell nothing once the player is anonymous."""
        quests_of(tx).delete(player.id)
