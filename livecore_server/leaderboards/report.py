"""The shared leaderboards' part of a season's report (:class:`~livecore_server.simulate.section.ReportPart`):
per board and period, its divisions by tier, promotions and relegations, and the rank rewards paid."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from livecore.games import GameSettings
from livecore.leaderboards.memory import LeaderboardTables
from livecore.leaderboards.rules import PeriodStatus, moves
from livecore.leaderboards.settings import LEADERBOARD_SETTINGS
from livecore_server.grants.report import grants_of
from livecore_server.simulate.section import (
    Column,
    Gathering,
    Label,
    ReportPart,
    Row,
    Table,
    Warning,
    iso,
    keys,
    row,
    table,
    warning,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def gather(at: Gathering) -> dict[str, Any]:
    """Per shared board and period: its divisions' sizes by tier, promotions and relegations (by the
    board's rule, from each division's size), the rank rewards paid."""
    tables = at.sim.store.tables_of(LeaderboardTables)
    paid: dict[str, int] = {}
    for grant in grants_of(at).values():
        if grant.source_kind == "leaderboard_rank":
            paid[grant.source_ref_id or ""] = paid.get(grant.source_ref_id or "", 0) + 1
    divisions_of: dict[str, list[Any]] = {}
    for division in tables.divisions.values():
        divisions_of.setdefault(division.period_id, []).append(division)
    entries_of: dict[str, int] = {}
    for period_id, _ in tables.shared_entries:
        entries_of[period_id] = entries_of.get(period_id, 0) + 1
    out: dict[str, Any] = {}
    for key, board in at.settings.of(LEADERBOARD_SETTINGS).items():
        periods = sorted(
            (
                p
                for p in tables.periods.values()
                if p.game_id == at.game_id
                and p.env is at.env
                and p.board_key == key
                and (p.starts_at is None or p.starts_at < at.end)
            ),
            key=lambda p: p.starts_at or at.start,
        )
        rows = []
        for period in periods:
            divisions = sorted(divisions_of.get(period.id, []), key=lambda d: (d.tier, d.number))
            promoted = relegated = 0
            shown = []
            for division in divisions:
                declared = period.settings.divisions
                assert declared is not None
                up, down = moves(declared, division.tier, division.members)
                if period.status is PeriodStatus.FINALIZED:
                    promoted += up
                    relegated += down
                shown.append(
                    {
                        "tier": declared.tiers[division.tier],
                        "number": division.number + 1,
                        "players": division.members,
                    }
                )
            tiers: dict[str, dict[str, int]] = {}
            for d in shown:
                tier = tiers.setdefault(d["tier"], {"divisions": 0, "players": 0, "smallest": d["players"]})
                tier["divisions"] += 1
                tier["players"] += d["players"]
                tier["smallest"] = min(tier["smallest"], d["players"])
            rows.append(
                {
                    "period_id": period.id,
                    "starts_at": iso(period.starts_at),
                    "ends_at": iso(period.ends_at),
                    "status": period.status.value,
                    "entries": entries_of.get(period.id, 0),
                    "tiers": tiers,
                    "divisions": shown,
                    "promoted": promoted,
                    "relegated": relegated,
                    "rank_rewards_paid": paid.get(period.id, 0),
                }
            )
        out[key] = {
            "name": board.name,
            "period": board.period.value,
            "tiers": list(board.divisions.tiers) if board.divisions else [],
            "division_size": board.divisions.size if board.divisions else None,
            "periods": rows,
        }
    return out


def warnings(section: dict[str, Any], settings: GameSettings, label: Label) -> list[Warning]:
    """Empty divisions, divisions smaller than what they promote and relegate, tiers nobody reaches."""
    out: list[Warning] = []
    for key, board in section.items():
        empty = [
            (period["starts_at"], d)
            for period in board["periods"]
            for d in period["divisions"]
            if d["players"] == 0
        ]
        if empty:
            when, d = empty[0]
            more = f" (and {len(empty) - 1} more)" if len(empty) > 1 else ""
            out.append(
                warning(
                    "leaderboards",
                    key,
                    f"{board['name']}: division {d['tier']} #{d['number']} of the period from {when[:10]} is "
                    f"empty{more}.",
                )
            )
        declared = settings.of(LEADERBOARD_SETTINGS)[key].divisions
        if declared is not None:
            small = [
                (period["starts_at"], d)
                for period in board["periods"]
                for d in period["divisions"]
                if 0 < d["players"] < declared.promote + declared.relegate
            ]
            if small:
                when, d = small[0]
                more = f" (and {len(small) - 1} more)" if len(small) > 1 else ""
                out.append(
                    warning(
                        "leaderboards",
                        key,
                        f"{board['name']}: division {d['tier']} #{d['number']} of the period from "
                        f"{when[:10]} has {d['players']} players, fewer than it promotes and relegates "
                        f"({declared.promote} + {declared.relegate}){more}.",
                    )
                )
        tiers = board["tiers"]
        for tier in tiers[1:]:
            if board["periods"] and not any(
                d["tier"] == tier and d["players"] for p in board["periods"] for d in p["divisions"]
            ):
                out.append(warning("leaderboards", key, f"{board['name']}: nobody ever plays in {tier}."))
    return out


def compare(base: dict[str, Any], other: dict[str, Any]) -> list[Row]:
    rows: list[Row] = []
    for key in keys(base, other):
        a, b = base.get(key), other.get(key)

        def total(board: dict[str, Any] | None, field: str) -> int | None:
            return None if board is None else sum(p[field] for p in board["periods"])

        def divisions(board: dict[str, Any] | None) -> int | None:
            return None if board is None else sum(len(p["divisions"]) for p in board["periods"])

        rows.append(row("leaderboards", key, "entries", total(a, "entries"), total(b, "entries")))
        rows.append(row("leaderboards", key, "divisions", divisions(a), divisions(b)))
        rows.append(row("leaderboards", key, "promoted", total(a, "promoted"), total(b, "promoted")))
        rows.append(row("leaderboards", key, "relegated", total(a, "relegated"), total(b, "relegated")))
    return rows


def charts(section: dict[str, Any], label: Label) -> dict[str, str | None]:
    return {k: _chart(k, b) for k, b in section.items() if b["periods"]}


def tables(section: dict[str, Any]) -> dict[str, Table]:
    """Of each board someone scored on: its periods (``leaderboards.<key>``) and, per period, its tiers'
    divisions, players and smallest division (``leaderboards.<key>.tiers``)."""
    out: dict[str, Table] = {}
    for key, board in section.items():
        periods = board["periods"]
        if not periods:
            continue
        out[f"leaderboards.{key}"] = table(
            [
                Column("Period from", "text"),
                Column("Status", "text"),
                "Entries",
                "Divisions",
                "Promoted",
                "Relegated",
                "Rank grants",
            ],
            (
                [
                    _starts(p),
                    p["status"],
                    p["entries"],
                    len(p["divisions"]),
                    p["promoted"],
                    p["relegated"],
                    p["rank_rewards_paid"],
                ]
                for p in periods
            ),
        )
        if board["tiers"]:
            out[f"leaderboards.{key}.tiers"] = table(
                [Column("Period from", "text"), Column("Tier", "text"), "Divisions", "Players", "Smallest"],
                (
                    [_starts(p), tier, t["divisions"], t["players"], t["smallest"]]
                    for p in periods
                    for tier, t in p["tiers"].items()
                ),
            )
    return out


def _starts(period: dict[str, Any]) -> str:
    """The day a period starts, or ``all time``."""
    return period["starts_at"][:10] if period["starts_at"] else "all time"


def _chart(key: str, data: dict[str, Any]) -> str | None:
    """Players per tier in each period (stacked), with the divisions' count above each bar. None for one
    period, one bar: its table says it."""
    from livecore_server.simulate import charts as c

    periods = data["periods"]
    if len(periods) < 2:
        return None
    # The tiers someone played in: one nobody reached is a warning, not a colour in the legend.
    tiers = [t for t in data["tiers"] if any(t in p["tiers"] for p in periods)]

    def draw(fig: Figure) -> None:
        ax = fig.subplots()
        x = c.categories(ax, [_starts(p) for p in periods])
        base = [0] * len(periods)
        for i, tier in enumerate(tiers or [""]):
            if tier:
                values = [p["tiers"].get(tier, {}).get("players", 0) for p in periods]
            else:
                values = [p["entries"] for p in periods]
            colour = c.nth(i)
            ax.bar(x, values, width=0.6, bottom=base, color=colour, label=tier or "entries")
            base = [b + v for b, v in zip(base, values, strict=True)]
        if len(periods) <= c.MOST_LABELS:  # more would crowd each other
            for i, p in enumerate(periods):
                if p["divisions"]:
                    ax.annotate(
                        f"{len(p['divisions'])} div.", (i, base[i]), ha="center", va="bottom", fontsize=7
                    )
        ax.set_ylim(0, max(base) * 1.15 or 1)  # room above the bars for their counts
        c.title(ax, f"{data['name']}: players per tier and period")
        ax.set_xlabel("period from")
        c.legend_below(fig, ax, columns=max(1, len(tiers)))

    return c.svg(f"leaderboard-{key}", draw, size=(8.0, 3.0), legend_rows=1)


REPORT = ReportPart(
    key="leaderboards",
    place=30,
    page="livecore_server.leaderboards:templates/report.html",
    gather=gather,
    warnings=warnings,
    compare=compare,
    charts=charts,
    tables=tables,
    labels={"leaderboard_rank": "league rank rewards"},
)
