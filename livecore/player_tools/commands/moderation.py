"""Moderation commands of the server API: ban, unban (docs/reference/player-tools.md#ban-and-unban) and the
debug-account flag; and an operator's country override (docs/operators.md#country-override)."""

from __future__ import annotations

from typing import Protocol

import attrs

from livecore.commands import Runtime, emit
from livecore.limits import FREE_TEXT
from livecore.players.rules import BAN_REASON, Player, ban, flag_debug, override_country, unban, unflag_debug
from livecore.players.store import HasPlayers
from livecore.players.webhooks import PlayerBanned, PlayerUnbanned
from livecore.scope import Scope
from livecore.store.outbox import HasOutbox


class ModerationTx(HasPlayers, HasOutbox, Protocol):
    """The ports these commands use."""


@attrs.frozen
class Moderated:
    player: Player
    applied: bool


def ban_player(tx: ModerationTx, rt: Runtime, scope: Scope, player: Player, reason: str) -> Moderated:
    """``player.banned`` on the transition only; a re-ban refreshes the reason quietly."""
    reason = BAN_REASON.check(reason, "reason")
    now = rt.clock.now()
    updated, applied = ban(player, reason, now)
    tx.players.update(updated)
    if applied:
        emit(
            tx,
            rt,
            scope,
            PlayerBanned(
                player_id=player.id,
                external_player_id=player.external_id,
                reason=reason,
                banned_at=now,
                actor=scope.actor.to_wire(),
            ),
        )
    return Moderated(updated, applied)


def unban_player(tx: ModerationTx, rt: Runtime, scope: Scope, player: Player) -> Moderated:
    """``player.unbanned`` on a real unban only."""
    updated, applied = unban(player)
    if applied:
        tx.players.update(updated)
        emit(
            tx,
            rt,
            scope,
            PlayerUnbanned(
                player_id=player.id,
                external_player_id=player.external_id,
                unbanned_at=rt.clock.now(),
                actor=scope.actor.to_wire(),
            ),
        )
    return Moderated(updated, applied)


def set_debug(tx: ModerationTx, rt: Runtime, player: Player, reason: str | None) -> Moderated:
    reason = FREE_TEXT.check_optional(reason, "reason")
    updated, applied = flag_debug(player, reason, rt.clock.now())
    tx.players.update(updated)
    return Moderated(updated, applied)


def clear_debug(tx: ModerationTx, player: Player) -> Moderated:
    updated, applied = unflag_debug(player)
    if applied:
        tx.players.update(updated)
    return Moderated(updated, applied)


def set_country_override(tx: ModerationTx, player: Player, country: str | None) -> Moderated:
    """An operator sets (or, with None, clears) the player's country override
    (docs/operators.md#country-override): it wins over the resolved country wherever the country shows. No
    webhook: none is defined for a country."""
    updated, applied = override_country(player, country)
    if applied:
        tx.players.update(updated)
    return Moderated(updated, applied)
