"""Teams in a simulation (livecore/teams/simulation.py): partners paired by invite, the studio's rosters."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from livecore.gifts.errors import GiftNotFriendsError
from livecore.lobbies.api import LobbyForming
from livecore.simulation import Simulation
from livecore.teams.errors import AlreadyOnTeamError, LockedElsewhereError, TeamNotFoundError

MONDAY = datetime(2026, 3, 2, tzinfo=UTC)

DUOS = """
studio = "acme"

[games.duos]
name = "Duos"
economy = "platform"

[games.duos.resources.coins]
type = "currency"

[games.duos.events.pair]
name = "Pair"
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 86400
repeat_every_seconds = 86400
attempt_seconds = 600
score_metric = "score"

[games.duos.events.pair.teams]
formation = "partner"
size = 2
goal = 500

[games.duos.events.raid]
name = "Raid"
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 86400
repeat_every_seconds = 86400
attempt_seconds = 600
score_metric = "score"

[games.duos.events.raid.teams]
formation = "external"
size = 3
"""


@pytest.fixture
def sim() -> Simulation:
    return Simulation.from_manifest(DUOS, seed=11, start=MONDAY)


def friends(sim: Simulation, a: str, b: str) -> None:
    request = sim.player(a).friends.send_request(external_player_id=b)
    assert request.request is not None
    sim.player(b).friends.accept_request(request.request.request_id)


def test_a_partner_invite_accepted_makes_a_team_both_read(sim: Simulation) -> None:
    ada, bo = sim.player("ada"), sim.player("bo")
    with pytest.raises(GiftNotFriendsError):
        ada.teams.invite_partner("pair", bo)
    assert sim.webhooks_of("partner.invite_sent") == []

    friends(sim, "ada", "bo")
    invite = ada.teams.invite_partner("pair", bo).invite
    assert (invite.from_external_player_id, invite.to_external_player_id) == ("ada", "bo")
    team = bo.teams.accept_invite("pair", invite.invite_id).team
    assert team.key == invite.invite_id
    assert sorted(m.external_player_id for m in team.members) == ["ada", "bo"]

    mine = ada.teams.mine("pair").team
    assert mine is not None and mine.team_id == team.team_id
    assert sim.server.teams.get("pair", team.key).team.team_id == team.team_id
    with pytest.raises(AlreadyOnTeamError):
        bo.teams.accept_invite("pair", invite.invite_id)

    started = ada.live_events.start_attempt("pair")
    assert not isinstance(started, LobbyForming)
    ada.live_events.report_progress("pair", started.attempt.attempt_id, {"score": 120}, complete=True)
    scored = bo.teams.mine("pair").team
    assert scored is not None and scored.score == 120


def test_the_studio_puts_a_roster_all_or_nothing(sim: Simulation) -> None:
    ada, bo, cy = sim.player("ada"), sim.player("bo"), sim.player("cy")
    red = sim.server.teams.put_roster("raid", "red", [ada, bo], name="Red").team
    assert (red.name, sorted(m.external_player_id for m in red.members)) == ("Red", ["ada", "bo"])

    with pytest.raises(LockedElsewhereError) as refused:
        sim.server.teams.put_roster("raid", "blue", [cy, bo])
    assert refused.value.details is not None and refused.value.details["externalPlayerIds"] == ["bo"]
    with pytest.raises(TeamNotFoundError):
        sim.server.teams.get("raid", "blue")  # nothing was written, not even cy's seat

    kept = sim.server.teams.put_roster("raid", "red", [ada, cy]).team
    assert (kept.name, sorted(m.external_player_id for m in kept.members)) == ("Red", ["ada", "cy"])
    assert cy.teams.mine("raid").team is not None and bo.teams.mine("raid").team is None
