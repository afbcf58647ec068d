"""Team rules without a server: ids and new records, contributions, the team score, milestones and the
goal, the roster PUT (its refusal order and what it does to seats), the window it targets, partner
invites and the team board's order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from livecore.errors import INVALID_REQUEST, Code, LivecoreError
from livecore.friends.errors import NOT_FRIENDS
from livecore.games import Entry, Milestone, Order, RankBand, ResourceType
from livecore.ids import derived_id
from livecore.live_events.errors import EVENT_NOT_OPEN
from livecore.live_events.rules import Window, WindowStatus, event_id, window_id
from livecore.live_events.settings import EventSettings
from livecore.players.identity import Identity
from livecore.players.rules import Player
from livecore.rand import SeededRandomSource
from livecore.scope import Environment
from livecore.teams.errors import (
    ALREADY_ON_TEAM,
    INVITE_EXPIRED,
    INVITE_NOT_FOUND,
    INVITE_PENDING,
    LOCKED_ELSEWHERE,
)
from livecore.teams.rules import (
    INVITE_TTL,
    TEAM_ID_PREFIX,
    LeaveReason,
    PartnerInvite,
    Team,
    TeamMember,
    accepted,
    apply_score,
    check_accept,
    check_invite,
    check_not_locked,
    contribution,
    named_window,
    new_invite,
    new_seat,
    new_team,
    rank_payouts,
    ranked,
    roster_change,
    target_window,
    team_id,
    team_score,
)
from livecore.teams.settings import TEAM_SETTINGS, Formation, OnComplete, OnLeave, TeamSettings

T0 = datetime(2026, 12, 1, tzinfo=UTC)
GAME = "gam_1"
ENV = Environment.TEST
COINS = (Entry(ResourceType.CURRENCY, "coins", 10),)
MILESTONES = (
    Milestone("third", 3000.0, COINS),
    Milestone("half", 2500.0, COINS),
    Milestone("also-half", 2500.0, COINS),
    Milestone("start", 100.0, COINS),
)
SETTINGS = TeamSettings(Formation.EXTERNAL, size=4, goal=5000.0, board=True, milestones=MILESTONES)
STOP = attrs.evolve(SETTINGS, on_complete=OnComplete.STOP_CONTRIBUTIONS)
# Daily windows an hour long, from T0.
EVENT = EventSettings(
    "raid",
    "Raid",
    T0,
    window_seconds=3600,
    attempt_seconds=600,
    score_metric="damage",
    repeat_every_seconds=86_400,
    parts={TEAM_SETTINGS: SETTINGS},
)


def wid(starts_at: datetime, env: Environment = ENV, key: str = "raid") -> str:
    return window_id(GAME, env, key, starts_at)


def team(goal: float | None = 5000.0, **fields: object) -> Team:
    made = new_team(GAME, ENV, EVENT, wid(T0), T0, "red", T0)
    return attrs.evolve(made, goal=goal, **fields)


def player(n: int) -> Player:
    return Player(f"plr_{n}", GAME, ENV, f"p{n}", T0, T0, Identity(f"P {n}", None))


def seat(n: int, contribution_: float = 0.0, left: bool = False) -> TeamMember:
    return TeamMember(
        seat_id=f"tms_{n}",
        team_id="team_1",
        window_id="win_1",
        player_id=f"plr_{n}",
        external_player_id=f"p{n}",
        joined_at=T0,
        contribution=contribution_,
        left_at=T0 + timedelta(minutes=1) if left else None,
        left_reason=LeaveReason.LEFT if left else None,
    )


def refusal(call: object) -> LivecoreError:
    assert callable(call)
    with pytest.raises(LivecoreError) as caught:
        call()
    return caught.value


# --- ids and new records -------------------------------------------------------------------------------


def test_team_id_is_derived_from_window_and_key() -> None:
    assert team_id("win_1", T0, "red") == derived_id(TEAM_ID_PREFIX, T0, "win_1", "red")
    assert team_id("win_1", T0, "red").startswith("team_")
    assert team_id("win_1", T0, "red") == team_id("win_1", T0, "red")
    assert len({team_id("win_1", T0, "red"), team_id("win_2", T0, "red"), team_id("win_1", T0, "blue")}) == 3


def test_new_team_takes_the_events_formation_and_goal() -> None:
    made = new_team(GAME, ENV, EVENT, wid(T0), T0, "red", T0, name="Red", attributes={"color": "red"})
    assert made.id == team_id(wid(T0), T0, "red")
    assert (made.event_id, made.window_id, made.key) == (event_id(GAME, EVENT), wid(T0), "red")
    assert (made.formation, made.goal, made.name, made.attributes) == (
        Formation.EXTERNAL,
        5000.0,
        "Red",
        {"color": "red"},
    )
    assert (made.score, made.member_count, made.milestones, made.completed) == (0.0, 0, (), False)


def test_new_team_needs_an_event_with_teams() -> None:
    with pytest.raises(ValueError, match="no teams"):
        new_team(GAME, ENV, attrs.evolve(EVENT, parts={}), wid(T0), T0, "red", T0)


def test_new_seat_is_a_tms_id_of_the_teams_window() -> None:
    made = team()
    s = new_seat(made, player(1), T0, SeededRandomSource(1))
    assert s.seat_id.startswith("tms_")
    assert (s.team_id, s.window_id, s.player_id, s.external_player_id) == (
        made.id,
        made.window_id,
        "plr_1",
        "p1",
    )
    assert (s.joined_at, s.contribution, s.seated) == (T0, 0.0, True)


# --- contributions and the team score ------------------------------------------------------------------


def test_contribution_is_the_best_score_in_the_events_direction() -> None:
    assert contribution(Order.DESC, [10.0, 30.0, 20.0]) == 30.0
    assert contribution(Order.ASC, [10.0, 30.0, 5.0]) == 5.0


def test_contribution_without_attempts_is_zero() -> None:
    assert contribution(Order.DESC, []) == 0.0
    assert contribution(Order.ASC, []) == 0.0


def test_team_score_keeps_left_members_unless_removed() -> None:
    members = [seat(1, 100.0), seat(2, 50.0, left=True), seat(3, 7.0)]
    assert team_score(SETTINGS, members) == 157.0
    removing = attrs.evolve(SETTINGS, on_leave=OnLeave.REMOVE_CONTRIBUTION)
    assert team_score(removing, members) == 107.0


members_st = st.lists(
    st.tuples(st.floats(min_value=0, max_value=1e6, allow_nan=False), st.booleans()), max_size=12
)


@given(members_st, st.sampled_from(OnLeave))
def test_team_score_is_the_sum_rule(raw: list[tuple[float, bool]], on_leave: OnLeave) -> None:
    settings = attrs.evolve(SETTINGS, on_leave=on_leave)
    members = [seat(i, c, left) for i, (c, left) in enumerate(raw)]
    seated = sum(c for c, left in raw if not left)
    gone = sum(c for c, left in raw if left)
    expected = seated + (gone if on_leave is OnLeave.KEEP_CONTRIBUTION else 0.0)
    assert team_score(settings, members) == pytest.approx(expected)


@given(members_st, st.data())
def test_a_member_leaving_moves_the_score_only_when_removed(
    raw: list[tuple[float, bool]], data: st.DataObject
) -> None:
    members = [seat(i, c, False) for i, (c, _) in enumerate(raw)]
    if not members:
        return
    i = data.draw(st.integers(0, len(members) - 1))
    after = [
        *members[:i],
        attrs.evolve(members[i], left_at=T0, left_reason=LeaveReason.LEFT),
        *members[i + 1 :],
    ]
    assert team_score(SETTINGS, after) == pytest.approx(team_score(SETTINGS, members))
    removing = attrs.evolve(SETTINGS, on_leave=OnLeave.REMOVE_CONTRIBUTION)
    # A sum with one term less and the sum less that term differ by rounding, relative to the whole sum.
    whole = sum(m.contribution for m in members)
    assert team_score(removing, after) == pytest.approx(
        team_score(removing, members) - members[i].contribution, abs=1e-9 * max(1.0, whole)
    )


# --- milestones and the goal ---------------------------------------------------------------------------


def test_milestones_cross_once_in_threshold_order() -> None:
    change = apply_score(team(), SETTINGS, 2600.0, T0)
    assert [m.key for m in change.milestones] == ["start", "half", "also-half"]
    assert change.team.milestones == ("start", "half", "also-half")
    assert (change.team.score, change.completed, change.team.completed_at) == (2600.0, False, None)

    again = apply_score(change.team, SETTINGS, 3100.0, T0)
    assert [m.key for m in again.milestones] == ["third"]
    assert again.team.milestones == ("start", "half", "also-half", "third")


def test_a_milestone_is_not_crossed_again_after_the_score_falls_back() -> None:
    up = apply_score(team(), SETTINGS, 200.0, T0).team
    down = apply_score(up, SETTINGS, 0.0, T0)
    assert (down.team.score, down.milestones, down.team.milestones) == (0.0, (), ("start",))
    assert apply_score(down.team, SETTINGS, 200.0, T0).milestones == ()


def test_the_goal_is_reached_once() -> None:
    later = T0 + timedelta(minutes=9)
    done = apply_score(team(), SETTINGS, 5000.0, T0)
    assert (done.completed, done.team.completed_at, done.team.score) == (True, T0, 5000.0)
    more = apply_score(done.team, SETTINGS, 6000.0, later)
    assert (more.completed, more.team.completed_at, more.team.score) == (False, T0, 6000.0)
    less = apply_score(more.team, SETTINGS, 10.0, later)
    assert (less.completed, less.team.completed_at, less.team.completed) == (False, T0, True)


def test_no_goal_never_completes() -> None:
    change = apply_score(team(goal=None), SETTINGS, 1e9, T0)
    assert (change.completed, change.team.completed_at) == (False, None)


def test_stop_contributions_stops_the_score_at_the_goal_and_freezes_it() -> None:
    settings = attrs.evolve(STOP, milestones=(*MILESTONES, Milestone("beyond", 5500.0, COINS)))
    done = apply_score(team(), settings, 6000.0, T0)
    assert (done.completed, done.team.score) == (True, 5000.0)
    assert "beyond" not in done.team.milestones
    frozen_ = apply_score(done.team, settings, 9000.0, T0 + timedelta(minutes=1))
    assert frozen_.team == done.team
    assert (frozen_.milestones, frozen_.completed) == ((), False)
    assert apply_score(done.team, settings, 0.0, T0).team.score == 5000.0


scores_st = st.lists(st.floats(min_value=0, max_value=10_000, allow_nan=False), max_size=30)


@given(scores_st, st.sampled_from([SETTINGS, STOP]))
def test_no_milestone_is_crossed_twice(scores: list[float], settings: TeamSettings) -> None:
    current, crossed = team(), []
    for i, score in enumerate(scores):
        change = apply_score(current, settings, score, T0 + timedelta(seconds=i))
        crossed += [m.key for m in change.milestones]
        current = change.team
    assert len(crossed) == len(set(crossed))
    assert tuple(crossed) == current.milestones


@given(scores_st, st.sampled_from([SETTINGS, STOP]))
def test_a_milestone_unlocks_when_the_best_score_so_far_reaches_it(
    scores: list[float], settings: TeamSettings
) -> None:
    current = team()
    for i, score in enumerate(scores):
        current = apply_score(current, settings, score, T0 + timedelta(seconds=i)).team
    best = max(scores, default=0.0)
    if settings.on_complete is OnComplete.STOP_CONTRIBUTIONS:
        best = min(best, 5000.0)  # the score stops at the goal
    assert set(current.milestones) == {m.key for m in settings.milestones if best >= m.threshold}


@given(scores_st)
def test_with_stop_contributions_the_score_never_moves_after_completion(scores: list[float]) -> None:
    current, completed_at = team(), None
    for i, score in enumerate(scores):
        change = apply_score(current, STOP, score, T0 + timedelta(seconds=i))
        if completed_at is not None:
            assert change.team == current
        current = change.team
        if change.completed:
            assert completed_at is None
            completed_at = current.completed_at
            assert current.score == 5000.0
    assert current.completed_at == completed_at


@given(scores_st, st.sampled_from([SETTINGS, STOP]))
def test_the_goal_completes_at_the_first_score_reaching_it(
    scores: list[float], settings: TeamSettings
) -> None:
    current, completions = team(), 0
    for i, score in enumerate(scores):
        change = apply_score(current, settings, score, T0 + timedelta(seconds=i))
        completions += change.completed
        current = change.team
    first = next((i for i, score in enumerate(scores) if score >= 5000.0), None)
    assert completions == (first is not None)
    assert current.completed_at == (None if first is None else T0 + timedelta(seconds=first))


# --- the roster PUT ------------------------------------------------------------------------------------


def test_roster_change_sorts_seats_into_joined_returned_kicked_stayed() -> None:
    now = T0 + timedelta(minutes=30)
    members = [seat(1, 10.0), seat(2, 20.0), seat(3, 30.0, left=True)]
    change = roster_change(members, ["p2", "p4", "p3"], 4, now)
    assert change.joined == ("p4",)
    assert change.returned == (attrs.evolve(members[2], left_at=None, left_reason=None),)
    assert change.kicked == (attrs.evolve(members[0], left_at=now, left_reason=LeaveReason.KICKED),)
    assert change.stayed == (members[1],)


def test_an_empty_roster_kicks_everybody() -> None:
    change = roster_change([seat(1), seat(2), seat(3, left=True)], [], 4, T0)
    assert [m.external_player_id for m in change.kicked] == ["p1", "p2"]
    assert all(m.left_reason is LeaveReason.KICKED for m in change.kicked)
    assert (change.joined, change.returned, change.stayed) == ((), (), ())


def test_a_repeated_player_is_refused_before_the_size() -> None:
    error = refusal(lambda: roster_change([], ["p1", "p2", "p1", "p3", "p4"], 4, T0))
    assert (error.code, error.status) == (INVALID_REQUEST, 400)
    assert error.details == {"fields": {"externalPlayerIds": "repeats p1"}}


def test_more_players_than_the_size_are_refused() -> None:
    error = refusal(lambda: roster_change([], ["p1", "p2", "p3"], 2, T0))
    assert (error.code, error.status) == (INVALID_REQUEST, 400)
    assert error.details == {"fields": {"externalPlayerIds": "at most the team size (2) players"}}
    assert roster_change([], ["p1", "p2"], 2, T0).joined == ("p1", "p2")


def test_players_on_another_team_are_locked_elsewhere() -> None:
    check_not_locked([])
    error = refusal(lambda: check_not_locked(["p2", "p5"]))
    assert (error.code, error.status) == (LOCKED_ELSEWHERE, 409)
    assert error.details == {"externalPlayerIds": ["p2", "p5"]}


# --- the window a roster PUT targets -------------------------------------------------------------------


def recorded(starts_at: datetime, status: WindowStatus = WindowStatus.OPEN) -> Window:
    return Window(
        wid(starts_at),
        GAME,
        ENV,
        "raid",
        event_id(GAME, EVENT),
        starts_at,
        starts_at + timedelta(hours=1),
        status,
        EVENT,
        starts_at,
    )


DAY = timedelta(days=1)


def test_a_named_window_of_the_schedule_is_targeted_even_unrecorded() -> None:
    target = target_window(GAME, ENV, EVENT, T0, wid(T0 + 3 * DAY), {})
    assert (target.id, target.starts_at, target.ends_at, target.recorded) == (
        wid(T0 + 3 * DAY),
        T0 + 3 * DAY,
        T0 + 3 * DAY + timedelta(hours=1),
        None,
    )


def test_a_named_recorded_window_is_targeted_with_its_record() -> None:
    window = recorded(T0)
    target = target_window(GAME, ENV, EVENT, T0 + timedelta(minutes=5), window.id, {window.id: window})
    assert target.recorded == window


@pytest.mark.parametrize(
    "named",
    [
        wid(T0 + timedelta(minutes=1)),  # not a slot's start
        wid(T0 - DAY),  # before the first window
        wid(T0, env=Environment.LIVE),  # the other environment's
        wid(T0, key="other"),  # another event's
        "win_nothex",
        "lob_" + wid(T0)[4:],
        "win_ffffffffffff7000800000000000000",  # a start past datetime's range
        "win_ffffffffffff70008000000000000000",
    ],
)
def test_an_unknown_window_id_is_an_invalid_request(named: str) -> None:
    error = refusal(lambda: named_window(GAME, ENV, EVENT, named, {}))
    assert (error.code, error.status) == (INVALID_REQUEST, 400)
    assert error.details is not None and "windowId" in error.details["fields"]


def test_a_named_window_that_ended_is_not_open() -> None:
    error = refusal(lambda: target_window(GAME, ENV, EVENT, T0 + timedelta(hours=1), wid(T0), {}))
    assert (error.code, error.status) == (EVENT_NOT_OPEN, 409)
    closed = recorded(T0, WindowStatus.CLOSED)
    error = refusal(lambda: target_window(GAME, ENV, EVENT, T0, closed.id, {closed.id: closed}))
    assert error.code is EVENT_NOT_OPEN


def test_without_a_window_id_the_open_window_then_the_next() -> None:
    assert target_window(GAME, ENV, EVENT, T0 + timedelta(minutes=5), None, {}).id == wid(T0)
    assert target_window(GAME, ENV, EVENT, T0 + timedelta(hours=2), None, {}).id == wid(T0 + DAY)
    assert target_window(GAME, ENV, EVENT, T0 - DAY, None, {}).id == wid(T0)


def test_an_open_window_closed_early_gives_way_to_the_next() -> None:
    closed = recorded(T0, WindowStatus.CLOSED)
    target = target_window(GAME, ENV, EVENT, T0 + timedelta(minutes=5), None, {closed.id: closed})
    assert target.id == wid(T0 + DAY)


def test_no_open_or_scheduled_window_is_not_open() -> None:
    single = attrs.evolve(EVENT, repeat_every_seconds=None)
    error = refusal(lambda: target_window(GAME, ENV, single, T0 + timedelta(hours=2), None, {}))
    assert (error.code, error.status) == (EVENT_NOT_OPEN, 409)


# --- partner invites -----------------------------------------------------------------------------------


def test_an_invite_expires_after_24_hours() -> None:
    invite = new_invite(GAME, ENV, "raid", wid(T0), player(1), player(2), T0, SeededRandomSource(3))
    assert invite.id.startswith("inv_")
    assert timedelta(hours=24) == INVITE_TTL
    assert invite.expires_at == T0 + timedelta(hours=24)
    assert (invite.from_external_id, invite.to_external_id, invite.accepted_at) == ("p1", "p2", None)


@pytest.mark.parametrize(
    ("args", "code", "status"),
    [
        (("plr_1", "plr_1", False, True, True), INVALID_REQUEST, 400),
        (("plr_1", "plr_2", False, True, True), NOT_FRIENDS, 403),
        (("plr_1", "plr_2", True, True, True), ALREADY_ON_TEAM, 409),
        (("plr_1", "plr_2", True, False, True), INVITE_PENDING, 409),
    ],
)
def test_invite_refusals_in_order(args: tuple[str, str, bool, bool, bool], code: Code, status: int) -> None:
    a, b, friends, on_team, pending = args
    error = refusal(
        lambda: check_invite(a, b, are_friends=friends, either_on_team=on_team, pending_exists=pending)
    )
    assert (error.code, error.status) == (code, status)


def test_an_invite_between_free_friends_passes() -> None:
    check_invite("plr_1", "plr_2", are_friends=True, either_on_team=False, pending_exists=False)


def invite(**fields: object) -> PartnerInvite:
    made = new_invite(GAME, ENV, "raid", wid(T0), player(1), player(2), T0, SeededRandomSource(3))
    return attrs.evolve(made, **fields)


LATE = T0 + INVITE_TTL


@pytest.mark.parametrize(
    ("found", "by", "now", "code", "status"),
    [
        (None, "plr_2", T0, INVITE_NOT_FOUND, 404),
        (invite(accepted_at=T0, team_id="team_1"), "plr_1", LATE, INVITE_NOT_FOUND, 404),
        (invite(accepted_at=T0, team_id="team_1"), "plr_2", LATE, ALREADY_ON_TEAM, 409),
        (invite(), "plr_2", LATE, INVITE_EXPIRED, 410),
        (invite(), "plr_2", LATE - timedelta(milliseconds=1), ALREADY_ON_TEAM, 409),
    ],
)
def test_accept_refusals_in_order(
    found: PartnerInvite | None, by: str, now: datetime, code: Code, status: int
) -> None:
    error = refusal(lambda: check_accept(found, by, now, either_on_team=True))
    assert (error.code, error.status) == (code, status)


def test_the_invitee_accepts_a_live_invite() -> None:
    found = invite()
    check_accept(found, "plr_2", LATE - timedelta(milliseconds=1), either_on_team=False)
    made = new_team(GAME, ENV, EVENT, found.window_id, T0, found.id, T0)
    assert accepted(found, made, T0).team_id == team_id(found.window_id, T0, found.id)


# --- the team board ------------------------------------------------------------------------------------


def test_ranked_by_score_then_completion_then_creation_then_id() -> None:
    base = team()
    a = attrs.evolve(base, id="team_a", score=5000.0, completed_at=T0 + timedelta(minutes=9))
    b = attrs.evolve(base, id="team_b", score=5000.0, completed_at=T0 + timedelta(minutes=3))
    c = attrs.evolve(base, id="team_c", score=5000.0)  # not completed: after those that did
    d = attrs.evolve(base, id="team_d", score=6000.0)
    e = attrs.evolve(base, id="team_e", score=10.0, created_at=T0 - timedelta(minutes=1))
    f = attrs.evolve(base, id="team_f", score=10.0)
    g = attrs.evolve(base, id="team_g", score=10.0)
    assert [t.id for t in ranked([g, f, e, c, b, a, d])] == [
        "team_d",
        "team_b",
        "team_a",
        "team_c",
        "team_e",
        "team_f",
        "team_g",
    ]


def test_rank_payouts_pay_the_banded_ranks_of_a_team_board() -> None:
    gold, silver = (Entry(ResourceType.CURRENCY, "coins", 100),), (Entry(ResourceType.CURRENCY, "coins", 50),)
    settings = attrs.evolve(SETTINGS, rank_rewards=(RankBand(1, 1, gold), RankBand(3, 4, silver)))
    teams = [attrs.evolve(team(), id=f"team_{i}", score=float(i)) for i in range(6)]
    paid = rank_payouts(settings, teams)
    assert [(rank, t.id, rewards) for rank, t, rewards in paid] == [
        (1, "team_5", gold),
        (3, "team_3", silver),
        (4, "team_2", silver),
    ]
    assert rank_payouts(attrs.evolve(settings, board=False), teams) == []
