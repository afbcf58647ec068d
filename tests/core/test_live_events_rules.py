"""The live-event rules of ``livecore.live_events.rules``, ``livecore.live_events.attempts`` and
``livecore.live_events.boards``, without a
store: the window schedule, derived ids, the attempt transition table, progress, anti-cheat, milestones,
completion, board order, cursors, ``around`` and rank bands."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from livecore.errors import INVALID_REQUEST, LivecoreError
from livecore.games import Entry, Game, Milestone, Order, RankBand, ResourceType
from livecore.live_events.attempts import (
    TRANSITIONS,
    Attempt,
    AttemptStatus,
    AttemptTrigger,
    check_metrics,
    check_progress,
    check_start,
    effective_status,
    ends_at,
    force_complete,
    progress,
    segment_values,
    transition,
)
from livecore.live_events.boards import (
    Board,
    BoardEntry,
    Contender,
    Ranking,
    around_offset,
    band_rewards,
    cursor_of,
    key_after,
    page_filter,
    paid_ranks,
    parse_cursor,
    read_ranked,
    replaces,
    sort_key,
)
from livecore.live_events.errors import (
    ANTI_CHEAT_REJECTED,
    ATTEMPT_IN_PROGRESS,
    ATTEMPT_NOT_IN_PROGRESS,
    MAX_ATTEMPTS_REACHED,
)
from livecore.live_events.rules import (
    EventState,
    WindowStatus,
    board_id,
    close,
    event_id,
    next_start,
    opened,
    slot_at,
    state,
    window_id,
    windows_between,
)
from livecore.live_events.settings import AntiCheat, CheckKind, EventSettings, Verdict
from livecore.players.identity import Identity
from livecore.scope import Environment

T0 = datetime(2026, 12, 1, tzinfo=UTC)
ANON = Identity(name="Swift Otter", avatar="avatar_01")
COINS = Entry(ResourceType.CURRENCY, "coins", 5)
DAILY = EventSettings(
    key="time-trial",
    name="Time Trial",
    starts_at=T0,
    window_seconds=3600,
    repeat_every_seconds=86400,
    attempt_seconds=600,
    score_metric="score",
    max_attempts=2,
    target=1000,
    milestones=(Milestone("bronze", 100, (COINS,)), Milestone("silver", 500, (COINS,))),
    anti_cheat=(
        AntiCheat("rate", CheckKind.MAX_RATE, "score", 50, Verdict.REJECT),
        AntiCheat("taps", CheckKind.MAX_VALUE, "taps", 10, Verdict.FLAG),
    ),
)
GAME = Game(id="gam_1", studio_id="std_1", key="g", name="G")


def seconds(n: float) -> timedelta:
    return timedelta(seconds=n)


def window_at(now: datetime, event: EventSettings = DAILY):
    slot = slot_at(event, now)
    assert slot is not None
    return opened(GAME, Environment.LIVE, event, slot, now)


def attempt(**kw) -> Attempt:
    base = dict(
        id="att_1",
        game_id="gam_1",
        env=Environment.LIVE,
        player_id="plr_1",
        external_player_id="ada",
        event_key=DAILY.key,
        event_id="ev_1",
        window_id="win_1",
        board_id="lb_1",
        status=AttemptStatus.IN_PROGRESS,
        started_at=T0,
        ends_at=T0 + seconds(600),
        attempt_count=1,
    )
    return Attempt(**{**base, **kw})


# --- the schedule -------------------------------------------------------------------------------------


def test_a_window_is_open_from_its_start_until_just_before_its_end():
    assert slot_at(DAILY, T0 - seconds(1)) is None
    assert slot_at(DAILY, T0).starts_at == T0
    assert slot_at(DAILY, T0 + seconds(3599)).ends_at == T0 + seconds(3600)
    assert slot_at(DAILY, T0 + seconds(3600)) is None


def test_windows_repeat_every_repeat_every_seconds():
    slot = slot_at(DAILY, T0 + timedelta(days=3, minutes=5))
    assert slot.starts_at == T0 + timedelta(days=3)
    assert next_start(DAILY, T0 + seconds(10)) == T0 + timedelta(days=1)


def test_a_single_window_event_ends_after_its_window():
    single = attrs.evolve(DAILY, repeat_every_seconds=None)
    assert state(single, T0 - seconds(1)) is EventState.SCHEDULED
    assert state(single, T0) is EventState.OPEN
    assert state(single, T0 + seconds(3600)) is EventState.ENDED
    assert next_start(single, T0 + seconds(5000)) is None


def test_a_repeating_event_between_windows_is_scheduled():
    assert state(DAILY, T0 + timedelta(hours=5)) is EventState.SCHEDULED


@given(
    window=st.integers(1, 90),
    gap=st.none() | st.integers(0, 90),
    begin=st.integers(-400, 400),
    length=st.integers(1, 600),
)
def test_windows_between_counts_the_windows_open_at_some_time_of_the_span(window, gap, begin, length):
    event = attrs.evolve(
        DAILY, window_seconds=window, repeat_every_seconds=None if gap is None else window + gap
    )
    start, end = T0 + seconds(begin), T0 + seconds(begin + length)
    open_ = {slot_at(event, start + seconds(s)) for s in range(length)} - {None}
    assert windows_between(event, start, end) == len(open_)


def test_ids_are_derived_from_what_they_name_and_carry_their_prefix():
    w = window_id("gam_1", Environment.LIVE, "time-trial", T0)
    assert w == window_id("gam_1", Environment.LIVE, "time-trial", T0)
    assert w != window_id("gam_1", Environment.TEST, "time-trial", T0)
    assert w.startswith("win_") and len(w) == 36
    assert event_id("gam_1", DAILY).startswith("ev_")
    window = window_at(T0)
    assert board_id(window, {"country": "FR"}) == board_id(window, {"country": "FR"})
    assert board_id(window, {"country": "FR"}) != board_id(window, {"country": "DE"})
    assert board_id(window, {}).startswith("lb_")


def test_a_window_closes_once():
    window = window_at(T0)
    closed = close(window, T0 + seconds(3600))
    assert closed.status is WindowStatus.CLOSED
    with pytest.raises(ValueError):
        close(closed, T0 + seconds(3601))


# --- attempts ------------------------------------------------------------------------------------------


def test_the_attempt_transition_table_moves_only_from_in_progress():
    assert {s for s, _ in TRANSITIONS} == {AttemptStatus.IN_PROGRESS}
    done = transition(attempt(), AttemptTrigger.COMPLETE, T0 + seconds(5))
    assert (done.status, done.completed_at) == (AttemptStatus.COMPLETED, T0 + seconds(5))
    assert transition(attempt(), AttemptTrigger.EXPIRE, T0).status is AttemptStatus.EXPIRED
    for trigger in AttemptTrigger:
        with pytest.raises(LivecoreError) as exc:
            transition(done, trigger, T0)
        assert exc.value.code is ATTEMPT_NOT_IN_PROGRESS


def test_an_attempt_never_runs_past_its_window():
    window = window_at(T0)
    assert ends_at(DAILY, window, T0) == T0 + seconds(600)
    assert ends_at(DAILY, window, T0 + seconds(3300)) == T0 + seconds(3600)


def test_an_attempt_past_its_end_is_expired_before_the_sweep():
    a = attempt()
    assert effective_status(a, T0 + seconds(599)) is AttemptStatus.IN_PROGRESS
    assert effective_status(a, T0 + seconds(600)) is AttemptStatus.EXPIRED
    with pytest.raises(LivecoreError) as exc:
        check_progress(a, T0 + seconds(600))
    assert exc.value.code is ATTEMPT_NOT_IN_PROGRESS


def test_start_refuses_while_an_attempt_is_in_progress_before_max_attempts():
    running = attempt()
    with pytest.raises(LivecoreError) as exc:
        check_start(DAILY, [attempt(status=AttemptStatus.COMPLETED), running], T0 + seconds(10))
    assert exc.value.code is ATTEMPT_IN_PROGRESS
    assert exc.value.details == {"attemptId": "att_1"}


def test_start_refuses_past_max_attempts():
    done = [attempt(status=AttemptStatus.COMPLETED), attempt(id="att_2", status=AttemptStatus.EXPIRED)]
    with pytest.raises(LivecoreError) as exc:
        check_start(DAILY, done, T0)
    assert exc.value.code is MAX_ATTEMPTS_REACHED
    check_start(DAILY, done[:1], T0)  # one more is allowed
    check_start(attrs.evolve(DAILY, max_attempts=None), done * 10, T0)  # unlimited


def test_segment_values_must_be_strings_and_country_is_the_resolved_one():
    event = attrs.evolve(DAILY, segments=("country", "league"))
    assert segment_values(event, {"league": "gold"}, "FR") == {"country": "FR", "league": "gold"}
    assert segment_values(event, {"country": "de"}, "DE") == {"country": "DE", "league": None}
    with pytest.raises(LivecoreError) as exc:
        segment_values(event, {"league": 3}, None)
    assert exc.value.details == {"fields": {"playerContext.league": "must be a string"}}


def test_an_oversize_player_context_is_refused():
    with pytest.raises(LivecoreError) as exc:
        segment_values(DAILY, {"blob": "x" * 5000}, None)
    assert exc.value.code is INVALID_REQUEST


@pytest.mark.parametrize(
    ("metrics", "field"),
    [
        ({"speed": 1}, "metrics.speed"),
        ({"score": math.inf}, "metrics.score"),
        ({"score": math.nan}, "metrics.score"),
        ({"score": "12"}, "metrics.score"),
        ({"score": True}, "metrics.score"),
    ],
)
def test_progress_refuses_unknown_metrics_and_values_that_are_not_finite_numbers(metrics, field):
    with pytest.raises(LivecoreError) as exc:
        check_metrics(DAILY, metrics)
    assert field in exc.value.details["fields"]


def test_progress_takes_the_score_metric_and_the_metrics_checks_read():
    assert check_metrics(DAILY, {"score": 3, "taps": 2.5}) == {"score": 3.0, "taps": 2.5}


def test_the_score_is_the_best_value_reached_so_a_lower_write_keeps_it():
    first = progress(DAILY, attempt(), {"score": 300}, False, T0 + seconds(10))
    assert first.improved and first.attempt.score == 300
    lower = progress(DAILY, first.attempt, {"score": 200}, False, T0 + seconds(20))
    assert not lower.improved
    assert lower.attempt.score == 300 and lower.attempt.score_at == T0 + seconds(10)
    assert lower.attempt.metrics["score"] == 200  # the metric is the latest total


def test_an_asc_event_keeps_the_lowest_score():
    asc = attrs.evolve(DAILY, order=Order.ASC, target=None, milestones=(), anti_cheat=())
    a = progress(asc, attempt(), {"score": 90}, False, T0 + seconds(10)).attempt
    assert progress(asc, a, {"score": 80}, False, T0 + seconds(20)).attempt.score == 80
    assert progress(asc, a, {"score": 95}, False, T0 + seconds(20)).attempt.score == 90


def test_a_write_sets_the_metrics_it_names_and_leaves_the_others():
    a = attrs.evolve(attempt(), metrics={"score": 10.0, "taps": 4.0})
    after = progress(DAILY, a, {"taps": 5}, False, T0 + seconds(10)).attempt
    assert after.metrics == {"score": 10.0, "taps": 5.0}


def test_milestones_are_crossed_once_each_when_the_score_reaches_them():
    one = progress(DAILY, attempt(), {"score": 120}, False, T0 + seconds(10))
    assert [m.key for m in one.crossed] == ["bronze"]
    two = progress(DAILY, one.attempt, {"score": 600}, False, T0 + seconds(20))
    assert [m.key for m in two.crossed] == ["silver"]
    assert two.attempt.milestones == ("bronze", "silver")
    again = progress(DAILY, two.attempt, {"score": 700}, False, T0 + seconds(30))
    assert again.crossed == ()


def test_reaching_the_target_completes_the_attempt():
    done = progress(DAILY, attempt(), {"score": 1000}, False, T0 + seconds(30))
    assert done.completed and done.attempt.status is AttemptStatus.COMPLETED


def test_complete_true_completes_without_the_target():
    done = progress(DAILY, attempt(), {"score": 10}, True, T0 + seconds(30))
    assert done.completed and done.attempt.completed_at == T0 + seconds(30)


def test_a_reject_check_refuses_the_write_with_its_key():
    with pytest.raises(LivecoreError) as exc:
        progress(DAILY, attempt(), {"score": 600}, False, T0 + seconds(10))  # 60/s > 50/s
    assert exc.value.code is ANTI_CHEAT_REJECTED
    assert exc.value.details == {"validator": "rate"}


def test_the_rate_counts_the_first_second_as_a_whole_one():
    with pytest.raises(LivecoreError):
        progress(DAILY, attempt(), {"score": 51}, False, T0)
    assert progress(DAILY, attempt(), {"score": 50}, False, T0).attempt.score == 50


def test_a_flag_check_applies_the_write_and_flags_the_attempt():
    done = progress(DAILY, attempt(), {"taps": 11}, False, T0 + seconds(10))
    assert done.attempt.flagged and done.attempt.metrics["taps"] == 11
    (flag,) = done.flags
    assert (flag.check.key, flag.before, flag.after, flag.elapsed_sec) == ("taps", 0.0, 11.0, 10.0)


# --- boards --------------------------------------------------------------------------------------------


def entry(player: str, score: float, at: int) -> BoardEntry:
    return BoardEntry("lb_1", player, score, T0 + seconds(at), f"att_{player}")


def board(order: Order = Order.DESC) -> Board:
    return Board(
        id="lb_1",
        game_id="gam_1",
        env=Environment.LIVE,
        event_key="time-trial",
        event_id="ev_1",
        window_id="win_1",
        order=order,
        closes_at=T0 + seconds(3600),
    )


def test_board_order_is_better_score_then_who_reached_it_first_then_the_player():
    entries = [entry("b", 100, 5), entry("a", 100, 5), entry("c", 100, 1), entry("d", 200, 9)]
    ordered = sorted(entries, key=lambda e: sort_key(Order.DESC, e))
    assert [e.player_id for e in ordered] == ["d", "c", "a", "b"]
    asc = sorted(entries, key=lambda e: sort_key(Order.ASC, e))
    assert [e.player_id for e in asc] == ["c", "a", "b", "d"]


def test_only_a_better_score_replaces_an_entry():
    assert replaces(Order.DESC, None, 1)
    assert replaces(Order.DESC, entry("a", 10, 0), 11)
    assert not replaces(Order.DESC, entry("a", 10, 0), 10)
    assert replaces(Order.ASC, entry("a", 10, 0), 9)


def test_a_cursor_resumes_after_its_entry_and_belongs_to_its_board():
    b = board()
    entries = [entry(p, s, 0) for p, s in (("a", 5), ("b", 4), ("c", 3))]
    after = parse_cursor(b.id, cursor_of(b.id, entries[0]))
    assert [e.player_id for e in page_filter(b.order, entries, after)] == ["b", "c"]
    other = attrs.evolve(b, id="lb_2")
    for bad in (cursor_of(other.id, entries[0]), "!!", "", "W10"):
        with pytest.raises(LivecoreError) as exc:
            parse_cursor(b.id, bad)
        assert exc.value.code is INVALID_REQUEST
    assert key_after(Order.DESC, after) == sort_key(Order.DESC, entries[0])


def test_around_centres_on_the_player_as_far_as_the_board_allows():
    assert around_offset(position=10, total=100, limit=5) == 8
    assert around_offset(position=1, total=100, limit=5) == 0
    assert around_offset(position=99, total=100, limit=5) == 95
    assert around_offset(position=2, total=3, limit=10) == 0


@given(total=st.integers(1, 40), limit=st.integers(1, 12), data=st.data())
def test_a_page_around_a_player_read_by_keyset_is_the_page_around_offset_places(
    total: int, limit: int, data: st.DataObject
) -> None:
    """read_ranked reads either side of the player by keyset; the page, its ranks and whether more
    follow are those of the whole board cut where around_offset says."""
    order = data.draw(st.sampled_from(Order))
    scores = data.draw(st.lists(st.integers(-3, 3), min_size=total, max_size=total))  # ties included
    rows = [
        (
            BoardEntry("brd_1", f"plr_{i:02}", s, T0, "att_1"),
            Contender(f"plr_{i:02}", f"p{i}", ANON, None, None),
        )
        for i, s in enumerate(scores)
    ]
    rows.sort(key=lambda r: sort_key(order, r[0]))
    keys = [sort_key(order, e) for e, _ in rows]
    ranking = Ranking(
        order,
        lambda key, n: [r for r, k in zip(rows, keys, strict=True) if key is None or k > key][:n],
        lambda key, n: [r for r, k in zip(rows, keys, strict=True) if k < key][-n:] if n else [],
        lambda key: sum(1 for k in keys if k < key),
    )
    position = data.draw(st.integers(0, total - 1))
    standings, more = read_ranked(ranking, limit, mine=rows[position])
    first = around_offset(position, total, limit)
    assert [(s.rank, s.entry) for s in standings] == [
        (first + 1 + i, e) for i, (e, _) in enumerate(rows[first : first + limit])
    ]
    assert more == (first + limit < total)


def test_rank_bands_pay_the_ranks_they_hold():
    bands = (RankBand(1, 1, (COINS,)), RankBand(2, 3, (attrs.evolve(COINS, amount=1),)))
    assert band_rewards(bands, 1) == (COINS,)
    assert band_rewards(bands, 3)[0].amount == 1
    assert band_rewards(bands, 4) == ()
    assert paid_ranks(bands) == 3


def test_a_forced_completion_may_replace_the_score_and_records_the_milestones_it_reaches():
    done, fired = force_complete(DAILY, attempt(score=50.0, score_at=T0), 550, T0 + seconds(5))
    assert (done.status, done.score, done.score_at) == (AttemptStatus.COMPLETED, 550, T0 + seconds(5))
    assert [m.key for m in fired] == ["bronze", "silver"]
    kept, _ = force_complete(DAILY, attempt(score=50.0, score_at=T0), None, T0 + seconds(5))
    assert (kept.score, kept.score_at) == (50.0, T0)
    for bad in (math.nan, math.inf):
        with pytest.raises(LivecoreError) as exc:
            force_complete(DAILY, attempt(), bad, T0)
        assert exc.value.code is INVALID_REQUEST
    with pytest.raises(LivecoreError) as exc:
        force_complete(DAILY, attempt(), None, T0 + seconds(600))
    assert exc.value.code is ATTEMPT_NOT_IN_PROGRESS
