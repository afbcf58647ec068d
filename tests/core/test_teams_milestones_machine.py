"""Contributions racing a team's milestones and goal, at the command level on the in-memory store: random
progress writes by members of two teams, kicks and re-adds (on ``remove_contribution``, so a team's score
falls and rises again). Each team milestone unlocks once, when the team's score first reaches it, and
pays exactly the members seated then, once each."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from livecore.errors import LivecoreError
from livecore.grants.memory import GrantTables
from livecore.teams.errors import LOCKED_ELSEWHERE
from livecore.teams.memory import TeamTables
from livecore.teams.settings import TEAM_SETTINGS
from tests.core.test_teams_commands import EVENTS, World

EVENT = "remove"
_TEAMS = EVENTS[EVENT].of(TEAM_SETTINGS)
MILESTONES = _TEAMS.milestones if _TEAMS else ()
NAMES = ("p0", "p1", "p2", "p3", "p4", "p5")
TEAMS = ("red", "blue")


class TeamMilestones(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.world = World()
        self.players = dict(zip(NAMES, self.world.players(*NAMES), strict=True))
        self.rosters: dict[str, list[str]] = {"red": ["p0", "p1", "p2"], "blue": ["p3", "p4", "p5"]}
        for key, roster in self.rosters.items():
            self.world.put(key, roster, event_key=EVENT)
        self.best: Counter[str] = Counter()  # each player's best score in the window
        self.peak: dict[str, float] = dict.fromkeys(TEAMS, 0.0)  # each team's highest score so far
        self.seen = 0  # outbox events checked

    def _team(self, key: str):
        return self.world.read(key, EVENT).team

    def _after(self) -> None:
        """The model's score for each team, and the milestones the write just unlocked, checked."""
        for key in TEAMS:
            score = sum(self.best[name] for name in self.rosters[key])
            assert self._team(key).score == score
            self.peak[key] = max(self.peak[key], score)
        unlocked = [
            e for e in self.world.store.outbox[self.seen :] if e.kind == "event_team.milestone_unlocked"
        ]
        self.seen = len(self.world.store.outbox)
        for event in unlocked:
            data = event.data
            team = next(
                t
                for t in self.world.store.tables_of(TeamTables).teams.values()
                if t.id == data["eventTeamId"]
            )
            paid = [
                g.external_player_id
                for g in self.world.store.tables_of(GrantTables).grants.values()
                if g.source_kind == "event_team_milestone"
                and g.source_ref_id == team.id
                and g.metadata["milestoneKey"] == data["milestoneKey"]
            ]
            assert sorted(paid) == sorted(self.rosters[team.key])  # seated when it unlocked, once each
            assert data["seatCount"] == data["paidSeatCount"] == len(paid)

    @rule(name=st.sampled_from(NAMES), score=st.integers(0, 60))
    def play(self, name: str, score: int) -> None:
        self.world.play(self.players[name], score, EVENT)
        self.best[name] = max(self.best[name], score)
        self._after()

    @precondition(lambda self: any(self.rosters.values()))
    @rule(data=st.data())
    def kick(self, data: st.DataObject) -> None:
        key = data.draw(st.sampled_from([k for k in TEAMS if self.rosters[k]]))
        name = data.draw(st.sampled_from(self.rosters[key]))
        self.rosters[key].remove(name)
        self.world.put(key, self.rosters[key], event_key=EVENT)
        self._after()

    @rule(key=st.sampled_from(TEAMS), name=st.sampled_from(NAMES))
    def add(self, key: str, name: str) -> None:
        roster = self.rosters[key]
        if name in roster or len(roster) == 3:
            return
        other = next(k for k in TEAMS if k != key)
        if name in self.rosters[other]:
            with pytest.raises(LivecoreError) as refused:
                self.world.put(key, [*roster, name], event_key=EVENT)
            assert refused.value.code is LOCKED_ELSEWHERE
            return
        self.world.put(key, [*roster, name], event_key=EVENT)
        roster.append(name)
        self._after()

    @invariant()
    def each_milestone_unlocks_once_when_the_score_first_reached_it(self) -> None:
        unlocked = Counter(
            (e.data["eventTeamId"], e.data["milestoneKey"])
            for e in self.world.store.outbox
            if e.kind == "event_team.milestone_unlocked"
        )
        assert all(n == 1 for n in unlocked.values()), unlocked
        for key in TEAMS:
            team = self._team(key)
            reached = {m.key for m in MILESTONES if self.peak[key] >= m.threshold}
            assert set(team.milestones) == reached
            assert {k for (tid, k) in unlocked if tid == team.id} == reached


TeamMilestones.TestCase.settings = settings(
    max_examples=60, stateful_step_count=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
test_team_milestones = TeamMilestones.TestCase
