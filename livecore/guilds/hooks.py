"""The checks a studio's own area may add to this area's commands, before and after their writes: their
specifications (:mod:`livecore.hooks`). Every check also receives ``tx`` (the command's transaction),
``rt`` (clock, randomness) and ``scope`` (studio, game, environment)."""

from __future__ import annotations

from typing import Any

from livecore.hooks import hookspec


class GuildSpecs:
    """The guilds area's commands a studio's area can check."""

    @hookspec
    def before_join_guild(self, tx: Any, rt: Any, scope: Any, player: Any, guild: Any) -> None:
        """A player joins a guild, or asks to join a request-only one."""

    @hookspec
    def after_join_guild(self, tx: Any, rt: Any, scope: Any, player: Any, guild: Any, joined: Any) -> None:
        """A player joined a guild, or asked to join a request-only one: ``joined``
        (:class:`livecore.guilds.commands.Joined`) holds its seat or its request."""
