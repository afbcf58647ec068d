"""The teams' part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`): per
team event, its teams, their sizes, the goals reached, the milestones unlocked and what they paid; per
segment, the teams a player joined."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from livecore.games import GameSettings
from livecore.live_events.settings import EVENT_SETTINGS
from livecore.teams.memory import TeamTables
from livecore.teams.settings import TEAM_SETTINGS
from livecore_server.grants.report import grants_of
from livecore_server.simulate.section import (
    Figures,
    Gathering,
    Label,
    ReportPart,
    Row,
    Table,
    Warning,
    get,
    keys,
    percentiles,
    row,
    table,
    warning,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def gather(at: Gathering) -> dict[str, Any]:
    """Per team event: teams, their sizes (seated members), goals reached, milestones unlocked and the
    rewards paid to members (team milestones and the team board's ranks)."""
    tables = at.sim.store.tables_of(TeamTables)
    grants = grants_of(at)
    seated: dict[str, int] = {}
    for member in tables.team_members.values():
        if member.left_at is None:
            seated[member.team_id] = seated.get(member.team_id, 0) + 1
    out: dict[str, Any] = {}
    for key, event in at.settings.of(EVENT_SETTINGS).items():
        settings = event.of(TEAM_SETTINGS)
        if settings is None:
            continue
        teams = [
            t
            for t in tables.teams.values()
            if t.game_id == at.game_id and t.env is at.env and t.event_key == key
        ]
        ids = {t.id: None for t in teams}
        sizes: dict[str, int] = {}
        for team in teams:
            n = str(seated.get(team.id, 0))
            sizes[n] = sizes.get(n, 0) + 1
        rewards: dict[str, dict[str, int]] = {"event_team_milestone": {}, "event_team_rank": {}}
        paid = dict.fromkeys(rewards, 0)
        for grant in grants.values():
            if grant.source_kind in rewards and grant.source_ref_id in ids:
                paid[grant.source_kind] += 1
                into = rewards[grant.source_kind]
                for entry in grant.rewards:
                    into[entry.key] = into.get(entry.key, 0) + entry.amount
        unlocked: dict[str, int] = {m.key: 0 for m in settings.milestones}
        for team in teams:
            for m in team.milestones:
                unlocked[m] = unlocked.get(m, 0) + 1
        out[key] = {
            "name": event.name,
            "formation": settings.formation.value,
            "size": settings.size,
            "teams": len(teams),
            "sizes": dict(sorted(sizes.items(), key=lambda kv: int(kv[0]))),
            "goal_completed": sum(1 for t in teams if t.completed_at is not None),
            "scores": percentiles([t.score for t in teams]),
            "milestones_unlocked": unlocked,
            "milestone_grants": paid["event_team_milestone"],
            "milestone_rewards": dict(sorted(rewards["event_team_milestone"].items())),
            "rank_grants": paid["event_team_rank"],
            "rank_rewards": dict(sorted(rewards["event_team_rank"].items())),
        }
    return out


def warnings(section: dict[str, Any], settings: GameSettings, label: Label) -> list[Warning]:
    """A team milestone no team unlocks."""
    out: list[Warning] = []
    for key, team in section.items():
        if team["teams"]:
            for milestone, count in team["milestones_unlocked"].items():
                if count == 0:
                    out.append(
                        warning(
                            "teams", key, f"No team of {team['name']} unlocks the milestone {milestone!r}."
                        )
                    )
    return out


def compare(base: dict[str, Any], other: dict[str, Any]) -> list[Row]:
    rows: list[Row] = []
    for key in keys(base, other):
        a, b = base.get(key), other.get(key)
        rows.append(row("teams", key, "teams", get(a, "teams"), get(b, "teams")))
        rows.append(row("teams", key, "goals completed", get(a, "goal_completed"), get(b, "goal_completed")))
        rows.append(
            row("teams", key, "milestone grants", get(a, "milestone_grants"), get(b, "milestone_grants"))
        )
    return rows


def by_segment(at: Gathering) -> Figures:
    """Per team event: the teams a player of each segment took a seat on, on average (a seat it left
    counts: it played on that team)."""
    tables = at.sim.store.tables_of(TeamTables)
    event_of = {
        t.id: t.event_key for t in tables.teams.values() if t.game_id == at.game_id and t.env is at.env
    }
    seats: dict[str, dict[str, float]] = {}
    for member in tables.team_members.values():
        event = event_of.get(member.team_id)
        segment = at.segment(member.player_id)
        if event is not None and segment is not None:
            by = seats.setdefault(event, {})
            by[segment] = by.get(segment, 0) + 1
    return {
        f"{key}: teams joined per player": at.per_player(seats.get(key, {}))
        for key, event in at.settings.of(EVENT_SETTINGS).items()
        if event.of(TEAM_SETTINGS) is not None
    }


def charts(section: dict[str, Any], label: Label) -> dict[str, str | None]:
    return {k: _chart(k, team) for k, team in section.items()}


def tables(section: dict[str, Any]) -> dict[str, Table]:
    """Of each team event: its teams, goals reached, the median score, each milestone's unlocks and what
    the milestones and the ranks paid, by resource (``teams.<key>``)."""
    out: dict[str, Table] = {}
    for key, team in section.items():
        unlocked = team["milestones_unlocked"]
        milestone_rewards, rank_rewards = team["milestone_rewards"], team["rank_rewards"]
        out[f"teams.{key}"] = table(
            [
                "Teams",
                "Goals reached",
                "Score p50",
                *(f"Unlocked {m}" for m in unlocked),
                *(f"{r} from milestones" for r in milestone_rewards),
                *(f"{r} from ranks" for r in rank_rewards),
            ],
            [
                [
                    team["teams"],
                    team["goal_completed"],
                    team["scores"]["p50"],
                    *unlocked.values(),
                    *milestone_rewards.values(),
                    *rank_rewards.values(),
                ]
            ],
        )
    return out


def _chart(key: str, data: dict[str, Any]) -> str | None:
    """Teams by size (seated members); None when they are all of one size (the page says it)."""
    from livecore_server.simulate import charts as c

    sizes = data["sizes"]
    if not c.worth_bars(list(sizes.values())):
        return None

    def draw(fig: Figure) -> None:
        ax = fig.subplots()
        ax.bar([str(s) for s in sizes], list(sizes.values()), color=c.PALETTE[2])
        c.title(ax, f"{data['name']}: teams by members")
        ax.set_xlabel("members")

    return c.svg(f"team-{key}", draw, size=(4.0, 2.4))


REPORT = ReportPart(
    key="teams",
    page="livecore_server.teams:templates/report.html",
    place=50,
    gather=gather,
    warnings=warnings,
    compare=compare,
    charts=charts,
    tables=tables,
    by_segment=by_segment,
    labels={"event_team_rank": "team rank rewards", "event_team_milestone": "team milestones"},
)
