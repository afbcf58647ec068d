"""Core player rules without a server: register refusals, the ban machine, sessions and streak."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from livecore.errors import PERMISSION_DENIED, LivecoreError
from livecore.players.errors import PLAYER_ALREADY_REGISTERED, PLAYER_BANNED
from livecore.players.identity import Identity
from livecore.players.rules import (
    BAN_TRANSITIONS,
    DAYS_KEPT,
    Activity,
    BanState,
    BanTrigger,
    Player,
    ban,
    ban_state,
    check_register,
    is_durable,
    record_activity,
    sweep_streak,
    unban,
)
from livecore.scope import Environment
from tests.budget import examples

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def make_player(**kw: object) -> Player:
    base = Player(
        id="plr_1",
        game_id="gam_1",
        env=Environment.TEST,
        external_id="p1",
        first_seen_at=T0,
        last_seen_at=T0,
        anonymized=Identity("Brave Otter 01", "avatar_01"),
    )
    return attrs.evolve(base, **kw)


# --- register ----------------------------------------------------------------------------------


def test_register_new_player_is_allowed() -> None:
    check_register(None, force=False, env=Environment.LIVE)


def test_register_twice_is_409() -> None:
    with pytest.raises(LivecoreError) as exc:
        check_register(make_player(secret_hash="h"), force=False, env=Environment.TEST)
    assert exc.value.code is PLAYER_ALREADY_REGISTERED
    assert exc.value.status == 409


def test_force_is_refused_for_live_keys() -> None:
    with pytest.raises(LivecoreError) as exc:
        check_register(make_player(secret_hash="h"), force=True, env=Environment.LIVE)
    assert exc.value.code is PERMISSION_DENIED


def test_force_rotates_for_test_keys() -> None:
    check_register(make_player(secret_hash="h"), force=True, env=Environment.TEST)


def test_banned_is_403_before_409() -> None:
    banned, _ = ban(make_player(secret_hash="h"), "x", T0)
    with pytest.raises(LivecoreError) as exc:
        check_register(banned, force=False, env=Environment.TEST)
    assert exc.value.code is PLAYER_BANNED


# --- ban machine ---------------------------------------------------------------------------------


def test_ban_table_is_complete() -> None:
    assert set(BAN_TRANSITIONS) == {(s, t) for s in BanState for t in BanTrigger}


def test_ban_then_reban_refreshes_reason_without_applying() -> None:
    p, applied = ban(make_player(), "first", T0)
    assert applied is True
    p2, applied2 = ban(p, "second", T0 + timedelta(hours=1))
    assert applied2 is False
    assert p2.ban is not None and p2.ban.reason == "second"
    assert p2.ban.banned_at == T0  # the ban did not start again


def test_unban_of_unbanned_is_not_applied() -> None:
    p, applied = unban(make_player())
    assert applied is False
    assert p.ban is None


class BanMachine(RuleBasedStateMachine):
    """The ban machine against a two-state model: applied is true exactly when the state changes."""

    def __init__(self) -> None:
        super().__init__()
        self.player = make_player()
        self.model_banned = False

    @rule(reason=st.text(min_size=1, max_size=20))
    def do_ban(self, reason: str) -> None:
        self.player, applied = ban(self.player, reason, T0)
        assert applied is (not self.model_banned)
        self.model_banned = True
        assert self.player.ban is not None and self.player.ban.reason == reason

    @rule()
    def do_unban(self) -> None:
        self.player, applied = unban(self.player)
        assert applied is self.model_banned
        self.model_banned = False

    @invariant()
    def state_matches_model(self) -> None:
        assert (ban_state(self.player) is BanState.BANNED) is self.model_banned
        assert self.player.banned is self.model_banned


TestBanMachine = BanMachine.TestCase


# --- sessions and streak -----------------------------------------------------------------------


def test_first_activity_opens_a_session_and_starts_the_streak() -> None:
    a = record_activity(Activity(), T0)
    assert (a.sessions, a.streak, a.best_streak, a.streak_day) == (1, 1, 1, T0.date())


def test_a_new_session_needs_30_minutes_of_silence() -> None:
    a = record_activity(Activity(), T0)
    a = record_activity(a, T0 + timedelta(minutes=29, seconds=59))
    assert a.sessions == 1
    a = record_activity(a, a.last_active_at + timedelta(minutes=30))  # type: ignore[operator]
    assert a.sessions == 2


def test_streak_counts_consecutive_utc_days_and_restarts_at_one() -> None:
    a = record_activity(Activity(), T0)
    a = record_activity(a, T0 + timedelta(days=1))
    a = record_activity(a, T0 + timedelta(days=2))
    assert (a.streak, a.best_streak) == (3, 3)
    a = record_activity(a, T0 + timedelta(days=4))  # day 3 missed
    assert (a.streak, a.best_streak) == (1, 3)


def test_utc_day_boundary_not_24_hours() -> None:
    late = datetime(2026, 3, 2, 23, 50, tzinfo=UTC)
    a = record_activity(Activity(), late)
    a = record_activity(a, late + timedelta(minutes=20))  # 00:10 next UTC day
    assert a.streak == 2


def test_sweep_resets_only_after_a_full_missed_day() -> None:
    a = record_activity(Activity(), T0)  # Monday
    assert sweep_streak(a, datetime(2026, 3, 3, 23, 59, tzinfo=UTC)).streak == 1  # Tuesday still open
    swept = sweep_streak(a, datetime(2026, 3, 4, 0, 0, tzinfo=UTC))
    assert swept.streak == 0
    assert swept.best_streak == 1


def test_the_days_played_are_recorded_from_the_first_active_day() -> None:
    a = record_activity(Activity(), T0)
    a = record_activity(a, T0 + timedelta(hours=2))
    a = record_activity(a, T0 + timedelta(days=1))
    a = record_activity(a, T0 + timedelta(days=7))
    assert a.first_day == T0.date()
    assert [d for d in range(DAYS_KEPT) if a.active_on(d)] == [0, 1, 7]
    beyond = record_activity(a, T0 + timedelta(days=DAYS_KEPT))
    assert beyond.days == a.days and not beyond.active_on(DAYS_KEPT)


def test_activity_before_the_first_day_moves_the_days_along() -> None:
    a = record_activity(Activity(), T0 + timedelta(days=2))
    a = record_activity(a, T0)
    assert a.first_day == T0.date()
    assert [d for d in range(DAYS_KEPT) if a.active_on(d)] == [0, 2]


@st.composite
def activity_gaps(draw: st.DrawFn) -> list[timedelta]:
    return draw(st.lists(st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=3)), max_size=40))


@given(activity_gaps())
@settings(max_examples=examples(200))
def test_streak_invariants(gaps: list[timedelta]) -> None:
    """For any activity history: streak <= best; streak equals the run of consecutive active UTC days
    ending at the last active day; sessions count the 30-minute gaps."""
    a = Activity()
    t = T0
    days: list[date] = []
    sessions = 0
    last: datetime | None = None
    for gap in gaps:
        t = t + gap
        a = record_activity(a, t)
        if last is None or t - last >= timedelta(minutes=30):
            sessions += 1
        last = t
        days.append(t.date())
        assert 0 < a.streak <= a.best_streak
    if not days:
        return
    run = 1
    unique = sorted(set(days))
    for prev, cur in zip(unique[-2::-1], unique[::-1], strict=False):
        if cur - prev == timedelta(days=1):
            run += 1
        else:
            break
    assert a.streak == run
    assert a.sessions == sessions
    assert [d for d in range(DAYS_KEPT) if a.active_on(d)] == [
        (d - unique[0]).days for d in unique if (d - unique[0]).days < DAYS_KEPT
    ]
    # The sweep never raises a streak and resets it only once a full day was missed.
    for hours in range(0, 72, 6):
        now = t + timedelta(hours=hours)
        swept = sweep_streak(a, now)
        missed = (now.date() - days[-1]).days >= 2
        assert swept.streak == (0 if missed else a.streak)


def test_activity_is_durable_only_when_a_session_opens() -> None:
    first = record_activity(Activity(), T0)
    same = record_activity(first, T0 + timedelta(minutes=29))  # same session, same day
    assert not is_durable(first, same)
    opened = record_activity(first, T0 + timedelta(minutes=30))
    assert is_durable(first, opened) and opened.sessions == first.sessions + 1


def test_activity_is_durable_when_a_streak_day_starts() -> None:
    late = datetime(2026, 3, 2, 23, 50, tzinfo=UTC)
    first = record_activity(Activity(), late)
    next_day = record_activity(first, late + timedelta(minutes=15))  # same session, next UTC day
    assert is_durable(first, next_day) and (next_day.sessions, next_day.streak) == (first.sessions, 2)
