"""Which identity a player shows on the wire (docs/reference/players-and-identity.md#identity), as the
shared :class:`~livecore.api.views.IdentityView` every area's answer holds."""

from __future__ import annotations

from livecore.api.views import IdentityView
from livecore.players.rules import Player, PlayerCard


def display_view(player: Player | PlayerCard) -> IdentityView:
    """Always an object, the anonymized value when never set; a card holds the one to show."""
    if isinstance(player, PlayerCard):
        return IdentityView.of(player.identity, player.country)
    return IdentityView.of(player.display or player.anonymized, player.country)


def anonymized_view(player: Player) -> IdentityView:
    return IdentityView.of(player.anonymized, player.country)
