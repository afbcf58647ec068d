"""The team actions of a simulation: a player's team in an event and partner invites (``sdk.teams``), and
the studio's rosters (``server.teams``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from livecore.players.rules import Player
from livecore.simulation.actions import SIMULATED_KEY, Actions, ServerActions, body, external_id_of, query
from livecore.teams import api, commands

if TYPE_CHECKING:
    from livecore.simulation.handle import Handle


class Teams(Actions):
    """``player.teams``: the player's team in an event's open window and its partner invites."""

    def mine(self, event_key: str) -> api.MyTeamResponse:
        """The player's team in the event's window open now, its seated members in rank order; ``team``
        None when it sits on none, or no window is open."""
        sim = self._sim
        return self._read(
            lambda tx, me: api.MyTeamResponse.of(commands.my_team(tx, sim.rt, sim.scope, me, event_key))
        )

    def invite_partner(self, event_key: str, external_player_id: Handle | str) -> api.InviteResponse:
        """Invite a friend to pair up in the event's open window (an event whose teams form by
        ``partner``); the invite expires 24 hours after it is sent."""
        sim = self._sim
        asked = body(api.InviteRequest, external_player_id=external_id_of(external_player_id))

        def op(tx: commands.TeamsTx, me: Player) -> api.InviteResponse:
            sent = commands.invite(tx, sim.rt, sim.scope, me, event_key, asked.external_player_id)
            return api.InviteResponse(invite=api.InviteView.of(sent))

        return self._write(op)

    def accept_invite(self, event_key: str, invite_id: str) -> api.TeamResponse:
        """Accept a partner invite made to the player: the two form a team of the window (its ``key`` is
        the invite's id)."""
        sim = self._sim
        return self._write(
            lambda tx, me: api.TeamResponse.of(
                commands.accept(tx, sim.rt, sim.scope, me, event_key, invite_id)
            )
        )


class ServerTeams(ServerActions):
    """``sim.server.teams``: the studio's rosters (events whose teams form ``external``) and team reads."""

    def put_roster(
        self,
        event_key: str,
        team_key: str,
        external_player_ids: Sequence[Handle | str],
        *,
        name: str | None = None,
        attributes: Mapping[str, Any] | None = None,
        window_id: str | None = None,
    ) -> api.TeamResponse:
        """Make ``external_player_ids`` the whole roster of team ``team_key`` in one window (``window_id``,
        else the one open now, else the next scheduled): all or nothing; players left out leave it."""
        sim = self._sim
        asked = body(
            api.RosterRequest,
            external_player_ids=[external_id_of(p) for p in external_player_ids],
            idempotency_key=SIMULATED_KEY,
            name=name,
            attributes=attributes,
            window_id=window_id,
        )
        return self._run(
            lambda tx: api.TeamResponse.of(
                commands.put_roster(
                    tx,
                    sim.rt,
                    sim.server_scope,
                    event_key,
                    team_key,
                    asked.external_player_ids,
                    name=asked.name,
                    attributes=asked.attributes,
                    window=asked.window_id,
                )
            )
        )

    def get(self, event_key: str, team_key: str, *, window_id: str | None = None) -> api.TeamResponse:
        """Team ``team_key`` of window ``window_id`` (default: the window open now), its seated members in
        rank order and, once its window closed on a team board, its ``final_rank``."""
        sim = self._sim
        asked = query(api.TeamQuery, window_id=window_id)
        return self._run(
            lambda tx: api.TeamResponse.of(
                commands.read_team(tx, sim.rt, sim.server_scope, event_key, team_key, asked.window_id)
            )
        )
