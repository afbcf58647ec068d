"""The lobby commands on the in-memory store: matchmaking on start, the webhooks in their order, the
fill_by promotion, the studio's push and its refusals, closing with the window, and sudden death."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.economy.commands import change
from livecore.economy.memory import EconomyTables
from livecore.economy.rules import Reason
from livecore.errors import CONFLICT, IDEMPOTENCY_CONFLICT, INVALID_REQUEST, NOT_FOUND, LivecoreError
from livecore.games import Economy, Entry, Game, GameSettings, RankBand, Resource, ResourceType, Studio
from livecore.grants.memory import GrantTables
from livecore.hashing import KeyedHasher
from livecore.live_events.attempts import Attempt, AttemptStatus
from livecore.live_events.boards import BoardStatus
from livecore.live_events.commands import live_events as ev
from livecore.live_events.commands.steps import Held
from livecore.live_events.errors import ATTEMPT_NOT_IN_PROGRESS, EVENT_NOT_FOUND, EVENT_NOT_OPEN
from livecore.live_events.memory import LiveEventTables
from livecore.live_events.settings import EVENT_SETTINGS, EventSettings
from livecore.lobbies import commands as lb
from livecore.lobbies.memory import LobbyTables
from livecore.lobbies.rules import Lobby, LobbyStatus, PromotionReason, SeatSource, new_lobby
from livecore.lobbies.settings import (
    LOBBY_SETTINGS,
    SUDDEN_DEATH_SETTINGS,
    BotScore,
    LobbySettings,
    Resolution,
    SuddenDeath,
    TriggerType,
)
from livecore.memory import MemoryStore
from livecore.players.commands import register
from livecore.players.memory import PlayerTables
from livecore.players.rules import Player
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope

T0 = datetime(2026, 12, 1, tzinfo=UTC)
GEMS = Resource("gems", ResourceType.CURRENCY)
FILL_SECONDS = 60


def lobby_event(
    key: str, lobby: LobbySettings | None = None, sudden_death: tuple[SuddenDeath, ...] = (), **kw: Any
) -> EventSettings:
    return EventSettings(
        key=key,
        name=key,
        starts_at=T0,
        window_seconds=3600,
        repeat_every_seconds=86400,
        attempt_seconds=600,
        score_metric="score",
        segments=("region",),
        parts={
            LOBBY_SETTINGS: lobby or LobbySettings(capacity=3, fill_seconds=FILL_SECONDS),
            SUDDEN_DEATH_SETTINGS: sudden_death,
        },
        **kw,
    )


def trigger(kind: TriggerType, threshold: float, resolution: Resolution) -> tuple[SuddenDeath, ...]:
    return (SuddenDeath(f"{kind}-{threshold}", kind, threshold, resolution),)


EVENTS = {
    "duel": lobby_event("duel", entry_cost=(Entry(ResourceType.CURRENCY, "gems", 5),)),
    "bots": lobby_event(
        "bots",
        LobbySettings(3, FILL_SECONDS, fill_bots=True, bot_score=BotScore(500, 500)),
        rank_rewards=(RankBand(1, 2, (Entry(ResourceType.CURRENCY, "gems", 50),)), RankBand(3, 3, ())),
    ),
    "ranked": lobby_event(
        "ranked",
        LobbySettings(3, FILL_SECONDS, fill_bots=True, bot_score=BotScore(500, 500)),
        rank_rewards=(RankBand(1, 3, (Entry(ResourceType.CURRENCY, "gems", 9),)),),
    ),
    "freeze": lobby_event("freeze", sudden_death=trigger(TriggerType.SCORE_REACHED, 100, Resolution.FREEZE)),
    "count": lobby_event("count", sudden_death=trigger(TriggerType.COMPLETED_COUNT, 2, Resolution.FREEZE)),
    "close": lobby_event(
        "close",
        sudden_death=trigger(TriggerType.SCORE_REACHED, 100, Resolution.CLOSE),
        rank_rewards=(RankBand(1, 1, (Entry(ResourceType.CURRENCY, "gems", 9),)),),
    ),
    "plain": attrs.evolve(lobby_event("plain"), parts={}),
}
LIVE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.LIVE)
EU = {"region": "eu"}
US = {"region": "us"}


class World:
    def __init__(self) -> None:
        self.store = MemoryStore()
        settings = GameSettings(
            economy=Economy.PLATFORM, resources={"gems": GEMS}, sections={EVENT_SETTINGS: EVENTS}
        )
        self.store.add_game(Studio("std_1", "s"), Game("gam_1", "std_1", "g", "G", settings=settings))
        self.clock = ManualClock(T0)
        self.rt = Runtime(self.clock, SeededRandomSource(7), KeyedHasher(b"k" * 32))

    def run(self, fn, *args, **kw):
        with self.store.transaction() as tx:
            return fn(tx, self.rt, *args, **kw)

    def player(self, name: str, gems: int = 100) -> Player:
        with self.store.transaction() as tx:
            player = register(tx, self.rt, LIVE, name).player
            if gems:
                change(tx, self.rt, LIVE, tx.games.get("gam_1"), player, GEMS, gems, Reason.SERVER_CREDIT)
        return player

    def start(self, player: Player, key: str = "duel", values: dict[str, str] = EU) -> Attempt | Lobby:
        """The attempt, or the lobby that holds the start while it forms."""
        started = self.run(ev.start, LIVE, player, key, dict(values))
        return started.record if isinstance(started, Held) else started

    def next_fill(self) -> datetime | None:
        with self.store.transaction() as tx:
            return lb.next_fill(tx)

    def lobby(self, lobby_id: str) -> Lobby:
        return self.store.tables_of(LobbyTables).lobbies[lobby_id]

    def seats(self, lobby_id: str) -> list[Any]:
        with self.store.transaction() as tx:
            return tx.lobbies.seats(lobby_id)

    def events(self, prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
        return [(e.kind, e.data) for e in self.store.outbox if e.kind.startswith(prefix)]

    def kinds(self, *prefixes: str) -> list[str]:
        return [e.kind for e in self.store.outbox if e.kind.startswith(prefixes or ("",))]

    def gems(self, player: Player) -> int:
        holding = self.store.tables_of(EconomyTables).holdings.get((player.id, "gems"))
        return holding.amount if holding else 0

    def push(self, key: str, players: list[str], event_key: str = "duel", **kw: Any) -> lb.Pushed:
        return self.run(lb.push, LIVE, "gam_1", event_key, key, players, **kw)

    def progress(self, player: Player, attempt: Attempt, score: float, complete: bool = False) -> Attempt:
        done, _ = self.run(
            ev.record_progress, LIVE, player, attempt.event_key, attempt.id, {"score": score}, complete
        )
        return done

    def snapshot(self) -> Any:
        s = self.store
        lobbies, events = s.tables_of(LobbyTables), s.tables_of(LiveEventTables)
        return (
            len(s.outbox),
            dict(lobbies.lobbies),
            dict(lobbies.seats),
            dict(events.attempts),
            dict(s.tables_of(EconomyTables).holdings),
            dict(s.tables_of(PlayerTables).players),
            dict(events.boards),
        )


@pytest.fixture
def world() -> World:
    return World()


def refusal(world: World, fn, *args, **kw) -> LivecoreError:
    before = world.snapshot()
    with pytest.raises(LivecoreError) as exc:
        world.run(fn, *args, **kw)
    assert world.snapshot() == before
    return exc.value


def trio(world: World, key: str = "duel", values: dict[str, str] = EU, prefix: str = "") -> list[Player]:
    """Three players seated in one lobby of ``key``, which the third start fills."""
    players = [world.player(f"{prefix}{name}") for name in ("ada", "bo", "cy")]
    for player in players:
        world.start(player, key, values)
    return players


def attempts_of(world: World, players: list[Player], key: str, values: dict[str, str] = EU) -> list[Attempt]:
    """Each seated player's attempt (the third player's start already answered one)."""
    out = []
    for player in players:
        mine = [
            a
            for a in world.store.tables_of(LiveEventTables).attempts.values()
            if a.player_id == player.id and a.event_key == key
        ]
        out.append(mine[0] if mine else world.start(player, key, values))
    return out


# --- matchmaking ----------------------------------------------------------------------------------


def test_the_first_starts_answer_the_forming_lobby_and_charge_nothing(world):
    ada, bo = world.player("ada"), world.player("bo")
    first, second = world.start(ada), world.start(bo)
    assert isinstance(first, Lobby) and isinstance(second, Lobby)
    assert first.id == second.id and second.status is LobbyStatus.FORMING
    assert (second.participant_count, second.capacity) == (2, 3)
    assert second.fill_by == T0 + timedelta(seconds=FILL_SECONDS)
    assert (world.gems(ada), world.gems(bo)) == (100, 100)
    assert world.store.tables_of(LiveEventTables).attempts == {}
    details = lb.forming(second).details
    assert details == {
        "lobbyId": second.id,
        "participantCount": 2,
        "capacity": 3,
        "fillBy": details["fillBy"],
    }


def test_the_start_that_takes_the_last_seat_starts_the_lobby_and_answers_an_attempt_on_its_board(world):
    ada, bo, cy = (world.player(n) for n in ("ada", "bo", "cy"))
    forming = world.start(ada)
    world.start(bo)
    attempt = world.start(cy)
    assert isinstance(attempt, Attempt)
    lobby = world.lobby(forming.id)
    assert (lobby.status, lobby.promotion_reason, lobby.participant_count) == (
        LobbyStatus.ACTIVE,
        PromotionReason.CAPACITY,
        3,
    )
    assert (attempt.board_id, attempt.lobby_id) == (lobby.board_id, lobby.id)
    assert world.gems(cy) == 95  # the entry cost is charged with the attempt


def test_the_earlier_players_next_start_answers_an_attempt_on_the_lobbys_board(world):
    ada, bo, _ = trio(world)
    lobby = next(iter(world.store.tables_of(LobbyTables).lobbies.values()))
    for player in (ada, bo):
        attempt = world.start(player)
        assert isinstance(attempt, Attempt)
        assert (attempt.board_id, attempt.lobby_id) == (lobby.board_id, lobby.id)
        assert world.gems(player) == 95


def test_a_start_again_while_forming_changes_nothing(world):
    ada = world.player("ada")
    first = world.start(ada)
    before = world.snapshot()
    again = world.start(ada)
    assert again == first and world.snapshot() == before
    assert len(world.seats(first.id)) == 1


def test_players_of_different_segment_values_never_share_a_lobby(world):
    players = [world.player(n) for n in ("a", "b", "c", "d")]
    eu = [world.start(p, values=EU) for p in players[:2]]
    us = [world.start(p, values=US) for p in players[2:]]
    assert eu[0].id == eu[1].id and us[0].id == us[1].id and eu[0].id != us[0].id
    assert (eu[1].segment_values, us[1].segment_values) == (EU, US)
    assert {s.seat_id for s in world.seats(eu[0].id)} == {players[0].id, players[1].id}


def test_the_oldest_forming_lobby_with_a_free_seat_is_chosen(world):
    settings = EVENTS["duel"].of(LOBBY_SETTINGS)
    ada = world.player("ada")
    world.start(ada)  # records the window
    window = next(iter(world.store.tables_of(LiveEventTables).windows.values()))
    older = next(iter(world.store.tables_of(LobbyTables).lobbies.values()))
    newer = new_lobby(window, settings, EU, T0 + timedelta(seconds=1), world.rt.rng)
    with world.store.transaction() as tx:
        tx.lobbies.insert(newer)
    assert [world.start(world.player(n)).id for n in ("bo",)] == [older.id]
    assert isinstance(world.start(world.player("cy")), Attempt)  # fills the older one
    assert world.start(world.player("dee")).id == newer.id  # the full one is never chosen


# --- webhooks -------------------------------------------------------------------------------------


def test_a_matchmade_lobby_announces_created_then_each_join_then_started(world):
    players = trio(world)
    lobby = next(iter(world.store.tables_of(LobbyTables).lobbies.values()))
    events = world.events("lobby.")
    assert [k for k, _ in events] == ["lobby.created"] + ["lobby.player_joined"] * 3 + ["lobby.started"]
    created = events[0][1]
    assert (created["lobbyId"], created["status"], created["participantCount"]) == (lobby.id, "forming", 0)
    assert created["segmentValues"] == EU and "source" not in created
    joins = [data for kind, data in events if kind == "lobby.player_joined"]
    assert [(j["externalPlayerId"], j["participantCount"]) for j in joins] == [
        (p.external_id, n) for n, p in enumerate(players, 1)
    ]
    assert all("source" not in j for j in joins)
    started = events[-1][1]
    assert (started["promotionReason"], started["participantCount"], started["botCount"]) == (
        "capacity",
        3,
        0,
    )


def test_at_fill_by_bots_take_the_empty_seats_then_the_lobby_starts_then_times_out(world):
    forming = world.start(world.player("ada"), "bots")
    assert world.next_fill() == forming.fill_by
    world.clock.set(forming.fill_by)
    assert [lobby.id for lobby in world.run(lb.lobbies_to_fill)] == [forming.id]
    assert world.run(lb.fill_lobby, "gam_1", forming.id)
    lobby = world.lobby(forming.id)
    assert (lobby.status, lobby.promotion_reason) == (LobbyStatus.ACTIVE, PromotionReason.TIMEOUT)
    assert (lobby.participant_count, lobby.bot_count) == (3, 2)
    assert [s.source for s in world.seats(lobby.id)].count(SeatSource.BOT) == 2
    assert world.kinds("lobby.")[-3:] == ["lobby.bot_filled", "lobby.started", "lobby.fill_timeout"]
    filled = world.events("lobby.bot_filled")[0][1]
    assert filled["botCount"] == 2 and len(filled["bots"]) == 2
    assert world.run(lb.lobbies_to_fill) == [] and world.next_fill() is None
    assert not world.run(lb.fill_lobby, "gam_1", forming.id)  # once


def test_fill_lobby_before_fill_by_does_nothing(world):
    forming = world.start(world.player("ada"), "bots")
    world.clock.set(forming.fill_by - timedelta(milliseconds=1))
    assert world.run(lb.lobbies_to_fill) == []
    before = world.snapshot()
    assert not world.run(lb.fill_lobby, "gam_1", forming.id)
    assert world.snapshot() == before


def test_without_fill_bots_a_timed_out_lobby_starts_with_only_its_players(world):
    forming = world.start(world.player("ada"))
    world.clock.set(forming.fill_by)
    assert world.run(lb.fill_lobby, "gam_1", forming.id)
    lobby = world.lobby(forming.id)
    assert (lobby.status, lobby.participant_count, lobby.bot_count) == (LobbyStatus.ACTIVE, 1, 0)
    assert world.kinds("lobby.")[-2:] == ["lobby.started", "lobby.fill_timeout"]
    assert "lobby.bot_filled" not in world.kinds()
    assert isinstance(world.start(world.player("bo")), Lobby)  # a new lobby: the active one is not joined


# --- the studio's push ----------------------------------------------------------------------------


def test_a_push_is_active_at_once_and_creates_players_on_first_contact(world):
    world.player("ada")
    pushed = world.push("m-1", ["ada", "newbie"], metadata={"match": 1})
    lobby = pushed.lobby
    assert pushed.created and lobby.status is LobbyStatus.ACTIVE
    assert (lobby.promotion_reason, lobby.participant_count, lobby.fill_by) == (
        PromotionReason.EXTERNAL_PUSH,
        2,
        None,
    )
    assert ("gam_1", "newbie") in world.store.tables_of(PlayerTables).players
    assert world.kinds().count("player.registered") == 2  # ada's registration, and newbie's first contact
    events = world.events("lobby.")
    assert [k for k, _ in events] == [
        "lobby.created",
        "lobby.player_joined",
        "lobby.player_joined",
        "lobby.started",
    ]
    assert events[0][1]["source"] == "server_push" and events[0][1]["metadata"] == {"match": 1}
    assert [d["source"] for k, d in events if k == "lobby.player_joined"] == ["server_push"] * 2
    assert all(s.source is SeatSource.SERVER_PUSH for s in world.seats(lobby.id))


def test_the_same_key_and_players_answer_the_same_lobby_and_change_nothing(world):
    names = [f"p{n}" for n in range(8)]
    firsts = {"k1": world.push("k1", names[0:3]), "k4": world.push("k4", names[3:5])}
    firsts["k2"] = world.push("k2", list(reversed(names[5:8])))
    before = world.snapshot()
    for key, first in firsts.items():
        seated = [
            p
            for p in names
            if world.store.tables_of(PlayerTables).players[("gam_1", p)].id
            in {s.seat_id for s in world.seats(first.lobby.id)}
        ]
        for order in (seated, list(reversed(seated))):
            again = world.push(key, order)
            assert (again.lobby, again.created) == (first.lobby, False)
    assert world.snapshot() == before


def test_the_same_key_with_other_players_is_an_idempotency_conflict(world):
    world.push("m-1", ["ada", "bo"])
    for others in (["ada"], ["ada", "cy"], ["ada", "bo", "cy"]):
        error = refusal(world, lb.push, LIVE, "gam_1", "duel", "m-1", others)
        assert error.code is IDEMPOTENCY_CONFLICT


def test_push_refusals_come_in_their_order_as_invalid_request(world):
    cases = [
        ([], 1, "externalPlayerIds"),  # 1. empty (the capacity is out of bounds too)
        (["a", "a", "b", "c"], 3, "externalPlayerIds"),  # 2. repeated (over capacity too)
        (["a", "b"], 1, "externalPlayerIds"),  # 3. over capacity (capacity out of bounds too)
        (["a"], 1, "capacity"),  # 4. capacity below 2
        (["a"], 10_001, "capacity"),  # 4. capacity above the bound
    ]
    messages = []
    for players, capacity, field in cases:
        error = refusal(world, lb.push, LIVE, "gam_1", "duel", "k", players, capacity=capacity)
        assert error.code is INVALID_REQUEST and list(error.details["fields"]) == [field]
        messages.append(error.message)
    assert "at least one" in messages[0] and "more than once" in messages[1] and "fit" in messages[2]


def test_pushed_players_seated_elsewhere_in_the_window_conflict(world):
    ada = world.player("ada")
    world.start(ada)
    world.push("m-1", ["bo", "cy"])
    for players in (["dee", "ada"], ["cy", "eve"]):
        error = refusal(world, lb.push, LIVE, "gam_1", "duel", "m-2", players)
        assert error.code is CONFLICT
    assert error.details == {"externalPlayerIds": ["cy"]}


def test_a_push_without_an_open_window_is_event_not_open(world):
    world.clock.set(T0 + timedelta(hours=2))
    error = refusal(world, lb.push, LIVE, "gam_1", "duel", "m-1", ["ada", "bo"])
    assert error.code is EVENT_NOT_OPEN


def test_a_push_naming_another_game_is_not_found(world):
    assert refusal(world, lb.push, LIVE, "gam_2", "duel", "m-1", ["ada"]).code is NOT_FOUND
    assert refusal(world, lb.push, LIVE, "gam_1", "nope", "m-1", ["ada"]).code is EVENT_NOT_FOUND


def test_a_push_on_an_event_that_is_not_a_lobby_event_is_invalid_request(world):
    error = refusal(world, lb.push, LIVE, "gam_1", "plain", "m-1", ["ada", "bo"])
    assert error.code is INVALID_REQUEST and list(error.details["fields"]) == ["eventKey"]


def test_a_push_with_fill_bots_seats_bots_at_once(world):
    lobby = world.push("m-1", ["ada"], "bots", capacity=4, fill_bots=True).lobby
    assert (lobby.status, lobby.participant_count, lobby.bot_count) == (LobbyStatus.ACTIVE, 4, 3)
    assert world.kinds("lobby.") == [
        "lobby.created",
        "lobby.player_joined",
        "lobby.bot_filled",
        "lobby.started",
    ]
    assert all(s.final_score == 500 for s in world.seats(lobby.id) if s.is_bot)


# --- closing with the window ------------------------------------------------------------------------


def test_the_windows_close_closes_every_forming_and_active_lobby_and_finalizes_their_boards(world):
    ada = world.player("ada")
    world.start(ada, "ranked")
    forming = world.start(world.player("bo"), "ranked", US)
    active = next(
        lobby for lobby in world.store.tables_of(LobbyTables).lobbies.values() if lobby.id != forming.id
    )
    world.clock.set(active.fill_by)
    assert world.run(lb.fill_lobby, "gam_1", active.id)
    assert world.lobby(forming.id).status is LobbyStatus.FORMING  # its fill_by passed, but no sweep ran
    attempt = world.start(ada, "ranked")
    world.progress(ada, attempt, 100)
    world.clock.set(T0 + timedelta(hours=1))
    (window,) = world.run(ev.due_windows, 10)
    assert world.run(ev.close_window, window.id, "gam_1")
    lobbies = {lobby.id: lobby for lobby in world.store.tables_of(LobbyTables).lobbies.values()}
    assert {lobby.status for lobby in lobbies.values()} == {LobbyStatus.CLOSED}
    closed = {data["lobbyId"]: data for kind, data in world.events("lobby.closed")}
    assert set(closed) == {active.id, forming.id}
    assert closed[forming.id]["startedAt"] is None and closed[active.id]["promotionReason"] == "timeout"
    boards = [world.store.tables_of(LiveEventTables).boards[lobby.board_id] for lobby in lobbies.values()]
    assert all(board.status is BoardStatus.FINALIZED for board in boards)
    ranks = [
        (g.external_player_id, g.metadata["rank"])
        for g in world.store.tables_of(GrantTables).grants.values()
        if g.source_kind == "event_rank"
    ]
    assert ranks == [("ada", 3)]  # the two bots, at 500, hold ranks 1 and 2 and are paid nothing


# --- sudden death ---------------------------------------------------------------------------------


def test_freeze_ends_the_session_once_and_freezes_each_running_attempt_of_the_lobby(world):
    players = trio(world, "freeze")
    others = trio(world, "freeze", US, prefix="us-")
    ada, bo, cy = attempts_of(world, players, "freeze")
    other = attempts_of(world, others, "freeze", US)
    world.progress(players[0], ada, 50)
    assert "session.terminated" not in world.kinds()
    after = world.progress(players[1], bo, 120)
    assert after.frozen_at == world.clock.now()
    (terminated,) = world.events("session.terminated")
    assert (terminated[1]["frozenCount"], terminated[1]["resolution"]) == (3, "freeze")
    frozen = [data["attemptId"] for _, data in world.events("session.frozen")]
    assert sorted(frozen) == sorted(a.id for a in (ada, bo, cy))
    for player, attempt in zip(players, (ada, bo, cy), strict=True):
        error = refusal(world, ev.record_progress, LIVE, player, "freeze", attempt.id, {"score": 500})
        assert error.code is ATTEMPT_NOT_IN_PROGRESS
    assert [
        world.store.tables_of(LiveEventTables).attempts[("gam_1", a.id)].score for a in (ada, bo, cy)
    ] == [50, 120, None]
    lobby = world.lobby(ada.lobby_id)
    assert lobby.status is LobbyStatus.ACTIVE and lobby.terminated_by == "score_reached-100"
    # Another lobby of the same window is untouched and ends its own session.
    assert world.lobby(other[0].lobby_id).terminated_by is None
    assert all(
        world.store.tables_of(LiveEventTables).attempts[("gam_1", a.id)].frozen_at is None for a in other
    )
    world.progress(others[0], other[0], 99)
    assert len(world.events("session.terminated")) == 1
    world.progress(others[1], other[1], 101)
    assert [d["lobbyId"] for _, d in world.events("session.terminated")] == [lobby.id, other[0].lobby_id]


def test_after_a_freeze_no_new_attempt_starts_in_the_lobby(world):
    players = trio(world, "freeze")
    ada, bo, _ = attempts_of(world, players, "freeze")
    world.progress(players[1], bo, 120)
    lobby_id = ada.lobby_id
    world.clock.set(world.clock.now() + timedelta(minutes=20))  # past every frozen attempt's end
    error = refusal(world, ev.start, LIVE, players[0], "freeze", dict(EU))
    assert error.code is EVENT_NOT_OPEN and error.details["lobbyId"] == lobby_id


def test_completed_count_ends_the_session_when_enough_attempts_complete(world):
    players = trio(world, "count")
    ada, bo, cy = attempts_of(world, players, "count")
    world.progress(players[0], ada, 10, complete=True)
    assert "session.terminated" not in world.kinds()
    world.progress(players[1], bo, 20, complete=True)
    (terminated,) = world.events("session.terminated")
    assert (terminated[1]["frozenCount"], terminated[1]["firedTriggerType"]) == (1, "completed_count")
    assert [d["attemptId"] for _, d in world.events("session.frozen")] == [cy.id]


def test_close_closes_the_lobby_early_expires_its_attempts_and_finalizes_its_board(world):
    players = trio(world, "close")
    ada, bo, cy = attempts_of(world, players, "close")
    world.progress(players[0], ada, 40)
    world.progress(players[1], bo, 150)
    lobby = world.lobby(ada.lobby_id)
    assert (lobby.status, lobby.closed_at, lobby.terminated_by) == (
        LobbyStatus.CLOSED,
        T0,
        "score_reached-100",
    )
    statuses = [
        world.store.tables_of(LiveEventTables).attempts[("gam_1", a.id)].status for a in (ada, bo, cy)
    ]
    assert statuses == [AttemptStatus.EXPIRED] * 3
    assert world.store.tables_of(LiveEventTables).boards[lobby.board_id].status is BoardStatus.FINALIZED
    kinds = world.kinds("session.", "lobby.closed", "leaderboard.finalized")
    assert kinds == ["session.terminated", "leaderboard.finalized", "lobby.closed"]
    assert world.events("session.terminated")[0][1]["frozenCount"] == 0
    assert world.events("lobby.closed")[0][1]["firedTrigger"] == "score_reached-100"
    ranks = [
        (g.external_player_id, g.metadata["rank"])
        for g in world.store.tables_of(GrantTables).grants.values()
        if g.source_kind == "event_rank"
    ]
    assert ranks == [("bo", 1)]
    error = refusal(world, ev.start, LIVE, players[0], "close", dict(EU))
    assert error.code is EVENT_NOT_OPEN and error.details["lobbyId"] == lobby.id
    # The window's close later leaves the closed lobby and its final board as they are.
    world.clock.set(T0 + timedelta(hours=1))
    (window,) = world.run(ev.due_windows, 10)
    world.run(ev.close_window, window.id, "gam_1")
    assert world.kinds().count("lobby.closed") == 1 and world.kinds().count("leaderboard.finalized") == 1
