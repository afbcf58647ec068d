"""Lobby rules without a server: the transition table, seating, bot fill and bot scores, the push
refusal order and sudden-death triggers."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from livecore.errors import CONFLICT, INVALID_REQUEST, LivecoreError
from livecore.games import Order
from livecore.ids import derived_id
from livecore.live_events.rules import BOARD_ID_PREFIX, Window, WindowStatus, canonical
from livecore.live_events.settings import EventSettings
from livecore.lobbies.rules import (
    CAPACITY_MAX,
    TRANSITIONS,
    Lobby,
    LobbyStatus,
    LobbyTrigger,
    PromotionReason,
    Seat,
    SeatSource,
    bot_score_at,
    bot_seats,
    check_not_seated,
    check_push,
    fired_trigger,
    lobby_board_id,
    new_lobby,
    pushed_lobby,
    seat_player,
    transition,
)
from livecore.lobbies.settings import BotScore, LobbySettings, Resolution, SuddenDeath, TriggerType
from livecore.players.identity import DEFAULT_POOL
from livecore.rand import SeededRandomSource
from livecore.scope import Environment

T0 = datetime(2026, 12, 1, tzinfo=UTC)
EVENT = EventSettings("duel", "Duel", T0, window_seconds=3600, attempt_seconds=600, score_metric="score")
WINDOW = Window(
    id="win_1",
    game_id="gam_1",
    env=Environment.TEST,
    event_key="duel",
    event_id="ev_1",
    starts_at=T0,
    ends_at=T0 + timedelta(hours=1),
    status=WindowStatus.OPEN,
    settings=EVENT,
    opened_at=T0,
)
SETTINGS = LobbySettings(capacity=4, fill_seconds=60, fill_bots=True, bot_score=BotScore(200, 900))
NOW = T0 + timedelta(minutes=5)


def forming(capacity: int = 4) -> Lobby:
    return new_lobby(WINDOW, attrs.evolve(SETTINGS, capacity=capacity), {"country": "FR"}, NOW, rng())


def rng(seed: int = 7) -> SeededRandomSource:
    return SeededRandomSource(seed)


def player_seat(lobby: Lobby, n: int) -> Seat:
    return Seat(
        lobby.id, lobby.window_id, f"plr_{n}", NOW, SeatSource.MATCHMAKING, external_player_id=f"p{n}"
    )


# --- records made ---------------------------------------------------------------------------------------


def test_new_lobby_forms_on_the_window_with_fill_by_after_fill_seconds() -> None:
    lobby = forming()
    assert lobby.id.startswith("lob_")
    assert lobby.status is LobbyStatus.FORMING
    assert (lobby.game_id, lobby.env, lobby.event_key, lobby.event_id, lobby.window_id) == (
        "gam_1",
        Environment.TEST,
        "duel",
        "ev_1",
        "win_1",
    )
    assert lobby.fill_by == NOW + timedelta(seconds=60)
    assert (lobby.created_at, lobby.ends_at, lobby.capacity) == (NOW, WINDOW.ends_at, 4)
    assert lobby.segment_key == canonical({"country": "FR"})
    assert (lobby.participant_count, lobby.bot_count, lobby.started_at, lobby.promotion_reason) == (
        0,
        0,
        None,
        None,
    )
    assert lobby.board_id == lobby_board_id(WINDOW, lobby.id)


def test_lobby_board_id_is_derived_from_the_window_and_the_lobby() -> None:
    assert lobby_board_id(WINDOW, "lob_a") == derived_id(BOARD_ID_PREFIX, T0, "win_1", "lobby", "lob_a")
    assert lobby_board_id(WINDOW, "lob_a") != lobby_board_id(WINDOW, "lob_b")
    assert lobby_board_id(WINDOW, "lob_a").startswith("lb_")


def test_pushed_lobby_carries_its_key_and_metadata_without_fill_by() -> None:
    lobby = pushed_lobby(WINDOW, 6, "match-1", {"map": "moon"}, NOW, rng())
    assert (lobby.status, lobby.capacity, lobby.push_key, lobby.metadata) == (
        LobbyStatus.FORMING,
        6,
        "match-1",
        {"map": "moon"},
    )
    assert (lobby.fill_by, lobby.segment_values) == (None, {})
    pushed = transition(lobby, LobbyTrigger.PUSHED, NOW)
    assert (pushed.status, pushed.promotion_reason) == (LobbyStatus.ACTIVE, PromotionReason.EXTERNAL_PUSH)


# --- transitions ----------------------------------------------------------------------------------------

EXPECTED = {
    (LobbyStatus.FORMING, LobbyTrigger.FILLED): (LobbyStatus.ACTIVE, PromotionReason.CAPACITY),
    (LobbyStatus.FORMING, LobbyTrigger.FILL_TIMEOUT): (LobbyStatus.ACTIVE, PromotionReason.TIMEOUT),
    (LobbyStatus.FORMING, LobbyTrigger.PUSHED): (LobbyStatus.ACTIVE, PromotionReason.EXTERNAL_PUSH),
    (LobbyStatus.FORMING, LobbyTrigger.WINDOW_END): (LobbyStatus.CLOSED, None),
    (LobbyStatus.FORMING, LobbyTrigger.SUDDEN_DEATH): (LobbyStatus.CLOSED, None),
    (LobbyStatus.ACTIVE, LobbyTrigger.WINDOW_END): (LobbyStatus.CLOSED, None),
    (LobbyStatus.ACTIVE, LobbyTrigger.SUDDEN_DEATH): (LobbyStatus.CLOSED, None),
}


def test_the_table_is_exactly_the_lobby_lifecycle() -> None:
    assert {key: value for key, (value, _) in EXPECTED.items()} == TRANSITIONS


def in_status(status: LobbyStatus) -> Lobby:
    lobby = forming()
    if status is LobbyStatus.FORMING:
        return lobby
    lobby = transition(lobby, LobbyTrigger.FILL_TIMEOUT, NOW)
    return lobby if status is LobbyStatus.ACTIVE else transition(lobby, LobbyTrigger.WINDOW_END, NOW)


@pytest.mark.parametrize(("status", "trigger"), list(EXPECTED))
def test_every_transition(status: LobbyStatus, trigger: LobbyTrigger) -> None:
    lobby, later = in_status(status), NOW + timedelta(minutes=1)
    label = "first-to-1000" if trigger is LobbyTrigger.SUDDEN_DEATH else None
    after = transition(lobby, trigger, later, terminated_by=label)
    expected_status, reason = EXPECTED[status, trigger]
    assert after.status is expected_status
    assert after.fill_by == lobby.fill_by
    if expected_status is LobbyStatus.ACTIVE:
        assert (after.started_at, after.promotion_reason, after.closed_at) == (later, reason, None)
    else:
        assert (after.closed_at, after.terminated_by) == (later, label)
        assert (after.started_at, after.promotion_reason) == (lobby.started_at, lobby.promotion_reason)


@pytest.mark.parametrize(
    ("status", "trigger"),
    [(s, t) for s in LobbyStatus for t in LobbyTrigger if (s, t) not in EXPECTED],
)
def test_moves_the_table_lacks_are_refused(status: LobbyStatus, trigger: LobbyTrigger) -> None:
    label = "x" if trigger is LobbyTrigger.SUDDEN_DEATH else None
    with pytest.raises(ValueError, match=r"no \w+ transition"):
        transition(in_status(status), trigger, NOW, terminated_by=label)


def test_terminated_by_only_and_always_with_sudden_death() -> None:
    active = in_status(LobbyStatus.ACTIVE)
    with pytest.raises(ValueError, match="terminated_by"):
        transition(active, LobbyTrigger.SUDDEN_DEATH, NOW)
    with pytest.raises(ValueError, match="terminated_by"):
        transition(active, LobbyTrigger.WINDOW_END, NOW, terminated_by="x")


# --- seating --------------------------------------------------------------------------------------------


def test_seating_counts_and_the_last_seat_fills_the_lobby() -> None:
    lobby = forming(capacity=3)
    filled = []
    for n in range(3):
        lobby, full = seat_player(lobby, player_seat(lobby, n))
        filled.append(full)
    assert filled == [False, False, True]
    assert (lobby.participant_count, lobby.bot_count, lobby.free_seats) == (3, 0, 0)


def test_a_bot_seat_counts_as_a_bot_too() -> None:
    lobby = forming()
    (bot, *_) = bot_seats(lobby, SETTINGS, NOW, rng(), DEFAULT_POOL)
    lobby, _ = seat_player(lobby, bot)
    assert (lobby.participant_count, lobby.bot_count) == (1, 1)


def test_a_full_lobby_refuses_a_seat() -> None:
    lobby = forming(capacity=2)
    for n in range(2):
        lobby, _ = seat_player(lobby, player_seat(lobby, n))
    with pytest.raises(ValueError, match="full"):
        seat_player(lobby, player_seat(lobby, 9))


def test_a_closed_lobby_or_another_lobbys_seat_is_refused() -> None:
    closed = in_status(LobbyStatus.CLOSED)
    with pytest.raises(ValueError, match="closed"):
        seat_player(closed, player_seat(closed, 1))
    lobby = forming()
    with pytest.raises(ValueError, match="seat of lobby"):
        seat_player(lobby, attrs.evolve(player_seat(lobby, 1), lobby_id="lob_other"))


# --- bots -----------------------------------------------------------------------------------------------


@given(capacity=st.integers(2, 30), taken=st.integers(0, 30), seed=st.integers(0, 2**32))
def test_bots_take_exactly_the_empty_seats(capacity: int, taken: int, seed: int) -> None:
    lobby = attrs.evolve(forming(capacity), participant_count=min(taken, capacity))
    bots = bot_seats(lobby, SETTINGS, NOW, rng(seed), DEFAULT_POOL)
    assert len(bots) == lobby.free_seats
    assert len({b.seat_id for b in bots}) == len(bots)
    for bot in bots:
        assert bot.seat_id.startswith("bot_") and bot.is_bot
        assert (bot.lobby_id, bot.window_id, bot.joined_at, bot.external_player_id) == (
            lobby.id,
            lobby.window_id,
            NOW,
            None,
        )
        assert bot.identity == DEFAULT_POOL.compose(lobby.game_id, bot.seat_id)
        assert bot.final_score is not None and 200 <= bot.final_score <= 900
        assert bot.final_score.is_integer()


def test_bots_are_deterministic_with_a_seeded_source() -> None:
    lobby = forming(8)
    first = bot_seats(lobby, SETTINGS, NOW, rng(42), DEFAULT_POOL)
    assert first == bot_seats(lobby, SETTINGS, NOW, rng(42), DEFAULT_POOL)
    assert first != bot_seats(lobby, SETTINGS, NOW, rng(43), DEFAULT_POOL)


def test_whole_bounds_draw_every_whole_score_between_them_inclusive() -> None:
    lobby = forming(CAPACITY_MAX)
    settings = attrs.evolve(SETTINGS, bot_score=BotScore(1, 3))
    scores = {b.final_score for b in bot_seats(lobby, settings, NOW, rng(), DEFAULT_POOL)}
    assert scores == {1.0, 2.0, 3.0}


@given(low=st.floats(0, 1e6), span=st.floats(0.001, 1e6), seed=st.integers(0, 2**32))
def test_fractional_bounds_draw_within_them(low: float, span: float, seed: int) -> None:
    score = BotScore(low + 0.5, low + 0.5 + span)
    bots = bot_seats(forming(3), attrs.evolve(SETTINGS, bot_score=score), NOW, rng(seed), DEFAULT_POOL)
    for bot in bots:
        assert bot.final_score is not None and score.min <= bot.final_score <= score.max


def test_bots_without_a_score_range_score_zero() -> None:
    bots = bot_seats(forming(3), LobbySettings(3, 60), NOW, rng(), DEFAULT_POOL)
    assert [b.final_score for b in bots] == [0.0, 0.0, 0.0]


def bot(final: float) -> Seat:
    return Seat("lob_1", "win_1", "bot_1", NOW, SeatSource.BOT, final_score=final)


START, END = T0, T0 + timedelta(hours=1)


def test_bot_score_grows_linearly_from_zero_to_its_final_score() -> None:
    assert bot_score_at(bot(900), START, END, START - timedelta(minutes=1)) == 0
    assert bot_score_at(bot(900), START, END, START) == 0
    assert bot_score_at(bot(900), START, END, START + timedelta(minutes=20)) == 300
    assert bot_score_at(bot(900), START, END, START + timedelta(seconds=1)) == 0  # 0.25, floored
    assert bot_score_at(bot(900), START, END, END) == 900
    assert bot_score_at(bot(900), START, END, END + timedelta(days=1)) == 900
    assert bot_score_at(bot(10.5), START, END, START + timedelta(minutes=30)) == 5.25


@given(
    final=st.one_of(st.integers(0, 10**6).map(float), st.floats(0, 1e6)),
    a=st.integers(-600, 4200),
    b=st.integers(-600, 4200),
)
def test_bot_score_is_bounded_and_never_falls(final: float, a: int, b: int) -> None:
    early, late = sorted((START + timedelta(seconds=a), START + timedelta(seconds=b)))
    at_early, at_late = (bot_score_at(bot(final), START, END, t) for t in (early, late))
    assert 0 <= at_early <= at_late <= final
    if final.is_integer():
        assert at_early.is_integer() and at_late.is_integer()


# --- push refusals --------------------------------------------------------------------------------------


def refused(ids: list[str], capacity: int) -> LivecoreError:
    with pytest.raises(LivecoreError) as caught:
        check_push(ids, capacity)
    assert caught.value.code is INVALID_REQUEST and caught.value.status == 400
    return caught.value


def fields_of(error: LivecoreError) -> list[str]:
    assert error.details is not None
    return list(error.details["fields"])


def test_push_refusals_in_order() -> None:
    # 1. empty, even with a capacity that is also wrong
    assert fields_of(refused([], 1)) == ["externalPlayerIds"]
    assert "empty" in refused([], 4).details["fields"]["externalPlayerIds"]  # type: ignore[index]
    # 2. a repeat, even when there are also more players than seats and the capacity is wrong
    assert "repeats a" in refused(["a", "b", "a"], 1).details["fields"]["externalPlayerIds"]  # type: ignore[index]
    # 3. more players than seats, before the capacity's own range
    assert "at most capacity (1)" in refused(["a", "b"], 1).details["fields"]["externalPlayerIds"]  # type: ignore[index]
    # 4. the capacity's range
    assert fields_of(refused(["a"], 1)) == ["capacity"]
    assert fields_of(refused(["a"], CAPACITY_MAX + 1)) == ["capacity"]


def test_a_valid_push_passes() -> None:
    check_push(["a", "b"], 2)
    check_push(["a"], CAPACITY_MAX)


def test_players_seated_elsewhere_in_the_window_are_a_conflict() -> None:
    check_not_seated([])
    with pytest.raises(LivecoreError) as caught:
        check_not_seated(["a", "c"])
    assert (caught.value.code, caught.value.status) == (CONFLICT, 409)
    assert caught.value.details == {"externalPlayerIds": ["a", "c"]}


# --- sudden death ---------------------------------------------------------------------------------------

REACH = SuddenDeath("reach-100", TriggerType.SCORE_REACHED, 100, Resolution.FREEZE)
DONE = SuddenDeath("three-done", TriggerType.COMPLETED_COUNT, 3, Resolution.CLOSE)


def test_score_reached_fires_when_any_score_reaches_the_threshold() -> None:
    assert fired_trigger([REACH], [10, 99.9], 0) is None
    assert fired_trigger([REACH], [10, 100], 0) is REACH
    assert fired_trigger([REACH], [], 0) is None


def test_score_reached_on_an_asc_board_fires_at_or_below_the_threshold() -> None:
    assert fired_trigger([REACH], [150, 100.5], 0, Order.ASC) is None
    assert fired_trigger([REACH], [150, 100], 0, Order.ASC) is REACH


def test_completed_count_fires_when_enough_attempts_completed() -> None:
    assert fired_trigger([DONE], [1000], 2) is None
    assert fired_trigger([DONE], [], 3) is DONE


def test_the_first_trigger_in_manifest_order_wins() -> None:
    assert fired_trigger([DONE, REACH], [100], 3) is DONE
    assert fired_trigger([REACH, DONE], [100], 3) is REACH
    assert fired_trigger([REACH, DONE], [0], 3) is DONE
    assert fired_trigger([], [math.inf], 10**6) is None
