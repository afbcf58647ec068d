"""The team commands on the in-memory store: the studio's roster PUT (its window, its refusals, kicks),
contributions following progress, milestones and the goal paid once, the window's close and its team
board, and partner invites."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import pytest

from livecore.clock import ManualClock
from livecore.commands import Runtime
from livecore.errors import INVALID_REQUEST, LivecoreError
from livecore.friends import commands as friends_cmd
from livecore.friends.errors import NOT_FRIENDS
from livecore.games import (
    Economy,
    Entry,
    Game,
    GameSettings,
    Milestone,
    RankBand,
    Resource,
    ResourceType,
    Studio,
)
from livecore.grants.memory import GrantTables
from livecore.hashing import KeyedHasher
from livecore.live_events.attempts import Attempt
from livecore.live_events.commands import live_events as ev
from livecore.live_events.errors import EVENT_NOT_OPEN
from livecore.live_events.memory import LiveEventTables
from livecore.live_events.rules import window_id
from livecore.live_events.settings import EVENT_SETTINGS, EventSettings
from livecore.memory import MemoryStore
from livecore.players.commands import register
from livecore.players.errors import PLAYER_NOT_FOUND
from livecore.players.rules import Player
from livecore.rand import SeededRandomSource
from livecore.scope import Environment, Scope
from livecore.teams import commands as tc
from livecore.teams.errors import (
    ALREADY_ON_TEAM,
    INVITE_EXPIRED,
    INVITE_NOT_FOUND,
    INVITE_PENDING,
    LOCKED_ELSEWHERE,
    TEAM_NOT_FOUND,
)
from livecore.teams.memory import TeamTables
from livecore.teams.rules import LeaveReason
from livecore.teams.settings import TEAM_SETTINGS, Formation, OnComplete, OnLeave, TeamSettings

T0 = datetime(2026, 12, 1, tzinfo=UTC)
DAY = timedelta(days=1)
GEMS = Resource("gems", ResourceType.CURRENCY)


def gems(n: int) -> tuple[Entry, ...]:
    return (Entry(ResourceType.CURRENCY, "gems", n),)


MILESTONES = (Milestone("half", 50.0, gems(5)), Milestone("most", 80.0, gems(7)))
RACE = TeamSettings(
    Formation.EXTERNAL,
    size=3,
    goal=100.0,
    board=True,
    milestones=MILESTONES,
    rank_rewards=(RankBand(1, 1, gems(50)), RankBand(2, 2, gems(20))),
)


def team_event(key: str, teams: TeamSettings | None, **kw: Any) -> EventSettings:
    """Daily windows an hour long from T0 (unless ``kw`` says otherwise)."""
    return EventSettings(
        **{
            "key": key,
            "name": key,
            "starts_at": T0,
            "window_seconds": 3600,
            "repeat_every_seconds": 86_400,
            "attempt_seconds": 600,
            "score_metric": "score",
            "parts": {TEAM_SETTINGS: teams},
            **kw,
        }
    )


EVENTS = {
    "race": team_event("race", RACE),
    "remove": team_event("remove", attrs.evolve(RACE, on_leave=OnLeave.REMOVE_CONTRIBUTION)),
    "stop": team_event(
        "stop",
        attrs.evolve(
            RACE,
            on_complete=OnComplete.STOP_CONTRIBUTIONS,
            milestones=(*MILESTONES, Milestone("beyond", 150.0, gems(9))),
        ),
    ),
    "noboard": team_event("noboard", attrs.evolve(RACE, board=False)),
    # Partner windows last two days, so an invite can expire inside one.
    "pair": team_event(
        "pair",
        TeamSettings(Formation.PARTNER, size=2, goal=100.0, milestones=MILESTONES),
        window_seconds=2 * 86_400,
        repeat_every_seconds=7 * 86_400,
    ),
    "solo": team_event("solo", None),
}
LIVE = Scope(studio_id="std_1", game_id="gam_1", env=Environment.LIVE)


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

    def players(self, *names: str) -> list[Player]:
        out = []
        for name in names:
            with self.store.transaction() as tx:
                out.append(register(tx, self.rt, LIVE, name).player)
        return out

    def put(self, team_key: str, names: list[str], event_key: str = "race", **kw: Any) -> tc.TeamRead:
        return self.run(tc.put_roster, LIVE, event_key, team_key, names, **kw)

    def read(self, team_key: str, event_key: str = "race", window: str | None = None) -> tc.TeamRead:
        return self.run(tc.read_team, LIVE, event_key, team_key, window)

    def start(self, player: Player, event_key: str = "race") -> Attempt:
        attempt = self.run(ev.start, LIVE, player, event_key, {})
        assert isinstance(attempt, Attempt)
        return attempt

    def progress(self, player: Player, attempt: Attempt, score: float, complete: bool = False) -> None:
        self.run(ev.record_progress, LIVE, player, attempt.event_key, attempt.id, {"score": score}, complete)

    def play(self, player: Player, score: float, event_key: str = "race") -> Attempt:
        """A whole attempt of ``player`` scoring ``score``."""
        attempt = self.start(player, event_key)
        self.progress(player, attempt, score, complete=True)
        return attempt

    def befriend(self, a: Player, b: Player) -> None:
        with self.store.transaction() as tx:
            game = tx.games.get("gam_1")
            friends_cmd.add(tx, self.rt, LIVE, game, a, b)
            friends_cmd.add(tx, self.rt, LIVE, game, b, a)

    def close(self, event_key: str = "race") -> None:
        """Close the event's window (recorded now if nobody started in it; the clock moves to its end)."""
        self.run(ev.open_due_windows)
        (window,) = [
            w
            for w in self.store.tables_of(LiveEventTables).windows.values()
            if (w.event_key, w.env) == (event_key, Environment.LIVE)
        ]
        self.clock.set(max(self.clock.now(), window.ends_at))
        assert self.run(ev.close_window, window.id, "gam_1")

    def events(self, prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
        return [(e.kind, e.data) for e in self.store.outbox if e.kind.startswith(prefix)]

    def kinds(self, *prefixes: str) -> list[str]:
        return [e.kind for e in self.store.outbox if e.kind.startswith(prefixes or ("",))]

    def grants(self, source_kind: str) -> list[tuple[str, str, Any]]:
        """(player, the grant's milestone or rank, its gems) of every grant of ``source_kind``."""
        return [
            (
                g.external_player_id,
                g.metadata.get("milestoneKey", g.metadata.get("rank")),
                g.entries[0].amount,
            )
            for g in self.store.tables_of(GrantTables).grants.values()
            if g.source_kind == source_kind
        ]

    def snapshot(self) -> Any:
        teams = self.store.tables_of(TeamTables)
        return (
            len(self.store.outbox),
            dict(teams.teams),
            dict(teams.team_members),
            dict(teams.team_seats),
            dict(teams.invites),
            dict(self.store.tables_of(GrantTables).grants),
        )


@pytest.fixture
def world() -> World:
    return World()


def refusal(world: World, fn, *args, **kw) -> LivecoreError:
    """The refusal of ``fn``, which changed nothing."""
    before = world.snapshot()
    with pytest.raises(LivecoreError) as exc:
        world.run(fn, *args, **kw)
    assert world.snapshot() == before
    return exc.value


def seated(read: tc.TeamRead) -> list[str]:
    """The seated members' external ids, sorted (seats taken in one write tie on time)."""
    return sorted(m.external_player_id for m in read.seated)


def wid(event_key: str, starts_at: datetime) -> str:
    return window_id("gam_1", Environment.LIVE, event_key, starts_at)


# --- the roster PUT --------------------------------------------------------------------------------


def test_the_first_roster_put_forms_the_team_in_the_open_window_then_seats_each_player(world):
    world.players("ada", "bo", "cy")
    read = world.put("red", ["ada", "bo", "cy"], name="Red", attributes={"color": "red"})
    assert read.team.window_id == wid("race", T0)
    assert (read.team.key, read.team.name, read.team.attributes) == ("red", "Red", {"color": "red"})
    assert seated(read) == ["ada", "bo", "cy"] and read.team.member_count == 3
    assert world.kinds("event_team.") == ["event_team.formed"] + ["event_team.member_joined"] * 3
    (formed,) = [data for kind, data in world.events("event_team.formed")]
    assert (formed["teamKey"], formed["memberCount"], formed["goalTarget"]) == ("red", 3, 100.0)
    joined = [(d["externalPlayerId"], d["memberCount"]) for _, d in world.events("event_team.member_joined")]
    assert joined == [("ada", 1), ("bo", 2), ("cy", 3)]
    assert world.read("red").team == read.team


def test_without_an_open_window_the_put_targets_the_next_scheduled_one(world):
    (ada,) = world.players("ada")
    world.clock.set(T0 + timedelta(hours=2))  # the first window ended; the next opens at T0 + 1 day
    read = world.put("red", ["ada"])
    assert read.team.window_id == wid("race", T0 + DAY)
    assert world.read("red", window=read.team.window_id).team == read.team  # readable before it opens
    with pytest.raises(LivecoreError) as exc:
        world.read("red")  # no window is open now
    assert exc.value.code is TEAM_NOT_FOUND
    # Once the window opens, the member's progress counts for the team formed before it.
    world.clock.set(T0 + DAY)
    world.play(ada, 30)
    assert world.read("red").team.score == 30


def test_a_named_window_is_the_one_the_put_changes(world):
    world.players("ada")
    later = wid("race", T0 + 3 * DAY)
    read = world.put("red", ["ada"], window=later)
    assert read.team.window_id == later
    assert world.read("red", window=later).team == read.team
    with pytest.raises(LivecoreError) as exc:
        world.read("red")  # the open window has no team "red"
    assert exc.value.code is TEAM_NOT_FOUND
    off_schedule = wid("race", T0 + timedelta(days=1, seconds=5))
    bad = refusal(world, tc.put_roster, LIVE, "race", "red", ["ada"], window=off_schedule)
    assert bad.code is INVALID_REQUEST and bad.details is not None
    assert set(bad.details["fields"]) == {"windowId"}


def test_a_second_put_kicks_the_missing_players_and_seats_the_new_ones(world):
    world.players("ada", "bo", "cy", "dee")
    world.put("red", ["ada", "bo", "cy"])
    read = world.put("red", ["ada", "dee"])
    assert seated(read) == ["ada", "dee"] and read.team.member_count == 2
    left = {m.external_player_id: m.left_reason for m in read.members if not m.seated}
    assert left == {"bo": LeaveReason.KICKED, "cy": LeaveReason.KICKED}
    assert world.kinds("event_team.")[4:] == [
        "event_team.member_left",
        "event_team.member_left",
        "event_team.member_joined",
    ]
    reasons = [
        (d["externalPlayerId"], d["reason"], d["memberCount"])
        for _, d in world.events("event_team.member_left")
    ]
    assert reasons == [("bo", "kicked", 2), ("cy", "kicked", 1)]
    assert world.kinds("event_team.formed") == ["event_team.formed"]  # formed once
    # A kicked player is free to join another team of the window.
    assert seated(world.put("blue", ["bo"])) == ["bo"]


def test_a_player_on_another_team_of_the_window_refuses_the_whole_roster_locked_elsewhere(world):
    world.players("ada", "bo", "cy")
    world.put("red", ["ada", "bo"])
    world.put("blue", ["cy"])
    error = refusal(world, tc.put_roster, LIVE, "race", "blue", ["cy", "bo"])
    assert (error.code, error.status, error.details) == (
        LOCKED_ELSEWHERE,
        409,
        {"externalPlayerIds": ["bo"]},
    )
    # A new team is not formed either.
    assert refusal(world, tc.put_roster, LIVE, "race", "green", ["ada"]).code is LOCKED_ELSEWHERE
    assert (
        "tm" not in {t.key for t in world.store.tables_of(TeamTables).teams.values()}
        and len(world.store.tables_of(TeamTables).teams) == 2
    )
    # Another window is another roster: the same player may sit on a team of it.
    assert seated(world.put("blue", ["bo"], window=wid("race", T0 + DAY))) == ["bo"]


def test_an_unknown_player_refuses_the_roster_player_not_found(world):
    world.players("ada")
    error = refusal(world, tc.put_roster, LIVE, "race", "red", ["ada", "ghost"])
    assert (error.code, error.details) == (PLAYER_NOT_FOUND, {"externalPlayerId": "ghost"})
    assert world.store.tables_of(TeamTables).teams == {}


def test_roster_refusals_come_in_their_order(world):
    world.players("ada", "bo", "cy", "dee")
    world.put("blue", ["dee"])
    twice = refusal(world, tc.put_roster, LIVE, "race", "red", ["ada", "ghost", "dee", "ada"])
    assert twice.code is INVALID_REQUEST and "repeats ada" in str(twice.details)
    too_many = refusal(world, tc.put_roster, LIVE, "race", "red", ["ghost", "dee", "bo", "cy"])
    assert too_many.code is INVALID_REQUEST and "team size" in str(too_many.details)
    assert refusal(world, tc.put_roster, LIVE, "race", "red", ["ghost", "dee"]).code is PLAYER_NOT_FOUND


def test_a_partner_event_refuses_the_roster_put(world):
    world.players("ada")
    error = refusal(world, tc.put_roster, LIVE, "pair", "red", ["ada"])
    assert (error.code, error.details) == (
        INVALID_REQUEST,
        {"fields": {"eventKey": "partner teams"}},
    )
    assert refusal(world, tc.put_roster, LIVE, "solo", "red", ["ada"]).code is INVALID_REQUEST


# --- contributions and the team score ----------------------------------------------------------------


def test_a_members_contribution_is_its_best_attempt_score_and_the_team_score_sums_them(world):
    ada, bo, cy = world.players("ada", "bo", "cy")
    world.play(ada, 12)  # before the team formed: it counts once ada is seated
    read = world.put("red", ["ada", "bo"])
    assert read.team.score == 12
    world.play(ada, 30)
    world.play(ada, 20)  # worse than its best: no change
    attempt = world.start(bo)
    world.progress(bo, attempt, 5)
    world.progress(bo, attempt, 9)
    read = world.read("red")
    assert {m.external_player_id: m.contribution for m in read.members} == {"ada": 30, "bo": 9}
    assert read.team.score == 39
    # A player on no team plays alone: nothing moves.
    world.play(cy, 99)
    assert world.read("red").team.score == 39


def test_on_leave_keep_contribution_keeps_a_kicked_members_score(world):
    ada, bo = world.players("ada", "bo")
    world.put("red", ["ada", "bo"])
    world.play(ada, 30)
    world.play(bo, 15)
    read = world.put("red", ["ada"])
    assert read.team.score == 45
    (left,) = [d for _, d in world.events("event_team.member_left")]
    assert (left["contribution"], left["contributionRemoved"]) == (15, False)
    world.play(bo, 40)  # bo has no seat now: its progress moves no team
    assert world.read("red").team.score == 45


def test_on_leave_remove_contribution_drops_a_kicked_members_score(world):
    ada, bo = world.players("ada", "bo")
    world.put("red", ["ada", "bo"], event_key="remove")
    world.play(ada, 30, "remove")
    world.play(bo, 15, "remove")
    read = world.put("red", ["ada"], event_key="remove")
    assert read.team.score == 30
    (left,) = [d for _, d in world.events("event_team.member_left")]
    assert (left["contribution"], left["contributionRemoved"]) == (15, True)
    # Back on the roster, its seat (and contribution) counts again, once.
    assert world.put("red", ["ada", "bo"], event_key="remove").team.score == 45


def test_force_complete_moves_the_members_contribution(world):
    ada, bo = world.players("ada", "bo")
    world.put("red", ["ada", "bo"])
    attempt = world.start(ada)
    world.progress(ada, attempt, 20)
    world.play(bo, 10)
    world.run(ev.force_complete, LIVE, attempt.id, score=55, actor_member_id="mem_1", reason="support")
    read = world.read("red")
    assert {m.external_player_id: m.contribution for m in read.members} == {"ada": 55, "bo": 10}
    assert read.team.score == 65 and "half" in read.team.milestones


# --- milestones and the goal --------------------------------------------------------------------------


def test_a_milestone_pays_every_seated_member_once(world):
    ada, bo, cy, _ = world.players("ada", "bo", "cy", "dee")
    world.put("red", ["ada", "bo", "cy"])
    world.put("blue", ["dee"])
    world.play(ada, 30)
    assert world.grants("event_team_milestone") == []
    world.play(bo, 25)  # 55: half
    assert sorted(world.grants("event_team_milestone")) == [
        ("ada", "half", 5),
        ("bo", "half", 5),
        ("cy", "half", 5),
    ]
    assert {g.source_ref_id for g in world.store.tables_of(GrantTables).grants.values()} == {
        world.read("red").team.id
    }
    (unlocked,) = [d for _, d in world.events("event_team.milestone_unlocked")]
    assert (
        unlocked["milestoneKey"],
        unlocked["teamScore"],
        unlocked["seatCount"],
        unlocked["paidSeatCount"],
    ) == (
        "half",
        55,
        3,
        3,
    )
    assert unlocked["payState"] == "inline_done"
    world.play(cy, 10)  # 65: no milestone crossed again
    assert len(world.grants("event_team_milestone")) == 3
    assert len(world.events("event_team.milestone_unlocked")) == 1


def test_a_milestone_unlocked_once_is_not_paid_again_when_the_score_falls_and_rises(world):
    ada, bo, _ = world.players("ada", "bo", "cy")
    world.put("red", ["ada", "bo"], event_key="remove")
    world.play(ada, 20, "remove")
    world.play(bo, 40, "remove")  # 60: half, paid to ada and bo
    assert world.put("red", ["ada", "cy"], event_key="remove").team.score == 20  # bo kicked, removed
    assert world.put("red", ["ada", "cy", "bo"], event_key="remove").team.score == 60  # back: 60 again
    world.play(ada, 45, "remove")  # 85: most, paid to the three seated now
    assert sorted(world.grants("event_team_milestone")) == [
        ("ada", "half", 5),
        ("ada", "most", 7),
        ("bo", "half", 5),
        ("bo", "most", 7),
        ("cy", "most", 7),
    ]
    keys = [d["milestoneKey"] for _, d in world.events("event_team.milestone_unlocked")]
    assert keys == ["half", "most"]


def test_the_goal_completes_once(world):
    ada, bo = world.players("ada", "bo")
    world.put("red", ["ada", "bo"])
    world.play(ada, 60)
    world.play(bo, 45)  # 105: most, then the goal
    assert world.kinds("event_team.milestone_unlocked", "event_team.goal_completed")[-2:] == [
        "event_team.milestone_unlocked",
        "event_team.goal_completed",
    ]
    world.play(bo, 70)  # 130: on continue, the score moves on; the goal is not completed again
    read = world.read("red")
    assert read.team.score == 130 and read.team.completed_at == T0
    (goal,) = [d for _, d in world.events("event_team.goal_completed")]
    assert (goal["score"], goal["goalTarget"], goal["scoreFrozen"]) == (105, 100, False)


def test_stop_contributions_freezes_the_score_at_the_goal_while_contributions_keep_counting(world):
    ada, bo = world.players("ada", "bo")
    world.put("red", ["ada", "bo"], event_key="stop")
    world.play(ada, 60, "stop")
    world.play(bo, 70, "stop")  # 130 capped at the goal
    read = world.read("red", "stop")
    assert read.team.score == 100 and read.team.completed
    (goal,) = [d for _, d in world.events("event_team.goal_completed")]
    assert (goal["score"], goal["scoreFrozen"]) == (100, True)
    world.play(ada, 90, "stop")
    read = world.read("red", "stop")
    assert {m.external_player_id: m.contribution for m in read.members} == {"ada": 90, "bo": 70}
    assert read.team.score == 100 and "beyond" not in read.team.milestones
    assert {key for _, key, _ in world.grants("event_team_milestone")} == {"half", "most"}


# --- the window's close -----------------------------------------------------------------------------


def test_the_close_ranks_teams_by_score_ties_by_completion_and_pays_seated_members(world):
    ada, _, cy, _, eve = world.players("ada", "bo", "cy", "dee", "eve")
    world.put("red", ["ada", "bo"], event_key="stop")  # red formed first...
    world.clock.advance(1)
    world.put("blue", ["cy", "dee"], event_key="stop")
    world.put("green", ["eve"], event_key="stop")
    world.play(cy, 100, "stop")  # ...blue completes first
    world.clock.advance(60)
    world.play(ada, 120, "stop")  # red completes later, both at 100
    world.play(eve, 10, "stop")
    world.put("blue", ["cy"], event_key="stop")  # dee kicked: not paid at the close
    world.close("stop")
    teams = {t.key: t for t in world.store.tables_of(TeamTables).teams.values()}
    assert {k: (t.final_rank, t.score) for k, t in teams.items()} == {
        "blue": (1, 100),
        "red": (2, 100),
        "green": (3, 10),
    }
    assert sorted(world.grants("event_team_rank")) == [("ada", 2, 20), ("bo", 2, 20), ("cy", 1, 50)]
    rank_refs = {
        g.source_ref_id
        for g in world.store.tables_of(GrantTables).grants.values()
        if g.source_kind == "event_team_rank"
    }
    assert rank_refs == {teams["blue"].id, teams["red"].id}
    finalized = {
        d["teamKey"]: (d["rank"], d["boardSize"], d["segmentValues"])
        for _, d in world.events("event_team.finalized")
    }
    assert finalized == {"blue": (1, 3, {}), "red": (2, 3, {}), "green": (3, 3, {})}
    boards = [d for _, d in world.events("leaderboard.finalized") if d.get("participantScope") == "team"]
    assert len(boards) == 1 and boards[0]["entryCount"] == 3


def test_without_a_team_board_the_close_ranks_nothing_and_pays_no_rank(world):
    ada, _ = world.players("ada", "bo")
    world.put("red", ["ada"], event_key="noboard")
    world.put("blue", ["bo"], event_key="noboard")
    world.play(ada, 40, "noboard")
    world.close("noboard")
    assert {t.final_rank for t in world.store.tables_of(TeamTables).teams.values()} == {None}
    assert all(t.finalized_at is not None for t in world.store.tables_of(TeamTables).teams.values())
    assert world.grants("event_team_rank") == []
    finalized = [
        (d["rank"], d["boardSize"], d["segmentValues"]) for _, d in world.events("event_team.finalized")
    ]
    assert finalized == [(None, None, None)] * 2
    assert [d for _, d in world.events("leaderboard.finalized") if d.get("participantScope") == "team"] == []


def test_a_closed_windows_roster_is_final(world):
    world.players("ada")
    world.put("red", ["ada"])
    world.close()
    window = wid("race", T0)
    error = refusal(world, tc.put_roster, LIVE, "race", "red", [], window=window)
    assert error.code is EVENT_NOT_OPEN


# --- partners ---------------------------------------------------------------------------------------


def pair_world(world: World) -> tuple[Player, Player, Player]:
    ada, bo, cy = world.players("ada", "bo", "cy")
    world.befriend(ada, bo)
    world.befriend(ada, cy)
    return ada, bo, cy


def test_invite_refusals_come_in_their_order(world):
    ada, bo, cy = pair_world(world)
    world.players("dee")
    assert refusal(world, tc.invite, LIVE, ada, "pair", "ada").code is INVALID_REQUEST
    assert refusal(world, tc.invite, LIVE, ada, "pair", "dee").code is NOT_FRIENDS
    sent = world.run(tc.invite, LIVE, ada, "pair", "bo")
    assert refusal(world, tc.invite, LIVE, ada, "pair", "bo").code is INVITE_PENDING
    assert refusal(world, tc.invite, LIVE, bo, "pair", "ada").code is INVITE_PENDING  # either way
    world.run(tc.accept, LIVE, bo, "pair", sent.id)
    error = refusal(world, tc.invite, LIVE, cy, "pair", "ada")
    assert (error.code, error.status) == (ALREADY_ON_TEAM, 409)
    # Oneself comes before not-friends; not-friends before already-on-a-team.
    assert refusal(world, tc.invite, LIVE, bo, "pair", "bo").code is INVALID_REQUEST
    assert refusal(world, tc.invite, LIVE, bo, "pair", "dee").code is NOT_FRIENDS
    assert world.kinds("partner.") == ["partner.invite_sent", "partner.invite_accepted"]


def test_accepting_an_invite_forms_a_team_of_the_two(world):
    ada, bo, _ = pair_world(world)
    sent = world.run(tc.invite, LIVE, ada, "pair", "bo")
    assert sent.expires_at == T0 + timedelta(hours=24)
    read = world.run(tc.accept, LIVE, bo, "pair", sent.id)
    assert read.team.key == sent.id and read.team.formation is Formation.PARTNER
    assert seated(read) == ["ada", "bo"] and read.team.member_count == 2
    assert world.kinds("partner.", "event_team.") == [
        "partner.invite_sent",
        "partner.invite_accepted",
        "event_team.formed",
        "event_team.member_joined",
        "event_team.member_joined",
    ]
    (accepted,) = [d for _, d in world.events("partner.invite_accepted")]
    assert (accepted["eventTeamId"], accepted["goalTarget"]) == (read.team.id, 100)
    assert world.run(tc.my_team, LIVE, ada, "pair").team == read.team
    world.play(ada, 30, "pair")
    world.play(bo, 25, "pair")
    assert world.read(sent.id, "pair").team.score == 55


def test_only_the_invitee_accepts_once_within_24_hours(world):
    ada, bo, cy = pair_world(world)
    sent = world.run(tc.invite, LIVE, ada, "pair", "bo")
    for who in (ada, cy):
        assert refusal(world, tc.accept, LIVE, who, "pair", sent.id).code is INVITE_NOT_FOUND
    assert refusal(world, tc.accept, LIVE, bo, "pair", "inv_none").code is INVITE_NOT_FOUND
    world.run(tc.accept, LIVE, bo, "pair", sent.id)
    error = refusal(world, tc.accept, LIVE, bo, "pair", sent.id)
    assert (error.code, error.status) == (ALREADY_ON_TEAM, 409)

    (dee,) = world.players("dee")
    world.befriend(cy, dee)
    expiring = world.run(tc.invite, LIVE, cy, "pair", "dee")
    world.clock.set(T0 + timedelta(hours=24))
    error = refusal(world, tc.accept, LIVE, dee, "pair", expiring.id)
    assert (error.code, error.status) == (INVITE_EXPIRED, 410)
    # Expired, it no longer blocks a new invite between the two.
    assert world.run(tc.invite, LIVE, dee, "pair", "cy").to_external_id == "cy"
