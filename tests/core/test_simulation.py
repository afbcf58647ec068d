"""livecore.Simulation: a game played embedded from its manifest, with no server (docs/simulation.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from livecore.exceptions import InvalidRequestError, LivecoreAPIError
from livecore.gifts.errors import GiftNotFriendsError
from livecore.grants.api import RewardEntry
from livecore.live_events.errors import InsufficientEntryCostError
from livecore.live_events.webhooks import WindowClosed
from livecore.lobbies.api import LobbyForming
from livecore.manifest import ManifestError
from livecore.simulation import Simulation

MONDAY = datetime(2026, 3, 2, tzinfo=UTC)

SEASON = """
studio = "acme"

[games.arena]
name = "Arena"
economy = "platform"

[games.arena.gifting]
enabled = true
cooldown_seconds = 3600
daily_send_limit = 5

[games.arena.resources.coins]
type = "currency"
giftable = true
costs_sender = true
max_per_gift = 50

[games.arena.resources.gems]
type = "currency"

[games.arena.events.sprint]
name = "Sprint"
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 86400
repeat_every_seconds = 86400
attempt_seconds = 600
score_metric = "score"
entry_cost = [{ type = "currency", key = "coins", amount = 10 }]
feeds = ["weekly"]

[[games.arena.events.sprint.milestones]]
key = "half"
threshold = 50
rewards = [{ type = "currency", key = "gems", amount = 1 }]

[[games.arena.events.sprint.rank_rewards]]
from = 1
to = 1
rewards = [{ type = "currency", key = "gems", amount = 10 }]

[games.arena.events.duel]
name = "Duel"
starts_at = "2026-03-02T00:00:00Z"
window_seconds = 86400
repeat_every_seconds = 86400
attempt_seconds = 600
score_metric = "score"

[games.arena.events.duel.lobby]
capacity = 2
fill_seconds = 60
fill_bots = true
bot_score = { min = 10, max = 10 }

[games.arena.leaderboards.weekly]
name = "Weekly"
period = "weekly"
aggregation = "best"

[[games.arena.leaderboards.weekly.rank_rewards]]
from = 1
to = 1
rewards = [{ type = "currency", key = "gems", amount = 3 }]

[games.arena.crates.chest]
rolls = 1
table = [{ weight = 1, rewards = [{ type = "currency", key = "gems", amount = 2 }] }]
"""


@pytest.fixture
def sim() -> Simulation:
    return Simulation.from_manifest(SEASON, seed=7, start=MONDAY)


def friends(sim: Simulation, a: str, b: str) -> None:
    request = sim.player(a).friends.send_request(external_player_id=b)
    assert request.request is not None
    sim.player(b).friends.accept_request(request.request.request_id)


def test_a_manifest_the_server_refuses_is_refused_field_by_field() -> None:
    with pytest.raises(ManifestError) as refused:
        Simulation.from_manifest(SEASON.replace("window_seconds = 86400", "window_seconds = -1", 1))
    assert "games.arena.events.sprint.window_seconds" in refused.value.problems


def test_the_manifest_may_be_a_file(tmp_path: Path) -> None:
    path = tmp_path / "season.toml"
    path.write_text(SEASON)
    assert Simulation.from_manifest(path, start=MONDAY).game.key == "arena"


def test_a_gift_between_friends_moves_coins_and_tells_the_studio(sim: Simulation) -> None:
    ada, bo = sim.player("ada"), sim.player("bo")
    sim.server.wallet.credit(ada, "coins", 100)
    friends(sim, "ada", "bo")
    sent = ada.gifts.send(type="currency", resource_key="coins", amount=30, external_player_id=bo)
    assert sim.balance(ada, "coins") == 70
    claimed = bo.gifts.claim(sent.gift.gift_id)
    assert claimed.gift.status.value == "claimed"
    assert sim.balance(bo, "coins") == 30
    kinds = [e.kind for e in sim.webhooks]
    assert kinds.index("gift.sent") < kinds.index("gift.claimed")


def test_a_refusal_is_the_clients_exception_and_changes_nothing(sim: Simulation) -> None:
    ada, bo = sim.player("ada"), sim.player("bo")
    sim.server.wallet.credit(ada, "coins", 100)
    before = list(sim.webhooks)
    with pytest.raises(GiftNotFriendsError) as refused:
        ada.gifts.send(type="currency", resource_key="coins", amount=30, external_player_id=bo)
    assert (refused.value.status, refused.value.code) == (403, "not_friends")
    assert sim.balance(ada, "coins") == 100
    assert sim.webhooks == before


def test_a_body_the_server_refuses_is_refused_with_the_same_fields(sim: Simulation) -> None:
    ada = sim.player("ada")
    with pytest.raises(InvalidRequestError) as refused:
        ada.gifts.send(type="currency", resource_key="coins", amount=5.5, external_player_id="bo")  # type: ignore[arg-type]
    assert refused.value.details is not None and "amount" in refused.value.details["fields"]
    with pytest.raises(ValueError, match="ResourceType"):  # as the client's method, before any request
        ada.gifts.send(type="gold", resource_key="coins", amount=5, external_player_id="bo")


def test_an_event_window_charges_entry_grants_milestones_and_pays_its_ranks(sim: Simulation) -> None:
    ada, bo = sim.player("ada"), sim.player("bo")
    sim.server.wallet.credit(ada, "coins", 10)
    with pytest.raises(InsufficientEntryCostError):
        bo.live_events.start_attempt("sprint")
    started = ada.live_events.start_attempt("sprint")
    assert not isinstance(started, LobbyForming)
    assert sim.balance(ada, "coins") == 0
    progress = ada.live_events.report_progress(
        "sprint", started.attempt.attempt_id, {"score": 60}, complete=True
    )
    assert [g.entries[0].key for g in progress.milestones_granted] == ["gems"]
    board = sim.board(started.attempt.leaderboard_id)
    assert [e.external_player_id for e in board.entries] == ["ada"]

    sim.advance(days=1)  # the window closes at midnight and pays rank 1
    closed = [e.payload for e in sim.webhooks_of("window.closed")]
    assert sorted(p.event_key for p in closed if isinstance(p, WindowClosed)) == ["duel", "sprint"]
    ada.grants.claim_all()
    assert sim.balance(ada, "gems") == 11


def test_a_lobby_forms_then_a_bot_fills_it_at_fill_time(sim: Simulation) -> None:
    ada = sim.player("ada")
    forming = ada.live_events.start_attempt("duel")
    assert isinstance(forming, LobbyForming) and forming.capacity == 2
    sim.advance(minutes=2)
    lobby = sim.lobby(forming.lobby_id).lobby
    assert lobby.status.value == "active"
    assert [e.kind for e in sim.webhooks_of("lobby.bot_filled")] == ["lobby.bot_filled"]
    started = ada.live_events.start_attempt("duel")
    assert not isinstance(started, LobbyForming)


def test_a_shared_board_rolls_over_at_the_weeks_end_and_pays(sim: Simulation) -> None:
    ada, bo = sim.player("ada"), sim.player("bo")
    sim.server.leaderboards.submit_score("weekly", ada, 50)
    sim.server.leaderboards.submit_score("weekly", bo, 40)
    assert [e.external_player_id for e in sim.leaderboard("weekly").entries] == ["ada", "bo"]
    sim.advance(days=7)
    assert sim.webhooks_of("leaderboard.period_finalized")
    ada.grants.claim_all()
    assert sim.balance(ada, "gems") == 3


def test_a_crate_the_studio_sends_is_opened_by_the_player(sim: Simulation) -> None:
    ada = sim.player("ada")
    crate = sim.server.grants.create(ada, [RewardEntry(type="crate", key="chest", amount=1)], kind="crate")
    opened = ada.grants.open_crate(crate.grant.grant_id)
    assert opened.contents.entries[0].key == "gems"
    assert sim.balance(ada, "gems") == 2


def test_the_same_seed_plays_the_same_run() -> None:
    def run() -> list[tuple[str, object]]:
        sim = Simulation.from_manifest(SEASON, seed=3, start=MONDAY)
        ada = sim.player("ada")
        sim.server.wallet.credit(ada, "coins", 10)
        started = ada.live_events.start_attempt("sprint")
        assert not isinstance(started, LobbyForming)
        ada.live_events.report_progress("sprint", started.attempt.attempt_id, {"score": 60}, complete=True)
        sim.advance(days=2)
        return [(e.kind, e.data) for e in sim.webhooks]

    assert run() == run()


def test_the_clock_only_moves_forward(sim: Simulation) -> None:
    with pytest.raises(ValueError):
        sim.advance(days=-1)


def test_every_refusal_is_a_client_exception(sim: Simulation) -> None:
    with pytest.raises(LivecoreAPIError):
        sim.player("ada").grants.claim("grt_019cae6b660073ac8e672084ab649e49")
