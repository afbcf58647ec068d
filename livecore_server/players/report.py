"""The players' part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`): who
arrived, how much they played and who kept coming back, by the behaviour model of
docs/simulation.md#the-behaviour-model.

- The sessions played, the players who installed and who played each day, those who played in the
  season's last week (``returning``) and those who left the game, by the reason of their last setback.
- Retention: ``D<n>``, of the players who installed at least ``n`` days before the season's last day, the
  share who played on their ``n``-th day since installing (D1, D7, D30, where the season is long enough to
  tell), overall, per segment and per install cohort (a day, or a week in a season of more than two).
- The setbacks the economy dealt, by reason: how many, and how many players met one."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from livecore_server.simulate.section import (
    Column,
    Figures,
    Gathering,
    Label,
    ReportPart,
    Row,
    Table,
    number,
    row,
    table,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from livecore.simulation.season import Season

#: A returning player played in this many of the season's last days (all of a shorter season).
LAST_DAYS = 7
#: The days since install retention is told on.
RETENTION_DAYS = (1, 7, 30)

_METRICS = (("sessions", "sessions"), ("returning", "returning players"), ("left", "players who left"))
_SETBACK_METRICS = (("setbacks", "setbacks"), ("players", "players set back"), ("left", "left for it"))


class _Curve:
    """Of a group of members: how many could have played on their ``n``-th day since installing (the
    season lasted that long) and how many did, for each ``n``."""

    def __init__(self, days: int) -> None:
        self.days = days
        self.installs = 0
        self.eligible = [0] * days
        self.played = [0] * days

    def add(self, installed: int, days_played: Iterable[int]) -> None:
        self.installs += 1
        for since in range(self.days - installed):
            self.eligible[since] += 1
        for day in days_played:
            self.played[day - installed] += 1

    def share(self, since: int) -> float | None:
        """D<since>: None where no member installed that long before the season's end."""
        if since >= self.days or not self.eligible[since]:
            return None
        return number(self.played[since] / self.eligible[since])

    def retention(self) -> dict[str, float | None]:
        return {f"d{n}": self.share(n) for n in RETENTION_DAYS}

    def shares(self) -> list[float | None]:
        return [self.share(n) for n in range(self.days)]


def _curves(at: Gathering, key: Any) -> dict[str, _Curve]:
    """A :class:`_Curve` of each group ``key(member)`` names, in the order the groups first appear."""
    found: dict[str, _Curve] = {}
    for member in at.season.members:
        name = key(member)
        if name not in found:
            found[name] = _Curve(at.days)
        found[name].add(member.installed, member.days_played)
    return found


def _since(at: Gathering) -> int:
    """The first of the season's last days: a member who last played on it or later is returning."""
    return max(0, at.days - LAST_DAYS)


def _setbacks(season: Season) -> dict[str, dict[str, int]]:
    """Each setback's reason: how many the players met, how many players met one, and how many left the
    game for it (their last setback's reason)."""
    met: dict[str, int] = {}
    for member in season.members:
        for reason in member.met or ():
            met[reason] = met.get(reason, 0) + 1
    left = season.left_for
    return {
        reason: {"setbacks": count, "players": met.get(reason, 0), "left": left.get(reason, 0)}
        for reason, count in sorted(season.setbacks.items())
    }


def gather(at: Gathering) -> dict[str, Any]:
    """The section: the counts, installs and players by day, retention overall and by install cohort, and
    the setbacks by reason."""
    members = at.season.members
    since = _since(at)
    installs = [0] * at.days
    for member in members:
        installs[member.installed] += 1
    overall = _Curve(at.days)
    for member in members:
        overall.add(member.installed, member.days_played)
    cohorts = {**dict.fromkeys(at.cohorts()), **_curves(at, lambda m: at.cohort(m.installed))}
    return {
        "sessions": sum(m.sessions for m in members),
        "returning": sum(m.last_day >= since for m in members),
        "left": sum(m.left for m in members),
        "installs_by_day": installs,
        "players_by_day": list(at.season.players_by_day),
        "retention": overall.retention(),
        "retention_by_day": overall.shares(),
        "cohorts": [
            {"cohort": name, "installs": curve.installs, **curve.retention()}
            for name, curve in cohorts.items()
            if curve is not None
        ],
        "setbacks": _setbacks(at.season),
    }


def _reasons(base: dict[str, Any] | None, other: dict[str, Any] | None) -> list[str]:
    return sorted({*(base or {}).get("setbacks", {}), *(other or {}).get("setbacks", {})})


def compare(base: dict[str, Any], other: dict[str, Any]) -> list[Row]:
    rows = [row("players", "", label, base[key], other[key]) for key, label in _METRICS]
    for n in RETENTION_DAYS:
        told = base["retention"][f"d{n}"], other["retention"][f"d{n}"]
        if told != (None, None):  # a season too short to tell D<n> has no such row
            rows.append(row("players", "", f"D{n} retention", *told))
    for reason in _reasons(base, other):
        for key, label in (
            ("setbacks", "setbacks"),
            ("players", "players set back"),
            ("left", "left for it"),
        ):
            rows.append(
                row(
                    "players",
                    reason,
                    label,
                    base["setbacks"].get(reason, {}).get(key, 0),
                    other["setbacks"].get(reason, {}).get(key, 0),
                    absent=0,
                )
            )
    return rows


def by_segment(at: Gathering) -> Figures:
    """The sessions a player of each segment played, the share of its players returning, and its
    retention."""
    sessions: dict[str, float] = {}
    returning: dict[str, float] = {}
    since = _since(at)
    for member in at.season.members:
        name = member.segment.name
        sessions[name] = sessions.get(name, 0) + member.sessions
        returning[name] = returning.get(name, 0) + (member.last_day >= since)
    curves = _curves(at, lambda m: m.segment.name)
    figures: dict[str, dict[str, float | None]] = {
        "sessions per player": at.per_player(sessions),
        f"share who played in the last {LAST_DAYS} days": at.per_player(returning),
    }
    for n in RETENTION_DAYS:
        if n < at.days:
            figures[f"D{n} retention"] = {
                name: curves[name].share(n) if name in curves else None for name in at.segments
            }
    return figures


def tables(section: dict[str, Any]) -> dict[str, Table]:
    """The section's counts (``players``), retention by install cohort (``players.cohorts``) and setbacks
    by reason (``players.setbacks``)."""
    retention = [Column(f"D{n}", "share") for n in RETENTION_DAYS]
    return {
        "players": table(
            [
                "Installs",
                "Sessions",
                f"Returning (played in the last {LAST_DAYS} days)",
                "Left the game",
                *retention,
            ],
            [
                [
                    sum(section["installs_by_day"]),
                    section["sessions"],
                    section["returning"],
                    section["left"],
                    *(section["retention"][f"d{n}"] for n in RETENTION_DAYS),
                ]
            ],
        ),
        "players.cohorts": table(
            [Column("Install cohort", "text"), "Installs", *retention],
            [[c["cohort"], c["installs"], *(c[f"d{n}"] for n in RETENTION_DAYS)] for c in section["cohorts"]],
        ),
        "players.setbacks": table(
            [Column("Setback", "text"), "Setbacks", "Players set back", "Left the game for it"],
            [[reason, s["setbacks"], s["players"], s["left"]] for reason, s in section["setbacks"].items()],
        ),
    }


def _curve(shares: Sequence[float | None]) -> tuple[list[int], list[float]]:
    told = [(n, s) for n, s in enumerate(shares) if s is not None]
    return [n for n, _ in told], [s for _, s in told]


def charts(section: dict[str, Any], label: Label) -> dict[str, str | None] | None:
    """The players who installed and who played each day, and the retention curve (the share who played
    on each day since installing), on a season of more than a day."""
    counts = section["players_by_day"]
    if len(counts) < 2:
        return None
    from livecore_server.simulate import charts as c

    def by_day(fig: Figure) -> None:
        ax = fig.add_subplot()
        days = range(1, len(counts) + 1)
        ax.plot(days, counts, marker=c.marker(len(counts)), label="played")
        ax.plot(days, section["installs_by_day"], marker=c.marker(len(counts)), label="installed")
        c.title(ax, "Players who installed and who played each day")
        ax.set_xlabel("day")
        ax.legend()
        c.whole(ax)

    def retention(fig: Figure) -> None:
        ax = fig.add_subplot()
        days, shares = _curve(section["retention_by_day"])
        ax.plot(days, [s * 100 for s in shares], marker=c.marker(len(days)))
        c.title(ax, "Retention: the share who played on each day since installing")
        ax.set_xlabel("days since install")
        ax.set_ylabel("%")
        ax.set_ylim(bottom=0)

    return {"players": c.svg("players", by_day), "retention": c.svg("players-retention", retention)}


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
