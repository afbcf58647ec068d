"""Lobbies the studio forms in a simulation (livecore/lobbies/simulation.py): a push seats its players at
once, as the server's route does."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from livecore.exceptions import ConflictError, IdempotencyConflictError, NotFoundError
from livecore.lobbies.api import LobbyForming
from livecore.lobbies.errors import LobbyNotFoundError
from livecore.simulation import Simulation

MONDAY = datetime(2026, 3, 2, tzinfo=UTC)

DUEL = """
studio = "acme"

[games.arena]
name = "Arena"
economy = "platform"

[games.arena.resources.coins]
type = "currency"

[games.arena.events.duel]
name = "Duel"
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 86400
repeat_every_seconds = 86400
attempt_seconds = 600
score_metric = "score"

[games.arena.events.duel.lobby]
capacity = 3
fill_seconds = 60
fill_bots = true
bot_score = { min = 10, max = 10 }
"""


@pytest.fixture
def sim() -> Simulation:
    return Simulation.from_manifest(DUEL, seed=3, start=MONDAY)


def test_a_studio_push_seats_its_players_in_an_active_lobby(sim: Simulation) -> None:
    ada, bo = sim.player("ada"), sim.player("bo")
    pushed = sim.server.lobbies.push(
        sim.game.id, "duel", "match-1", [ada, bo, "cy"], metadata={"map": "dunes"}
    )
    lobby = pushed.lobby
    assert (lobby.status.value, lobby.promotion_reason, lobby.metadata) == (
        "active",
        "external_push",
        {"map": "dunes"},
    )
    assert sorted(p.external_player_id or "" for p in lobby.participants) == ["ada", "bo", "cy"]
    assert sim.lobby(lobby.lobby_id) == sim.server.lobbies.get(sim.game.id, lobby.lobby_id) == pushed
    assert "cy" not in sim.players  # created on first contact, as the server creates it
    assert sim.webhooks_of("player.registered")[-1].data["externalPlayerId"] == "cy"

    # The same key and players answer the lobby made; the players seated start at once.
    assert (
        sim.server.lobbies.push(sim.game.id, "duel", "match-1", ["cy", bo, ada]).lobby.lobby_id
        == lobby.lobby_id
    )
    started = ada.live_events.start_attempt("duel")
    assert not isinstance(started, LobbyForming)
    assert started.attempt.leaderboard_id == lobby.leaderboard_id


def test_a_push_the_server_refuses_changes_nothing(sim: Simulation) -> None:
    ada, bo = sim.player("ada"), sim.player("bo")
    first = sim.server.lobbies.push(sim.game.id, "duel", "match-1", [ada], fill_bots=True).lobby
    assert first.bot_count == 2
    before = list(sim.webhooks)
    with pytest.raises(IdempotencyConflictError):
        sim.server.lobbies.push(sim.game.id, "duel", "match-1", [bo])
    with pytest.raises(ConflictError) as seated:
        sim.server.lobbies.push(sim.game.id, "duel", "match-2", [bo, ada])
    assert seated.value.details is not None and seated.value.details["externalPlayerIds"] == ["ada"]
    with pytest.raises(NotFoundError):
        sim.server.lobbies.push("gam_019cae6b660073ac8e672084ab649e49", "duel", "match-3", [bo])
    with pytest.raises(LobbyNotFoundError):
        sim.lobby("lob_019cae6b660073ac8e672084ab649e49")
    assert sim.webhooks == before
