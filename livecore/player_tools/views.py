"""A player's profile as the API answers it (docs/reference/player-tools.md#profile): the server's route,
the operators' look-up and an embedded simulation answer the same model from the same rows."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from livecore.grants.api import GrantView
from livecore.grants.commands import GrantsTx
from livecore.grants.rules import GrantStatus
from livecore.live_events.api import AttemptView
from livecore.live_events.attempts import AttemptStatus
from livecore.lobbies.commands import LobbiesTx
from livecore.lobbies.views import lobby_views
from livecore.platforms import platform_registered
from livecore.player_tools import api
from livecore.players.commands import load_game
from livecore.players.rules import Player
from livecore.players.views import display_view
from livecore.scope import Scope


class ProfileTx(LobbiesTx, GrantsTx, Protocol):
    """The ports a profile reads."""


def player_profile(
    tx: ProfileTx, scope: Scope, player: Player, limit: int, now: datetime
) -> api.PlayerProfileResponse:
    """The profile of ``player``: its record, its most recent attempts, grants and lobbies, each list at
    most ``limit`` long, and the summary counters."""
    game = load_game(tx, scope)
    counts = tx.grants.counts(player.id)
    attempts = tx.attempts.counts(player.id)
    return api.PlayerProfileResponse(
        player=api.ProfilePlayer(
            id=player.id,
            external_player_id=player.external_id,
            first_seen_at=player.first_seen_at,
            last_seen_at=player.last_seen_at,
            last_context_snapshot=player.context,
            display_identity=display_view(player),
            banned=player.banned,
            debug=player.debug is not None,
            lifecycle=player.lifecycle.value,
            platform=player.build.platform,
            platform_registered=platform_registered(player.build.platform, game.settings),
            app_version=player.build.app_version,
        ),
        attempts=[AttemptView.of(a, now) for a in tx.attempts.recent(player.id, limit)],
        grants=[GrantView.of(g, now) for g in tx.grants.recent(player.id, limit)],
        lobbies=lobby_views(tx, scope.game_id, tx.lobbies.seats_of(player.id, limit)),
        summary=api.ProfileSummary(
            attempt_count=sum(attempts.values()),
            attempts_completed=attempts[AttemptStatus.COMPLETED],
            attempts_expired=attempts[AttemptStatus.EXPIRED],
            grants_pending=counts[GrantStatus.PENDING],
            grants_claimed=counts[GrantStatus.CLAIMED],
            lobbies_active=tx.lobbies.running_count(player.id),
        ),
    )
