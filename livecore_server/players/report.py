"""The players' part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`): how
much they played. The sessions played, the players who played each day, those who played in the season's
last week (``returning``: a reward brings a player back, a setback keeps it away, by the behaviour model of
docs/simulation.md#the-behaviour-model) and those who left the game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from livecore_server.simulate.section import Figures, Gathering, Label, ReportPart, Row, Table, row, table

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: A returning player played in this many of the season's last days (all of a shorter season).
LAST_DAYS = 7

_METRICS = (("sessions", "sessions"), ("returning", "returning players"), ("left", "players who left"))


def _since(at: Gathering) -> int:
    """The first of the season's last days: a member who last played on it or later is returning."""
    return max(0, at.days - LAST_DAYS)


def gather(at: Gathering) -> dict[str, Any]:
    """The season's sessions, the members who played each day, those returning in its last days and those
    who left."""
    members = at.season.members
    since = _since(at)
    return {
        "sessions": sum(m.sessions for m in members),
        "returning": sum(m.last_day >= since for m in members),
        "left": sum(m.left for m in members),
        "players_by_day": list(at.season.players_by_day),
    }


def compare(base: dict[str, Any], other: dict[str, Any]) -> list[Row]:
    return [row("players", "", label, base[key], other[key]) for key, label in _METRICS]


def by_segment(at: Gathering) -> Figures:
    """The sessions a player of each segment played, and the share of its players returning."""
    sessions: dict[str, float] = {}
    returning: dict[str, float] = {}
    since = _since(at)
    for member in at.season.members:
        name = member.segment.name
        sessions[name] = sessions.get(name, 0) + member.sessions
        returning[name] = returning.get(name, 0) + (member.last_day >= since)
    return {
        "sessions per player": at.per_player(sessions),
        f"share who played in the last {LAST_DAYS} days": at.per_player(returning),
    }


def tables(section: dict[str, Any]) -> dict[str, Table]:
    """The section's counts (``players``)."""
    return {
        "players": table(
            ["Sessions", f"Returning (played in the last {LAST_DAYS} days)", "Left the game"],
            [[section["sessions"], section["returning"], section["left"]]],
        )
    }


def charts(section: dict[str, Any], label: Label) -> str | None:
    """The players who played each day, on a season of more than a day."""
    counts = section["players_by_day"]
    if len(counts) < 2:
        return None
    from livecore_server.simulate import charts as c

    def draw(fig: Figure) -> None:
        ax = fig.add_subplot()
        ax.plot(range(1, len(counts) + 1), counts, marker=c.marker(len(counts)))
        c.title(ax, "Players who played each day")
        ax.set_xlabel("day")
        c.whole(ax)

    return c.svg("players", draw)


REPORT = ReportPart(
    key="players",
    page="livecore_server.players:templates/report.html",
    place=5,
    gather=gather,
    compare=compare,
    charts=charts,
    tables=tables,
    by_segment=by_segment,
)
